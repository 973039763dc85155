// Discovery and loading: turns the paths a user gives into a ConfigTree. Folders are
// walked for configuration files; main configs pull in what they Include; every file is
// read and parsed once. Nothing here throws on bad input: unreadable, binary, missing and
// cyclic files become findings.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { substitute } from '../model/vars.js';
import { type ConfigFile, ConfigTree, type FileRole, mapRoot } from '../model/tree.js';
import { decodeBytes, type Directive, type Document, displayText, looksBinary, parse, walk } from '../syntax/index.js';
import type { Finding } from '../../transforms/types.js';
import { errText } from './errors.js';
import { FsView } from './fsview.js';
import { byteOrder, expandGlob, hasWildcard } from './glob.js';
import { isTempName } from './write.js';

export interface LoadOptions {
  cwd: string;
  /** --server-root: resolves relative Include paths and widens the area Includes may reach. */
  serverRoot?: string;
  /** --define NAME[=VALUE]. */
  defines?: ReadonlyMap<string, string>;
  /** Text to use instead of a file's bytes (the verification pass re-loads converted text). */
  overlay?: ReadonlyMap<string, string>;
  /** What an earlier load of the same paths read (LoadResult.cache): the disk is not asked again. */
  cache?: LoadCache;
}

/**
 * What a load read: file-system answers, and per file its bytes' details and the document
 * parsed from them. A later load given it (the verification pass) sees the same tree and
 * shares the documents no transform edited: they are what parsing the same bytes again gives.
 */
export class LoadCache {
  readonly fs = new FsView();
  readonly files = new Map<string, { source: SourceInfo; doc: Document }>();
}

/** What we knew about a file when we read it: to write it back safely. */
export interface SourceInfo {
  text: string;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
  /** Other names of the same file (hard links) keep the old text after a rewrite. */
  nlink: number;
  sha256: string;
}

export interface LoadResult {
  tree: ConfigTree;
  findings: Finding[];
  sources: Map<ConfigFile, SourceInfo>;
  /** Files given or found that could not be loaded at all. */
  failed: number;
  cache: LoadCache;
}

/** Larger files are refused before reading: a JavaScript string holds at most 512 MiB, and no
 * real configuration file comes near this. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Parse findings listed per file: a file with 10,000 unclosed sections needs no 10,000 lines. */
const MAX_PARSE_FINDINGS = 20;
/** Apache's AP_MAX_INCLUDE_DIR_DEPTH: Include of a folder descends at most this deep. */
const MAX_INCLUDE_DIR_DEPTH = 128;
/** Apache's AP_MAX_INCLUDE_DEPTH: Include files nest at most this deep. */
const MAX_INCLUDE_DEPTH = 128;

const STALE_TEMP = 'is a temp file left by a run of httpd24-codemod that was killed; Apache reads it where a whole folder is included: remove it';

const SKIP_DIRS = new Set(['.git', '.svn', '.hg', '.bzr', 'CVS', 'node_modules']);
const MAIN_NAMES = new Set(['httpd.conf', 'apache2.conf']);

export function isConfigName(name: string): boolean {
  return name.endsWith('.conf') || MAIN_NAMES.has(name) || name === '.htaccess';
}

function engineFinding(id: string, file: string, line: number, severity: Finding['severity'], message: string): Finding {
  return { transform: id, file, line, column: line > 0 ? 1 : 0, severity, message };
}

export function load(paths: readonly string[], opts: LoadOptions): LoadResult {
  const tree = new ConfigTree();
  const cache = opts.cache ?? new LoadCache();
  const fsv = cache.fs;
  for (const [k, v] of opts.defines ?? []) tree.defines.set(k, v);
  const findings: Finding[] = [];
  const sources = new Map<ConfigFile, SourceInfo>();
  let failed = 0;
  const display = (p: string): string => {
    const r = relative(opts.cwd, p);
    return r === '' ? basename(p) : r;
  };

  // Areas Include may reach: the folders given, the folders of the files given, --server-root.
  const areas: string[] = [];
  const addArea = (p: string): void => {
    try {
      areas.push(fsv.realpath(p));
    } catch {
      areas.push(resolve(p));
    }
  };
  if (opts.serverRoot) addArea(resolve(opts.cwd, opts.serverRoot));
  const inArea = (real: string): boolean => areas.some((a) => real === a || real.startsWith(a.endsWith(sep) ? a : a + sep));

  // 1. Candidates from the paths given.
  interface Candidate { shown: string; explicit: boolean }
  const candidates: Candidate[] = [];
  for (const arg of paths) {
    const abs = resolve(opts.cwd, arg);
    let st;
    try {
      st = fsv.stat(abs);
    } catch (e) {
      findings.push(engineFinding('read-error', arg, 0, 'error', `cannot read: ${errText(e)}`));
      failed++;
      continue;
    }
    if (st.isDirectory()) {
      addArea(abs);
      walkFolder(abs, candidates, findings, display, fsv);
    } else {
      addArea(dirname(abs));
      candidates.push({ shown: abs, explicit: true });
    }
  }

  // 2. Read and parse each file once (by real path).
  const readFile = (shown: string, explicit: boolean, role: FileRole): ConfigFile | null => {
    let real: string;
    try {
      real = fsv.realpath(shown);
    } catch (e) {
      findings.push(engineFinding('read-error', display(shown), 0, 'error', `cannot read: ${errText(e)}`));
      failed++;
      return null;
    }
    const known = tree.byPath.get(real);
    if (known) return known;
    const seen = cache.files.get(real);
    if (seen) {
      const overlaid = opts.overlay?.get(real);
      const doc = overlaid !== undefined ? parse(overlaid) : seen.doc.modified ? parse(seen.source.text) : seen.doc;
      return addFile(real, shown, role, doc, seen.source);
    }
    let bytes: Buffer;
    let st;
    try {
      st = fsv.stat(real);
      if (!st.isFile()) {
        findings.push(engineFinding('read-error', display(shown), 0, 'error', 'not a regular file'));
        failed++;
        return null;
      }
      if (st.size > MAX_FILE_BYTES) {
        findings.push(engineFinding('read-error', display(shown), 0, 'error', `${Math.round(st.size / 1048576)} MiB is more than the ${MAX_FILE_BYTES / 1048576} MiB a configuration file can be here; left alone`));
        failed++;
        return null;
      }
      bytes = readFileSync(real);
    } catch (e) {
      findings.push(engineFinding('read-error', display(shown), 0, 'error', `cannot read: ${errText(e)}`));
      failed++;
      return null;
    }
    if (looksBinary(bytes)) {
      if (explicit) {
        findings.push(engineFinding('binary-file', display(shown), 0, 'error', 'binary file (NUL bytes), not a configuration file; left alone'));
        failed++;
      } else {
        findings.push(engineFinding('binary-file', display(shown), 0, 'warning', 'binary file (NUL bytes) skipped'));
      }
      return null;
    }
    const nul = bytes.indexOf(0);
    if (nul >= 0) {
      // Text with a NUL further on: Apache stops reading that line at the NUL, so the file
      // does not mean what its bytes say. A damaged file is not ours to rewrite.
      const line = lineAt(bytes, nul);
      findings.push(engineFinding('binary-file', display(shown), line, 'error', `NUL byte on line ${line} (a damaged file?): Apache ignores the rest of that line; file left unchanged`));
      failed++;
      return null;
    }
    const original = decodeBytes(bytes);
    const overlaid = opts.overlay?.get(real);
    const doc = parse(overlaid ?? original);
    const source: SourceInfo = {
      text: original,
      size: bytes.length,
      mtimeMs: st.mtimeMs,
      nlink: st.nlink,
      mode: st.mode,
      uid: st.uid,
      gid: st.gid,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    if (overlaid === undefined) cache.files.set(real, { source, doc });
    return addFile(real, shown, role, doc, source);
  };

  const addFile = (real: string, shown: string, role: FileRole, doc: Document, source: SourceInfo): ConfigFile => {
    const file: ConfigFile = { path: real, display: display(shown), doc, role, includedBy: [] };
    tree.add(file);
    sources.set(file, source);
    const diagnostics = [...doc.diagnostics].sort((a, b) => a.line - b.line);
    for (const d of diagnostics.slice(0, MAX_PARSE_FINDINGS)) {
      findings.push({ transform: 'parse', file: file.display, line: d.line, column: d.column, severity: d.severity, message: displayText(d.message) + (d.severity === 'error' ? '; file left unchanged' : '') });
    }
    if (diagnostics.length > MAX_PARSE_FINDINGS) {
      const rest = diagnostics.slice(MAX_PARSE_FINDINGS);
      const errors = rest.some((d) => d.severity === 'error');
      findings.push({ transform: 'parse', file: file.display, line: rest[0].line, column: 0, severity: errors ? 'error' : 'warning', message: `${rest.length} more parse problems on lines ${rest[0].line} to ${rest[rest.length - 1].line}, not listed one by one${errors ? '; file left unchanged' : ''}` });
    }
    return file;
  };

  const files: Array<{ file: ConfigFile; explicit: boolean }> = [];
  const listed = new Set<ConfigFile>();
  for (const c of candidates) {
    const name = basename(c.shown);
    const f = readFile(c.shown, c.explicit, name === '.htaccess' ? 'htaccess' : 'standalone');
    if (f && !listed.has(f)) {
      listed.add(f);
      files.push({ file: f, explicit: c.explicit });
    }
  }

  /**
   * The files an Include pattern reads, in Apache's order, without reading or listing
   * anything outside the areas (a config saying `Include /` must not walk the disk, nor
   * `Include /etc/shadow` read it). Real paths outside go to `outside`.
   */
  type Note = (severity: Finding['severity'], message: string) => void;
  const includeMatches = (pattern: string, outside: string[], note: Note): string[] => {
    let matches: string[];
    if (hasWildcard(pattern)) {
      const fixed = pattern.slice(0, pattern.slice(0, pattern.search(/[*?[]/)).lastIndexOf('/') + 1) || '/';
      let realFixed: string;
      try {
        realFixed = fsv.realpath(fixed);
      } catch {
        return [];
      }
      const holdsArea = areas.some((a) => a === realFixed || a.startsWith(realFixed.endsWith(sep) ? realFixed : realFixed + sep));
      if (!inArea(realFixed) && !holdsArea) {
        outside.push(pattern);
        return [];
      }
      matches = expandGlob(pattern, fsv);
    } else {
      try {
        fsv.stat(pattern);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        note('warning', `cannot read ${displayText(pattern)}: ${errText(e)}`);
        return [];
      }
      matches = [pattern];
    }
    const out: string[] = [];
    for (const m of matches) readSet(m, 0, outside, note, out, new Set());
    return out;
  };

  /**
   * What an Include reads at `p`: the file, or every file below the folder, dot files too,
   * in byte order, at most 128 folders deep (config.c); nothing outside the areas.
   */
  const readSet = (p: string, depth: number, outside: string[], note: Note, out: string[], descending: Set<string>): void => {
    let real: string;
    try {
      real = fsv.realpath(p);
    } catch (e) {
      note('warning', `${displayText(display(p))} is ${symlinkTrouble(e)}; Apache cannot read it`);
      return;
    }
    if (!inArea(real)) {
      outside.push(real);
      return;
    }
    let isDir = false;
    try {
      isDir = fsv.stat(real).isDirectory();
    } catch {
      /* vanished: readFile reports it */
    }
    if (!isDir) {
      out.push(p);
      return;
    }
    if (descending.has(real)) {
      note('error', `folder ${displayText(display(p))} leads back into ${displayText(display(real))} (a symbolic link loop); Apache refuses to start on it; not followed further`);
      return;
    }
    if (depth + 1 > MAX_INCLUDE_DIR_DEPTH) {
      note('error', `folder ${displayText(display(p))} is nested more than ${MAX_INCLUDE_DIR_DEPTH} levels deep, which Apache refuses; not followed further`);
      return;
    }
    let names: string[];
    try {
      names = fsv.names(p).sort(byteOrder);
    } catch (e) {
      note('error', `cannot read folder ${displayText(display(p))}: ${errText(e)}`);
      return;
    }
    descending.add(real);
    for (const name of names) {
      const q = join(p, name);
      if (isTempName(name)) note('warning', `${displayText(display(q))} ${STALE_TEMP}`);
      else readSet(q, depth + 1, outside, note, out, descending);
    }
    descending.delete(real);
  };

  // 3. Main configs and what they include. Files named httpd.conf/apache2.conf or setting
  // ServerRoot are mains first; a file they include is never a main of its own, even if
  // it has Listen or LoadModule lines (conf/extra/httpd-ssl.conf does).
  const startMain = (file: ConfigFile): void => {
    file.role = 'main';
    tree.rolesChanged();
    const { root, note, line, declared } = serverRootOf(file, opts, tree.defines, fsv);
    if (note) findings.push(engineFinding('server-root', file.display, line ?? 0, 'warning', note));
    tree.serverRoots.set(file, root);
    // A copy of a server's tree: absolute paths under the declared ServerRoot are read in the copy.
    if (declared && declared !== root) tree.rootMaps.set(file, { from: declared, to: root });
    followFrom(file, root, declared && declared !== root ? { from: declared, to: root } : undefined);
  };
  const followFrom = (root: ConfigFile, serverRoot: string, map?: { from: string; to: string }): void => {
    // Depth-first in Apache's reading order, with the chain of files for cycle detection.
    const done = new Set<ConfigFile>();
    const visit = (file: ConfigFile, chain: ConfigFile[]): void => {
      if (done.has(file)) return;
      done.add(file);
      for (const d of includeDirectives(file)) {
        const optional = d.is('IncludeOptional');
        const raw = d.values[0];
        const sub = substitute(raw, tree.defines);
        if (sub.unresolved.length > 0) {
          findings.push(engineFinding('include', file.display, d.line, 'warning', `${d.name} ${displayText(raw)}: \${${sub.unresolved[0]}} is not defined (use --define); not followed`));
          continue;
        }
        const pattern = isAbsolute(sub.text) ? mapRoot(sub.text, map) : join(serverRoot, sub.text);
        const where = `${d.name} ${displayText(raw)}`;
        const note = (severity: Finding['severity'], message: string): void => {
          findings.push(engineFinding('include', file.display, d.line, severity, `${where}: ${message}`));
        };
        const outside: string[] = [];
        const found = includeMatches(pattern, outside, note);
        if (found.length === 0 && outside.length === 0) {
          if (!optional) {
            findings.push(engineFinding('include', file.display, d.line, 'warning', hasWildcard(pattern)
              ? `${where} matches no file; httpd 2.4 refuses to start on a wildcard Include that matches nothing (IncludeOptional allows it)`
              : `${where}: ${displayText(pattern)} does not exist`));
          }
          tree.includes.set(d, { from: file, directive: d, resolved: pattern, targets: [] });
          continue;
        }
        if (outside.length > 0) {
          const more = outside.length > 1 ? ` and ${outside.length - 1} more` : '';
          findings.push(engineFinding('include', file.display, d.line, 'warning', `${where} reaches ${displayText(outside[0])}${more}, outside the paths given; not followed (give its folder or --server-root)`));
        }
        const targets: ConfigFile[] = [];
        if (found.length > 0 && chain.length > MAX_INCLUDE_DEPTH) {
          findings.push(engineFinding('include', file.display, d.line, 'error', `${where}: Include files nest deeper than ${MAX_INCLUDE_DEPTH} levels, which Apache refuses ("Exceeded maximum include depth"); not followed`));
          found.length = 0;
        }
        for (const m of found) {
          const target = readFile(m, true, 'included');
          if (!target) continue;
          if (target === file || chain.includes(target)) {
            findings.push(engineFinding('include', file.display, d.line, 'error', `${where} includes ${target.display}, which is already being read (Include cycle); not followed`));
            continue;
          }
          if (target.role === 'standalone' || target.role === 'main') {
            target.role = 'included';
            tree.rolesChanged();
          }
          if (!target.includedBy.some((x) => x.directive === d)) target.includedBy.push({ file, directive: d });
          targets.push(target);
          chain.push(target);
          visit(target, chain);
          chain.pop();
        }
        tree.includes.set(d, { from: file, directive: d, resolved: pattern, targets });
      }
    };
    visit(root, [root]);
  };

  for (const { file } of files) {
    if (file.role === 'standalone' && isStrongMain(file)) startMain(file);
  }
  for (const { file } of files) {
    if (file.role === 'standalone' && looksLikeMain(file)) startMain(file);
  }
  // A fragment given alone still has its Includes followed, relative to --server-root or its folder.
  for (const { file } of files) {
    if (file.role !== 'standalone') continue;
    followFrom(file, opts.serverRoot ? resolve(opts.cwd, opts.serverRoot) : dirname(file.path));
  }

  return { tree, findings, sources, failed, cache };
}

function walkFolder(dir: string, out: Array<{ shown: string; explicit: boolean }>, findings: Finding[], display: (p: string) => string, fsv: FsView): void {
  const seen = new Set<string>();
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    let real: string;
    try {
      real = fsv.realpath(d);
    } catch {
      continue;
    }
    if (seen.has(real)) continue; // symlink loops
    seen.add(real);
    let entries;
    try {
      entries = [...fsv.readdir(d)].sort((a, b) => byteOrder(a.name, b.name));
    } catch (e) {
      findings.push(engineFinding('read-error', display(d), 0, 'error', `cannot read folder: ${errText(e)}`));
      continue;
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      const name = entry.name;
      const p = join(d, name);
      if (isTempName(name)) {
        findings.push(engineFinding('read-error', display(p), 0, 'warning', STALE_TEMP));
        continue;
      }
      // The listing's type, but lstat for a configuration file: it may have gone since (a warning).
      let st: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean } = entry;
      try {
        if (isConfigName(name)) st = fsv.lstat(p);
      } catch (e) {
        findings.push(engineFinding('read-error', display(p), 0, 'warning', `vanished while its folder was read (${errText(e)}); skipped`));
        continue;
      }
      if (st.isSymbolicLink()) {
        try {
          st = fsv.stat(p);
        } catch (e) {
          if (isConfigName(name)) findings.push(engineFinding('read-error', display(p), 0, 'warning', `${symlinkTrouble(e)}, skipped`));
          continue;
        }
      }
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) subdirs.push(p);
      } else if (st.isFile() && isConfigName(name)) {
        out.push({ shown: p, explicit: false });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

function includeDirectives(file: ConfigFile): Directive[] {
  if (file.role === 'htaccess') return [];
  const out: Directive[] = [];
  for (const n of walk(file.doc)) {
    if (n.kind === 'directive' && (n.is('Include') || n.is('IncludeOptional')) && n.values.length > 0) out.push(n);
  }
  return out;
}

/** Named like a main config, or sets ServerRoot. */
function isStrongMain(file: ConfigFile): boolean {
  return MAIN_NAMES.has(basename(file.path)) || file.doc.children.some((n) => n.kind === 'directive' && n.is('ServerRoot'));
}

/** Sets up a server of its own: Listen or LoadModule at top level. */
function looksLikeMain(file: ConfigFile): boolean {
  return isStrongMain(file) || file.doc.children.some((n) => n.kind === 'directive' && (n.is('Listen') || n.is('LoadModule')));
}

/**
 * The folder relative Include paths resolve against: --server-root, else the ServerRoot
 * directive when it holds the main file, else (a copy of a server tree) the folder above
 * `conf/` or the main file's own folder, with a note saying so.
 */
function serverRootOf(file: ConfigFile, opts: LoadOptions, defines: ReadonlyMap<string, string>, fsv: FsView): { root: string; note?: string; line?: number; declared?: string } {
  if (opts.serverRoot) {
    const root = resolve(opts.cwd, opts.serverRoot);
    const d = declaredServerRoot(file, defines);
    return d && d !== root ? { root, declared: d } : { root };
  }
  const here = dirname(file.path);
  const guess = basename(here) === 'conf' ? dirname(here) : here;
  const shown = relative(opts.cwd, guess) || '.';
  for (const n of file.doc.children) {
    if (n.kind === 'directive' && n.is('ServerRoot') && n.values.length > 0) {
      const sub = substitute(n.values[0], defines);
      if (sub.unresolved.length > 0) return { root: guess, line: n.line, note: `ServerRoot uses \${${sub.unresolved[0]}}, which is not defined; relative paths resolve against ${shown} (use --server-root or --define)` };
      const root = resolve(here, sub.text);
      let real = root;
      try {
        real = fsv.realpath(root);
      } catch {
        /* not on this machine */
      }
      if (file.path.startsWith(real.endsWith(sep) ? real : real + sep)) return { root: real };
      return { root: guess, declared: root, line: n.line, note: `ServerRoot ${displayText(sub.text)} does not hold this file (a copy of the server's tree?); relative paths, and absolute ones under ${displayText(sub.text)}, resolve against ${shown} (use --server-root to choose)` };
    }
  }
  return { root: guess };
}

/** The ServerRoot a main config declares (absolute), if it says. */
function declaredServerRoot(file: ConfigFile, defines: ReadonlyMap<string, string>): string | undefined {
  for (const n of file.doc.children) {
    if (n.kind === 'directive' && n.is('ServerRoot') && n.values.length > 0) {
      const sub = substitute(n.values[0], defines);
      if (sub.unresolved.length === 0) return resolve(dirname(file.path), sub.text);
    }
  }
  return undefined;
}

/** Why a path that lstat() sees cannot be followed. */
function symlinkTrouble(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ELOOP' ? 'a symbolic link loop' : code === 'ENOENT' ? 'a dangling symbolic link' : `unreadable (${errText(e)})`;
}

/** The line (1-based) holding byte `at`. */
function lineAt(bytes: Buffer, at: number): number {
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < at; i = bytes.indexOf(10, i + 1)) line++;
  return line;
}

