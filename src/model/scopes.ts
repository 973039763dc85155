// Per-directory scopes (<Directory>, <DirectoryMatch>, <Files>, <FilesMatch>, <Location>,
// <LocationMatch>, <Proxy>, .htaccess) and the order Apache merges them for a request
// (manual sections.html#merging; httpd@2.2.34 server/request.c directory, file and
// location walks; server/core.c reorder_sorter()).

import { dirname } from 'node:path';
import type { Directive, Node, Section } from '../syntax/index.js';
import { and, type ConditionEnv, conditionsHold } from './conditions.js';
import type { ServerModel, Tristate } from './server.js';
import { type ConfigFile, mapRoot } from './tree.js';
import { substitute } from './vars.js';

export type ScopeKind = 'directory' | 'directorymatch' | 'files' | 'filesmatch' | 'location' | 'locationmatch' | 'proxy' | 'htaccess';

export interface Scope {
  /** Reading order within its server. */
  readonly id: number;
  readonly kind: ScopeKind;
  readonly section: Section | null;
  readonly file: ConfigFile;
  readonly vhost: Section | null;
  /** Directory path (no trailing slash but for "/"), file name, URL, or regex source. */
  readonly pattern: string;
  readonly regex: RegExp | null;
  /** fnmatch wildcards in a non-regex pattern. */
  readonly wildcard: boolean;
  /** Enclosing <Directory> (or .htaccess) of a nested <Files>. */
  readonly parent: Scope | null;
  /** Conditional sections around it, outermost first (across Include boundaries). */
  readonly around: readonly Section[];
  /** A ${VAR} in its argument that nothing defines. */
  readonly unresolved: string | null;
  /** The directives it holds. */
  readonly children: readonly Node[];
  /** AllowOverride set in this <Directory> (null: not set here). */
  readonly allowOverride: Overrides | null;
}

/** AllowOverride: the directive classes .htaccess files may use. */
export type Overrides = 'all' | 'none' | ReadonlySet<string>;

const KIND: Record<string, ScopeKind> = {
  directory: 'directory',
  directorymatch: 'directorymatch',
  files: 'files',
  filesmatch: 'filesmatch',
  location: 'location',
  locationmatch: 'locationmatch',
  proxy: 'proxy',
  proxymatch: 'proxy',
};

export function parseOverrides(values: readonly string[]): Overrides {
  const set = new Set<string>();
  for (const v of values) {
    const l = v.toLowerCase();
    if (l === 'all') return 'all';
    if (l === 'none') return 'none';
    set.add(l.replace(/=.*$/, ''));
  }
  return set;
}

export function normalizePath(p: string): string {
  let s = p.replace(/\/+/g, '/');
  if (s.length > 1 && s.endsWith('/')) s = s.slice(0, -1);
  return s;
}

/** `host:port`, `[v6]:port`, `port` (Listen) or `host` (no port: null, as we cannot tell the default). */
function splitAddress(text: string): { host: string; port: string | null } | null {
  if (text === '') return null;
  if (/^\d+$/.test(text)) return { host: '', port: text };
  const m = /^(\[[^\]]*\]|[^:\[\]]*)(?::(\d+|\*))?$/.exec(text);
  if (!m) return null;
  return { host: m[1].replace(/^\[|\]$/g, ''), port: m[2] ?? null };
}

/** A section's regex, or null when JavaScript cannot read it (reported as unresolved). */
function compileRegex(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

const regex22Cache = new Map<string, RegExp | null>();

/** 2.2 matched regex sections with REG_NOTEOL: `$` never matches at the end of the string. */
function regex22(source: string): RegExp | null {
  let re = regex22Cache.get(source);
  if (re === undefined) {
    re = compile22(source);
    regex22Cache.set(source, re);
  }
  return re;
}

function compile22(source: string): RegExp | null {
  try {
    return new RegExp(source.replace(/(^|[^\\])\$/g, '$1(?!)'));
  } catch {
    return null;
  }
}

export interface UrlMap {
  documentRoot: string | null;
  /** Alias URL prefix → filesystem path, in the order Apache tries them. */
  aliases: Array<{ url: string; path: string }>;
  /** Some mapping we cannot follow (AliasMatch, ScriptAliasMatch, UserDir, RewriteRule…). */
  opaque: boolean;
}

/** Everything about one server's scopes that the merge order needs. */
export class ServerScopes {
  readonly scopes: Scope[] = [];
  readonly vhosts: Section[] = [];
  readonly urlMaps = new Map<Section | null, UrlMap>();
  readonly accessFileNames: string[] = ['.htaccess'];
  private readonly defines: Map<string, string>;
  /** Listen lines of the server, and the conditional sections around each. */
  private readonly listens: Array<{ values: string[]; around: readonly Section[] }> = [];

  /** `root`: the ServerRoot relative paths resolve against (null: unknown, kept under "/"). */
  constructor(readonly server: ServerModel, defines: ReadonlyMap<string, string>, private readonly root: string | null = null, private readonly rootMap?: { from: string; to: string }) {
    this.defines = new Map(defines);
    const main: UrlMap = { documentRoot: null, aliases: [], opaque: false };
    this.urlMaps.set(null, main);
    const open: Array<{ depth: number; scope: Scope }> = [];
    let id = 0;
    for (const v of server.walk()) {
      const n = v.node;
      // Scopes whose section we have left.
      while (open.length > 0 && open[open.length - 1].depth >= v.depth + 1) open.pop();
      const vhost = v.vhost;
      if (n.kind === 'directive' && n.is('Listen') && vhost === null && open.length === 0) {
        this.listens.push({ values: n.values.map((x) => substitute(x, this.defines).text), around: v.sections });
      }
      if (n.kind === 'section' && n.is('VirtualHost')) {
        this.vhosts.push(n);
        this.vhostAround.set(n, v.sections);
        this.urlMaps.set(n, { documentRoot: null, aliases: [], opaque: false });
        continue;
      }
      if (n.kind === 'directive') {
        // Only server- and vhost-level directives shape the URL mapping.
        if (open.length === 0) this.readServerDirective(n, vhost);
        continue;
      }
      if (n.kind !== 'section') continue;
      const kind = KIND[n.key];
      if (!kind) continue;
      const arg = n.values[0] ?? '';
      const tilde = arg === '~';
      const raw = tilde ? n.values[1] ?? '' : arg;
      const sub = substitute(raw, this.defines);
      const isRegex = tilde || kind === 'directorymatch' || kind === 'filesmatch' || kind === 'locationmatch' || n.is('ProxyMatch');
      const k: ScopeKind = isRegex && kind === 'directory' ? 'directorymatch' : isRegex && kind === 'files' ? 'filesmatch' : isRegex && kind === 'location' ? 'locationmatch' : kind;
      const pattern = isRegex || k === 'files' ? sub.text : k === 'directory' ? this.absolute(sub.text) : normalizePath(sub.text);
      const regex = isRegex ? compileRegex(pattern) : null;
      const parent = open.length > 0 ? open[open.length - 1].scope : null;
      const ao = n.children.find((c): c is Directive => c.kind === 'directive' && c.is('AllowOverride'));
      const scope: Scope = {
        id: id++,
        kind: k,
        section: n,
        file: v.file,
        vhost,
        pattern,
        regex,
        wildcard: !isRegex && /[*?[]/.test(pattern),
        parent: k === 'files' || k === 'filesmatch' ? parent : null,
        around: v.sections,
        unresolved: sub.unresolved[0] ?? (isRegex && regex === null ? `an expression JavaScript cannot read: ${pattern}` : null),
        children: n.children,
        allowOverride: ao && k === 'directory' ? parseOverrides(ao.values) : null,
      };
      this.scopes.push(scope);
      open.push({ depth: v.depth + 1, scope });
    }
  }

  private readonly vhostAround = new Map<Section, readonly Section[]>();

  /**
   * Can a request reach the main server? Not when every Listen address is also a <VirtualHost>
   * address with a wildcard host (`*:80`, `_default_:443`, `*:*`) or the Listen's own host:
   * Apache then hands every connection to a virtual host (manual vhosts/details.html; 2.2
   * server/vhost.c find_default_server()). A <VirtualHost> counts only where it is there
   * whenever the Listen is: every conditional section around it also stands around the Listen.
   * Unknown (no Listen, an address we cannot read): reachable.
   */
  mainReachable(): boolean {
    if (this.listens.length === 0) return true;
    const cond = (s: Section): string => `${s.key} ${s.values.join(' ')}`;
    const hosts: Array<{ host: string; port: string; around: Set<string> }> = [];
    for (const v of this.vhosts) {
      const around = new Set((this.vhostAround.get(v) ?? []).map(cond));
      for (const a of v.values) {
        const addr = splitAddress(substitute(a, this.defines).text);
        if (addr && addr.port !== null) hosts.push({ host: addr.host, port: addr.port, around });
      }
    }
    return this.listens.some((l) => {
      const addr = splitAddress(l.values[0] ?? '');
      if (!addr || addr.port === null) return true;
      const around = new Set(l.around.map(cond));
      return !hosts.some((h) =>
        (h.port === addr.port || h.port === '*') &&
        (h.host === '*' || h.host.toLowerCase() === '_default_' || (addr.host !== '' && h.host === addr.host)) &&
        [...h.around].every((c) => around.has(c)));
    });
  }

  private readServerDirective(d: Directive, vhost: Section | null): void {
    const map = this.urlMaps.get(vhost)!;
    const val = (i: number): string => substitute(d.values[i] ?? '', this.defines).text;
    if (d.is('Define') && d.values.length >= 1) this.defines.set(d.values[0], d.values[1] ?? '');
    else if (d.is('DocumentRoot')) map.documentRoot = this.absolute(val(0));
    else if ((d.is('Alias') || d.is('ScriptAlias')) && d.values.length >= 2) map.aliases.push({ url: val(0), path: this.absolute(val(1)) });
    else if (d.is('RewriteRule')) map.opaque ||= rewriteMayReachFiles(d.values);
    else if (d.is('AliasMatch') || d.is('ScriptAliasMatch') || d.is('UserDir') || d.is('ProxyPass') || d.is('ProxyPassMatch')) map.opaque = true;
    else if (d.is('AccessFileName') && vhost === null) this.accessFileNames.splice(0, this.accessFileNames.length, ...d.values);
  }

  /** A filesystem path as Apache resolves it: relative to ServerRoot (a template placeholder stays one name). */
  private absolute(p: string): string {
    if (p.startsWith('/')) return normalizePath(mapRoot(p, this.rootMap));
    return normalizePath((this.root ?? '') + '/' + p);
  }

  /** A path as the server's configuration writes it (the inverse of reading a copy). */
  serverPath(p: string): string {
    const m = this.rootMap;
    if (!m) return p;
    if (p === m.to) return m.from;
    return p.startsWith(m.to + '/') ? m.from + p.slice(m.to.length) : p;
  }

  /** Attaches an .htaccess file (its folder's real path) as a scope of this server, with the <Files> in it. */
  addHtaccess(file: ConfigFile): Scope {
    const base = 1_000_000 + this.scopes.length * 1000;
    const scope: Scope = {
      id: base,
      kind: 'htaccess',
      section: null,
      file,
      vhost: null,
      pattern: normalizePath(dirname(file.path)),
      regex: null,
      wildcard: false,
      parent: null,
      around: [],
      unresolved: null,
      children: file.doc.children,
      allowOverride: null,
    };
    this.scopes.push(scope);
    this.groups = null;
    this.nestedFiles = null;
    this.depthCache.clear();
    this.kindsCache.clear();
    let k = 1;
    const visit = (list: readonly Node[], around: Section[]): void => {
      for (const n of list) {
        if (n.kind !== 'section') continue;
        const kind = KIND[n.key];
        if (kind === 'files') {
          const tilde = n.values[0] === '~';
          const isRegex = tilde || n.is('FilesMatch');
          const pattern = (tilde ? n.values[1] : n.values[0]) ?? '';
          const regex = isRegex ? compileRegex(pattern) : null;
          this.scopes.push({
            id: base + k++,
            kind: isRegex ? 'filesmatch' : 'files',
            section: n,
            file,
            vhost: null,
            pattern,
            regex,
            wildcard: !isRegex && /[*?[]/.test(pattern),
            parent: scope,
            around,
            unresolved: isRegex && regex === null ? `an expression JavaScript cannot read: ${pattern}` : null,
            children: n.children,
            allowOverride: null,
          });
        } else if (!kind) {
          visit(n.children, [...around, n]);
        }
      }
    };
    visit(file.doc.children, []);
    return scope;
  }

  private groups: { shared: Scope[]; own: Map<Section, Scope[]> } | null = null;

  /** The main server's scopes (and .htaccess files), and each virtual host's own, in reading order. */
  private grouped(): { shared: Scope[]; own: Map<Section, Scope[]> } {
    if (!this.groups) {
      const shared: Scope[] = [];
      const own = new Map<Section, Scope[]>();
      for (const s of [...this.scopes].sort((a, b) => a.id - b.id)) {
        if (s.vhost === null) shared.push(s);
        else {
          const list = own.get(s.vhost);
          if (list) list.push(s);
          else own.set(s.vhost, [s]);
        }
      }
      this.groups = { shared, own };
    }
    return this.groups;
  }

  private readonly depthCache = new Map<Section | null, Map<number, DepthGroup>>();

  /**
   * The <Directory> scopes of a virtual host (or the main server) that may match `level`, a
   * folder of `depth` path components, in merge order: the main server's, then the host's
   * own; exact paths found by lookup, wildcards tested by the caller. A tree with thousands of
   * <Directory> sections is neither copied per host nor scanned per folder.
   */
  directoriesAt(vhost: Section | null, depth: number, level: string): Scope[] {
    const g = this.grouped();
    const own = vhost ? g.own.get(vhost) : undefined;
    const out: Scope[] = [];
    for (const m of own ? [this.byDepth(null, g.shared), this.byDepth(vhost, own)] : [this.byDepth(null, g.shared)]) {
      const at = m.get(depth);
      if (!at) continue;
      const exact = at.exact.get(level) ?? [];
      // Each group in reading order, exact and wildcard sections interleaved as written.
      let i = 0;
      let j = 0;
      while (i < exact.length || j < at.wild.length) {
        if (j >= at.wild.length || (i < exact.length && exact[i].id < at.wild[j].id)) out.push(exact[i++]);
        else out.push(at.wild[j++]);
      }
    }
    return out;
  }

  /** The <Directory> sections of `list` by depth (cached under `key`). */
  private byDepth(key: Section | null, list: readonly Scope[]): Map<number, DepthGroup> {
    let m = this.depthCache.get(key);
    if (!m) {
      m = new Map();
      for (const s of list) {
        if (s.kind !== 'directory') continue;
        const d = componentCount(s.pattern);
        let g = m.get(d);
        if (!g) m.set(d, (g = { exact: new Map(), wild: [] }));
        if (s.wildcard) g.wild.push(s);
        else {
          const at = g.exact.get(s.pattern);
          if (at) at.push(s);
          else g.exact.set(s.pattern, [s]);
        }
      }
      this.depthCache.set(key, m);
    }
    return m;
  }

  private readonly ownFs = new Map<Section, { any: boolean; proxy: boolean; exact: Set<string> }>();

  /**
   * Whether a virtual host's own filesystem sections may take part in the merge for a folder
   * (or a proxied request). When none may, the host merges there exactly as the main server
   * does, so thousands of hosts share one computation. Conservative: a host with its own
   * <DirectoryMatch>, top-level <Files>, or wildcard <Directory> always may.
   */
  ownFilesystemMayApply(vhost: Section, dir: string, proxy: boolean): boolean {
    let o = this.ownFs.get(vhost);
    if (!o) {
      o = { any: false, proxy: false, exact: new Set() };
      for (const s of this.grouped().own.get(vhost) ?? []) {
        if (s.kind === 'directory' && !s.wildcard) o.exact.add(s.pattern);
        else if (s.kind === 'directory' || s.kind === 'directorymatch' || ((s.kind === 'files' || s.kind === 'filesmatch') && s.parent === null)) o.any = true;
        else if (s.kind === 'proxy') o.proxy = true;
      }
      this.ownFs.set(vhost, o);
    }
    if (proxy) return o.proxy;
    if (o.any) return true;
    if (o.exact.size === 0) return false;
    // An exact <Directory> matches only a folder level equal to its path (directoriesAt()).
    for (const level of dirLevels(dir)) if (o.exact.has(level)) return true;
    return false;
  }

  private readonly kindsCache = new Map<Section | null, ScopesByKind>();
  private nestedFiles: Map<Scope, Scope[]> | null = null;

  /**
   * The scopes of a virtual host (or the main server) by kind, each list in merge order: the
   * merge chain of every request reads them, and filtering all scopes for each request was
   * quadratic in a tree with an .htaccess file per site. (.htaccess scopes and <Directory>
   * are not in these lists: see directoriesByDepth().)
   */
  byKind(vhost: Section | null): ScopesByKind {
    let k = this.kindsCache.get(vhost);
    if (!k) {
      if (!this.nestedFiles) {
        this.nestedFiles = new Map();
        for (const s of this.scopes) {
          if ((s.kind !== 'files' && s.kind !== 'filesmatch') || s.parent === null) continue;
          const list = this.nestedFiles.get(s.parent);
          if (list) list.push(s);
          else this.nestedFiles.set(s.parent, [s]);
        }
      }
      const add = (into: ScopesByKind, list: readonly Scope[]): ScopesByKind => {
        for (const s of list) {
          if (s.kind === 'proxy') into.proxy.push(s);
          else if (s.kind === 'directorymatch') into.directoryMatch.push(s);
          else if ((s.kind === 'files' || s.kind === 'filesmatch') && s.parent === null) into.files.push(s);
          else if (s.kind === 'location' || s.kind === 'locationmatch') into.locations.push(s);
        }
        return into;
      };
      const g = this.grouped();
      const main = vhost === null ? undefined : this.byKind(null);
      const fresh = (): ScopesByKind => ({ proxy: [], directoryMatch: [], files: [], locations: [], nested: this.nestedFiles! });
      const own = vhost ? g.own.get(vhost) : undefined;
      if (!main) k = add(fresh(), g.shared);
      else if (!own) k = main;
      else k = add({ proxy: [...main.proxy], directoryMatch: [...main.directoryMatch], files: [...main.files], locations: [...main.locations], nested: this.nestedFiles }, own);
      this.kindsCache.set(vhost, k);
    }
    return k;
  }

  private readonly urlMapCache = new Map<Section, UrlMap>();

  /** The URL map of a virtual host (its own settings over the main server's). */
  urlMap(vhost: Section | null): UrlMap {
    const main = this.urlMaps.get(null)!;
    if (vhost === null) return main;
    let m = this.urlMapCache.get(vhost);
    if (!m) {
      const own = this.urlMaps.get(vhost)!;
      m = { documentRoot: own.documentRoot ?? main.documentRoot, aliases: [...own.aliases, ...main.aliases], opaque: own.opaque || main.opaque };
      this.urlMapCache.set(vhost, m);
    }
    return m;
  }
}

/** The <Directory> sections of one path depth: exact paths by path, wildcards in reading order. */
interface DepthGroup {
  exact: Map<string, Scope[]>;
  wild: Scope[];
}

/** See ServerScopes.byKind(). */
export interface ScopesByKind {
  proxy: Scope[];
  directoryMatch: Scope[];
  /** <Files> and <FilesMatch> not nested in a <Directory> or .htaccess. */
  files: Scope[];
  locations: Scope[];
  /** The <Files> and <FilesMatch> nested in each scope, in reading order (of every server view). */
  nested: Map<Scope, Scope[]>;
}

/** A request, reduced to what decides which scopes apply. */
export interface Probe {
  vhost: Section | null;
  /** The URL path, or null when no URL we can see reaches the resource. */
  uri: string | null;
  /** The filesystem folder of the resource. */
  dir: string;
  /** The file name (null for a folder itself). */
  file: string | null;
  /** A proxied request: <Proxy> sections instead of the filesystem walk. */
  proxy?: boolean;
}

export interface Member {
  scope: Scope;
  /** 'may': applies to some requests of this probe and not others (or we cannot tell). */
  certainty: 'must' | 'may';
  /** The .htaccess is read but holds a directive AllowOverride forbids: every request gets 500. */
  forbidden?: string;
  /**
   * For 'may': what it depends on. Scopes under the same undecided condition (<IfDefine X>)
   * apply together, so they share a key; a pattern we cannot decide is a key of its own.
   */
  mayKey?: string;
}

const sectionIds = new WeakMap<Section, number>();
let nextSectionId = 0;

/** The key of a 'may' member: its undecided conditions, or its own pattern. */
function mayKeyOf(s: Scope, patternCertain: boolean, env: ConditionEnv): string {
  if (!patternCertain || s.unresolved) return `s${s.id}`;
  const undecided = s.around.filter((x) => !KIND[x.key] && conditionsHold([x], env) === 'unknown');
  return 'c' + undecided.map((x) => {
    let id = sectionIds.get(x);
    if (id === undefined) sectionIds.set(x, (id = nextSectionId++));
    return id;
  }).join(',');
}

/** A stand-in name for "any name the configuration does not mention". */
/**
 * Whether a server-context RewriteRule may map a URL onto a file the URL map does not show.
 * Not when it only answers (a redirect, [F], [G]), changes nothing ("-"), or passes a
 * URL-path on to the URL map ([PT]); anything else (a filesystem path, [P]) may.
 */
export function rewriteMayReachFiles(args: readonly string[]): boolean {
  const target = args[1];
  if (target === undefined) return false;
  const last = args[2] ?? '';
  const flags = last.startsWith('[') && last.endsWith(']') ? last.slice(1, -1).split(',').map((f) => f.trim().toLowerCase().split('=')[0]) : [];
  const has = (...names: string[]): boolean => flags.some((f) => names.includes(f));
  if (has('p', 'proxy')) return true;
  if (has('r', 'redirect', 'f', 'forbidden', 'g', 'gone') || target === '-') return false;
  return !(has('pt', 'passthrough') && target.startsWith('/'));
}

export const ANY_NAME = '\u0000any';

const fnmatchCache = new Map<string, RegExp>();

function fnmatch(pattern: string, s: string): boolean {
  let re = fnmatchCache.get(pattern);
  if (!re) {
    re = fnmatchRegex(pattern);
    fnmatchCache.set(pattern, re);
  }
  return re.test(s);
}

function fnmatchRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let body = pattern.slice(i + 1, close);
        if (body[0] === '!') body = '^' + body.slice(1);
        re += '[' + body.replace(/\\/g, '\\\\') + ']';
        i = close;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp('^' + re + '$');
}

/** Tests a pattern against a string that may hold ANY_NAME stand-ins. */
function testWith(test: (s: string) => boolean, s: string): Tristate {
  if (!s.includes(ANY_NAME)) return test(s) ? 'yes' : 'no';
  const a = test(s.split(ANY_NAME).join('h24probe'));
  const b = test(s.split(ANY_NAME).join('zq9'));
  return a && b ? 'yes' : !a && !b ? 'no' : 'unknown';
}

const levelsCache = new Map<string, string[]>();

/** '/', '/a', '/a/b' for '/a/b' (cached: thousands of hosts probe the same folders). */
function dirLevels(dir: string): string[] {
  let out = levelsCache.get(dir);
  if (!out) {
    const d = normalizePath(dir.startsWith('/') ? dir : '/' + dir);
    out = ['/'];
    for (let i = d.indexOf('/', 1); i > 0; i = d.indexOf('/', i + 1)) out.push(d.slice(0, i));
    if (d !== '/') out.push(d);
    if (levelsCache.size > 100_000) levelsCache.clear();
    levelsCache.set(dir, out);
  }
  return out;
}

function componentCount(p: string): number {
  return p === '/' ? 1 : p.split('/').length;
}

/** Does a (non-regex) <Directory> of the level's depth match this folder level exactly? */
function directoryAt(scope: Scope, level: string): Tristate {
  if (!scope.wildcard) return scope.pattern === level ? 'yes' : 'no';
  return testWith((s) => fnmatch(scope.pattern, s), level);
}

function locationMatches(scope: Scope, uri: string | null): Tristate {
  if (uri === null) return scope.kind === 'location' && (scope.pattern === '/' || scope.pattern === '') ? 'yes' : 'unknown';
  if (scope.kind === 'locationmatch') return scope.regex ? testWith((s) => scope.regex!.test(s), uri) : 'unknown';
  if (scope.wildcard) return testWith((s) => fnmatch(scope.pattern, s) || fnmatch(scope.pattern + '/*', s), uri);
  const p = scope.pattern;
  // A plain <Location> is a prefix of the URL path that ends at a slash or at the end
  // (location_walk in both 2.2 and 2.4).
  if (!uri.startsWith(p)) return 'no';
  return p.endsWith('/') || uri.length === p.length || uri[p.length] === '/' ? 'yes' : 'no';
}

function filesMatches(scope: Scope, file: string | null): Tristate {
  if (file === null) return 'no';
  if (scope.kind === 'filesmatch') return scope.regex ? testWith((s) => scope.regex!.test(s), file) : 'unknown';
  if (scope.wildcard) return testWith((s) => fnmatch(scope.pattern, s), file);
  return file === scope.pattern ? 'yes' : file.includes(ANY_NAME) ? 'no' : 'no';
}

const toCertainty = (t: Tristate): Member['certainty'] | null => (t === 'yes' ? 'must' : t === 'unknown' ? 'may' : null);

/**
 * The scopes that apply to a probe, in merge order, for one server version (conditions and
 * AllowOverride defaults differ). `htaccess` maps a folder to its .htaccess scope.
 */
export function mergeChain(ss: ServerScopes, probe: Probe, env: ConditionEnv, htaccess: ReadonlyMap<string, Scope>, overrideClassOf: (n: Directive | Section) => string | null, overrideDefault: 'all' | 'unset'): Member[] {
  return [...fileMembers(ss, probe, env, htaccess, overrideClassOf, overrideDefault), ...locationMembers(ss, probe, env)];
}

const conditionCache = new WeakMap<ConditionEnv, Map<Scope, Tristate>>();

/** Do the conditional sections around a scope hold (cached: scopes are tested for every request)? */
function scopeCondition(s: Scope, env: ConditionEnv): Tristate {
  let m = conditionCache.get(env);
  if (!m) {
    m = new Map();
    conditionCache.set(env, m);
  }
  let t = m.get(s);
  if (t === undefined) {
    t = s.unresolved ? 'unknown' : conditionsHold(s.around.filter((x) => !KIND[x.key]), env);
    m.set(s, t);
  }
  return t;
}

/** The <Location> part of a request's merge chain: it depends on the URL only. */
export function locationMembers(ss: ServerScopes, probe: Probe, env: ConditionEnv): Member[] {
  const out: Member[] = [];
  for (const s of ss.byKind(probe.vhost).locations) {
    const t = locationMatches(s, probe.uri);
    const c = toCertainty(and(t, scopeCondition(s, env)));
    if (c) out.push(c === 'may' ? { scope: s, certainty: c, mayKey: mayKeyOf(s, t === 'yes', env) } : { scope: s, certainty: c });
  }
  return out;
}

/** The filesystem part of a request's merge chain (<Directory>, .htaccess, <DirectoryMatch>, <Files>, or <Proxy>). */
export function fileMembers(ss: ServerScopes, probe: Probe, env: ConditionEnv, htaccess: ReadonlyMap<string, Scope>, overrideClassOf: (n: Directive | Section) => string | null, overrideDefault: 'all' | 'unset'): Member[] {
  const out: Member[] = [];
  const cond = (s: Scope): Tristate => scopeCondition(s, env);
  const push = (s: Scope, t: Tristate): void => {
    const c = toCertainty(and(t, cond(s)));
    if (c) out.push(c === 'may' ? { scope: s, certainty: c, mayKey: mayKeyOf(s, t === 'yes', env) } : { scope: s, certainty: c });
  };
  const kinds = ss.byKind(probe.vhost);

  if (probe.proxy) {
    for (const s of kinds.proxy) push(s, s.pattern === '*' ? 'yes' : 'unknown');
  } else {
    // 1. <Directory> by folder level, each level's .htaccess after its sections.
    let overrides: Overrides | 'unset' = overrideDefault;
    let overridesCertain = true;
    const levels = dirLevels(probe.dir);
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i];
      // Level i of dirLevels() has i + 1 components (componentCount()).
      for (const s of ss.directoriesAt(probe.vhost, i + 1, level)) {
        const at = directoryAt(s, level);
        const t = and(at, cond(s));
        if (t === 'no') continue;
        out.push(t === 'yes' ? { scope: s, certainty: 'must' } : { scope: s, certainty: 'may', mayKey: mayKeyOf(s, at === 'yes', env) });
        if (s.allowOverride) {
          if (t === 'yes') overrides = s.allowOverride;
          else overridesCertain = false;
        }
      }
      const h = htaccess.get(level);
      if (h && overrides !== 'none') {
        const m: Member = overridesCertain ? { scope: h, certainty: 'must' } : { scope: h, certainty: 'may', mayKey: `s${h.id}` };
        const bad = forbiddenDirective(h, overrides, overrideClassOf);
        if (bad) m.forbidden = bad;
        out.push(m);
      }
    }
    // 2. <DirectoryMatch>, in file order (2.2: also the folders below a match).
    for (const s of kinds.directoryMatch) {
      const re = env.version === '2.2' ? regex22(s.pattern) : s.regex;
      push(s, re ? testWith((x) => re.test(x + '/'), probe.dir) : 'unknown');
    }
    // 3. <Files>: the server's own, then those nested in the folders merged above.
    const files = kinds.files;
    const nested: Scope[] = [];
    for (const m of out) {
      const list = kinds.nested.get(m.scope);
      if (list) nested.push(...list);
    }
    const dirOrder = new Map(out.map((m, i) => [m.scope, i]));
    nested.sort((a, b) => dirOrder.get(a.parent!)! - dirOrder.get(b.parent!)! || a.id - b.id);
    for (const s of [...files, ...nested]) {
      const parentMember = s.parent ? out.find((m) => m.scope === s.parent) : undefined;
      const t = filesMatches(s, probe.file);
      push(s, parentMember?.certainty === 'may' && t !== 'no' ? 'unknown' : t);
    }
  }
  return out;
}

const forbiddenCache = new WeakMap<Scope, Map<Overrides | 'unset', Map<(n: Directive | Section) => string | null, string | null>>>();

/** The first directive of an .htaccess that AllowOverride forbids, or null (cached: every request through the folder asks). */
function forbiddenDirective(h: Scope, overrides: Overrides | 'unset', classOf: (n: Directive | Section) => string | null): string | null {
  if (overrides === 'all') return null;
  let byOverrides = forbiddenCache.get(h);
  if (!byOverrides) forbiddenCache.set(h, (byOverrides = new Map()));
  let byClass = byOverrides.get(overrides);
  if (!byClass) byOverrides.set(overrides, (byClass = new Map()));
  let r = byClass.get(classOf);
  if (r === undefined) {
    r = findForbidden(h, overrides, classOf);
    byClass.set(classOf, r);
  }
  return r;
}

function findForbidden(h: Scope, overrides: Overrides | 'unset', classOf: (n: Directive | Section) => string | null): string | null {
  if (overrides === 'all') return null;
  const stack: Node[] = [...h.children];
  while (stack.length > 0) {
    const n = stack.shift()!;
    if (n.kind === 'section') stack.unshift(...n.children);
    if (n.kind !== 'directive' && n.kind !== 'section') continue;
    const cls = classOf(n);
    if (cls === null) continue;
    if (overrides === 'unset' || overrides === 'none' || !overrides.has(cls)) return `${n.name} (line ${n.line}) needs AllowOverride ${cls}`;
  }
  return null;
}
