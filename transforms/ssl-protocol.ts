import { type Arg, directives } from '../src/syntax/index.js';
import type { Transform } from './types.js';

// mod_ssl 2.4 (ssl_engine_config.c, ssl_cmd_protocol_parse): `SSLv2` / `+SSLv2` is fatal
// ("SSLProtocol: SSLv2 is no longer supported"), `-SSLv2` is accepted and ignored; with an
// OpenSSL built without SSLv3 (Debian; OpenSSL 1.1 by default) `SSLv3` / `+SSLv3` is fatal
// too ("SSLv3 not supported by this version of OpenSSL"). Names are case-insensitive.
export const sslProtocol: Transform = {
  id: 'ssl-protocol',
  title: 'Drop SSLv2 (and SSLv3) from SSLProtocol / SSLProxyProtocol: 2.4 refuses them',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_ssl.html#sslprotocol',
  run(ctx) {
    for (const d of [...directives(ctx.doc)]) {
      if (!(d.is('SSLProtocol') || d.is('SSLProxyProtocol')) || !ctx.enabled(d)) continue;
      const keep: Arg[] = [];
      const dropped: string[] = [];
      for (const a of d.args) {
        const action = a.value[0] === '+' || a.value[0] === '-' ? a.value[0] : '';
        const name = a.value.slice(action.length).toLowerCase();
        if ((name === 'sslv2' || name === 'sslv3') && action !== '-') dropped.push(a.value);
        else keep.push(a);
      }
      if (dropped.length === 0) continue;
      const why = dropped.map((w) => (/sslv2/i.test(w)
        ? `${w} (2.4 has no SSLv2: "SSLv2 is no longer supported")`
        : `${w} (OpenSSL without SSLv3, as on Debian, makes 2.4 refuse it; 2.4's default leaves SSLv3 out)`)).join(', ');
      if (keep.length === 0) {
        const line = d.line;
        d.remove();
        ctx.report({ node: d, line, severity: 'manual', message: `${d.name} removed: it allowed only ${why}; 2.4 now uses its default (all -SSLv3): choose the protocols the clients need` });
      } else {
        d.setArgs(keep);
        ctx.report({ node: d, severity: 'change', message: `${d.name}: dropped ${why}` });
      }
    }
  },
};
