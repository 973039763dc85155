// The requests that tell two policies apart: one per combination of client address
// region, host name, environment variables, method, and credentials (none, wrong, and a
// valid user for each user name, group membership and opaque provider line in play).

import { type Client, type Entry, parseEntry, representativeAddresses, representativeHosts } from './entries.js';
import { type Credentials, opaqueKey, type Request } from './evaluate.js';
import type { AuthzNode, RequireLine, SectionState } from './state.js';

function providerLines(n: AuthzNode | null, out: RequireLine[]): void {
  if (!n) return;
  if (n.kind === 'provider') out.push(n.line);
  else for (const c of n.children) providerLines(c, out);
}

/** Subsets of a list, or a bounded sample of them (deterministic). */
function subsets<T>(items: readonly T[], cap: number): T[][] {
  if (items.length <= Math.log2(cap)) {
    const out: T[][] = [];
    for (let mask = 0; mask < 1 << items.length; mask++) out.push(items.filter((_, i) => mask & (1 << i)));
    return out;
  }
  // Too many to try all: none, all, each alone, and each left out.
  return [[], [...items], ...items.map((x) => [x]), ...items.map((x) => items.filter((y) => y !== x))];
}

export function requestClasses(states: readonly SectionState[], methods: readonly string[]): Request[] {
  const entries: Entry[] = [];
  const lines: RequireLine[] = [];
  for (const s of states) {
    if (s.host) entries.push(...s.host.allow.map((e) => e.value), ...s.host.deny.map((e) => e.value));
    if (s.require) lines.push(...s.require.map((r) => r.value));
    providerLines(s.authz, lines);
  }
  const envNames = new Set<string>();
  const users = new Set<string>();
  const groups = new Set<string>();
  const opaque = new Set<string>();
  for (const e of entries) if (e.kind === 'env') envNames.add(e.name);
  for (const l of lines) {
    if (l.keyword === 'ip') entries.push(...l.args.map(parseEntry));
    else if (l.keyword === 'host') entries.push(...l.args.map((a): Entry => ({ kind: 'host', name: a.replace(/^\./, '').toLowerCase(), subdomainsOnly: a.startsWith('.'), text: a })));
    else if (l.keyword === 'env') l.args.forEach((a) => envNames.add(a));
    else if (l.keyword === 'user') l.args.forEach((a) => users.add(a));
    // A 2.2 "group" line reads AuthGroupFile or AuthDBMGroupFile, whichever module decides.
    else if (l.keyword === 'group') l.args.forEach((g) => (groups.add('file:' + g), groups.add('dbm:' + g)));
    else if (l.keyword === 'dbm-group') l.args.forEach((g) => groups.add('dbm:' + g));
    else if (!['valid-user', 'all', 'method', 'local'].includes(l.keyword)) opaque.add(opaqueKey(l));
  }
  const addrs = representativeAddresses(entries);
  const hosts = representativeHosts(entries);
  const envSets = subsets([...envNames], 64).map((s) => new Set(s));
  const creds: Credentials[] = [{ kind: 'none' }, { kind: 'bad' }];
  const groupSets = subsets([...groups], 16);
  const opaqueSets = subsets([...opaque], 8);
  for (const name of [null, ...users]) {
    for (const g of groupSets) for (const o of opaqueSets) creds.push({ kind: 'user', name, groups: new Set(g), grants: new Set(o) });
  }
  const out: Request[] = [];
  for (const method of methods) {
    for (const a of addrs) {
      for (const host of hosts) {
        for (const env of envSets) {
          const client: Client = { family: a.family, addr: a.addr, host, env };
          for (const cred of creds) out.push({ method, client, cred });
        }
      }
    }
  }
  return out;
}
