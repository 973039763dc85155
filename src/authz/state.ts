// What one section (or .htaccess file) says about access, read twice: as 2.2 reads it, and
// as the converted 2.4 server reads it. Each directive keeps its <Limit> mask and its node.

import { and, conditionsHold, type ConditionEnv } from '../model/conditions.js';
import type { Tristate } from '../model/server.js';
import type { Directive, Node, Section } from '../syntax/index.js';
import { type Entry, parseEntry } from './entries.js';
import { ALL_METHODS, intersect, limitMask, type MethodMask } from './methods.js';

export type Order = 'deny,allow' | 'allow,deny' | 'mutual-failure';

export interface Masked<T> {
  mask: MethodMask;
  value: T;
  node: Directive;
}

/** mod_authz_host (2.2) / mod_access_compat (2.4) rules of one section. */
export interface HostRules {
  order: Array<Masked<Order>>;
  allow: Array<Masked<Entry>>;
  deny: Array<Masked<Entry>>;
}

export interface RequireLine {
  /** The provider word, lower case (`valid-user`, `user`, `group`, `ip`, …). */
  keyword: string;
  args: string[];
  negated: boolean;
}

/** A 2.4 authorization tree node (mod_authz_core). */
export type AuthzNode =
  | { kind: 'provider'; line: RequireLine; mask: MethodMask; node?: Directive }
  | { kind: 'container'; op: 'and' | 'or'; negated: boolean; children: AuthzNode[]; node?: Section };

/** Per-module settings that 2.2 keeps in one struct each (no merge: a section that sets any replaces all). */
export type ModuleStruct = 'authz_groupfile' | 'authz_dbm' | 'authz_user' | 'authz_owner' | 'authz_default' | 'authnz_ldap';

const STRUCT_OF: Record<string, ModuleStruct> = {
  authgroupfile: 'authz_groupfile',
  authzgroupfileauthoritative: 'authz_groupfile',
  authdbmgroupfile: 'authz_dbm',
  authzdbmtype: 'authz_dbm',
  authzdbmauthoritative: 'authz_dbm',
  authzuserauthoritative: 'authz_user',
  authzownerauthoritative: 'authz_owner',
  authzdefaultauthoritative: 'authz_default',
  authzldapauthoritative: 'authnz_ldap',
};

export const AUTHORITATIVE_DIRECTIVES = ['authzgroupfileauthoritative', 'authzdbmauthoritative', 'authzuserauthoritative', 'authzownerauthoritative', 'authzdefaultauthoritative', 'authzldapauthoritative', 'authdefaultauthoritative'];

/** Require keywords that only mean something in 2.4 (2.2 has no module that owns them). */
export const REQUIRE_24_ONLY = new Set(['all', 'ip', 'host', 'env', 'local', 'method', 'expr', 'forward-dns', 'dbm-group', 'dbm-file-group', 'dbd-group', 'dbd-login', 'dbd-logout', 'ssl', 'ssl-verify-client']);

export interface SectionState {
  /** Order/Allow/Deny lines; null when the section has none. */
  host: HostRules | null;
  satisfy: Array<Masked<'any' | 'all'>>;
  /** 2.2 Require lines; null when the section has none. */
  require: Array<Masked<RequireLine>> | null;
  /** 2.4 authorization tree (implicit <RequireAny> of the section); null when none. */
  authz: AuthzNode | null;
  authMerging: 'off' | 'and' | 'or' | null;
  authType: string | null;
  structs: Map<ModuleStruct, Map<string, string>>;
  /** Every access-control directive and container read, for edits. */
  nodes: Node[];
  /** Something in the section applies only under a condition we cannot decide. */
  uncertain: string | null;
  /** Entries 2.2 would refuse at start-up. */
  invalid: string[];
}

/**
 * What a state says, as a string: equal strings, equal meaning (the nodes it was read from
 * are left out, so a thousand sections with the same lines share one key). Strings are
 * length-prefixed, so no value can run into the next.
 */
export function stateKey(s: SectionState): string {
  let k = '';
  const q = (t: string): void => {
    k += t.length + ':' + t;
  };
  const mask = (m: MethodMask): void => {
    k += m.except ? '!' : '=';
    for (const x of m.methods) q(x);
    k += ';';
  };
  const entry = (e: Entry): void => {
    k += e.kind[0];
    q(e.text);
    if (e.kind === 'ip') k += e.family + '/' + e.net + '/' + e.mask + ';';
    else if (e.kind === 'env') k += (e.negated ? '!' : '=') + e.name.length + ':' + e.name;
    else if (e.kind === 'host') k += (e.subdomainsOnly ? '.' : '=') + e.name.length + ':' + e.name;
    else if (e.kind === 'invalid') q(e.why);
  };
  const authz = (n: AuthzNode): void => {
    if (n.kind === 'provider') {
      k += n.line.negated ? 'P!' : 'P';
      mask(n.mask);
      q(n.line.keyword);
      for (const a of n.line.args) q(a);
      k += ')';
    } else {
      k += 'C' + n.op + (n.negated ? '!' : '') + '(';
      for (const c of n.children) authz(c);
      k += ')';
    }
  };
  if (s.host) {
    k += 'H';
    for (const o of s.host.order) {
      mask(o.mask);
      k += o.value + ';';
    }
    for (const list of [s.host.allow, s.host.deny]) {
      k += '|';
      for (const e of list) {
        mask(e.mask);
        entry(e.value);
      }
    }
  }
  k += 'S';
  for (const x of s.satisfy) {
    mask(x.mask);
    k += x.value + ';';
  }
  if (s.require) {
    k += 'R';
    for (const r of s.require) {
      mask(r.mask);
      k += r.value.negated ? '!' : '=';
      q(r.value.keyword);
      for (const a of r.value.args) q(a);
      k += ')';
    }
  }
  if (s.authz) {
    k += 'Z';
    authz(s.authz);
  }
  k += 'M' + (s.authMerging ?? '-');
  if (s.authType !== null) {
    k += 'T';
    q(s.authType);
  }
  for (const [m, settings] of s.structs) {
    k += 'X' + m;
    for (const [name, value] of settings) {
      q(name);
      q(value);
    }
  }
  if (s.uncertain !== null) {
    k += 'U';
    q(s.uncertain);
  }
  for (const x of s.invalid) {
    k += 'I';
    q(x);
  }
  return k;
}

function emptyState(): SectionState {
  return { host: null, satisfy: [], require: null, authz: null, authMerging: null, authType: null, structs: new Map(), nodes: [], uncertain: null, invalid: [] };
}

const NESTED_SCOPES = new Set(['directory', 'directorymatch', 'files', 'filesmatch', 'location', 'locationmatch', 'proxy', 'proxymatch', 'virtualhost', 'if', 'elseif', 'else']);

export function isScopeSection(s: Section): boolean {
  return NESTED_SCOPES.has(s.key);
}

function parseRequire(d: Directive): RequireLine {
  const v = d.values;
  let i = 0;
  let negated = false;
  if (v[0]?.toLowerCase() === 'not') {
    negated = true;
    i = 1;
  }
  return { keyword: (v[i] ?? '').toLowerCase(), args: v.slice(i + 1), negated };
}

/**
 * Reads the access settings of a section's content (not of sections nested in it), as the
 * given server version reads them. `env` decides <IfModule>/<IfDefine>/<IfVersion>.
 */
export function readSection(children: readonly Node[], env: ConditionEnv, skip?: ReadonlySet<Node>): SectionState {
  const st = emptyState();
  const topAuthz: AuthzNode & { kind: 'container' } = { kind: 'container', op: 'or', negated: false, children: [] };
  const walk = (list: readonly Node[], mask: MethodMask, cond: Tristate, container: AuthzNode & { kind: 'container' }): void => {
    for (const n of list) {
      if (skip?.has(n)) continue;
      if (n.kind === 'section') {
        if (isScopeSection(n)) continue;
        if (n.is('Limit') || n.is('LimitExcept')) {
          walk(n.children, intersect(mask, limitMask(n.values, n.is('LimitExcept'))), cond, container);
          continue;
        }
        if (n.is('RequireAll') || n.is('RequireAny') || n.is('RequireNone')) {
          const box: AuthzNode & { kind: 'container' } = { kind: 'container', op: n.is('RequireAll') ? 'and' : 'or', negated: n.is('RequireNone'), children: [], node: n };
          if (cond !== 'no') {
            if (env.version === '2.4') container.children.push(box);
            else st.invalid.push(`<${n.name}> on line ${n.line} does not exist in 2.2`);
            st.nodes.push(n);
            if (cond === 'unknown') st.uncertain ??= `<${n.name}> inside a condition that cannot be decided`;
          }
          walk(n.children, mask, cond, box);
          continue;
        }
        const c = and(cond, conditionsHold([n], env));
        walk(n.children, mask, c, container);
        continue;
      }
      if (n.kind !== 'directive') continue;
      const key = n.key;
      // Authz*Authoritative directives do not exist in 2.4 (authoritative-directives removes them).
      if (env.version === '2.4' && AUTHORITATIVE_DIRECTIVES.includes(key)) continue;
      const relevant = key === 'order' || key === 'allow' || key === 'deny' || key === 'satisfy' || key === 'require' || key === 'authtype' || key === 'authmerging' || STRUCT_OF[key] !== undefined || key === 'authldapurl' || key === 'authdefaultauthoritative';
      if (!relevant || cond === 'no') continue;
      if (cond === 'unknown') {
        const why = `${n.name} on line ${n.line} applies only under a condition that cannot be decided`;
        // Module settings (AuthGroupFile, Authz*Authoritative …) only matter with Require lines.
        if (STRUCT_OF[key] !== undefined || key === 'authldapurl' || key === 'authdefaultauthoritative') settingUnsure ??= why;
        else st.uncertain ??= why;
      }
      read(n, mask, container);
    }
  };

  const read = (d: Directive, mask: MethodMask, container: AuthzNode & { kind: 'container' }): void => {
    const key = d.key;
    const v = d.values;
    switch (key) {
      case 'order': {
        st.host ??= { order: [], allow: [], deny: [] };
        const o = (v[0] ?? '').toLowerCase();
        if (v.length === 1 && (o === 'deny,allow' || o === 'allow,deny' || o === 'mutual-failure')) st.host.order.push({ mask, value: o, node: d });
        else st.invalid.push(`Order ${v.join(' ')} on line ${d.line}`);
        st.nodes.push(d);
        return;
      }
      case 'allow':
      case 'deny': {
        st.host ??= { order: [], allow: [], deny: [] };
        if ((v[0] ?? '').toLowerCase() !== 'from' || v.length < 2) st.invalid.push(`${d.name} ${v.join(' ')} on line ${d.line}`);
        for (const w of v.slice(1)) {
          const e = parseEntry(w);
          if (e.kind === 'invalid') st.invalid.push(`${d.name} from ${w}: ${e.why} (line ${d.line})`);
          (key === 'allow' ? st.host.allow : st.host.deny).push({ mask, value: e, node: d });
        }
        st.nodes.push(d);
        return;
      }
      case 'satisfy': {
        const s = (v[0] ?? '').toLowerCase();
        if (s === 'any' || s === 'all') st.satisfy.push({ mask, value: s, node: d });
        else st.invalid.push(`Satisfy ${v.join(' ')} on line ${d.line}`);
        st.nodes.push(d);
        return;
      }
      case 'require': {
        const line = parseRequire(d);
        st.require ??= [];
        st.require.push({ mask, value: line, node: d });
        if (env.version === '2.4') container.children.push({ kind: 'provider', line, mask, node: d });
        st.nodes.push(d);
        return;
      }
      case 'authtype':
        st.authType = v[0] ?? '';
        return;
      case 'authmerging': {
        const m = (v[0] ?? '').toLowerCase();
        if (m === 'off' || m === 'and' || m === 'or') st.authMerging = m;
        st.nodes.push(d);
        return;
      }
      default: {
        const s = STRUCT_OF[key] ?? (key === 'authldapurl' ? 'authnz_ldap' : undefined);
        if (!s) return;
        if (!st.structs.has(s)) st.structs.set(s, new Map());
        st.structs.get(s)!.set(key, v.join(' '));
      }
    }
  };

  let settingUnsure: string | undefined;
  walk(children, ALL_METHODS, 'yes', topAuthz);
  if (settingUnsure && st.require !== null) st.uncertain ??= settingUnsure;
  if (env.version === '2.4' && topAuthz.children.length > 0) st.authz = topAuthz;
  return st;
}

/** True when the section holds 2.4-only authorization syntax (in the view given). */
export function hasNative24(st: SectionState): boolean {
  if (st.authMerging !== null) return true;
  const visit = (n: AuthzNode): boolean => (n.kind === 'container' ? n.node !== undefined || n.children.some(visit) : n.line.negated || REQUIRE_24_ONLY.has(n.line.keyword));
  return st.authz !== null && visit(st.authz);
}

/** The union of the method masks of a tree's providers (mod_authz_core's section->limited). */
export function limited(n: AuthzNode): MethodMask {
  if (n.kind === 'provider') return n.mask;
  let acc: MethodMask = { except: false, methods: new Set() };
  for (const c of n.children) {
    const m = limited(c);
    acc = union(acc, m);
  }
  return acc;
}

function union(a: MethodMask, b: MethodMask): MethodMask {
  if (a.except && b.except) return { except: true, methods: new Set([...a.methods].filter((m) => b.methods.has(m))) };
  if (!a.except && !b.except) return { except: false, methods: new Set([...a.methods, ...b.methods]) };
  const [exc, only] = a.except ? [a, b] : [b, a];
  return { except: true, methods: new Set([...exc.methods].filter((m) => !only.methods.has(m))) };
}
