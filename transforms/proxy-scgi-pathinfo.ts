import { advice } from './lib/advice.js';

const SCGI = /^scgi:\/\//i;

export const proxyScgiPathinfo = advice({
  id: 'proxy-scgi-pathinfo',
  title: 'mod_proxy_scgi no longer sets PATH_INFO by default',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_proxy_scgi.html#env',
  names: ['proxypass', 'proxypassmatch', 'balancermember', 'rewriterule', 'proxy', 'proxymatch'],
  match: (n) => ((n.kind === 'directive' && /^(proxypass|proxypassmatch|balancermember|rewriterule)$/i.test(n.name) && n.values.some((v) => SCGI.test(v)))
    || (n.kind === 'section' && /^proxy(match)?$/i.test(n.name) && SCGI.test(n.values[0] ?? ''))
    ? '2.4\'s mod_proxy_scgi does not send PATH_INFO unless asked (2.2 always did): if the SCGI application needs it, add `SetEnvIf Request_URI . proxy-scgi-pathinfo`'
    : null),
});
