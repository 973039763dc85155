import { model } from '../src/model/server.js';
import { type ConfigFile, treeCache } from '../src/model/tree.js';
import { type Section, walk } from '../src/syntax/index.js';
import type { Transform, TransformContext } from './types.js';
import { candidates, readBy24, readingOrder } from './lib/select.js';

// 2.4 ignores NameVirtualHost (vhost.c: AH00548) and makes every address:port that several
// <VirtualHost> share name-based. 2.2 did that only for the addresses NameVirtualHost named;
// for the others the first <VirtualHost> won every request ("VirtualHost A overlaps with
// VirtualHost B, the first has precedence") and the later ones were never used.

interface Address {
  host: string;
  /** '*' when no port was given or the port is a wildcard. */
  port: string;
}

/** `host[:port]`, `[v6]:port`, `*:80`; lower case; null for _default_ (never name-based). */
export function parseAddress(text: string): Address | null {
  const t = text.toLowerCase();
  let host = t;
  let port = '*';
  const v6 = /^(\[[^\]]*\])(?::(.*))?$/.exec(t);
  if (v6) {
    host = v6[1];
    port = v6[2] || '*';
  } else {
    const i = t.lastIndexOf(':');
    if (i >= 0) {
      host = t.slice(0, i);
      port = t.slice(i + 1) || '*';
    }
  }
  if (host.startsWith('_default_')) return null;
  return { host, port };
}

function overlap(a: Address, b: Address): boolean {
  return a.host === b.host && (a.port === '*' || b.port === '*' || a.port === b.port);
}

interface Shadowed {
  /** The <VirtualHost> that answered in 2.2. */
  first: Section;
  firstFile: ConfigFile;
  address: string;
}

/** The virtual hosts 2.2 never used because an earlier one shared an address with no NameVirtualHost. */
function shadowedVirtualHosts(ctx: TransformContext, main: ConfigFile): Map<Section, Shadowed> {
  const out = new Map<Section, Shadowed>();
  const named: Address[] = [];
  const hosts: Array<{ section: Section; file: ConfigFile; addresses: Address[] }> = [];
  // 2.2's view: every NameVirtualHost counts wherever it is (they apply after reading).
  for (const v of readingOrder(ctx, main)) {
    const n = v.node;
    if (n.kind === 'directive' && n.is('NameVirtualHost')) {
      for (const a of n.values) {
        const p = parseAddress(a);
        if (p) named.push(p);
      }
    } else if (n.kind === 'section' && n.is('VirtualHost')) {
      hosts.push({ section: n, file: v.file, addresses: n.values.map(parseAddress).filter((a): a is Address => a !== null) });
    }
  }
  for (let i = 0; i < hosts.length; i++) {
    for (const a of hosts[i].addresses) {
      if (named.some((nv) => overlap(nv, a))) continue;
      const earlier = hosts.slice(0, i).find((h) => h.addresses.some((b) => overlap(a, b)));
      if (earlier && !out.has(hosts[i].section)) out.set(hosts[i].section, { first: earlier.section, firstFile: earlier.file, address: `${a.host}:${a.port}` });
    }
  }
  return out;
}

const cache = treeCache<Map<ConfigFile, Map<Section, Shadowed>>>();

function shadowedIn(ctx: TransformContext, main: ConfigFile): Map<Section, Shadowed> {
  let perTree = cache.get(ctx.tree);
  if (!perTree) cache.set(ctx.tree, (perTree = new Map()));
  let r = perTree.get(main);
  if (!r) perTree.set(main, (r = shadowedVirtualHosts(ctx, main)));
  return r;
}

export const nameVirtualHost: Transform = {
  id: 'name-virtual-host',
  title: 'Remove NameVirtualHost (no effect in 2.4); report virtual hosts 2.2 never used',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#misc',
  run(ctx) {
    // Read every server before any NameVirtualHost goes: the findings describe 2.2 as it was.
    for (const main of ctx.tree.mains) shadowedIn(ctx, main);
    for (const n of walk(ctx.doc)) {
      if (n.kind !== 'section' || !n.is('VirtualHost') || !ctx.enabled(n) || !readBy24(ctx, n)) continue;
      for (const main of new Set(model(ctx.tree).contextsOf(ctx.file, n).map((c) => c.main))) {
        // Only a known server tells whether a NameVirtualHost exists somewhere else.
        if (!main) continue;
        const s = shadowedIn(ctx, main).get(n);
        if (!s) continue;
        const where = s.firstFile === ctx.file ? `line ${s.first.line}` : `${s.firstFile.display}:${s.first.line}`;
        ctx.report({ node: n, severity: 'warning', message: `no NameVirtualHost covered ${s.address} in 2.2, so the first <VirtualHost> on it (${where}) answered every request there and this one was never used; 2.4 chooses by ServerName/ServerAlias, so this virtual host now serves its names` });
        break;
      }
    }
    for (const d of candidates(ctx, ['namevirtualhost'])) {
      d.remove();
      ctx.report({ node: d, severity: 'change', message: `NameVirtualHost ${d.values.join(' ')} removed: it has no effect in 2.4 (AH00548), where every address shared by several virtual hosts is name-based` });
    }
  },
};
