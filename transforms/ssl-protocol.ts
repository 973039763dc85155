import { type Arg, directives } from '../src/syntax/index.js';
import type { Transform } from './types.js';

// mod_ssl 2.4 (ssl_engine_config.c, ssl_cmd_protocol_parse): `SSLv2` / `+SSLv2` is fatal
// ("SSLProtocol: SSLv2 is no longer supported"), `-SSLv2` is accepted and ignored; with an
// OpenSSL built without SSLv3 (Debian; OpenSSL 1.1 by default) `SSLv3` / `+SSLv3` is fatal
// too ("SSLv3 not supported by this version of OpenSSL"). Names are case-insensitive.
// A list left with only TLS 1.0/1.1 is valid but, on OpenSSL 3, fails every handshake
// (checked on Debian's apache2: alert 80) unless the cipher string sets @SECLEVEL=0.
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
      const old = onlyOldTls(keep.map((a) => a.value));
      if (old) ctx.report({ node: d, severity: 'warning', message: `${d.name} allows only ${old}: OpenSSL 3 (Debian 12 and later) speaks TLS 1.0 and 1.1 only at security level 0, so every handshake fails unless ${d.is('SSLProxyProtocol') ? 'SSLProxyCipherSuite' : 'SSLCipherSuite'} adds @SECLEVEL=0; add TLSv1.2 (or write "all -SSLv3")` });
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

const ALL = ['sslv3', 'tlsv1', 'tlsv1.1', 'tlsv1.2', 'tlsv1.3'];

/** The protocols a word list enables, read as mod_ssl does (ssl_cmd_protocol_parse), when they are all TLS 1.0/1.1. */
function onlyOldTls(words: string[]): string | null {
  let on = new Set<string>();
  for (const w of words) {
    const action = w[0] === '+' || w[0] === '-' ? w[0] : '';
    const name = w.slice(action.length).toLowerCase();
    const these = name === 'all' ? ALL : ALL.includes(name) ? [name] : name === 'sslv2' ? [] : null;
    if (these === null) return null; // a word we do not know: mod_ssl will say
    if (action === '-') for (const x of these) on.delete(x);
    else if (action === '+') for (const x of these) on.add(x);
    else on = new Set(these);
  }
  const names = ALL.filter((x) => on.has(x) && x !== 'sslv3');
  if (names.length === 0 || names.some((x) => x === 'tlsv1.2' || x === 'tlsv1.3')) return null;
  return names.map((x) => x.replace('tlsv', 'TLSv')).join(' and ');
}
