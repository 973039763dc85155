import { directives } from '../src/syntax/index.js';
import { settingsFor, vhostOf } from './lib/scope.js';
import type { Transform } from './types.js';

// 2.2 checked nothing about a back end's certificate unless told to
// (proxy_ssl_check_peer_* == SSL_ENABLED_TRUE); 2.4 checks unless told not to (!= FALSE):
// name (SSLProxyCheckPeerName, 2.4.5+, or CN) and expiry. A failed check is a 502.
export const sslProxyPeerChecks: Transform = {
  id: 'ssl-proxy-peer-checks',
  title: 'SSLProxyEngine back ends: 2.4 checks their certificate name and expiry by default',
  kind: 'advice',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_ssl.html#sslproxycheckpeername',
  run(ctx) {
    for (const d of directives(ctx.doc)) {
      if (!d.is('SSLProxyEngine') || (d.values[0] ?? '').toLowerCase() !== 'on') continue;
      const vh = vhostOf(ctx, d);
      const set = (name: string): boolean => settingsFor(ctx, vh, [name]).length > 0;
      const unset: string[] = [];
      if (!set('SSLProxyCheckPeerName') && !set('SSLProxyCheckPeerCN')) unset.push('name (SSLProxyCheckPeerName)');
      if (!set('SSLProxyCheckPeerExpire')) unset.push('expiry (SSLProxyCheckPeerExpire)');
      if (unset.length === 0) continue;
      ctx.report({ node: d, severity: 'warning', message: `2.4 checks the back end's certificate ${unset.join(' and ')} by default, 2.2 did not: a back end with a mismatched or expired certificate now gives 502; fix its certificate, or set the check Off to keep 2.2's behaviour` });
    }
  },
};
