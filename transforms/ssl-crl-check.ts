import { directive, type Directive, directives, type Section } from '../src/syntax/index.js';
import { settingsFor, vhostOf } from './lib/scope.js';
import type { Transform } from './types.js';

// 2.2 checked CRLs as soon as SSLCARevocationPath/File was set, for every certificate of the
// chain, and accepted a certificate whose issuer had no CRL in the store
// (ssl_engine_kernel.c, ssl_callback_SSLVerify_CRL). 2.4 ignores the CRLs unless
// SSLCARevocationCheck is set (default none); `chain` alone rejects a certificate with no
// CRL ("unable to get certificate CRL"), and the `no_crl_for_cert_ok` flag (2.4.21+, added
// "to opt-in previous behaviour (2.2)", CHANGES) accepts it again. Same for the proxy side.
const SIDES = [
  { set: ['SSLCARevocationPath', 'SSLCARevocationFile'], check: 'SSLCARevocationCheck' },
  { set: ['SSLProxyCARevocationPath', 'SSLProxyCARevocationFile'], check: 'SSLProxyCARevocationCheck' },
];
const VALUE = ['chain', 'no_crl_for_cert_ok'];

export const sslCrlCheck: Transform = {
  id: 'ssl-crl-check',
  title: 'Add SSLCARevocationCheck chain no_crl_for_cert_ok where CRLs are configured (2.4 ignores them otherwise)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_ssl.html#sslcarevocationcheck',
  run(ctx) {
    for (const side of SIDES) {
      // The CRL directives of this file, by scope (virtual host or main server).
      const byScope = new Map<Section | null, Directive[]>();
      for (const d of directives(ctx.doc)) {
        if (!side.set.some((n) => d.is(n))) continue;
        const vh = vhostOf(ctx, d);
        if (!byScope.has(vh)) byScope.set(vh, []);
        byScope.get(vh)!.push(d);
      }
      for (const [vh, list] of byScope) {
        if (settingsFor(ctx, vh, [side.check]).length > 0) continue;
        const last = list[list.length - 1];
        if (!ctx.enabled(last)) continue;
        last.after(directive(side.check, ...VALUE));
        ctx.report({ node: last, severity: 'change', message: `${side.check} ${VALUE.join(' ')} added: 2.4 ignores ${last.name} unless it is set, and this is how 2.2 checked (every certificate of the chain, a missing CRL accepted)` });
      }
    }
  },
};
