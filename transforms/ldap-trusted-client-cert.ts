import { advice, inDirectoryContext } from './lib/advice.js';

// 2.4 registers LDAPTrustedClientCert for directory context only (util_ldap.c): at server
// or <VirtualHost> level it is "not allowed here" and the server does not start (checked).
export const ldapTrustedClientCert = advice({
  id: 'ldap-trusted-client-cert',
  title: 'LDAPTrustedClientCert is a per-directory setting in 2.4',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_ldap.html#ldaptrustedclientcert',
  severity: 'manual',
  names: ['ldaptrustedclientcert'],
  match: (n, ctx) => (n.kind === 'directive' && n.is('LDAPTrustedClientCert') && !inDirectoryContext(n, ctx)
    ? 'LDAPTrustedClientCert is only allowed in <Directory>/<Location> (and .htaccess) in 2.4 and stops start-up here ("not allowed here"): move it into each section that authenticates against LDAP (AuthLDAPURL)'
    : null),
});
