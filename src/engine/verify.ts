// --verify: Apache is the judge. Finds an installed httpd 2.4, writes the converted tree
// into a temporary copy, runs httpd's config test on it, and maps Apache's own error lines
// back to the user's files and lines. The user's files are never touched here.
//
// What makes a config test of a copy mean something (docs/cli.md, "--verify"):
// - the copy mirrors the folders that hold the tree's config files; every other entry in
//   them is a symlink to the original, so paths relative to ServerRoot (modules/, logs/,
//   htdocs/, mime.types) reach the same files;
// - ServerRoot and absolute Include paths that point into the tree are pointed at the copy,
//   on the same line, so line numbers stay the user's; paths outside the tree are left as
//   written: the real server reads them there too;
// - a LoadModule file that does not exist on this machine (a 2.2 tree checked out
//   elsewhere) is taken from the 2.4 installation's module folder under the same name;
// - when no MPM is loaded and the binary has none built in, mpm_prefork is loaded with -C
//   (2.2 built its MPM in), and a missing error-log folder becomes a temporary one, each
//   with a warning saying so.

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ConfigFile } from '../model/tree.js';
import { substitute } from '../model/vars.js';
import { ancestors, type Directive, type Document, fromUnicode, parse, print, quoteArg, walk } from '../syntax/index.js';
import type { Finding } from '../../transforms/types.js';
import { lineInBefore } from './diff.js';
import type { Plan } from './run.js';

export interface HttpdBinary {
  /** The program run for the config test (httpd, apache2 or apachectl). */
  path: string;
  /** "2.4.71" */
  version: string;
  /** Modules compiled in (`-l`), e.g. core.c, mod_so.c, prefork.c. */
  builtin: string[];
  /** Folder holding the installation's DSOs (mod_*.so), when one was found. */
  modulesDir: string | null;
}

export type FindHttpdResult = { httpd: HttpdBinary; problem?: undefined } | { httpd?: undefined; problem: string };

const NAMES = ['apache2', 'httpd', 'apachectl', 'apache2ctl'];
const EXTRA_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/local/apache2/bin', '/opt/homebrew/bin', '/usr/local/bin'];
const MODULE_DIRS = ['/usr/lib/apache2/modules', '/usr/lib64/httpd/modules', '/usr/lib/httpd/modules', '/usr/local/apache2/modules', '/usr/libexec/apache2', '/usr/lib/apache2', '/opt/homebrew/lib/httpd/modules', '/usr/local/lib/httpd/modules'];

function run(cmd: string, args: string[], opts: { timeoutMs?: number; launcher?: readonly string[]; cwd?: string } = {}): { status: number | null; output: string; error?: string } {
  const [file, ...pre] = opts.launcher && opts.launcher.length > 0 ? [...opts.launcher, cmd] : [cmd];
  const r = spawnSync(file, [...pre, ...args], { encoding: 'utf8', timeout: opts.timeoutMs ?? 30_000, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) return { status: null, output: '', error: (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? 'timed out' : r.error.message };
  return { status: r.status, output: (r.stderr ?? '') + (r.stdout ?? '') };
}

/** Asks a candidate program what it is: null when it is not an Apache httpd at all. */
function probe(path: string): { version: string; builtin: string[] } | null {
  const v = run(path, ['-v'], { timeoutMs: 10_000 });
  const m = /Server version:\s*Apache\/(\d+\.\d+\.\d+)/.exec(v.output);
  if (!m) return null;
  const l = run(path, ['-l'], { timeoutMs: 10_000 });
  const builtin = l.output.split('\n').map((s) => s.trim()).filter((s) => /\.c$/.test(s));
  return { version: m[1], builtin };
}

function findModulesDir(binary: string): string | null {
  // Next to the binary first (a build under /usr/local/apache2 has bin/ and modules/).
  const here = dirname(realOr(binary));
  for (const d of [join(here, '..', 'modules'), ...MODULE_DIRS]) {
    if (existsSync(join(d, 'mod_authz_core.so'))) return resolve(d);
  }
  return null;
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The httpd 2.4 to verify with: `explicit` (--httpd), else the first apache2, httpd,
 * apachectl or apache2ctl on PATH or in the usual sbin folders that says it is 2.4.
 */
export function findHttpd(explicit?: string, env: NodeJS.ProcessEnv = process.env, extraDirs: readonly string[] = EXTRA_DIRS): FindHttpdResult {
  const check = (path: string): FindHttpdResult => {
    const p = probe(path);
    if (!p) return { problem: `${path} does not answer -v like an Apache httpd` };
    if (!p.version.startsWith('2.4.')) return { problem: `${path} is Apache ${p.version}; --verify needs httpd 2.4` };
    return { httpd: { path, version: p.version, builtin: p.builtin, modulesDir: findModulesDir(path) } };
  };
  if (explicit) {
    if (!existsSync(explicit)) return { problem: `--httpd ${explicit}: no such file` };
    return check(resolve(explicit));
  }
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...extraDirs];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of NAMES) {
    for (const d of dirs) {
      const p = join(d, name);
      if (seen.has(realOr(p)) || !isExecutable(p)) continue;
      seen.add(realOr(p));
      const r = check(p);
      if (r.httpd) return r;
      problems.push(r.problem);
    }
  }
  return {
    problem: problems.length > 0
      ? `no httpd 2.4 found (${problems.join('; ')}); install Apache httpd 2.4 or give its binary with --httpd <path>`
      : 'no Apache httpd found (looked for apache2, httpd, apachectl on PATH and in /usr/sbin); install httpd 2.4 (Debian: apt-get install apache2) or give its binary with --httpd <path>',
  };
}

function isExecutable(p: string): boolean {
  try {
    const st = statSync(p);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** True when the binary has an MPM compiled in (2.2 style builds, some 2.4 ones). */
export function hasBuiltinMpm(httpd: HttpdBinary): boolean {
  return httpd.builtin.some((m) => /^(prefork|worker|event|mpm_\w+|mpmt_os2|mpm_winnt)\.c$/.test(m));
}

export interface ConfigTestOptions {
  /** -d: the ServerRoot used until the config sets its own. */
  serverRoot?: string;
  /** -C: directives read before the config file. */
  before?: readonly string[];
  /** -D names. */
  defines?: readonly string[];
  /** A command to run httpd under (e.g. unshare with private /etc/hosts). */
  launcher?: readonly string[];
  timeoutMs?: number;
}

export interface ConfigTestResult {
  ok: boolean;
  status: number | null;
  /** httpd's stderr and stdout. */
  output: string;
}

/** `httpd -t -f conf`: the config test, nothing started. */
export function configTest(httpd: HttpdBinary, conf: string, opts: ConfigTestOptions = {}): ConfigTestResult {
  const args = ['-t', '-f', conf];
  if (opts.serverRoot) args.push('-d', opts.serverRoot);
  for (const c of opts.before ?? []) args.push('-C', c);
  for (const d of opts.defines ?? []) args.push('-D', d);
  const r = run(httpd.path, args, { timeoutMs: opts.timeoutMs, launcher: opts.launcher });
  if (r.error) return { ok: false, status: null, output: `${httpd.path}: ${r.error}` };
  return { ok: r.status === 0 && /Syntax OK/.test(r.output), status: r.status, output: r.output };
}

/**
 * LoadModule lines for every DSO of the installation but the MPMs (mpm_prefork is loaded
 * once) and mod_access_compat (a converted file must not lean on it unless it loads it
 * itself): the wrapper a config fragment is tested in.
 */
export function allModulesWrapper(httpd: HttpdBinary): string[] {
  const dir = httpd.modulesDir;
  if (!dir) return [];
  const out: string[] = [];
  if (!hasBuiltinMpm(httpd) && existsSync(join(dir, 'mod_mpm_prefork.so'))) out.push(`LoadModule mpm_prefork_module ${quoteArg(join(dir, 'mod_mpm_prefork.so')).raw}`);
  for (const f of readdirSync(dir).sort()) {
    const m = /^mod_(\w+)\.so$/.exec(f);
    if (!m || m[1].startsWith('mpm_') || m[1] === 'access_compat') continue;
    out.push(`LoadModule ${m[1]}_module ${quoteArg(join(dir, f)).raw}`);
  }
  return out;
}

export interface VerifyOptions {
  httpd: HttpdBinary;
  cwd: string;
  /** --define NAME[=VALUE]: -D NAME, or Define NAME VALUE read before the config. */
  defines?: ReadonlyMap<string, string>;
  /** --server-root: the folder relative paths of a fragment resolve against (default: its own folder). */
  serverRoot?: string;
  /** Keep the temporary copy (for debugging); its path is returned. */
  keep?: boolean;
}

export interface VerifyResult {
  /** Every config test ran and passed. */
  ok: boolean;
  findings: Finding[];
  /** The configs tested: main configs, or standalone fragments in a wrapper. */
  tested: string[];
  copy?: string;
}

const MPM_LOAD = /^mpm_\w+_module$/i;

/** Runs httpd's config test on the converted tree of a plan, in a temporary copy. */
export function verifyPlan(p: Plan, opts: VerifyOptions): VerifyResult {
  const { httpd } = opts;
  const findings: Finding[] = [];
  const note = (file: string, line: number, severity: Finding['severity'], message: string): void => {
    findings.push({ transform: 'verify', file, line, column: line > 0 ? 1 : 0, severity, message });
  };
  const files = p.files.filter((o) => o.file.role !== 'htaccess');
  // A server of its own has a ServerRoot or a main config's name; a file that is "main"
  // only for its Listen or LoadModule lines (conf.d/ssl.conf) is a fragment of a server
  // not given, and is tested like one.
  const serverOfItsOwn = (f: ConfigFile): boolean => /^(httpd|apache2)\.conf$/.test(basename(f.path)) || f.doc.children.some((n) => n.kind === 'directive' && n.is('ServerRoot'));
  const mains = files.filter((o) => o.file.role === 'main' && serverOfItsOwn(o.file)).map((o) => o.file);
  const fragments = files.filter((o) => o.file.role === 'standalone' || (o.file.role === 'main' && !serverOfItsOwn(o.file))).map((o) => o.file);
  if (mains.length === 0 && fragments.length === 0) {
    note(p.files[0]?.file.display ?? '.', 0, 'warning', 'nothing to config-test: only .htaccess files, which httpd reads per request (give the server\'s main config to verify them in place)');
    return { ok: true, findings, tested: [] };
  }

  // The copy mirrors the smallest folder holding every config file and server root.
  const roots = mains.map((m) => p.tree.serverRoots.get(m) ?? dirname(m.path));
  for (const f of fragments) roots.push(p.tree.serverRoots.get(f) ?? opts.serverRoot ?? dirname(f.path));
  const base = commonFolder([...files.map((o) => dirname(o.file.path)), ...roots.map(realOr)]);
  const copy = realOr(mkdtempSync(join(tmpdir(), 'httpd24-verify-')));
  const into = (real: string): string => join(copy, relative(base, real));
  const fromCopy = (s: string): string => s.split(copy).join(base);

  try {
    mirror(base, copy, [...files.map((o) => o.file.path)], roots.map(realOr));
    const scratch = mkdtempSync(join(copy, '.verify-'));
    const rootOf = new Map(mains.map((m, i) => [m, realOr(roots[i])]));
    let mpmLoaded = false;
    let serverErrorLog = false;
    for (const o of files) {
      const doc = parse(o.after);
      mpmLoaded ||= loadsMpm(doc);
      serverErrorLog ||= setsServerErrorLog(doc);
      const serverRoot = rootOf.get(o.file) ?? realOr(roots[0] ?? dirname(o.file.path));
      const ctx = { base, into, serverRoot, isMain: rootOf.has(o.file), modulesDir: httpd.modulesDir, defines: p.tree.defines, scratch, note: (line: number, m: string) => note(o.file.display, line, 'warning', m) };
      retarget(doc, ctx);
      writeFileSync(into(o.file.path), Buffer.from(print(doc), 'latin1'));
    }
    const before: string[] = [];
    if (!mpmLoaded && !hasBuiltinMpm(httpd)) {
      if (httpd.modulesDir && existsSync(join(httpd.modulesDir, 'mod_mpm_prefork.so'))) {
        before.push(`LoadModule mpm_prefork_module ${quoteArg(join(httpd.modulesDir, 'mod_mpm_prefork.so')).raw}`);
        for (const m of mains) note(m.display, 0, 'warning', `no MPM is loaded: httpd 2.2 built its MPM in, ${basename(httpd.path)} ${httpd.version} loads it as a module; the config test loaded mpm_prefork_module, the server needs a LoadModule mpm_…_module line`);
      }
    }
    // -D NAME for --define NAME; a value needs the Define directive, read before the config.
    const defines = [...(opts.defines ?? [])].filter(([, v]) => v === '').map(([k]) => k);
    const defineLines = [...(opts.defines ?? [])].filter(([, v]) => v !== '').map(([k, v]) => `Define ${k} ${quoteArg(v).raw}`);
    const tested: string[] = [];
    let ok = true;
    // Apache counts lines of the converted text; findings count the user's file as it is.
    const mappers = new Map<string, (line: number) => { line: number; written: boolean }>();
    const toOriginalLine = (m: ApacheMessage): ApacheMessage => {
      const o = m.file !== undefined && m.line > 0 ? files.find((f) => f.file.display === m.file) : undefined;
      if (!o || o.before === o.after) return m;
      let map = mappers.get(m.file!);
      if (!map) mappers.set(m.file!, (map = lineInBefore(o.before, o.after)));
      const at = map(m.line);
      return at.written ? { ...m, line: at.line, message: `${m.message} (line ${m.line} of the converted file, which the conversion wrote)` } : { ...m, line: at.line };
    };
    const judge = (file: ConfigFile, conf: string, extra: { serverRoot: string; before: string[] }): void => {
      tested.push(file.display);
      const r = configTest(httpd, conf, { ...extra, before: [...defineLines, ...extra.before], defines });
      const out = fromCopy(r.output);
      const mapped = apacheMessages(out, (path) => p.tree.byPath.get(path)?.display ?? (relative(opts.cwd, path) || path)).map(toOriginalLine);
      if (!r.ok) {
        ok = false;
        const errs = mapped.filter((m) => m.severity === 'error');
        if (errs.length === 0) note(file.display, 0, 'error', `${basename(httpd.path)} -t failed: ${firstLine(out) || `exit status ${r.status}`}`);
        for (const e of errs) note(e.file ?? file.display, e.line, 'error', `${basename(httpd.path)} -t: ${e.message}`);
      }
      for (const w of mapped.filter((m) => m.severity === 'warning')) note(w.file ?? file.display, w.line, 'warning', `${basename(httpd.path)} -t: ${w.message}`);
    };
    for (const m of mains) {
      const extra = [...before];
      // No ErrorLog: httpd checks the default logs/ folder, which a checked-out tree may lack.
      if (!serverErrorLog && !existsSync(join(rootOf.get(m)!, 'logs'))) {
        extra.push(`ErrorLog ${quoteArg(join(scratch, 'error_log')).raw}`);
        note(m.display, 0, 'warning', `no ErrorLog is set and the default folder ${join(rootOf.get(m)!, 'logs')} does not exist on this machine (httpd -t checks it); tested with a temporary one`);
      }
      judge(m, into(m.path), { serverRoot: into(rootOf.get(m)!), before: extra });
    }
    // A fragment on its own: inside a wrapper that loads every module of the installation.
    if (fragments.length > 0) {
      const wrapperModules = allModulesWrapper(httpd);
      if (wrapperModules.length === 0) {
        for (const f of fragments) note(f.display, 0, 'warning', `not config-tested: no module folder of ${httpd.path} found to build a server around this fragment`);
      }
      for (const f of wrapperModules.length > 0 ? fragments : []) {
        // Relative paths resolve where the tool resolved them: --server-root, else the fragment's folder.
        const root = into(realOr(p.tree.serverRoots.get(f) ?? opts.serverRoot ?? dirname(f.path)));
        const wrapper = join(mkdtempSync(join(scratch, 'wrapper-')), 'wrapper.conf');
        const lines = [`ServerRoot ${quoteArg(root).raw}`, ...wrapperModules.filter((l) => !mpmLoaded || !/mpm_prefork_module/.test(l)), 'ServerName localhost', `ErrorLog ${quoteArg(join(scratch, 'error_log')).raw}`, `Include ${quoteArg(into(f.path)).raw}`, ''];
        writeFileSync(wrapper, lines.join('\n'));
        judge(f, wrapper, { serverRoot: root, before: [] });
      }
    }
    return { ok, findings, tested, copy: opts.keep ? copy : undefined };
  } finally {
    if (!opts.keep) rmSync(copy, { recursive: true, force: true });
  }
}

function firstLine(s: string): string {
  return s.split('\n').map((l) => l.trim()).find((l) => l && !/^Syntax OK$/.test(l)) ?? '';
}

function loadsMpm(doc: Document): boolean {
  for (const n of walk(doc)) if (n.kind === 'directive' && n.is('LoadModule') && MPM_LOAD.test(n.values[0] ?? '')) return true;
  return false;
}

/** An ErrorLog for the main server (outside any <VirtualHost>). */
function setsServerErrorLog(doc: Document): boolean {
  for (const n of walk(doc)) {
    if (n.kind === 'directive' && n.is('ErrorLog') && !ancestors(n).some((a) => a.is('VirtualHost'))) return true;
  }
  return false;
}

function commonFolder(paths: readonly string[]): string {
  let common = paths[0].split(sep);
  for (const p of paths.slice(1)) {
    const parts = p.split(sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}

/**
 * Makes `copy` look like `base` along the folders that hold `files` and `roots`: those
 * folders are real, every other entry in them is a symlink to the original.
 */
function mirror(base: string, copy: string, files: readonly string[], roots: readonly string[]): void {
  const real = new Set<string>(['']);
  const addChain = (dir: string): void => {
    let r = relative(base, dir);
    while (r && r !== '.' && !r.startsWith('..')) {
      real.add(r);
      r = dirname(r) === '.' ? '' : dirname(r);
    }
  };
  for (const f of files) addChain(dirname(f));
  for (const r of roots) addChain(r);
  const copied = new Set(files.map((f) => relative(base, f)));
  for (const r of [...real].sort()) {
    mkdirSync(join(copy, r), { recursive: true });
    let names: string[];
    try {
      names = readdirSync(join(base, r));
    } catch {
      continue;
    }
    for (const n of names) {
      const rel = r ? join(r, n) : n;
      if (real.has(rel) || copied.has(rel)) continue;
      try {
        lstatSync(join(copy, rel));
      } catch {
        symlinkSync(join(base, rel), join(copy, rel));
      }
    }
  }
}

interface RetargetContext {
  base: string;
  into: (real: string) => string;
  /** The original ServerRoot the tool resolved this file's relative paths against. */
  serverRoot: string;
  isMain: boolean;
  modulesDir: string | null;
  defines: ReadonlyMap<string, string>;
  /** A folder of the copy for what the test needs beside the tree (error logs). */
  scratch: string;
  note: (line: number, message: string) => void;
}

/**
 * Edits a file for the copy: ServerRoot and absolute Include paths into the tree point at
 * the copy, LoadModule files missing on this machine come from the installation's module
 * folder, an ErrorLog whose folder is missing goes to the scratch folder. Only arguments
 * change, so every line keeps its number.
 */
function retarget(doc: Document, ctx: RetargetContext): void {
  const baseBytes = fromUnicode(ctx.base);
  const toCopy = (value: string): string | null => {
    const sub = substitute(value, ctx.defines);
    if (sub.unresolved.length > 0 || !isAbsolute(sub.text)) return null;
    const v = sub.text;
    const wild = v.search(/[*?[]/);
    const fixed = wild < 0 ? v : v.slice(0, v.lastIndexOf('/', wild) + 1);
    const real = fromUnicode(realOr(Buffer.from(fixed, 'latin1').toString('utf8')));
    const rest = v.slice(fixed.length);
    const joined = fixed.endsWith('/') && !real.endsWith('/') ? real + '/' + rest : real + rest;
    if (joined !== baseBytes && !joined.startsWith(baseBytes.endsWith('/') ? baseBytes : baseBytes + '/')) return null;
    return fromUnicode(ctx.into(ctx.base)) + joined.slice(baseBytes.length);
  };
  const set = (d: Directive, i: number, value: string): void => {
    const args = [...d.args];
    args[i] = quoteArg(value, args[i].quote === "'" ? "'" : args[i].quote === '"' ? '"' : '');
    d.setArgs(args);
  };
  for (const n of walk(doc)) {
    if (n.kind !== 'directive') continue;
    if (n.is('ServerRoot') && ctx.isMain && n.values.length > 0) {
      set(n, 0, fromUnicode(ctx.into(ctx.serverRoot)));
    } else if ((n.is('Include') || n.is('IncludeOptional')) && n.values.length > 0) {
      const to = toCopy(n.values[0]);
      if (to !== null) set(n, 0, to);
    } else if (n.is('ErrorLog') && n.values.length > 0 && !/^(\||syslog)/.test(n.values[0])) {
      const v = substitute(n.values[0], ctx.defines);
      if (v.unresolved.length > 0) continue;
      const file = Buffer.from(v.text, 'latin1').toString('utf8');
      const folder = dirname(isAbsolute(file) ? file : join(ctx.serverRoot, file));
      if (!existsSync(folder)) {
        set(n, 0, fromUnicode(join(ctx.scratch, 'error_log')));
        ctx.note(n.line, `the ErrorLog folder ${folder} does not exist on this machine (httpd -t checks it); tested with a temporary one`);
      }
    } else if (n.is('LoadModule') && n.values.length > 1 && ctx.modulesDir) {
      const v = substitute(n.values[1], ctx.defines);
      if (v.unresolved.length > 0) continue;
      const file = Buffer.from(v.text, 'latin1').toString('utf8');
      const where = isAbsolute(file) ? file : join(ctx.serverRoot, file);
      const instead = join(ctx.modulesDir, basename(file));
      if (!existsSync(where) && existsSync(instead)) set(n, 1, fromUnicode(instead));
    }
  }
}

export interface ApacheMessage {
  severity: 'error' | 'warning';
  /** The file as shown to people, when Apache named one. */
  file?: string;
  line: number;
  message: string;
}

/**
 * Apache's config-test output as messages: `Syntax error on line N of FILE: why` (the
 * innermost FILE of an Include chain; `why` may sit on the next line), and warnings that
 * end in `FILE:N` or name no place.
 */
export function apacheMessages(output: string, display: (path: string) => string): ApacheMessage[] {
  const out: ApacheMessage[] = [];
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    const re = /Syntax error on line (\d+) of ([^:]+):/g;
    let m: RegExpExecArray | null;
    let last: RegExpExecArray | null = null;
    while ((m = re.exec(l))) last = m;
    if (last) {
      let message = l.slice(last.index + last[0].length).trim();
      if (!message && i + 1 < lines.length) message = lines[++i].trim();
      out.push({ severity: 'error', file: display(last[2]), line: Number(last[1]), message });
      continue;
    }
    const w = /\[[\w_]+:(warn|error|crit|alert|emerg)\]\s+(?:\[pid [^\]]*\]\s+)?(.*)$/.exec(l) ?? (/^(AH\d+): (Warning: .*)$/.exec(l) ? [l, 'warn', l] : null);
    if (!w || /AH00558/.test(l)) continue; // AH00558: no ServerName, not the config's business here
    // The place comes last: `… /path/file.conf:12` or `… in line 12 of /path/file.conf.`
    const at = /\s(\/\S+):(\d+)$/.exec(w[2]);
    const of = at ? null : /\s(?:in |on )?line (\d+) of (\/\S+?)\.?$/.exec(w[2]);
    out.push({
      severity: w[1] === 'warn' ? 'warning' : 'error',
      file: at ? display(at[1]) : of ? display(of[2]) : undefined,
      line: at ? Number(at[2]) : of ? Number(of[1]) : 0,
      message: (at ?? of) ? w[2].slice(0, (at ?? of)!.index).trim() : w[2].trim(),
    });
  }
  return out;
}
