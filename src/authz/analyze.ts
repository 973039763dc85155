// Access-control analysis of a whole tree: for every server, every request class that can
// reach every scope, what 2.2 answered; the 2.4 tree each scope needs so that 2.4 answers
// the same; and the guard that proves it before anything is written. Scopes that cannot be
// proven keep their 2.2 lines (mod_access_compat) with a finding saying why.

import { basename, dirname } from 'node:path';
import { type ConditionEnv, viewModules } from '../model/conditions.js';
import { fnmatchExample, regexExample } from '../model/examples.js';
import { moduleId } from '../model/modules.js';
import { overrideClass } from '../model/overrides.js';
import { ANY_NAME, fileMembers, locationMembers, type Member, normalizePath, type Overrides, type Probe, type Scope, ServerScopes } from '../model/scopes.js';
import { model, type ServerModel, type Tristate } from '../model/server.js';
import { type ConfigFile, type ConfigTree, treeCache } from '../model/tree.js';
import { directive, type Directive, type Node, type Section, walk } from '../syntax/index.js';
import { type ChainState, eval22, eval24, hookOrder22, type Request, type Server22, type Status } from './evaluate.js';
import { requestClasses } from './requests.js';
import { hasNative24, readSection, type SectionState, stateKey } from './state.js';
import { type Effective, hostTree, methodsOf, toNodes, translateChain, type Tree, treeKey, Untranslatable } from './translate.js';

export type Action = 'convert' | 'keep' | 'manual';

/**
 * Why a section needs rewriting, which is also the transform that applies it: its 2.2 host
 * rules or Satisfy (access-control), a Require list of several kinds that 2.2 decided by
 * module order (require-multi-provider), groups from AuthDBMGroupFile (authz-dbm-group), or
 * an AuthType with no Require in effect (auth-without-require).
 */
export type Facet = 'access-control' | 'require-multi-provider' | 'authz-dbm-group' | 'auth-without-require';

export interface ScopePlan {
  scope: Scope;
  facet: Facet;
  /** Scopes whose host rules, Satisfy or Require the converted tree spells out (2.4 would not inherit them). */
  inherits?: { host?: Scope; satisfy?: Scope; require?: Scope };
  action: Action;
  tree?: Tree;
  effective?: Effective;
  /** For manual: what a person must decide. */
  reason?: string;
  /**
   * Emit `AuthMerging And` (keep the inherited rules and add these: a lone .htaccess, a
   * <Location> over folders with different host rules), or `AuthMerging Off` (2.4's default,
   * written out where a lone .htaccess decided alone in 2.2 but its converted Require lines,
   * read again as 2.2, would seem to inherit: it marks the file as written for 2.4).
   */
  authMerging?: 'And' | 'Off';
  /** The access-control nodes the conversion removes. */
  remove: Node[];
  /** For manual: the section whose refusal this one follows. */
  rootOf?: ScopePlan;
}

/** An AllowOverride the converted .htaccess files need. */
export interface OverrideEdit {
  /** The <Directory> whose AllowOverride changes, or null to add a new <Directory> for `path`. */
  section: Section | null;
  file: ConfigFile;
  path: string;
  values: string[];
  htaccess: ConfigFile[];
  reason: string;
}

export interface Note {
  transform: string;
  file: ConfigFile;
  node?: Node;
  line?: number;
  severity: 'change' | 'warning' | 'manual' | 'error';
  message: string;
}

export interface AccessAnalysis {
  plans: ScopePlan[];
  /** By section node, or by .htaccess file for an .htaccess scope. */
  planOf: Map<Section | ConfigFile, ScopePlan>;
  overrides: OverrideEdit[];
  notes: Note[];
  /** Files whose rewrite depends on each other (written together). */
  linked: ConfigFile[][];
}

const cache = treeCache<AccessAnalysis>();

/** The analysis of a tree, computed once (before any transform edits it) and shared. */
export function accessAnalysis(tree: ConfigTree): AccessAnalysis {
  let a = cache.get(tree);
  if (!a) {
    a = analyzeTree(tree);
    cache.set(tree, a);
  }
  return a;
}

/** One file's part of the analysis. */
export interface FileShare {
  plans: ScopePlan[];
  notes: Note[];
  overrides: OverrideEdit[];
  /** Files this one must be written together with (with theirs, the whole group). */
  linked: ConfigFile[];
}

const shares = new WeakMap<AccessAnalysis, Map<ConfigFile, FileShare>>();

/** The analysis's plans, notes and edits for one file: transforms run per file, so no scan of the whole tree's lists each time. */
export function accessFor(tree: ConfigTree, file: ConfigFile): FileShare {
  const a = accessAnalysis(tree);
  let m = shares.get(a);
  if (!m) {
    m = new Map();
    const of = (f: ConfigFile): FileShare => {
      let x = m!.get(f);
      if (!x) m!.set(f, (x = { plans: [], notes: [], overrides: [], linked: [] }));
      return x;
    };
    for (const p of a.plans) of(p.scope.file).plans.push(p);
    for (const n of a.notes) of(n.file).notes.push(n);
    for (const e of a.overrides) of(e.file).overrides.push(e);
    // Linking each member with the group's first is enough (links are transitive); the first
    // links all, in case another member's transform never runs. Not every member with every
    // other: one group can hold an .htaccess file per site.
    for (const g of a.linked) {
      if (g.length === 0) continue;
      of(g[0]).linked.push(...g.slice(1));
      for (const f of g.slice(1)) of(f).linked.push(g[0]);
    }
    shares.set(a, m);
  }
  return m.get(file) ?? { plans: [], notes: [], overrides: [], linked: [] };
}

const classOf = (n: Directive | Section): string | null => overrideClass(n.name);

const AUTHZ_CORE_IDS = new Set(['authz_core_module', 'access_compat_module', 'authn_core_module']);

const dualManaged = new WeakMap<Scope, boolean>();

/** Sections (or .htaccess files) already written for both versions: <IfModule [!]mod_authz_core.c> or <IfVersion>. */
function isDualManaged(scope: Scope): boolean {
  let d = dualManaged.get(scope);
  if (d === undefined) dualManaged.set(scope, (d = writtenForBoth(scope)));
  return d;
}

function writtenForBoth(scope: Scope): boolean {
  const isDual = (s: Section): boolean => s.is('IfVersion') || (s.is('IfModule') && AUTHZ_CORE_IDS.has(moduleId((s.values[0] ?? '').replace(/^!/, ''))));
  if (scope.around.some((s) => s.kind === 'section' && isDual(s))) return true;
  const stack: Node[] = [...scope.children];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.kind !== 'section') continue;
    if (isDual(n)) return true;
    if (['directory', 'directorymatch', 'files', 'filesmatch', 'location', 'locationmatch'].includes(n.key)) continue;
    stack.push(...n.children);
  }
  return false;
}

const access22 = (s: SectionState): boolean => s.host !== null || s.satisfy.length > 0 || s.require !== null;
const legacyOnly = (s: SectionState): boolean => s.host !== null || s.satisfy.length > 0;

interface Unit {
  label: string;
  main: ConfigFile;
  ss: ServerScopes;
  env22: ConditionEnv;
  env24: ConditionEnv;
  server22: Server22;
  /** Converted without the configuration around it (a fragment or .htaccess given alone). */
  standalone: 'no' | 'fragment' | 'htaccess';
  htMap: Map<string, Scope>;
}

interface Alt {
  c22: ChainMember[];
  c24: ChainMember[];
  /** One request path these chains govern, to name in findings. */
  probe: Probe;
  /**
   * A request that can happen. The others are asked only of sections no such request
   * reaches (the main server's when virtual hosts take every connection, a folder outside a
   * host's known URL mapping), so that those still get a policy of their own.
   */
  real: boolean;
  /** The section that decides it in 2.2, and in 2.4 as the tree stands (asked often: kept once known). */
  last22?: Scope | null;
  last24?: Scope | null;
  /** What its 2.2 sections say (the guard's cache key). */
  key22?: string;
}

interface ChainMember {
  scope: Scope;
  forbidden?: string;
}

function analyzeTree(tree: ConfigTree): AccessAnalysis {
  const out: AccessAnalysis = { plans: [], planOf: new Map(), overrides: [], notes: [], linked: [] };
  const m = model(tree);
  const units: Unit[] = [];
  const claimed = new Set<ConfigFile>();
  const defined = (name: string): 'yes' | 'unknown' => (tree.defines.has(name) ? 'yes' : 'unknown');

  const makeUnit = (server: ServerModel, standalone: Unit['standalone']): Unit => {
    const ss = new ServerScopes(server, tree.defines, tree.serverRoots.get(server.main) ?? null, tree.rootMaps.get(server.main));
    // A LoadModule list without any authz module is a fragment's, not the server's.
    const known = server.loadModules.some((l) => l.id.startsWith('authz_') || l.id.startsWith('authn_'));
    return {
      label: server.main.display,
      main: server.main,
      ss,
      env22: { version: '2.2', hasModule: assumeAccessModules(viewModules('2.2', (id) => server.hasModule(id))), defined },
      env24: { version: '2.4', hasModule: assumeAccessModules(viewModules('2.4', (id) => server.hasModule(id))), defined },
      server22: { hookOrder: known ? hookOrder22(server.moduleOrder) : null, authzDefault: known ? server.hasModule('authz_default_module') !== 'no' : true },
      standalone,
      htMap: new Map(),
    };
  };

  for (const main of tree.mains) units.push(makeUnit(m.server(main), 'no'));
  for (const f of tree.files) {
    if (f.role === 'standalone') units.push(makeUnit(m.server(f), 'fragment'));
  }
  // .htaccess files belong to the servers whose folders hold them.
  for (const h of tree.htaccessFiles) {
    const dir = normalizePath(dirname(h.path));
    for (const u of units) {
      if (u.standalone !== 'no') continue;
      if (!u.ss.accessFileNames.includes(basename(h.path))) continue;
      if (covers(u.ss, dir)) {
        u.htMap.set(dir, u.ss.addHtaccess(h));
        claimed.add(h);
      }
    }
  }
  for (const h of tree.htaccessFiles) {
    if (claimed.has(h)) continue;
    const u = makeUnit(new EmptyServer(tree, h) as unknown as ServerModel, 'htaccess');
    u.label = h.display;
    u.htMap.set(normalizePath(dirname(h.path)), u.ss.addHtaccess(h));
    units.push(u);
  }

  for (const u of units) analyzeUnit(u, out);
  return out;
}

/**
 * Modules whose directives only restrict access: where we cannot tell whether they are
 * loaded, assume they are. If one was not, 2.2 skipped the <IfModule> block and was more open
 * than the converted rules, never less.
 */
export const ACCESS_MODULES = new Set(['authz_host_module', 'authz_user_module', 'authz_groupfile_module', 'authz_dbm_module', 'authz_owner_module', 'auth_basic_module', 'auth_digest_module', 'authn_file_module', 'authn_dbm_module']);

function assumeAccessModules(has: (name: string) => Tristate): (name: string) => Tristate {
  return (name) => {
    const t = has(name);
    return t === 'unknown' && ACCESS_MODULES.has(moduleId(name)) ? 'yes' : t;
  };
}

/** A server-less unit for an .htaccess file nobody's configuration reaches. */
class EmptyServer {
  readonly loadModules: never[] = [];
  readonly moduleOrder: string[] = [];
  constructor(readonly tree: ConfigTree, readonly main: ConfigFile) {}
  *walk(): Generator<never> {}
  hasModule(): 'unknown' {
    return 'unknown';
  }
}

const reached = new WeakMap<ServerScopes, Set<string>>();

/** Does this server's configuration reach the folder (DocumentRoot, Alias or a <Directory> below /)? */
function covers(ss: ServerScopes, dir: string): boolean {
  let roots = reached.get(ss);
  if (!roots) {
    roots = new Set();
    const add = (root: string | null): void => {
      if (root !== null && root !== '/') roots!.add(normalizePath(root));
    };
    for (const v of [null, ...ss.vhosts]) {
      const map = ss.urlMap(v);
      add(map.documentRoot);
      for (const a of map.aliases) add(a.path);
    }
    for (const s of ss.scopes) if (s.kind === 'directory' && !s.wildcard) add(s.pattern);
    reached.set(ss, roots);
  }
  // The folder or one above it is a root (looked up per level, not per root: thousands of vhosts).
  for (let d = normalizePath(dir); d !== '/' && d !== ''; d = d.slice(0, Math.max(d.lastIndexOf('/'), 1))) {
    if (roots.has(d)) return true;
  }
  return false;
}

function analyzeUnit(u: Unit, out: AccessAnalysis): void {
  const scopes = u.ss.scopes;
  const st22 = new Map<Scope, SectionState>();
  const st24 = new Map<Scope, SectionState>();
  for (const s of scopes) {
    st22.set(s, readSection(s.children, u.env22));
    st24.set(s, readSection(s.children, u.env24));
  }
  const accessScopes = scopes.filter((s) => access22(st22.get(s)!) || st22.get(s)!.authType !== null || hasNative24(st24.get(s)!));
  if (accessScopes.length === 0) return;

  // 1. Every request class we can tell apart, as merge chains for both versions. A chain's
  // filesystem part depends on the folder and file, its <Location> part on the URL: each is
  // computed once, and scopes that say nothing about access are left out before chains are
  // compared, so requests that differ only in them collapse into one.
  const relevant = (s: Scope): boolean => {
    const a = st22.get(s)!;
    const b = st24.get(s)!;
    return access22(a) || a.authType !== null || a.structs.size > 0 || b.authz !== null || b.authMerging !== null || s.kind === 'htaccess';
  };
  type Part = { m22: Member[]; m24: Member[]; key: string; id: number };
  const keyOf = (ms: Member[]): string => ms.map((x) => `${x.scope.id}${x.certainty === 'may' ? '?' + (x.mayKey ?? '') : ''}${x.forbidden ? '!' : ''}`).join(',');
  // Equal keys, equal ids: a combination of parts is then two numbers, not two long strings.
  const partIds = new Map<string, number>();
  const part = (m22: Member[], m24: Member[]): Part => {
    const a = m22.filter((x) => relevant(x.scope));
    const b = m24.filter((x) => relevant(x.scope));
    const key = keyOf(a) + '/' + keyOf(b);
    let id = partIds.get(key);
    if (id === undefined) partIds.set(key, (id = partIds.size));
    return { m22: a, m24: b, key, id };
  };
  const fileParts = new Map<string, Map<string | null, Part>>();
  const locParts = new Map<string, Part>();
  const combos = new Map<number, { f: Part; l: Part; probe: Probe; real: boolean }>();
  const vhostKey = new Map<Section, string>(u.ss.vhosts.map((v, i) => [v, String(i)]));
  const locPart = (vhost: Section | null, uri: string | null): Part => {
    const lk = `${vhost ? vhostKey.get(vhost) : 'main'}|${uri}`;
    let l = locParts.get(lk);
    if (!l) {
      const probe: Probe = { vhost, uri, dir: '/', file: null };
      l = part(locationMembers(u.ss, probe, u.env22), locationMembers(u.ss, probe, u.env24));
      locParts.set(lk, l);
    }
    return l;
  };
  const folders = new ForeignFolders(u.ss, (vhost, uri) => locPart(vhost, uri).key);
  // Probes come folder by folder, a file name at a time: the folder's lookups are done once.
  let last: { vhost: Section | null; dir: string; proxy: boolean; mainPart: boolean; fsHost: Section | null; byFile: Map<string | null, Part> } | null = null;
  for (const probe of probes(u, folders)) {
    const proxy = probe.proxy === true;
    if (!last || last.vhost !== probe.vhost || last.dir !== probe.dir || last.proxy !== proxy || last.mainPart !== probe.mainPart) {
      // A folder the host's own sections do not touch has the main server's filesystem part.
      const fsHost: Section | null = probe.mainPart || (probe.vhost && !u.ss.ownFilesystemMayApply(probe.vhost, probe.dir, proxy)) ? null : probe.vhost;
      const fk = `${fsHost ? vhostKey.get(fsHost)! : 'main'}|${proxy ? 'proxy' : ''}|${probe.dir}`;
      let byFile = fileParts.get(fk);
      if (!byFile) fileParts.set(fk, (byFile = new Map()));
      last = { vhost: probe.vhost, dir: probe.dir, proxy, mainPart: probe.mainPart, fsHost, byFile };
    }
    const l = locPart(probe.vhost, probe.uri);
    for (const file of probe.files) {
      let f = last.byFile.get(file);
      if (!f) {
        const p: Probe = { vhost: last.fsHost, uri: probe.uri, dir: probe.dir, file, proxy: probe.proxy };
        f = part(fileMembers(u.ss, p, u.env22, u.htMap, classOf, 'all'), fileMembers(u.ss, p, u.env24, u.htMap, classOf, 'all'));
        last.byFile.set(file, f);
      }
      const ck = f.id * 0x4000000 + l.id;
      const c = combos.get(ck);
      if (!c) combos.set(ck, { f, l, probe: requestOf(probe, file), real: probe.real });
      else if (probe.real && !c.real) {
        c.real = true;
        c.probe = requestOf(probe, file);
      }
    }
  }
  const alts = new Map<string, Alt>();
  const ambiguousProbe = new Set<Scope>();
  for (const { f, l, probe, real } of combos.values()) {
    const m22 = [...f.m22, ...l.m22];
    const m24 = [...f.m24, ...l.m24];
    // What may or may not apply, by what it depends on: scopes under one undecided condition
    // go together.
    const may = [...new Set([...m22, ...m24].filter((x) => x.certainty === 'may').map((x) => x.mayKey ?? `s${x.scope.id}`))];
    if (may.length > 7) {
      for (const x of [...m22, ...m24]) ambiguousProbe.add(x.scope);
      continue;
    }
    for (let mask = 0; mask < 1 << may.length; mask++) {
      const on = (x: Member): boolean => x.certainty === 'must' || (mask & (1 << may.indexOf(x.mayKey ?? `s${x.scope.id}`))) !== 0;
      const c22: ChainMember[] = m22.filter(on);
      const c24: ChainMember[] = m24.filter(on);
      const key = c22.map((x) => x.scope.id + (x.forbidden ? '!' : '')).join(',') + '|' + c24.map((x) => x.scope.id + (x.forbidden ? '!' : '')).join(',');
      const prev = alts.get(key);
      if (!prev) alts.set(key, { c22, c24, probe, real });
      else if (real && !prev.real) {
        prev.real = true;
        prev.probe = probe;
      }
    }
  }
  // Sections some real request reaches: for them, only real requests count.
  const realScopes = new Set<Scope>();
  for (const a of alts.values()) if (a.real) for (const x of [...a.c22, ...a.c24]) realScopes.add(x.scope);
  const counts = (a: Alt, s: Scope): boolean => a.real || !realScopes.has(s);

  // 2. The last scope that sets host rules, Satisfy or Require decides (2.2); AuthType
  // scopes with nothing before them need a Require of their own in 2.4.
  const promoted = new Set<Scope>();
  for (const a of alts.values()) {
    if (a.c22.some((x) => access22(st22.get(x.scope)!))) continue;
    const t = [...a.c22].reverse().find((x) => st22.get(x.scope)!.authType !== null);
    if (t) promoted.add(t.scope);
  }
  const deciding = (a: Alt): Scope | null => {
    if (a.last22 !== undefined) return a.last22;
    a.last22 = null;
    for (let i = a.c22.length - 1; i >= 0 && !a.last22; i--) {
      const s = a.c22[i].scope;
      if (access22(st22.get(s)!) || promoted.has(s)) a.last22 = s;
    }
    return a.last22;
  };
  const chainsOf = new Map<Scope, Alt[]>();
  for (const a of alts.values()) {
    const x = deciding(a);
    if (!x || !counts(a, x)) continue;
    if (!chainsOf.has(x)) chainsOf.set(x, []);
    chainsOf.get(x)!.push(a);
  }

  // Chains through a scope, in order (built on first use: scanning every chain for each
  // scope that asks was quadratic).
  let through: Map<Scope, Alt[]> | null = null;
  const chainsThrough = (s: Scope): Alt[] => {
    if (through === null) {
      through = new Map();
      for (const a of alts.values()) {
        for (const x of a.c22) {
          const list = through.get(x.scope);
          if (!list) through.set(x.scope, [a]);
          else if (list[list.length - 1] !== a) list.push(a);
        }
      }
    }
    return through.get(s) ?? [];
  };
  const altsWith = (s: Scope): Alt[] => chainsThrough(s).filter((a) => counts(a, s));

  // 3. The 2.4 tree each deciding scope needs; it must be the same for every chain it decides.
  const plans = new Map<Scope, ScopePlan>();
  const mixedHere = new Set<Scope>();
  const states = (c: ChainMember[], view: Map<Scope, SectionState>): ChainState[] => c.map((x) => ({ state: view.get(x.scope)!, forbidden: x.forbidden }));
  for (const s of accessScopes) {
    const a22 = st22.get(s)!;
    const remove = [...a22.nodes];
    const plan: ScopePlan = { scope: s, facet: 'access-control', action: 'keep', remove };
    plans.set(s, plan);
    const isDual = isDualManaged(s);
    const native = hasNative24(st24.get(s)!);
    if (isDual || (native && !legacyOnly(a22))) continue; // already written for 2.4
    if (!access22(a22) && !promoted.has(s)) continue; // AuthType alone, under a Require in effect
    // A scope that never decides (a later scope always overrides it) is written with the
    // policy in effect as of itself: its chains cut after it.
    const chains = chainsOf.get(s) ?? truncatedChains(altsWith(s), s);
    const fail = (why: string): void => {
      plan.action = 'manual';
      plan.reason = why;
    };
    if (native) {
      fail(`it mixes 2.2 access directives with 2.4 Require syntax; in 2.4 both must pass, so decide which one is meant and remove the other`);
      mixedHere.add(s);
    }
    else if (a22.invalid.length > 0) fail(`2.2 would refuse ${a22.invalid[0]} at start-up, so its meaning is unknown`);
    else if (a22.uncertain) fail(a22.uncertain);
    else if (s.unresolved) fail(`its path uses ${s.unresolved}; give its value with --define`);
    else if (ambiguousProbe.has(s)) fail('too many sections may or may not apply to the same requests to compare them all');
    else if (chains.length === 0 && s.kind === 'htaccess') {
      // 2.2 never read it (AllowOverride None on its folder); neither will 2.4.
      out.notes.push({ transform: 'access-control', file: s.file, line: 1, severity: 'warning', message: `${s.file.display} is never read (AllowOverride None covers its folder), so its 2.2 access directives are left as they are; convert them if you ever allow overrides there` });
      continue;
    } else if (chains.length === 0) fail('no request we can see reaches it (its pattern matches no path the configuration names)');
    if (plan.action === 'manual') continue;
    const methods = methodsOf([...new Set(chains.flatMap((c) => c.c22.map((x) => st22.get(x.scope)!)))]);
    const trees = new Map<string, { tree: Tree; eff: Effective; chain: Alt }>();
    try {
      for (const c of chains) {
        const eff = translateChain(states(c.c22, st22), methods, u.server22);
        const k = treeKey(eff.tree);
        if (!trees.has(k)) trees.set(k, { tree: eff.tree, eff, chain: c });
      }
    } catch (e) {
      if (!(e instanceof Untranslatable)) throw e;
      fail(e.message);
      if (e.facet) plan.facet = e.facet;
      continue;
    }
    const first = [...trees.values()][0];
    if (trees.size > 1 && !sameMeaning([...trees.values()].map((t) => t.tree), methods, u, st24, s)) {
      // A section with Require but no host rules or Satisfy (a <Location> login over folders
      // with different host rules): 2.2 ANDed its Require with whatever host rules applied.
      // "AuthMerging And" says exactly that in 2.4; the guard checks it against every chain.
      if (!legacyOnly(a22) && a22.require !== null) {
        try {
          const own = translateChain([{ state: a22 }], methods, u.server22);
          plan.tree = own.tree;
          plan.effective = own;
          plan.authMerging = 'And';
          plan.action = 'convert';
          continue;
        } catch (e) {
          if (!(e instanceof Untranslatable)) throw e;
        }
      }
      const where = describeContexts([...trees.values()].map((t) => t.chain.c22.map((x) => x.scope)), s);
      fail(`the requests it governs inherit different rules from the sections around it (${where}), so no single 2.4 policy equals 2.2's`);
      continue;
    }
    plan.tree = first.tree;
    plan.effective = first.eff;
    plan.inherits = inheritedFrom(first.chain.c22.map((x) => x.scope), s, st22);
    if (u.standalone === 'htaccess' && inheritsSomething(a22) && first.tree.kind !== 'false') plan.authMerging = 'And';
    // An .htaccess given alone with only Require lines: in 2.4 they would replace the server's
    // rules for the folder, which 2.2 kept; "AuthMerging And" keeps them.
    plan.action = legacyOnly(a22) || promoted.has(s) || (u.standalone === 'htaccess' && plan.authMerging === 'And') ? 'convert' : 'keep';
    // Its Require lines alone, read again as 2.2, would seem to inherit the server's rules (and a
    // second run would add "AuthMerging And"): 2.4's default, written out, says they do not.
    if (u.standalone === 'htaccess' && plan.action === 'convert' && plan.authMerging === undefined && !hasNative24(plannedState(s, plan, u.env24)) && inheritsSomething(plannedState(s, plan, u.env22))) plan.authMerging = 'Off';
  }

  // 4. The guard: every chain must answer every request the same in 2.2 and in the planned 2.4.
  const converted24 = new Map<Scope, SectionState>();
  const planned24 = (s: Scope): SectionState => {
    const p = plans.get(s);
    if (!p || p.action !== 'convert' || !p.tree) return st24.get(s)!;
    let st = converted24.get(s);
    if (!st) converted24.set(s, (st = plannedState(s, p, u.env24)));
    return st;
  };
  // Keyed by what the chain's sections say, not by which sections say it: a thousand sites
  // with the same rules are one evaluation.
  const said = stateIds();
  const guardCache = new Map<string, Mismatch | null>();
  const keyOf24 = (c: ChainMember[], view: (s: Scope) => SectionState): string => c.map((x) => said(view(x.scope)) + (x.forbidden ? '!' : '')).join(',');
  // Plans change only in the guard loop below; a chain's answer stands until the plan of
  // one of its own sections does (keeping one section must not make every chain ask again).
  let stamp = 0;
  const changedAt = new Map<Scope, number>();
  const setAction = (p: ScopePlan, action: Action): void => {
    p.action = action;
    changedAt.set(p.scope, ++stamp);
  };
  const changedSince = (a: Alt, t: number): boolean => {
    for (const m of a.c22) if ((changedAt.get(m.scope) ?? 0) > t) return true;
    for (const m of a.c24) if ((changedAt.get(m.scope) ?? 0) > t) return true;
    return false;
  };
  const checked = new Map<Alt, { stamp: number; result: Mismatch | null }>();
  const check = (a: Alt): Mismatch | null => {
    const memo = checked.get(a);
    if (memo && !changedSince(a, memo.stamp)) return memo.result;
    const result = checkChain(a);
    checked.set(a, { stamp, result });
    return result;
  };
  const checkChain = (a: Alt): Mismatch | null => {
    // What the 2.2 chain says never changes: its half of the key is kept on the chain.
    a.key22 ??= keyOf24(a.c22, (s) => st22.get(s)!);
    const key = a.key22 + '|' + keyOf24(a.c24, planned24);
    if (guardCache.has(key)) return guardCache.get(key)!;
    const r = guard(states(a.c22, st22), a.c24.map((x) => ({ state: planned24(x.scope), forbidden: x.forbidden })), u.server22, a.probe);
    guardCache.set(key, r);
    return r;
  };
  // A chain decided (in either version) by a section its author wrote per version
  // (<IfVersion>, <IfModule [!]mod_authz_core.c>) or for 2.4 only differs by design: the
  // guard cannot hold the conversion of other sections responsible for it.
  const authorDecides = (a: Alt): boolean => {
    const last22 = deciding(a);
    if (a.last24 === undefined) {
      a.last24 = null;
      for (let i = a.c24.length - 1; i >= 0 && !a.last24; i--) {
        const st = st24.get(a.c24[i].scope)!;
        if (st.authz !== null || st.host !== null || st.satisfy.length > 0 || st.authMerging !== null) a.last24 = a.c24[i].scope;
      }
    }
    const last24 = a.last24;
    // A 2.4 section that merges (AuthMerging And/Or) does not decide alone, even one written
    // per version: the sections before it still answer for the chain (it is how a converted
    // <Location> login over folders kept in 2.2 form reads on a second run).
    const merges = (x: Scope): boolean => st24.get(x)!.authMerging === 'and' || st24.get(x)!.authMerging === 'or';
    const ours = (x: Scope | null): boolean => x === null || merges(x) || !(isDualManaged(x) || (hasNative24(st24.get(x)!) && !legacyOnly(st22.get(x)!) && plans.get(x)?.action !== 'convert'));
    return !ours(last22) || !ours(last24);
  };
  // Sections the loop below keeps in 2.2 form, in the order it keeps them, and what each
  // was planned as before the loop (a Require-only section may have been fine as it stood).
  const demoted: ScopePlan[] = [];
  const planned = new Map<ScopePlan, Action>([...plans.values()].map((p) => [p, p.action]));
  const guarded = (a: Alt): boolean => (a.real || !a.c22.every((m) => realScopes.has(m.scope))) && !authorDecides(a);
  const promotable = (a: Alt, x: Scope | null, px: ScopePlan | undefined): boolean => !!px && px.action === 'keep' && !!px.tree && !isDualManaged(x!) && counts(a, x!);
  // A mismatch in a chain with nothing to promote or keep changes no plan: not asked (on a
  // second run, most chains are all 2.4 already).
  const actionable = (a: Alt, x: Scope | null, px: ScopePlan | undefined): boolean => promotable(a, x, px) || a.c22.some((m) => plans.get(m.scope)?.action === 'convert' && counts(a, m.scope));
  // Each round only moves plans forward (keep -> convert -> manual), so this ends; it ends
  // when every chain with a converted section answers as 2.2 did.
  for (let changed = true; changed;) {
    changed = false;
    for (const a of alts.values()) {
      if (!guarded(a)) continue;
      const x = deciding(a);
      const px = x ? plans.get(x) : undefined;
      if (!actionable(a, x, px)) continue;
      const mm = check(a);
      if (!mm) continue;
      if (promotable(a, x, px)) {
        setAction(px!, 'convert');
        changed = true;
        continue;
      }
      // Keep converted sections of this chain in their 2.2 form, nearest the request first,
      // until the chain answers as 2.2 did: the sections further out (<Directory />) are
      // shared by every request, and keeping them would set the whole server back to 2.2.
      for (let i = a.c22.length - 1; i >= 0; i--) {
        const p = plans.get(a.c22[i].scope);
        if (!p || p.action !== 'convert' || !counts(a, p.scope)) continue;
        setAction(p, 'manual');
        demoted.push(p);
        // Name the section that could not be converted, not a chain of "shares requests with".
        const root = px?.action === 'manual' && px !== p ? (px.rootOf ?? px) : undefined;
        if (root) p.rootOf = root;
        p.reason = root
          ? `it shares requests with ${describeScope(root.scope, true)}, which could not be converted (see the finding there); converting one without the other changes what 2.4 answers`
          : `the converted form would answer ${mm.request} with ${mm.got} where 2.2 answered ${mm.want}`;
        changed = true;
        if (!check(a)) break;
      }
    }
  }

  // The loop keeps sections nearest the request first and never takes that back: one kept
  // while a section further out was still converted may have failed only because of that
  // section, kept itself later. Its conversion then holds after all, and a run on the output
  // (where the other is in 2.2 form) would make it: give it back here, where every chain
  // through it answers as 2.2 did, or already failed without it and is not its to answer.
  if (demoted.length > 0) {
    const lastMiss = new Map<ScopePlan, Mismatch>();
    for (let changed = true; changed;) {
      changed = false;
      for (const p of demoted) {
        if (p.action !== 'manual') continue;
        // A converted section is in the 2.2 chains (only 2.4-only ones are not).
        const mine = chainsThrough(p.scope);
        // A chain that fails now fails because of this section unless it failed without it
        // and this section was never its to answer for (only then is `before` asked).
        const before = new Map(mine.filter((a) => !counts(a, p.scope)).map((a) => [a, guarded(a) ? check(a) : null]));
        const holds = (): Mismatch | null => {
          for (const a of mine) {
            if (!guarded(a)) continue;
            const mm = check(a);
            if (mm && (counts(a, p.scope) || !before.get(a))) return mm;
          }
          return null;
        };
        for (const action of new Set<Action>([planned.get(p) === 'keep' ? 'keep' : 'convert', 'convert'])) {
          setAction(p, action);
          const miss = holds();
          if (!miss) break;
          setAction(p, 'manual');
          lastMiss.set(p, miss);
        }
        if (p.action === 'manual') continue;
        p.rootOf = undefined;
        p.reason = undefined;
        changed = true;
      }
    }
    // A section still kept because of one converted after all: name its own refused request.
    for (const p of demoted) {
      if (p.action !== 'manual' || !p.rootOf || p.rootOf.action === 'manual') continue;
      const mm = lastMiss.get(p);
      if (!mm) continue;
      p.rootOf = undefined;
      p.reason = `the converted form would answer ${mm.request} with ${mm.got} where 2.2 answered ${mm.want}`;
    }
  }

  // Sections kept in 2.2 form that share requests with sections using Require in 2.4.
  const mixedWith = new Map<Scope, Set<Scope>>();
  for (const a of alts.values()) {
    const kept = a.c24.filter((x) => plans.get(x.scope)?.action === 'manual' && counts(a, x.scope));
    if (kept.length === 0) continue;
    const modern = a.c24.filter((x) => plans.get(x.scope)?.action === 'convert' || (st24.get(x.scope)!.authz !== null && plans.get(x.scope)?.action !== 'manual'));
    for (const k of kept) {
      if (!mixedWith.has(k.scope)) mixedWith.set(k.scope, new Set());
      for (const m of modern) mixedWith.get(k.scope)!.add(m.scope);
    }
  }

  // 5. What stays 2.2 must still behave the same under 2.4 with mod_access_compat.
  const residual = new Map<Scope, Mismatch>();
  for (const a of alts.values()) {
    const x = deciding(a);
    if (!x || plans.get(x)?.action !== 'manual' || !counts(a, x)) continue;
    if (residual.has(x) || authorDecides(a)) continue;
    const mm = check(a);
    if (mm && mm.want !== 'unknown') residual.set(x, mm);
  }

  for (const p of plans.values()) {
    if (p.action === 'convert') p.facet = facetOf(p, st22.get(p.scope)!, promoted.has(p.scope));
    if (p.action === 'convert') {
      for (const n of p.remove) {
        if (n.kind !== 'directive' || !(n.is('Allow') || n.is('Deny'))) continue;
        const v = n.values;
        const hash = v.findIndex((w) => w.startsWith('#'));
        if (hash < 0) continue;
        const after = v.slice(hash + 1).filter((w) => !w.includes('#'));
        out.notes.push({ transform: 'access-control', file: p.scope.file, node: n, severity: 'warning', message: `"${v.slice(hash).join(' ')}" is not a comment to Apache: 2.2 read each word as a host name; "${v[hash]}" can never match and is dropped${after.length ? `, ${after.map((w) => `"${w}"`).join(', ')} kept as Require host (delete ${after.length > 1 ? 'them' : 'it'} if it was meant as a comment)` : ''}` });
      }
    }
    out.plans.push(p);
    out.planOf.set(p.scope.section ?? p.scope.file, p);
    const mm = residual.get(p.scope);
    if (p.action === 'manual') {
      const extra = mm ? ` Left as it is, 2.4 with mod_access_compat would answer ${mm.request} with ${mm.got} where 2.2 answered ${mm.want}: fix it by hand before upgrading.` : '';
      const kept = legacyOnly(st22.get(p.scope)!) ? 'keeps its 2.2 access directives (mod_access_compat)' : 'keeps its Require lines as they are (2.4 ORs them)';
      out.notes.push({ transform: mixedHere.has(p.scope) ? 'access-mixed-scopes' : p.facet, file: p.scope.file, node: p.scope.section ?? undefined, line: p.scope.section ? undefined : 1, severity: 'manual', message: `${describeScope(p.scope)} ${kept}: ${p.reason}.${extra}` });
      // Old and new meet: the sections whose Require rules these 2.2 lines are ANDed with in 2.4.
      const meets = mixedWith.get(p.scope);
      if (meets && meets.size > 0 && !mixedHere.has(p.scope)) {
        const names = [...meets].slice(0, 3).map((x) => describeScope(x, true)).join(', ');
        out.notes.push({ transform: 'access-mixed-scopes', file: p.scope.file, node: p.scope.section ?? undefined, line: p.scope.section ? undefined : 1, severity: 'warning', message: `${describeScope(p.scope)} keeps Order/Allow/Deny while ${names}${meets.size > 3 ? ' and others' : ''} use Require for the same requests: in 2.4 mod_access_compat and mod_authz_core must both allow a request (unless Satisfy Any), where 2.2 had one host policy; converting this section too removes the mix` });
      }
    }
    if (p.action === 'convert' && u.standalone !== 'no') {
      out.notes.push({
        transform: 'access-control',
        file: p.scope.file,
        node: p.scope.section ?? undefined,
        line: p.scope.section ? undefined : 1,
        severity: 'warning',
        message: u.standalone === 'htaccess'
          ? `converted without the server configuration around this .htaccess${p.authMerging === 'And' ? '; "AuthMerging And" keeps whatever the server requires for this folder, so 2.4 is never more open than 2.2 (it may be stricter: check)' : ''}`
          : `converted without a main configuration: assumed nothing around ${describeScope(p.scope)} sets Require or Satisfy for its paths; check`,
      });
    }
  }

  planOverrides(u, st22, plans, out);
  const files = [...new Set([...plans.values()].filter((p) => p.action === 'convert').map((p) => p.scope.file))];
  if (files.length > 1 || (files.length === 1 && files[0] !== u.main)) out.linked.push([u.main, ...files.filter((f) => f !== u.main)]);
}

/** Where the parts of a chain's policy that the scope does not set itself come from. */
function inheritedFrom(chain: Scope[], s: Scope, st: Map<Scope, SectionState>): ScopePlan['inherits'] {
  const upTo = chain.slice(0, chain.indexOf(s) + 1);
  const last = (f: (x: SectionState) => boolean): Scope | undefined => [...upTo].reverse().find((x) => f(st.get(x)!));
  const own = st.get(s)!;
  const out: NonNullable<ScopePlan['inherits']> = {};
  // Only parts that restrict something are worth naming.
  const methods = methodsOf(upTo.map((x) => st.get(x)!));
  const hostScope = own.host ? undefined : last((x) => x.host !== null);
  const host = hostScope && methods.some((m) => hostTree(st.get(hostScope)!.host, m).kind !== 'true') ? hostScope : undefined;
  const require = own.require ? undefined : last((x) => x.require !== null);
  const satScope = own.satisfy.length || !(own.require ?? require) ? undefined : last((x) => x.satisfy.length > 0);
  const satisfy = satScope && st.get(satScope)!.satisfy.some((v) => v.value === 'any') ? satScope : undefined;
  if (host) out.host = host;
  if (require) out.require = require;
  if (satisfy) out.satisfy = satisfy;
  return out;
}

/**
 * Numbers section states by what they say (their nodes aside): equal numbers, equal answers
 * from the evaluators, which read nothing else.
 */
function stateIds(): (s: SectionState) => number {
  const byState = new WeakMap<SectionState, number>();
  const byKey = new Map<string, number>();
  return (s) => {
    let id = byState.get(s);
    if (id === undefined) {
      const k = stateKey(s);
      id = byKey.get(k);
      if (id === undefined) byKey.set(k, (id = byKey.size));
      byState.set(s, id);
    }
    return id;
  };
}

function truncatedChains(all: Iterable<Alt>, s: Scope): Alt[] {
  const out = new Map<string, Alt>();
  for (const a of all) {
    const i = a.c22.findIndex((x) => x.scope === s);
    if (i < 0) continue;
    const c22 = a.c22.slice(0, i + 1);
    const key = c22.map((x) => x.scope.id).join(',');
    if (!out.has(key)) out.set(key, { c22, c24: a.c24, probe: a.probe, real: a.real });
  }
  return [...out.values()];
}

/** The reason a converted section needed rewriting (see Facet). */
function facetOf(p: ScopePlan, st: SectionState, promoted: boolean): Facet {
  if (legacyOnly(st)) return 'access-control';
  if (promoted && st.require === null) return 'auth-without-require';
  if (p.effective && p.effective.ignored.length > 0) return 'require-multi-provider';
  if (p.tree && hasDbmLine(p.tree)) return 'authz-dbm-group';
  return 'access-control';
}

function hasDbmLine(t: Tree): boolean {
  if (t.kind === 'line') return t.words[0] === 'dbm-group' || t.words[0] === 'dbm-file-group';
  if (t.kind === 'all' || t.kind === 'any') return t.children.some(hasDbmLine);
  if (t.kind === 'limit') return hasDbmLine(t.body);
  return false;
}

/** An .htaccess that leaves host rules, Satisfy or Require to the server inherits them in 2.2. */
function inheritsSomething(s: SectionState): boolean {
  return s.host === null || s.require === null || s.satisfy.length === 0;
}

/** The 2.4 state of a scope once converted. */
export function plannedState(s: Scope, p: ScopePlan, env: ConditionEnv): SectionState {
  const added = [...(p.authMerging === 'And' ? [directive('AuthMerging', 'And')] : []), ...toNodes(p.tree!)];
  return readSection([...s.children, ...added], env, new Set(p.remove));
}

interface Mismatch {
  request: string;
  want: Status | 'unknown';
  got: Status;
}

function describeRequest(r: Request, probe: Probe): string {
  const c = r.client;
  // A file's request: its folder's URL (or path) and its name.
  const folder = probe.uri ?? `${probe.dir.replace(/\/$/, '')}/`;
  const target = (probe.file === null ? folder : `${folder.replace(/\/?$/, '/')}${probe.file}`).split(ANY_NAME).join('<any>');
  const addr = c.family === 4 ? [24n, 16n, 8n, 0n].map((s) => String((c.addr >> s) & 255n)).join('.') : `[${c.addr.toString(16)}]`;
  const who = r.cred.kind === 'none' ? 'no password' : r.cred.kind === 'bad' ? 'a wrong password' : r.cred.name ? `user ${r.cred.name}` : 'a valid user';
  return `${r.method === '~OTHER' ? 'another method' : r.method} ${target} from ${addr}${c.host ? ` (${c.host})` : ''}${c.env.size ? ` with ${[...c.env].join(', ')} set` : ''} and ${who}`;
}

function guard(c22: ChainState[], c24: ChainState[], server: Server22, probe: Probe): Mismatch | null {
  const all = [...c22, ...c24].map((c) => c.state);
  const methods = methodsOf(all);
  for (const r of requestClasses(all, methods)) {
    const want = eval22(c22, r, server);
    const got = eval24(c24, r);
    if (want !== got) return { request: describeRequest(r, probe), want, got };
  }
  return null;
}

/** Do these trees answer every request the same (same surroundings)? */
function sameMeaning(trees: Tree[], methods: readonly string[], u: Unit, st24: Map<Scope, SectionState>, s: Scope): boolean {
  const base = st24.get(s)!;
  const states = trees.map((t) => readSection(toNodes(t), u.env24)).map((st) => ({ ...st, authType: base.authType ?? 'Basic', structs: base.structs }));
  const reqs = requestClasses(states, methods);
  for (const r of reqs) {
    const first = eval24([{ state: states[0] }], r);
    for (const st of states.slice(1)) if (eval24([{ state: st }], r) !== first) return false;
  }
  return true;
}

/** A scope as people name it: `<Directory /var/www>`, or the .htaccess path; `where` adds file:line. */
export function describeScope(s: Scope, where = false): string {
  if (s.kind === 'htaccess') return s.file.display;
  const sec = s.section!;
  return `<${sec.name}${sec.values.length ? ' ' + sec.values.join(' ') : ''}>` + (where ? ` (${s.file.display}:${sec.line})` : '');
}

function describeContexts(chains: Scope[][], s: Scope): string {
  const others = new Set<Scope>();
  const sets = chains.map((c) => new Set(c));
  for (const set of sets) for (const x of set) if (x !== s && !sets.every((o) => o.has(x))) others.add(x);
  return others.size > 0 ? `with and without ${[...others].slice(0, 3).map((x) => describeScope(x, true)).join(', ')}` : 'depending on the request';
}

/**
 * Which .htaccess folders a virtual host must probe. Every server probes every .htaccess
 * folder (a folder no URL of it reaches may still be reached, see probes()), so a tree with
 * an .htaccess per site had vhosts x folders requests. Most of them repeat what an earlier
 * server's requests already gave: a folder that none of the host's own sections touch and
 * none of its URLs map to has the filesystem part the main server gave it, and is paired with
 * the same URLs as every other such folder (the host's "foreign" URLs). Once a server has
 * paired a folder with <Location> parts of the same keys, the host's requests for it add no
 * chain that is not already there, and are skipped: the chains found, and their order, are
 * those of probing everything.
 *
 * Book-keeping: for each <Location> part key, the folders not yet paired with it ("holes"):
 * the main server pairs its foreign URLs with every folder but those under its own
 * DocumentRoot and Aliases; a host pairs its foreign URLs with every folder but those its
 * own sections or URLs reach.
 */
class ForeignFolders {
  /** The .htaccess scopes in reading order; a folder is named by its index here. */
  readonly block: Scope[];
  private readonly sorted: Array<{ pattern: string; i: number }>;
  private readonly holes = new Map<string, Set<number>>();
  private readonly own = new Map<Section, Scope[]>();

  constructor(private readonly ss: ServerScopes, private readonly locKey: (vhost: Section | null, uri: string) => string) {
    this.block = ss.scopes.filter((s) => s.kind === 'htaccess');
    for (const s of ss.scopes) {
      if (s.vhost === null) continue;
      const list = this.own.get(s.vhost);
      if (list) list.push(s);
      else this.own.set(s.vhost, [s]);
    }
    this.sorted = this.block.map((s, i) => ({ pattern: normalizePath(s.pattern), i })).sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : a.i - b.i));
  }

  /** Folders that are `root` or below it (as toUri() and a <Directory> level test them). */
  private under(root: string, out: Set<number>): void {
    const first = (s: string): number => {
      let lo = 0;
      let hi = this.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.sorted[mid].pattern < s) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    for (let k = first(root); k < this.sorted.length && this.sorted[k].pattern === root; k++) out.add(this.sorted[k].i);
    const end = first(root + '0'); // '0' follows '/'
    for (let k = first(root + '/'); k < end; k++) out.add(this.sorted[k].i);
  }

  /**
   * The folders (block indices, in order) the host must probe, or null for all of them; and
   * `own`, unless null: the folders whose filesystem part may differ from the main server's
   * (the others have the main server's, so the host need not compute its own).
   * `foreign`: the URLs the host pairs with a folder it does not map.
   */
  choose(vhost: Section | null, foreign: readonly string[], real: boolean): { visit: number[] | null; own: ReadonlySet<number> | null } {
    // A pairing that is not real says nothing of the real ones with the same <Location> part.
    const keys = [...new Set(foreign.map((uri) => (real ? 'r:' : 'h:') + this.locKey(vhost, uri)))];
    const map = this.ss.urlMap(vhost);
    const own = new Set<number>();
    for (const root of [map.documentRoot, ...map.aliases.map((a) => a.path)]) if (root !== null) this.under(root, own);
    if (vhost === null) {
      for (const k of keys) if (!this.holes.has(k)) this.holes.set(k, new Set(own));
      return { visit: null, own: null };
    }
    // The host's own sections must not change any folder's filesystem part but by matching it as a <Directory>.
    for (const s of this.own.get(vhost) ?? []) {
      if (s.kind === 'directorymatch' || ((s.kind === 'files' || s.kind === 'filesmatch') && s.parent === null)) return { visit: null, own: null };
      if (s.kind === 'directory') {
        if (s.wildcard || s.pattern === '/') return { visit: null, own: null };
        this.under(s.pattern, own);
      }
    }
    const known = keys.every((k) => this.holes.has(k));
    const todo = new Set(own);
    if (known) for (const k of keys) for (const i of this.holes.get(k)!) todo.add(i);
    // After this host, a key's holes are at most the folders it reaches itself.
    for (const k of keys) {
      const h = this.holes.get(k);
      this.holes.set(k, h ? new Set([...h].filter((i) => own.has(i))) : new Set(own));
    }
    return { visit: known ? [...todo].sort((a, b) => a - b) : null, own };
  }
}

/** Requests for a URL and folder, one per file name (the file names are the same for all). */
interface FolderProbe {
  vhost: Section | null;
  uri: string | null;
  dir: string;
  files: ReadonlySet<string | null>;
  proxy?: boolean;
  mainPart: boolean;
  real: boolean;
}

function requestOf(fp: FolderProbe, file: string | null): Probe {
  return fp.proxy ? { vhost: fp.vhost, uri: fp.uri, dir: fp.dir, file, proxy: true } : { vhost: fp.vhost, uri: fp.uri, dir: fp.dir, file };
}

/** Requests that reach every scope: folders, files and URLs the configuration names. */
function* probes(u: Unit, folders: ForeignFolders): Generator<FolderProbe> {
  const ss = u.ss;
  const mainReal = u.standalone !== 'no' || ss.mainReachable();
  const hosts: Array<Section | null> = [null, ...ss.vhosts];
  const files = new Set<string | null>([null, ANY_NAME + '.html']);
  for (const s of ss.scopes) {
    if (s.kind === 'files') files.add(s.wildcard ? fnmatchExample(s.pattern) : s.pattern);
    if (s.kind === 'filesmatch' && s.regex) {
      const ex = regexExample(s.regex);
      if (ex !== null) files.add(ex.includes('/') ? ex.slice(ex.lastIndexOf('/') + 1) : ex);
    }
  }
  const hasProxy = ss.scopes.some((s) => s.kind === 'proxy');
  const proxyFiles = new Set([null]);
  // The scopes of each host in reading order, .htaccess files (read last: ForeignFolders) apart.
  const blockStart = ss.scopes.findIndex((s) => s.kind === 'htaccess');
  const server = blockStart < 0 ? ss.scopes : ss.scopes.slice(0, blockStart);
  const position = new Map(server.map((s, i) => [s, i]));
  const shared = server.filter((s) => s.vhost === null);
  const ownScopes = new Map<Section, Scope[]>();
  for (const s of server) {
    if (s.vhost === null) continue;
    const list = ownScopes.get(s.vhost);
    if (list) list.push(s);
    else ownScopes.set(s.vhost, [s]);
  }
  for (const vhost of hosts) {
    const map = ss.urlMap(vhost);
    const reach = vhost !== null || mainReal;
    const mine = vhost === null ? shared : [...shared, ...(ownScopes.get(vhost) ?? [])].sort((a, b) => position.get(a)! - position.get(b)!);
    const dirs = new Set<string>();
    const addDir = (d: string): void => {
      const n = normalizePath(d);
      dirs.add(n);
      dirs.add(n === '/' ? '/' + ANY_NAME : n + '/' + ANY_NAME);
    };
    addDir('/');
    if (map.documentRoot) addDir(map.documentRoot);
    for (const a of map.aliases) addDir(a.path);
    for (const s of mine) {
      if (s.kind === 'directory') addDir(s.wildcard ? fnmatchExample(s.pattern) : s.pattern);
      if (s.kind === 'directorymatch' && s.regex) {
        const ex = regexExample(s.regex);
        if (ex !== null) {
          if (ex.startsWith('/')) addDir(ex.endsWith('/') ? ex : dirname(ex + '/x'));
          for (const base of [map.documentRoot, ...map.aliases.map((a) => a.path)]) if (base) addDir(base + (ex.startsWith('/') ? '' : '/') + ex);
        }
      }
    }
    const pairs = new Map<string, { uri: string | null; dir: string; real: boolean }>();
    const pair = (uri: string | null, dir: string, real = reach): void => {
      const k = `${uri}\u0001${dir}`;
      const p = pairs.get(k);
      if (!p) pairs.set(k, { uri, dir: normalizePath(dir), real });
      else p.real ||= real;
    };
    // A folder no URL we know reaches: with no mapping known (a fragment) or mappings we
    // cannot follow, any <Location> may reach it; otherwise only <Location /> does.
    const locationUris = mine.filter((s) => s.kind === 'location').map((s) => (s.wildcard ? fnmatchExample(s.pattern) : s.pattern));
    const unknownMap = map.opaque || (map.documentRoot === null && map.aliases.length === 0);
    const foreign = unknownMap ? [...locationUris, '/' + ANY_NAME] : ['/' + ANY_NAME];
    // With the mapping known, no URL of this host reaches such a folder: those requests are not real.
    const foreignReal = reach && unknownMap;
    // Every .htaccess folder, or those whose requests are not known already.
    const chosen = folders.choose(vhost, foreign, foreignReal);
    const mainPart = new Set<string>();
    for (const i of chosen.visit ?? folders.block.keys()) {
      const d = folders.block[i].pattern;
      addDir(d);
      if (chosen.own && !chosen.own.has(i)) {
        const n = normalizePath(d);
        mainPart.add(n);
        mainPart.add(n === '/' ? '/' + ANY_NAME : n + '/' + ANY_NAME);
      }
    }
    for (const d of dirs) {
      const uri = toUri(map, d);
      if (uri !== null) pair(uri, d);
      else for (const u of foreign) pair(u, d, foreignReal);
    }
    for (const s of mine) {
      if (s.kind !== 'location' && s.kind !== 'locationmatch') continue;
      const uris = s.kind === 'location' ? [s.wildcard ? fnmatchExample(s.pattern) : s.pattern] : s.regex ? [regexExample(s.regex)].filter((x): x is string => x !== null) : [];
      for (const uri of uris) {
        for (const v of [uri, uri.replace(/\/?$/, '/') + ANY_NAME]) {
          const p = toPath(map, v);
          if (p) {
            pair(v, p.dir);
            pair(v, p.dir + '/' + p.last);
          } else pair(v, '/' + ANY_NAME);
          if (map.opaque) pair(v, '/' + ANY_NAME);
        }
      }
    }
    for (const { uri, dir, real } of pairs.values()) yield { vhost, uri, dir, files, mainPart: mainPart.has(dir), real };
    if (hasProxy) yield { vhost, uri: null, dir: '/', files: proxyFiles, proxy: true, mainPart: false, real: reach };
  }
}

/** The URL that reaches a folder (Alias first, then DocumentRoot), or null. */
function toUri(map: ReturnType<ServerScopes['urlMap']>, dir: string): string | null {
  for (const a of map.aliases) {
    if (dir === a.path || dir.startsWith(a.path + '/')) return a.url.replace(/\/$/, '') + dir.slice(a.path.length) + '/';
  }
  const root = map.documentRoot;
  if (root && (dir === root || dir.startsWith(root + '/'))) return dir.slice(root.length) + '/';
  return null;
}

/** The folder and last path part a URL maps to. */
function toPath(map: ReturnType<ServerScopes['urlMap']>, uri: string): { dir: string; last: string } | null {
  let path: string | null = null;
  for (const a of map.aliases) {
    const url = a.url.replace(/\/$/, '');
    if (uri === url || uri.startsWith(url + '/')) {
      path = a.path + uri.slice(url.length);
      break;
    }
  }
  if (path === null && map.documentRoot) path = map.documentRoot + uri;
  if (path === null) return null;
  const n = normalizePath(path);
  return { dir: dirname(n), last: basename(n) };
}

/**
 * AllowOverride for the .htaccess files 2.2 read: 2.4's default differs (it opens the file
 * but allows nothing), and converted access rules need AuthConfig where they needed Limit.
 */
function planOverrides(u: Unit, st22: Map<Scope, SectionState>, plans: Map<Scope, ScopePlan>, out: AccessAnalysis): void {
  const hts = u.ss.scopes.filter((s) => s.kind === 'htaccess');
  if (hts.length === 0) return;
  if (u.standalone === 'htaccess') {
    for (const h of hts) {
      const p = plans.get(h);
      if (p?.action === 'convert') out.notes.push({ transform: 'htaccess-allowoverride', file: h.file, line: 1, severity: 'manual', message: 'the converted rules need "AllowOverride AuthConfig" (2.2 needed Limit) on this folder; the server configuration is not in the paths given, so make sure it allows it' });
    }
    return;
  }
  const edits = new Map<string, OverrideEdit>();
  const byPath = new Map<string, Scope[]>();
  for (const s of u.ss.scopes) {
    if (s.kind !== 'directory' || s.wildcard) continue;
    const list = byPath.get(s.pattern);
    if (list) list.push(s);
    else byPath.set(s.pattern, [s]);
  }
  for (const h of hts) {
    // The AllowOverride in effect for this folder: the last <Directory> on its path that sets one.
    const dir = h.pattern;
    const dirs: Scope[] = [];
    const parts = dir.split('/').filter(Boolean);
    for (let i = 0; i <= parts.length; i++) dirs.push(...(byPath.get('/' + parts.slice(0, i).join('/')) ?? []).sort((a, b) => a.id - b.id));
    let setter: Scope | null = null;
    let ov: Overrides = 'all';
    for (const d of dirs) if (d.allowOverride) {
      setter = d;
      ov = d.allowOverride;
    }
    if (ov === 'none') continue; // 2.2 never read it; explicit None means the same in 2.4
    const needed = neededClasses(h, plans.get(h), u.env24);
    if (needed.size === 0 && setter !== null) continue;
    // Where 2.2 relied on the default: the most specific <Directory> holding the folder, but
    // never <Directory /> (that would open .htaccess everywhere); else a new <Directory>.
    const target = setter ?? dirs.filter((d) => d.pattern !== '/').pop() ?? null;
    let values: string[];
    let reason: string;
    if (ov === 'all') {
      if (setter) continue; // explicit All means the same in 2.4
      values = ['All'];
      reason = '2.2 read .htaccess files with the compiled-in "AllowOverride All"; 2.4\'s default allows nothing (each directive there gives a 500)';
    } else {
      const have = new Set([...ov].map((c) => c.toLowerCase()));
      const missing = [...needed].filter((c) => !have.has(c));
      if (missing.length === 0) continue;
      values = [...setter!.allowOverride === null ? [] : (setter!.section!.children.find((c): c is Directive => c.kind === 'directive' && c.is('AllowOverride'))?.values ?? []), ...missing.map(className)];
      reason = `the converted access rules in ${h.file.display} use ${missing.map(className).join(', ')} directives (2.2's Order/Allow/Deny needed only Limit)`;
    }
    const key = target ? `s${target.id}` : `p${dir}`;
    const prev = edits.get(key);
    if (prev) {
      prev.htaccess.push(h.file);
      for (const v of values) if (!prev.values.some((x) => x.toLowerCase() === v.toLowerCase())) prev.values.push(v);
      continue;
    }
    edits.set(key, { section: target?.section ?? null, file: target?.file ?? u.main, path: u.ss.serverPath(target?.pattern ?? dir), values, htaccess: [h.file], reason });
  }
  for (const e of edits.values()) {
    out.overrides.push(e);
    out.linked.push([e.file, ...e.htaccess]);
  }
  void st22;
}

const CLASS_NAMES: Record<string, string> = { authconfig: 'AuthConfig', limit: 'Limit', options: 'Options', indexes: 'Indexes', fileinfo: 'FileInfo' };
const className = (c: string): string => CLASS_NAMES[c] ?? c;

/** The AllowOverride classes an .htaccess needs once converted. */
function neededClasses(h: Scope, plan: ScopePlan | undefined, env24: ConditionEnv): Set<string> {
  const out = new Set<string>();
  const removed = new Set(plan?.action === 'convert' ? plan.remove : []);
  const nodes: Node[] = [];
  for (const n of walk(h.file.doc)) if (!removed.has(n)) nodes.push(n);
  if (plan?.action === 'convert') {
    out.add('authconfig');
    void env24;
  }
  for (const n of nodes) {
    if (n.kind !== 'directive' && n.kind !== 'section') continue;
    const c = overrideClass(n.name);
    if (c) out.add(c);
  }
  return out;
}
