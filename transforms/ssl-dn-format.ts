import { model } from '../src/model/server.js';
import { type Node, walk } from '../src/syntax/index.js';
import type { Transform } from './types.js';

// 2.2 wrote the whole-DN variables with X509_NAME_oneline (`/C=US/O=Org/CN=name`); 2.4 uses
// RFC 2253 (`CN=name,O=Org,C=US`) unless `SSLOptions +LegacyDNStringFormat`. The per-field
// variables (SSL_CLIENT_S_DN_CN, …) did not change; FakeBasicAuth still uses the old form.
const DN = /SSL_(CLIENT|SERVER)_[SI]_DN(?![A-Za-z0-9_])/;

function consumer(name: string): string {
  const n = name.toLowerCase();
  if (n === 'sslusername') return 'the user name (REMOTE_USER) changes: Require user lines and password files that name users by DN no longer match';
  if (n === 'sslrequire' || n === 'require' || n === 'rewritecond' || n === 'setenvif' || n === 'setenvifexpr' || n === '<if>') return 'comparisons against a DN written the 2.2 way no longer match';
  return 'whatever reads the value (headers to a back end, logs) sees the new form';
}

export const sslDnFormat: Transform = {
  id: 'ssl-dn-format',
  title: 'SSL_*_DN variables: 2.4 writes DNs in RFC 2253 form',
  kind: 'advice',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_ssl.html#ssloptions',
  run(ctx) {
    // A configuration that already asks for the old format (a 2.4 one) needs no advice.
    const legacy = (n: Node): boolean => n.kind === 'directive' && n.is('SSLOptions') && /LegacyDNStringFormat/i.test(n.values.join(' '));
    if ([...walk(ctx.doc)].some(legacy)) return;
    for (const main of ctx.tree.mainsOf(ctx.file)) if (model(ctx.tree).server(main).named('ssloptions').some((v) => legacy(v.node))) return;
    for (const d of walk(ctx.doc)) {
      if (d.kind !== 'directive' && d.kind !== 'section') continue;
      const m = DN.exec(d.values.join(' '));
      if (!m) continue;
      const name = d.kind === 'section' ? `<${d.name}>` : d.name;
      ctx.report({ node: d, severity: 'warning', message: `${name} uses ${m[0]}, which 2.4 writes as CN=…,O=…,C=… instead of /C=…/O=…/CN=…: ${consumer(name)}; add \`SSLOptions +LegacyDNStringFormat\` to keep the 2.2 form` });
    }
  },
};
