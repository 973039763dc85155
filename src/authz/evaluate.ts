// The answer (200/401/403/500) a request gets from a merge chain of sections:
// - eval22: httpd 2.2 (server/request.c ap_process_request_internal, mod_authz_host,
//   core Satisfy/Require, the 2.2 authz modules in hook order: semantics.md §3–5);
// - eval24: httpd 2.4 (mod_access_compat, then mod_authz_core's authorize_userless /
//   authorize_user and apply_authz_sections: semantics.md §4.2, §6).

import { type Client, type Entry, matches, parseEntry } from './entries.js';
import { inMask } from './methods.js';
import type { AuthzNode, HostRules, ModuleStruct, RequireLine, SectionState } from './state.js';

export type Status = 200 | 401 | 403 | 500;

export type Credentials =
  | { kind: 'none' }
  | { kind: 'bad' }
  /** A valid user: its name (null for "some other user"), group memberships, and the opaque lines it satisfies. */
  | { kind: 'user'; name: string | null; groups: ReadonlySet<string>; grants: ReadonlySet<string> };

export interface Request {
  method: string;
  client: Client;
  cred: Credentials;
}

export interface ChainState {
  state: SectionState;
  /** The .htaccess holds a directive AllowOverride forbids: 500 for every request. */
  forbidden?: string;
}

function hostAllowed(h: HostRules, method: string, c: Client): boolean {
  let order = 'deny,allow';
  for (const o of h.order) if (inMask(o.mask, method)) order = o.value;
  const any = (list: HostRules['allow']): boolean => list.some((e) => inMask(e.mask, method) && matches(e.value, c));
  const allow = any(h.allow);
  const deny = any(h.deny);
  return order === 'deny,allow' ? allow || !deny : allow && !deny;
}

function satisfyFor(list: SectionState['satisfy'], method: string): 'any' | 'all' | null {
  let v: 'any' | 'all' | null = null;
  for (const s of list) if (inMask(s.mask, method)) v = s.value;
  return v;
}

/** The group namespace a `group` line reads: AuthGroupFile or AuthDBMGroupFile. */
export type GroupSource = 'file' | 'dbm';

/** A stable key for a Require line that only an opaque module can decide (ldap-*, file-owner …). */
export function opaqueKey(l: RequireLine): string {
  return `${l.keyword} ${l.args.join(' ')}`;
}

function grants22(l: RequireLine, cred: Extract<Credentials, { kind: 'user' }>, source: GroupSource): boolean {
  switch (l.keyword) {
    case 'valid-user': return true;
    case 'user': return cred.name !== null && l.args.includes(cred.name);
    case 'group': return l.args.some((g) => cred.groups.has(`${source}:${g}`));
    default: return cred.grants.has(opaqueKey(l));
  }
}

interface AuthzModule {
  id: string;
  struct: ModuleStruct;
  owns: (keyword: string) => boolean;
  /** Its lines count only when this setting is there (e.g. AuthGroupFile). */
  needs?: string;
  authoritativeKey: string;
  source?: GroupSource;
}

export const AUTHZ_MODULES_22: readonly AuthzModule[] = [
  { id: 'authz_user_module', struct: 'authz_user', owns: (k) => k === 'valid-user' || k === 'user', authoritativeKey: 'authzuserauthoritative' },
  { id: 'authz_groupfile_module', struct: 'authz_groupfile', owns: (k) => k === 'group' || k === 'file-group', needs: 'authgroupfile', authoritativeKey: 'authzgroupfileauthoritative', source: 'file' },
  { id: 'authz_dbm_module', struct: 'authz_dbm', owns: (k) => k === 'group' || k === 'file-group', needs: 'authdbmgroupfile', authoritativeKey: 'authzdbmauthoritative', source: 'dbm' },
  { id: 'authz_owner_module', struct: 'authz_owner', owns: (k) => k === 'file-owner', authoritativeKey: 'authzownerauthoritative' },
  { id: 'authnz_ldap_module', struct: 'authnz_ldap', owns: (k) => k.startsWith('ldap-'), needs: 'authldapurl', authoritativeKey: 'authzldapauthoritative' },
];

/**
 * The authz hook order of a 2.2 server: LoadModule order, with mod_authz_owner before
 * groupfile and dbm, and mod_authnz_ldap before mod_authz_user (their aszPre/aszPost).
 * Null when unknown (no LoadModule lines: a fragment or a static build).
 */
export function hookOrder22(loadOrder: readonly string[] | null): AuthzModule[] | null {
  if (loadOrder === null) return null;
  const loaded = AUTHZ_MODULES_22.filter((m) => loadOrder.includes(m.id)).sort((a, b) => loadOrder.indexOf(a.id) - loadOrder.indexOf(b.id));
  const move = (m: string, before: string[]): void => {
    const i = loaded.findIndex((x) => x.id === m);
    if (i < 0) return;
    const first = Math.min(...before.map((b) => loaded.findIndex((x) => x.id === b)).filter((j) => j >= 0));
    if (Number.isFinite(first) && first < i) loaded.splice(first, 0, loaded.splice(i, 1)[0]);
  };
  move('authz_owner_module', ['authz_groupfile_module', 'authz_dbm_module']);
  move('authnz_ldap_module', ['authz_user_module']);
  return loaded;
}

export interface Server22 {
  /** Authz modules in hook order, or null when the order is unknown. */
  hookOrder: AuthzModule[] | null;
  authzDefault: boolean;
}

function lastWith<T>(chain: readonly ChainState[], pick: (s: SectionState) => T | null | undefined): T | null {
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = pick(chain[i].state);
    if (v !== null && v !== undefined) return v;
  }
  return null;
}

function structOf(chain: readonly ChainState[], s: ModuleStruct): ReadonlyMap<string, string> | null {
  return lastWith(chain, (st) => st.structs.get(s) ?? null);
}

/** 2.2's authz decision for a valid user: 'grant', 'deny' (401), 'error' (500) or 'unknown'. */
export function decide22(lines: readonly RequireLine[], cred: Extract<Credentials, { kind: 'user' }>, chain: readonly ChainState[], server: Server22): 'grant' | 'deny' | 'error' | 'unknown' {
  const order = server.hookOrder;
  const types = new Set(AUTHZ_MODULES_22.filter((m) => lines.some((l) => m.owns(l.keyword))).map((m) => m.struct));
  if (order === null) {
    // Without the module order only a list of one line type is decided.
    if (types.size > 1 || (types.has('authz_groupfile') && types.has('authz_dbm'))) return 'unknown';
  }
  const mods = order ?? AUTHZ_MODULES_22;
  for (const m of mods) {
    const owned = lines.filter((l) => m.owns(l.keyword));
    if (owned.length === 0) continue;
    const st = structOf(chain, m.struct);
    if (m.needs && !(st?.has(m.needs) ?? false)) continue;
    if (owned.some((l) => grants22(l, cred, m.source ?? 'file'))) return 'grant';
    const auth = st?.get(m.authoritativeKey)?.toLowerCase();
    if (auth !== 'off') return 'deny';
  }
  if (!server.authzDefault) return 'error';
  const def = structOf(chain, 'authz_default')?.get('authzdefaultauthoritative')?.toLowerCase();
  return def === 'off' ? 'error' : 'deny';
}

export function eval22(chain: readonly ChainState[], req: Request, server: Server22): Status | 'unknown' {
  if (chain.some((c) => c.forbidden)) return 500;
  const m = req.method;
  const host = lastWith(chain, (s) => s.host);
  let satisfy: 'any' | 'all' = 'all';
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = satisfyFor(chain[i].state.satisfy, m);
    if (v) {
      satisfy = v;
      break;
    }
  }
  const require = lastWith(chain, (s) => s.require);
  const lines = (require ?? []).filter((l) => inMask(l.mask, m)).map((l) => l.value);
  const authType = lastWith(chain, (s) => s.authType);
  const hostOK = host ? hostAllowed(host, m, req.client) : true;
  if (satisfy === 'any') {
    if (hostOK) return 200;
    if (lines.length === 0) return 403;
  } else {
    if (!hostOK) return 403;
    if (lines.length === 0) return 200;
  }
  if (!authType) return 500;
  if (req.cred.kind !== 'user') return 401;
  const d = decide22(lines, req.cred, chain, server);
  return d === 'grant' ? 200 : d === 'deny' ? 401 : d === 'error' ? 500 : 'unknown';
}

// ---- 2.4 ----

type AuthzResult = 'granted' | 'denied' | 'denied-no-user' | 'neutral';

function provider24(l: RequireLine, req: Request, user: Extract<Credentials, { kind: 'user' }> | null, chain: readonly ChainState[]): AuthzResult {
  const c = req.client;
  const any = (f: (a: string) => boolean): AuthzResult => (l.args.some(f) ? 'granted' : 'denied');
  switch (l.keyword) {
    case 'all': return (l.args[0] ?? '').toLowerCase() === 'granted' ? 'granted' : 'denied';
    case 'ip': return any((a) => matchesWord(a, c, 'ip'));
    case 'host': return any((a) => matchesWord(a, c, 'host'));
    case 'env': return any((a) => c.env.has(a));
    case 'method': return any((a) => a === req.method || (a === 'HEAD' && req.method === 'GET'));
    case 'local': return (c.family === 4 && c.addr >> 24n === 127n) || (c.family === 6 && c.addr === 1n) ? 'granted' : 'denied';
    case 'valid-user': return user ? 'granted' : 'denied-no-user';
    case 'user': return !user ? 'denied-no-user' : user.name !== null && l.args.includes(user.name) ? 'granted' : 'denied';
    case 'group':
    case 'dbm-group': {
      if (!user) return 'denied-no-user';
      const source: GroupSource = l.keyword === 'group' ? 'file' : 'dbm';
      const st = structOf(chain, source === 'file' ? 'authz_groupfile' : 'authz_dbm');
      if (!st?.has(source === 'file' ? 'authgroupfile' : 'authdbmgroupfile')) return 'denied';
      return l.args.some((g) => user.groups.has(`${source}:${g}`)) ? 'granted' : 'denied';
    }
    default:
      if (!user) return 'denied-no-user';
      return user.grants.has(opaqueKey(l)) ? 'granted' : 'denied';
  }
}

const parsedWords = new Map<string, Entry>();
function matchesWord(word: string, c: Client, kind: 'ip' | 'host'): boolean {
  let e = parsedWords.get(kind + word);
  if (!e) {
    e = parseEntryFor(word, kind);
    parsedWords.set(kind + word, e);
  }
  return matches(e, c);
}

function parseEntryFor(word: string, kind: 'ip' | 'host'): Entry {
  if (kind === 'host') {
    const sub = word.startsWith('.');
    return { kind: 'host', name: (sub ? word.slice(1) : word).toLowerCase(), subdomainsOnly: sub, text: word };
  }
  const e = parseEntry(word);
  return e.kind === 'ip' ? e : { kind: 'invalid', text: word, why: 'not an address' };
}

/** mod_authz_core's section->limited: a provider's own mask, a container's union of its children's. */
function inLimited(n: AuthzNode, method: string): boolean {
  return n.kind === 'provider' ? inMask(n.mask, method) : n.children.some((c) => inLimited(c, method));
}

/** mod_authz_core apply_authz_sections(). */
export function applyAuthz(n: AuthzNode, parentOp: 'and' | 'or', req: Request, user: Extract<Credentials, { kind: 'user' }> | null, chain: readonly ChainState[]): AuthzResult {
  if (!inLimited(n, req.method)) return parentOp === 'and' ? 'granted' : 'neutral';
  let r: AuthzResult;
  let negated: boolean;
  if (n.kind === 'provider') {
    r = provider24(n.line, req, user, chain);
    negated = n.line.negated;
  } else {
    negated = n.negated;
    r = 'neutral';
    for (const c of n.children) {
      const cr = applyAuthz(c, n.op, req, user, chain);
      if (cr === 'neutral') continue;
      if (n.op === 'and') {
        if (cr === 'denied') {
          r = cr;
          break;
        }
        if ((cr === 'denied-no-user' && r !== 'denied') || r === 'neutral') r = cr;
      } else {
        if (cr === 'granted') {
          r = cr;
          break;
        }
        if ((cr === 'denied-no-user' && r === 'denied') || r === 'neutral') r = cr;
      }
    }
  }
  if (negated) {
    if (r === 'granted') r = 'denied';
    else if (r === 'denied' || r === 'denied-no-user') r = 'neutral';
  }
  return r;
}

/** mod_authz_core's merge of per-section trees along the chain (merge_authz_core_dir_config). */
export function mergedAuthz(chain: readonly ChainState[]): AuthzNode | null {
  let section: AuthzNode | null = null;
  for (const c of chain) {
    const s = c.state;
    const op = s.authMerging;
    if (s.authz === null && op === null) continue; // nothing of authz_core's here
    if (op === null || op === 'off' || (section === null && s.authz === null)) {
      section = s.authz;
    } else if (section !== null && s.authz !== null) {
      section = { kind: 'container', op, negated: false, children: [section, s.authz] };
    } else if (section === null) {
      section = s.authz;
    }
  }
  return section;
}

export function eval24(chain: readonly ChainState[], req: Request): Status {
  if (chain.some((c) => c.forbidden)) return 500;
  const m = req.method;
  // mod_access_compat: the last section with any of Order/Allow/Deny/Satisfy, no merge.
  let compat: SectionState | null = null;
  for (let i = chain.length - 1; i >= 0 && !compat; i--) {
    const s = chain[i].state;
    if (s.host !== null || s.satisfy.length > 0) compat = s;
  }
  const satisfy = compat ? satisfyFor(compat.satisfy, m) ?? 'all' : 'all';
  const hostOK = compat && compat.host ? hostAllowed(compat.host, m, req.client) : true;
  const authType = lastWith(chain, (s) => s.authType);
  if (satisfy === 'any' && hostOK) return 200;
  if (satisfy !== 'any' && !hostOK) return 403;
  const tree = mergedAuthz(chain);
  if (tree === null) return authType ? 500 : 200;
  const r0 = applyAuthz(tree, 'and', req, null, chain);
  if (r0 === 'granted') return 200;
  if (r0 === 'denied' || r0 === 'neutral') return 403;
  if (!authType) return 500;
  if (req.cred.kind !== 'user') return 401;
  const r1 = applyAuthz(tree, 'and', req, req.cred, chain);
  return r1 === 'granted' ? 200 : 401;
}
