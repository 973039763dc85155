// "This server needs module X loaded": the one mechanism behind the `modules`,
// `add-output-filter-by-type` and `authn-alias` transforms.
//
// - What a directive needs in 2.4 (needsOf): modules that took over 2.2 core features
//   (authz_core, authn_core, unixd, filter, access_compat), providers that became modules of
//   their own (socache_*, lbmethod_*, slotmem_shm, cache_disk), and Require providers.
// - What a server loads once converted (loadedIn24): its LoadModule lines with 2.2-only
//   modules dropped and renamed ones under their 2.4 names.
// - What is missing (planModules): needs of every directive 2.4 reads, in the whole server
//   (main config, included files, its .htaccess files), after the other transforms ran.
// - Adding (applyPlan): `<IfModule !X_module> LoadModule X_module <dir>/mod_X.so </IfModule>`
//   after the server's last LoadModule, in that file, with the folder and quoting its
//   LoadModule lines use. The guard keeps a module a 2.4 build compiles in from stopping
//   start-up ("module X is built-in and can't be loaded").

import { MPM_IDS, moduleFile, moduleId as moduleIdOf, moduleIn24, RENAMED_IN_24 } from '../../src/model/modules.js';
import { model } from '../../src/model/server.js';
import { type ConfigFile, type ConfigTree, treeCache } from '../../src/model/tree.js';
import { ancestors, blank, comment, type Directive, directive, lineOf, type Node, type Section, section, walk, quoteArg } from '../../src/syntax/index.js';
import type { TransformContext } from '../types.js';
import { type ModuleState, readBy24 } from './conditions.js';
import { serversOfHtaccess } from './directories.js';
import { isServerMainConfig } from './scope.js';

/** 2.2 modules that 2.4 does not have: LoadModule of them stops start-up. */
export { REMOVED_IN_24, RENAMED_IN_24 } from '../../src/model/modules.js';

/** Modules every stock 2.4 configuration loads (upstream httpd.conf and Debian's defaults). */
export const STOCK_24 = new Set(['authz_core_module', 'authn_core_module', 'authz_host_module', 'access_compat_module', 'filter_module', 'unixd_module']);

export interface Need {
  module: string;
  /** The directive (or section) that needs it. */
  node: Node;
  file: ConfigFile;
  /** What needs it, as people read it: the directive name (and provider). */
  what: string;
  /** false: only report when missing (loading it would change what 2.2 did). */
  add: boolean;
}

const BY_DIRECTIVE: Readonly<Record<string, string>> = {
  authmerging: 'authz_core_module',
  authzsendforbiddenonfailure: 'authz_core_module',
  requireall: 'authz_core_module',
  requireany: 'authz_core_module',
  requirenone: 'authz_core_module',
  authzprovideralias: 'authz_core_module',
  authnprovideralias: 'authn_core_module',
  authtype: 'authn_core_module',
  authname: 'authn_core_module',
  order: 'access_compat_module',
  allow: 'access_compat_module',
  deny: 'access_compat_module',
  satisfy: 'access_compat_module',
  user: 'unixd_module',
  group: 'unixd_module',
  chrootdir: 'unixd_module',
  suexec: 'unixd_module',
  addoutputfilterbytype: 'filter_module',
};

/** Require providers and the module that registers them (mod_authz_core.c and friends). */
const PROVIDERS: ReadonlyArray<[RegExp, string, boolean]> = [
  [/^(ip|host|local|forward-dns)$/, 'authz_host_module', true],
  [/^(user|valid-user)$/, 'authz_user_module', false],
  [/^(group|file-group)$/, 'authz_groupfile_module', false],
  [/^(dbm-group|dbm-file-group)$/, 'authz_dbm_module', false],
  [/^file-owner$/, 'authz_owner_module', false],
  [/^ldap-/, 'authnz_ldap_module', false],
  [/^dbd-/, 'authz_dbd_module', false],
  [/^(ssl|ssl-verify-client)$/, 'ssl_module', false],
];

/** Socache providers by the name before the colon (SSLSessionCache, SSLStaplingCache). */
const SOCACHE: Readonly<Record<string, string>> = { shmcb: 'socache_shmcb_module', dbm: 'socache_dbm_module', dc: 'socache_dc_module', memcache: 'socache_memcache_module', redis: 'socache_redis_module' };

/** Names needsOf() looks further at; every other node needs nothing (most of a server). */
const NEEDING = new Set([...Object.keys(BY_DIRECTIVE), 'require', 'sslsessioncache', 'sslstaplingcache', 'cacheenable', 'proxy', 'proxymatch', 'balancermember', 'proxypass', 'proxypassmatch', 'proxyset']);

/** The modules one directive or section needs in 2.4 (beyond its own module). */
export function needsOf(node: Node): Array<{ module: string; what: string; add: boolean }> {
  if ((node.kind !== 'directive' && node.kind !== 'section') || !NEEDING.has(node.key)) return [];
  const out: Array<{ module: string; what: string; add: boolean }> = [];
  const key = node.key;
  const shown = node.kind === 'section' ? `<${node.name}>` : node.name;
  if (BY_DIRECTIVE[key]) out.push({ module: BY_DIRECTIVE[key], what: shown, add: true });
  const v = node.values;
  if (node.kind === 'directive' && key === 'require') {
    out.push({ module: 'authz_core_module', what: shown, add: true });
    const words = v[0]?.toLowerCase() === 'not' ? v.slice(1) : v;
    const provider = (words[0] ?? '').toLowerCase();
    for (const [re, module, add] of PROVIDERS) if (re.test(provider)) out.push({ module, what: `Require ${provider}`, add });
  }
  if (node.kind === 'directive' && (key === 'sslsessioncache' || key === 'sslstaplingcache') && v.length > 0) {
    const name = /^([^:]+):/.exec(v[0])?.[1] ?? v[0];
    const module = SOCACHE[name];
    if (module) out.push({ module, what: `${shown} ${name}`, add: true });
  }
  if (node.kind === 'directive' && key === 'cacheenable' && v.length > 0) {
    const type = v[0];
    if (type === 'disk') out.push({ module: 'cache_disk_module', what: `${shown} disk`, add: true });
    if (type === 'socache') out.push({ module: 'cache_socache_module', what: `${shown} socache`, add: true });
  }
  // mod_proxy_balancer 2.4 keeps its scoreboard in mod_slotmem_shm and its methods in mod_lbmethod_*.
  const balancer = (node.kind === 'section' && (key === 'proxy' || key === 'proxymatch') && /^balancer:\/\//i.test(v[0] ?? ''))
    || (node.kind === 'directive' && (key === 'balancermember' || ((key === 'proxypass' || key === 'proxypassmatch') && v.some((w) => /^balancer:\/\//i.test(w)))));
  if (balancer) {
    out.push({ module: 'slotmem_shm_module', what: shown, add: true });
    out.push({ module: 'lbmethod_byrequests_module', what: shown, add: true });
  }
  if (node.kind === 'directive' && (key === 'proxyset' || key === 'proxypass' || key === 'proxypassmatch' || key === 'balancermember')) {
    for (const w of v) {
      const m = /^lbmethod=(byrequests|bytraffic|bybusyness|heartbeat)$/i.exec(w);
      if (m) out.push({ module: `lbmethod_${m[1].toLowerCase()}_module`, what: `${shown} ${w}`, add: true });
    }
  }
  return out;
}

/** The module a LoadModule line loads in 2.4 ('' for a 2.2-only module). */
export function in24(id: string): string {
  return moduleIn24(id);
}

/** Is the section our own guard (`<IfModule !X_module>` holding just `LoadModule X_module …`)? */
export function isGuardBlock(n: Node | undefined): n is Section {
  if (!n || n.kind !== 'section' || !n.is('IfModule')) return false;
  const inner = n.children.filter((c) => c.kind !== 'blank' && c.kind !== 'comment');
  return inner.length === 1 && inner[0].kind === 'directive' && inner[0].is('LoadModule') && n.values[0]?.toLowerCase() === '!' + (inner[0].values[0] ?? '').toLowerCase();
}

export const ADDED_COMMENT = 'Modules httpd 2.4 needs for this configuration (added by httpd24-codemod)';

export interface ModulePlan {
  main: ConfigFile;
  /** The server has LoadModule lines: we know its modules and where to add. */
  known: boolean;
  loaded: Set<string>;
  needs: Need[];
  /** Modules to add, with what needs them, in the order they are added. */
  add: Array<{ module: string; needs: Need[]; mpm?: string; always?: string }>;
  /** Provider modules that are missing but must not be added (reported; only for a server's own main config). */
  missing: Need[];
  /** Add after this top-level node of this file. */
  anchor: { file: ConfigFile; node: Node } | null;
  prefix: string;
  quote: '"' | "'" | '';
}

interface Visit { node: Node; file: ConfigFile; sections: readonly Section[] }

/** Every node of a server, including the .htaccess files that belong to it. */
function serverVisits(tree: ConfigTree, main: ConfigFile): Visit[] {
  const out: Visit[] = [...model(tree).server(main).walk()];
  for (const h of tree.htaccessFiles) {
    if (!serversOfHtaccess(h, tree).includes(main)) continue;
    for (const n of walk(h.doc)) out.push({ node: n, file: h, sections: [...ancestors(n)].reverse() });
  }
  return out;
}

const MPM_SOURCES: Readonly<Record<string, string>> = { mpm_prefork_module: 'prefork', mpm_worker_module: 'worker', mpm_event_module: 'event' };

/**
 * What a server needs loaded. `only` limits the modules considered (a transform that
 * handles one module); without it an MPM is planned too.
 */
export function planModules(tree: ConfigTree, main: ConfigFile, only?: ReadonlySet<string>): ModulePlan {
  const visits = serverVisits(tree, main);
  const loads = visits.filter((v) => v.node.kind === 'directive' && v.node.is('LoadModule') && v.node.values.length >= 1 && v.file.role !== 'htaccess');
  const loaded = new Set<string>();
  for (const l of loads) {
    const id = in24((l.node as Directive).values[0].toLowerCase());
    if (id) loaded.add(id);
  }
  const known = loads.length > 0;

  // Needs depend on which <IfModule> blocks 2.4 reads, which depends on what we add:
  // iterate to a fixed point. authz_core/authn_core stand for 2.2 core features, so a
  // first guess assumes them (a `<IfModule !mod_authz_core.c>` 2.2 branch then stays unread).
  // Each node's needs are built once; the rounds below only choose which are read.
  const needing: Array<{ v: Visit; list: Need[] }> = [];
  for (const v of visits) {
    const list = needsOf(v.node).filter((n) => !only || only.has(n.module)).map((n) => ({ ...n, node: v.node, file: v.file }));
    if (list.length > 0) needing.push({ v, list });
  }
  const collect = (state: ModuleState): Need[] => {
    const out: Need[] = [];
    for (const { v, list } of needing) if (readBy24(v.sections, state)) out.push(...list);
    return out;
  };
  // The MPM we are going to load opens its <IfModule mpm_…> blocks: decide it first, so the
  // needs of the directives inside them are seen now, not on a second run.
  const mpm = known && !only && isServerMainConfig(main) && ![...loaded].some((m) => MPM_IDS.includes(m) || m.startsWith('mpm_')) ? chooseMpm(visits, loaded) : null;
  const base = mpm ? [...loaded, mpm.module] : [...loaded];
  let assumed = new Set([...base, 'authz_core_module', 'authn_core_module']);
  let needs: Need[] = [];
  for (let i = 0; i < 4; i++) {
    needs = collect({ loaded: assumed, known });
    const next = new Set([...base, ...needs.filter((n) => n.add).map((n) => n.module)]);
    if (next.size === assumed.size && [...next].every((m) => assumed.has(m))) break;
    assumed = next;
  }

  const add: ModulePlan['add'] = [];
  const missing: Need[] = [];
  for (const n of needs) {
    if (loaded.has(n.module)) continue;
    if (!n.add) {
      if (isServerMainConfig(main) && !missing.some((m) => m.module === n.module && m.node === n.node)) missing.push(n);
      continue;
    }
    const entry = add.find((a) => a.module === n.module);
    if (entry) entry.needs.push(n);
    else add.push({ module: n.module, needs: [n] });
  }

  // 2.4 without mod_authz_core answers every request 500 ("AH00025: configuration error:
  // couldn't check user"), even with no access control configured (checked on 2.4.71).
  if (known && isServerMainConfig(main) && (!only || only.has('authz_core_module')) && !loaded.has('authz_core_module') && !add.some((a) => a.module === 'authz_core_module')) {
    add.push({ module: 'authz_core_module', needs: [], always: 'without it 2.4 answers every request with 500 ("couldn\'t check user"); 2.2 had this in core' });
  }

  if (mpm) add.unshift({ module: mpm.module, needs: [], mpm: mpm.why });

  const last = loads[loads.length - 1];
  let anchor: ModulePlan['anchor'] = null;
  let prefix = 'modules/';
  let quote: '"' | "'" | '' = '';
  if (last) {
    let top: Node = last.node;
    while (top.parent && top.parent.kind === 'section') top = top.parent;
    anchor = { file: last.file, node: top };
    const styled = loads.filter((l) => /(^|\/)mod_[^/]*\.so$/.test((l.node as Directive).values[1] ?? ''));
    const pick = pickStyle(styled.length > 0 ? styled : [last]);
    prefix = pick.prefix;
    quote = pick.quote;
  }
  return { main, known, loaded, needs, add, missing, anchor, prefix, quote };
}

function pickStyle(loads: Visit[]): { prefix: string; quote: '"' | "'" | '' } {
  const count = new Map<string, { n: number; quote: '"' | "'" | ''; last: number }>();
  loads.forEach((l, i) => {
    const d = l.node as Directive;
    const path = d.values[1] ?? '';
    const prefix = path.slice(0, path.lastIndexOf('/') + 1);
    const q = d.args[1]?.quote ?? '';
    const c = count.get(prefix) ?? { n: 0, quote: q, last: i };
    c.n++;
    c.last = i;
    c.quote = q;
    count.set(prefix, c);
  });
  let best = '';
  let bestC = { n: -1, quote: '' as '"' | "'" | '', last: -1 };
  for (const [p, c] of count) if (c.n > bestC.n || (c.n === bestC.n && c.last > bestC.last)) [best, bestC] = [p, c];
  return { prefix: best, quote: bestC.quote };
}

/** The MPM a 2.2 config was built for: from its MPM blocks, else prefork (2.2's Unix default). */
function chooseMpm(visits: Visit[], loaded: ReadonlySet<string>): { module: string; why: string } {
  const seen: string[] = [];
  for (const v of visits) {
    if (v.node.kind !== 'section' || !v.node.is('IfModule')) continue;
    const arg = v.node.values[0] ?? '';
    if (arg.startsWith('!')) continue;
    const id = arg.toLowerCase() === 'prefork.c' ? 'mpm_prefork_module' : arg.toLowerCase() === 'worker.c' ? 'mpm_worker_module' : arg.toLowerCase() === 'event.c' ? 'mpm_event_module' : arg.toLowerCase();
    if (MPM_SOURCES[id] && !seen.includes(id)) seen.push(id);
  }
  const php = [...loaded].some((m) => /^php\d?_module$/.test(m));
  if (php) return { module: 'mpm_prefork_module', why: 'mod_php is loaded and needs the prefork MPM' };
  if (seen.length === 1) return { module: seen[0], why: `the configuration only has settings for the ${MPM_SOURCES[seen[0]]} MPM` };
  if (seen.includes('mpm_prefork_module')) return { module: 'mpm_prefork_module', why: `prefork is 2.2's default on Unix (the configuration has settings for ${seen.map((s) => MPM_SOURCES[s]).join(', ')})` };
  if (seen.length > 0) return { module: seen[0], why: `the configuration has settings for the ${MPM_SOURCES[seen[0]]} MPM` };
  return { module: 'mpm_prefork_module', why: "prefork is 2.2's default on Unix" };
}

const plans = treeCache<Map<string, ModulePlan>>();

/** One plan per server and per transform run (the tree changes between transforms). */
export function planFor(ctx: TransformContext, main: ConfigFile, id: string, only?: ReadonlySet<string>): ModulePlan {
  let m = plans.get(ctx.tree);
  if (!m) plans.set(ctx.tree, (m = new Map()));
  const key = `${id}\0${main.path}`;
  let p = m.get(key);
  if (!p) m.set(key, (p = planModules(ctx.tree, main, only)));
  return p;
}

/** The servers whose modules a file's directives count for. */
export function serversOf(ctx: TransformContext): ConfigFile[] {
  if (ctx.file.role === 'htaccess') return serversOfHtaccess(ctx.file, ctx.tree);
  return ctx.tree.mainsOf(ctx.file);
}

/** Where a node is, for a message: `file:line`. */
export function where(file: ConfigFile, node: Node): string {
  return `${file.display}:${lineOf(node)}`;
}

/**
 * Adds the plan's modules when `ctx.file` holds the server's last LoadModule; links every
 * file whose directives need them, so they are written together. Returns what it added.
 */
export function applyPlan(ctx: TransformContext, plan: ModulePlan): string[] {
  for (const e of plan.add) for (const n of e.needs) if (plan.anchor && n.file !== plan.anchor.file) ctx.link(n.file);
  if (!plan.anchor || plan.anchor.file !== ctx.file || plan.add.length === 0) return [];
  if (plan.anchor.node.parent === null) return []; // removed by an earlier edit
  const line = lineBefore(plan.anchor.node);
  const nodes: Node[] = [];
  // One comment over consecutive added blocks.
  let back: Node | undefined = plan.anchor.node;
  while (isGuardBlock(back)) back = back.prev();
  const commented = back?.kind === 'comment' && back.text.trim() === ADDED_COMMENT;
  if (!commented) nodes.push(blank(), comment(ADDED_COMMENT));
  for (const e of plan.add) {
    const path = quoteArg(plan.prefix + moduleFile(e.module), plan.quote);
    const block = section('IfModule', ['!' + e.module], [directive('LoadModule', e.module, path)]);
    nodes.push(block);
  }
  plan.anchor.node.after(...nodes);
  plan.anchor = { file: plan.anchor.file, node: nodes[nodes.length - 1] };
  plan.add.forEach((e) => {
    const who = e.needs.find((n) => n.node.line > 0) ?? e.needs[0];
    const what = who && (who.node.line > 0 ? `${who.what} at` : `${who.what} (written by this conversion) near`);
    const more = e.needs.length > 1 ? ` and ${e.needs.length - 1} more` : '';
    const message = e.mpm
      ? `LoadModule ${e.module} added: 2.4 loads its MPM as a module and 2.2 compiled it in; chose it because ${e.mpm} — confirm with the 2.2 server's \`httpd -l\``
      : e.always
      ? `LoadModule ${e.module} added (inside <IfModule !${e.module}>): ${e.always}`
      : `LoadModule ${e.module} added (inside <IfModule !${e.module}>): ${what} ${who.file === ctx.file ? `line ${lineOf(who.node)}` : where(who.file, who.node)}${more} ${more ? 'need' : 'needs'} it in 2.4`;
    ctx.report({ line, severity: e.mpm ? 'manual' : 'change', message });
  });
  const added = plan.add.map((e) => e.module);
  plan.add = [];
  return added;
}

/** The line of a node, or of the nearest original line before it. */
function lineBefore(node: Node): number {
  let n: Node | undefined = node;
  while (n) {
    if (n.line > 0) return n.line;
    n = n.prev() ?? (n.parent && n.parent.kind === 'section' ? n.parent : undefined);
  }
  return 0;
}

/** `mod_X.c` / `X_module` / `mod_X.so` written for another module id, in the same style. */
function renamedRef(ref: string, to: string): string {
  const base = to.replace(/_module$/, '');
  if (/_module$/i.test(ref)) return to;
  const m = /^(.*?)mod_[^/]*\.(c|so)$/i.exec(ref);
  if (m) return `${m[1]}mod_${base}.${m[2]}`;
  return to;
}

/**
 * Renames 2.2 module names to their 2.4 ones in this file's LoadModule lines and
 * <IfModule> tests. `ids` limits it to some modules (authn-alias).
 */
export function renameModuleRefs(ctx: TransformContext, ids: readonly string[] = Object.keys(RENAMED_IN_24)): void {
  for (const n of walk(ctx.doc)) {
    if (n.kind === 'directive' && n.is('LoadModule') && n.values.length >= 1) {
      const id = n.values[0].toLowerCase();
      if (!ids.includes(id) || !RENAMED_IN_24[id] || !ctx.enabled(n)) continue;
      const to = RENAMED_IN_24[id];
      const args = [...n.args];
      args[0] = quoteArg(to, args[0].quote);
      if (args[1]) args[1] = quoteArg(renamedRef(args[1].value, to), args[1].quote);
      n.setArgs(args);
      ctx.report({ node: n, severity: 'change', message: `${id} is ${to} in 2.4 (mod_${id.replace(/_module$/, '')} was renamed; the directives are the same)` });
    } else if (n.kind === 'section' && n.is('IfModule') && n.values.length >= 1) {
      const v = n.values[0];
      const neg = v.startsWith('!') ? '!' : '';
      const id = moduleIdOf(v.slice(neg.length));
      if (!ids.includes(id) || !RENAMED_IN_24[id] || !ctx.enabled(n)) continue;
      const to = RENAMED_IN_24[id];
      const args = [...n.args];
      args[0] = quoteArg(neg + renamedRef(v.slice(neg.length), to), args[0].quote);
      n.setArgs(args);
      ctx.report({ node: n, severity: 'change', message: `<IfModule ${v}> tests for ${neg}${to} in 2.4 (the module was renamed)` });
    }
  }
}
