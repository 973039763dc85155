// The effective 2.2 policy of a merge chain, written as the smallest 2.4 authorization
// tree that means the same (semantics.md §6.5): host rules per Order, combined with the
// Require lines 2.2 really used (the deciding module's, §5.2) per Satisfy, partitioned
// with <Limit>/<LimitExcept> where methods differ.

import { type Node, directive, section } from '../syntax/index.js';
import type { Entry } from './entries.js';
import { type ChainState, type Server22, AUTHZ_MODULES_22 } from './evaluate.js';
import { inMask, methodKey, OTHER_METHOD } from './methods.js';
import type { HostRules, ModuleStruct, RequireLine, SectionState } from './state.js';

/** A 2.4 authorization tree as we write it. */
export type Tree =
  | { kind: 'true' }
  | { kind: 'false' }
  | { kind: 'line'; words: string[] }
  | { kind: 'all' | 'any'; children: Tree[] }
  | { kind: 'limit'; except: boolean; methods: string[]; body: Tree };

const TRUE: Tree = { kind: 'true' };
const FALSE: Tree = { kind: 'false' };

/** Why a policy cannot be written in 2.4 terms; `facet` names the transform the reason belongs to. */
export class Untranslatable extends Error {
  constructor(message: string, readonly facet?: 'require-multi-provider') {
    super(message);
  }
}

function any(children: Tree[]): Tree {
  const flat: Tree[] = [];
  for (const c of children) {
    if (c.kind === 'false') continue;
    if (c.kind === 'true') return TRUE;
    if (c.kind === 'any') flat.push(...c.children);
    else flat.push(c);
  }
  return flat.length === 0 ? FALSE : flat.length === 1 ? flat[0] : { kind: 'any', children: flat };
}

function all(children: Tree[]): Tree {
  let flat: Tree[] = [];
  for (const c of children) {
    if (c.kind === 'true') continue;
    if (c.kind === 'false') return FALSE;
    if (c.kind === 'all') flat.push(...c.children);
    else flat.push(c);
  }
  // "Require all granted" is only there to give "Require not" lines a positive member.
  const granted = (t: Tree): boolean => t.kind === 'line' && t.words[0] === 'all' && t.words[1] === 'granted';
  const positive = (t: Tree): boolean => !granted(t) && !(t.kind === 'line' && t.words[0] === 'not');
  if (flat.some(positive)) flat = flat.filter((t) => !granted(t));
  return flat.length === 0 ? TRUE : flat.length === 1 ? flat[0] : { kind: 'all', children: flat };
}

/** Entries that may match, as positive 2.4 lines (one line per provider; env=!V as all-but). */
function positive(entries: readonly Entry[]): Tree {
  const ips = entries.filter((e) => e.kind === 'ip').map((e) => e.text);
  const hosts = entries.filter((e) => e.kind === 'host').map((e) => e.text);
  const envs = entries.filter((e): e is Extract<Entry, { kind: 'env' }> => e.kind === 'env' && !e.negated).map((e) => e.name);
  const parts: Tree[] = [];
  if (ips.length) parts.push({ kind: 'line', words: ['ip', ...ips] });
  if (hosts.length) parts.push({ kind: 'line', words: ['host', ...hosts] });
  if (envs.length) parts.push({ kind: 'line', words: ['env', ...envs] });
  for (const e of entries) {
    if (e.kind === 'env' && e.negated) parts.push({ kind: 'all', children: [{ kind: 'line', words: ['all', 'granted'] }, { kind: 'line', words: ['not', 'env', e.name] }] });
  }
  return any(parts);
}

/** "No entry matches", as children for a <RequireAll> (negated lines need a positive sibling). */
function noneOf(entries: readonly Entry[]): Tree[] {
  const out: Tree[] = [];
  const ips = entries.filter((e) => e.kind === 'ip').map((e) => e.text);
  const hosts = entries.filter((e) => e.kind === 'host').map((e) => e.text);
  const envs = entries.filter((e): e is Extract<Entry, { kind: 'env' }> => e.kind === 'env' && !e.negated).map((e) => e.name);
  if (ips.length) out.push({ kind: 'line', words: ['not', 'ip', ...ips] });
  if (hosts.length) out.push({ kind: 'line', words: ['not', 'host', ...hosts] });
  if (envs.length) out.push({ kind: 'line', words: ['not', 'env', ...envs] });
  // Deny from env=!V matches when V is unset; not matching means V is set.
  for (const e of entries) if (e.kind === 'env' && e.negated) out.push({ kind: 'line', words: ['env', e.name] });
  return out;
}

function notAny(entries: readonly Entry[]): Tree {
  if (entries.some((e) => e.kind === 'all')) return FALSE;
  const parts = noneOf(entries);
  if (parts.length === 0) return TRUE;
  const hasPositive = parts.some((p) => p.kind === 'line' && p.words[0] !== 'not');
  return all(hasPositive ? parts : [{ kind: 'line', words: ['all', 'granted'] }, ...parts]);
}

/** The host rules for one method, as a tree (semantics.md §3.2, §6.5). */
export function hostTree(h: HostRules | null, method: string): Tree {
  if (!h) return TRUE;
  let order = 'deny,allow';
  for (const o of h.order) if (inMask(o.mask, method)) order = o.value;
  const pick = (list: HostRules['allow']): Entry[] => list.filter((e) => inMask(e.mask, method)).map((e) => e.value);
  const allow = pick(h.allow);
  const deny = pick(h.deny);
  for (const e of [...allow, ...deny]) if (e.kind === 'invalid') throw new Untranslatable(`${e.text}: ${e.why} (2.2 refuses it at start-up)`);
  const A = allow.filter((e) => e.kind !== 'never');
  const D = deny.filter((e) => e.kind !== 'never');
  const aAll = A.some((e) => e.kind === 'all');
  const dAll = D.some((e) => e.kind === 'all');
  if (order === 'deny,allow') {
    // allowed = A or not D
    if (aAll || D.length === 0) return TRUE;
    if (dAll) return positive(A);
    return any([positive(A), notAny(D)]);
  }
  // allow,deny and mutual-failure: allowed = A and not D
  if (A.length === 0 || dAll) return FALSE;
  const a = aAll ? TRUE : positive(A);
  if (D.length === 0) return a;
  const n = notAny(D);
  if (a.kind === 'true') return n;
  // The allow list is the positive member, so "Require all granted" is not needed.
  const rest = n.kind === 'all' ? n.children.filter((c) => !(c.kind === 'line' && c.words[0] === 'all')) : [n];
  return all([a, ...rest]);
}

/**
 * The Require lines 2.2 really decided with, for a valid user (§5.2): the lines of the first
 * module in hook order that owns an applicable line, or of several when the first ones are
 * not authoritative. `group` becomes `dbm-group` when mod_authz_dbm decides.
 */
export function requireTree(lines: readonly RequireLine[], chain: readonly ChainState[], server: Server22): { tree: Tree; decidedBy: string[] } {
  const lastStruct = (s: ModuleStruct): ReadonlyMap<string, string> | null => {
    for (let i = chain.length - 1; i >= 0; i--) {
      const v = chain[i].state.structs.get(s);
      if (v) return v;
    }
    return null;
  };
  const types = AUTHZ_MODULES_22.filter((m) => lines.some((l) => m.owns(l.keyword)));
  if (server.hookOrder === null && (new Set(types.map((t) => t.struct === 'authz_dbm' ? 'authz_groupfile' : t.struct)).size > 1 || (types.some((t) => t.struct === 'authz_groupfile') && lastStruct('authz_dbm')?.has('authdbmgroupfile') && lastStruct('authz_groupfile')?.has('authgroupfile')))) {
    throw new Untranslatable(`its Require lines are of several kinds (${[...new Set(lines.map((l) => l.keyword))].join(', ')}) and 2.2 honoured only those of the first authz module in the server's LoadModule order, which is not in the paths given (stock order: mod_authz_groupfile before mod_authz_user, so only the group lines counted); keep only the lines 2.2 honoured, or run the tool on the whole server`, 'require-multi-provider');
  }
  const parts: Tree[] = [];
  const decidedBy: string[] = [];
  for (const m of server.hookOrder ?? AUTHZ_MODULES_22) {
    const owned = lines.filter((l) => m.owns(l.keyword));
    if (owned.length === 0) continue;
    const st = lastStruct(m.struct);
    if (m.needs && !(st?.has(m.needs) ?? false)) continue;
    decidedBy.push(m.id);
    for (const l of owned) {
      const keyword = m.source === 'dbm' && l.keyword === 'group' ? 'dbm-group' : m.source === 'dbm' && l.keyword === 'file-group' ? 'dbm-file-group' : l.keyword;
      parts.push({ kind: 'line', words: [keyword, ...l.args] });
    }
    if (st?.get(m.authoritativeKey)?.toLowerCase() !== 'off') return { tree: any(parts), decidedBy };
  }
  // Nobody authoritative decided: mod_authz_default refuses everybody else (401).
  if (parts.length === 0) throw new Untranslatable(`no loaded authz module handles Require ${lines.map((l) => l.keyword).join(', ')}: 2.2 asked for a password and then refused everybody`, 'require-multi-provider');
  if (!server.authzDefault || lastStruct('authz_default')?.get('authzdefaultauthoritative')?.toLowerCase() === 'off') {
    throw new Untranslatable('users no module accepts got 500 in 2.2 (no authoritative mod_authz_default)', 'require-multi-provider');
  }
  return { tree: any(parts), decidedBy };
}

export interface Effective {
  tree: Tree;
  /** Modules whose Require lines 2.2 used, when they were not all of one kind. */
  decidedBy: string[];
  /** The Require lines 2.2 ignored (other modules decided). */
  ignored: RequireLine[];
}

/** The effective 2.2 policy of a chain as one 2.4 tree, per method class. */
export function translateChain(chain: readonly ChainState[], methods: readonly string[], server: Server22): Effective {
  const last = <T>(pick: (s: SectionState) => T | null): T | null => {
    for (let i = chain.length - 1; i >= 0; i--) {
      const v = pick(chain[i].state);
      if (v !== null) return v;
    }
    return null;
  };
  const host = last((s) => s.host);
  const require = last((s) => s.require);
  const byMethod = new Map<string, Tree>();
  const decided = new Set<string>();
  const used = new Set<RequireLine>();
  for (const m of methods) {
    let satisfy: 'any' | 'all' = 'all';
    for (let i = chain.length - 1; i >= 0; i--) {
      const hit = [...chain[i].state.satisfy].reverse().find((s) => inMask(s.mask, m));
      if (hit) {
        satisfy = hit.value;
        break;
      }
    }
    const h = hostTree(host, m);
    const lines = (require ?? []).filter((l) => inMask(l.mask, m)).map((l) => l.value);
    let t: Tree;
    if (lines.length === 0) t = h;
    else {
      const r = requireTree(lines, chain, server);
      r.decidedBy.forEach((d) => decided.add(d));
      for (const l of lines) if (lineIn(r.tree, l)) used.add(l);
      t = satisfy === 'all' ? all([h, r.tree]) : any([h, r.tree]);
    }
    byMethod.set(m, t);
  }
  const ignored = (require ?? []).map((l) => l.value).filter((l) => !used.has(l));
  return { tree: partition(byMethod), decidedBy: decided.size > 1 || ignored.length > 0 ? [...decided] : [], ignored };
}

function lineIn(t: Tree, l: RequireLine): boolean {
  if (t.kind === 'line') return t.words.slice(1).join(' ') === l.args.join(' ') && (t.words[0] === l.keyword || t.words[0] === 'dbm-' + l.keyword);
  if (t.kind === 'all' || t.kind === 'any') return t.children.some((c) => lineIn(c, l));
  return false;
}

/** One tree when every method agrees; else <Limit>/<LimitExcept> per group of methods. */
function partition(byMethod: Map<string, Tree>): Tree {
  const groups = new Map<string, { tree: Tree; methods: string[] }>();
  for (const [m, t] of byMethod) {
    const k = treeKey(t);
    if (!groups.has(k)) groups.set(k, { tree: t, methods: [] });
    groups.get(k)!.methods.push(m);
  }
  if (groups.size === 1) return [...groups.values()][0].tree;
  const named = [...byMethod.keys()].filter((m) => m !== OTHER_METHOD);
  const parts: Tree[] = [];
  for (const g of groups.values()) {
    if (g.methods.includes(OTHER_METHOD)) {
      const except = named.filter((m) => !g.methods.includes(m));
      parts.push({ kind: 'limit', except: true, methods: except, body: g.tree });
    } else {
      if (g.methods.includes('TRACE')) throw new Untranslatable('TRACE would need its own <Limit> (2.4: "TRACE cannot be controlled by <Limit>")');
      parts.push({ kind: 'limit', except: false, methods: g.methods, body: g.tree });
    }
  }
  // <Limit> blocks first, the catch-all <LimitExcept> last.
  parts.sort((a, b) => (a.kind === 'limit' && a.except ? 1 : 0) - (b.kind === 'limit' && b.except ? 1 : 0));
  return { kind: 'any', children: parts };
}

export function treeKey(t: Tree): string {
  switch (t.kind) {
    case 'true': return 'T';
    case 'false': return 'F';
    case 'line': return t.words.join(' ');
    case 'all':
    case 'any': return `${t.kind}(${t.children.map(treeKey).join(';')})`;
    case 'limit': return `${t.except ? 'except' : 'limit'}[${t.methods.join(',')}](${treeKey(t.body)})`;
  }
}

/**
 * The tree as configuration nodes. The lines of a section (and of a <Limit> in it) already
 * form an implicit <RequireAny>, and a container inside a container of the same kind is
 * spliced into it, so containers are only written where the operator changes.
 */
export function toNodes(t: Tree, parent: 'or' | 'and' = 'or'): Node[] {
  switch (t.kind) {
    case 'true': return [directive('Require', 'all', 'granted')];
    case 'false': return [directive('Require', 'all', 'denied')];
    case 'line': return [directive('Require', ...t.words)];
    case 'all': {
      const inner = t.children.flatMap((c) => toNodes(c, 'and'));
      return parent === 'and' ? inner : [section('RequireAll', [], inner)];
    }
    case 'any': {
      const inner = t.children.flatMap((c) => toNodes(c, 'or'));
      return parent === 'or' ? inner : [section('RequireAny', [], inner)];
    }
    case 'limit':
      return [section(t.except ? 'LimitExcept' : 'Limit', t.methods, toNodes(t.body, 'or'))];
  }
}

/** The method classes a chain tells apart: every method its <Limit>s name, plus any other. */
export function methodsOf(states: readonly SectionState[]): string[] {
  const set = new Set<string>(['GET', 'POST', OTHER_METHOD]);
  for (const s of states) {
    const masks = [...(s.host?.order ?? []), ...(s.host?.allow ?? []), ...(s.host?.deny ?? []), ...s.satisfy, ...(s.require ?? [])].map((x) => x.mask);
    for (const m of masks) for (const name of m.methods) set.add(methodKey(name));
  }
  return [...set];
}

/** The tree in one line, for findings: `Require ip 10.0.0.0/8`, `all of [...]`, `<Limit GET>: ...`. */
export function summarize(t: Tree): string {
  switch (t.kind) {
    case 'true': return 'Require all granted';
    case 'false': return 'Require all denied';
    case 'line': return 'Require ' + t.words.join(' ');
    case 'all': return `<RequireAll> [${t.children.map(summarize).join('; ')}]`;
    case 'any': return t.children.every((c) => c.kind === 'limit') ? t.children.map(summarize).join('; ') : `[${t.children.map(summarize).join(' | ')}]`;
    case 'limit': return `<${t.except ? 'LimitExcept' : 'Limit'} ${t.methods.join(' ')}> ${summarize(t.body)}`;
  }
}
