// The command line: options (see docs/cli.md), modes, output formats and exit codes.

import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import pc from 'picocolors';
import { hunks, unifiedDiff } from '../engine/diff.js';
import { errText } from '../engine/errors.js';
import { apply, type EngineOptions, type FileOutcome, plan, selectTransforms } from '../engine/run.js';
import { findHttpd, verifyPlan } from '../engine/verify.js';
import { removePendingTempFiles } from '../engine/write.js';
import { displayText } from '../syntax/index.js';
import { transforms } from '../../transforms/index.js';
import type { Finding } from '../../transforms/types.js';
import { colorDiff, type Colors, errorLine, findingLine, sortFindings, summarize, summaryLine } from './report.js';
import { toSarif } from './sarif.js';

export interface Io {
  stdout: { write(s: string | Uint8Array): unknown; isTTY?: boolean };
  stderr: { write(s: string | Uint8Array): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * The process ends when main returns (the bin): a stop signal caught while writing stays
   * caught after it, so one after the last write cannot kill the process unreported. Removing
   * the handler first would leave a moment with none (the default action kills at once).
   */
  exitsAfter?: boolean;
}

/** The package root (holds package.json and docs/), from src/cli or dist/src/cli. */
export function packageRoot(): string {
  let d = __dirname;
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(d, 'package.json'))) return d;
    d = dirname(d);
  }
  return join(__dirname, '..', '..');
}

function version(): string {
  try {
    return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version as string;
  } catch {
    return '0.0.0';
  }
}

/** Colour on a terminal, unless --no-color or NO_COLOR; FORCE_COLOR turns it on anywhere. */
/**
 * A progress line on stderr for long runs on a terminal: shown once a run has taken a
 * second, rewritten in place, cleared with ''. Nothing when stderr is not a terminal.
 */
export function progressLine(stderr: { write(s: string): unknown; isTTY?: boolean }, quiet: boolean, now: () => number = Date.now): ((what: string) => void) | undefined {
  if (!stderr.isTTY || quiet) return undefined;
  const start = now();
  let shown = false;
  return (what) => {
    if (what === '') {
      if (shown) stderr.write('\r\x1b[K');
      shown = false;
      return;
    }
    if (now() - start < 1000) return;
    stderr.write(`\r\x1b[K${what.slice(0, 76)}`);
    shown = true;
  };
}

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, noColor: boolean): boolean {
  let on = !!stream.isTTY;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') on = true;
  if ((env.NO_COLOR !== undefined && env.NO_COLOR !== '') || noColor) on = false;
  return on;
}

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const list = (v: string, prev: string[] = []): string[] => [...prev, ...v.split(',').map((s) => s.trim()).filter(Boolean)];
const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

interface CliOptions {
  dryRun?: boolean;
  check?: boolean;
  diffFile?: string;
  only?: string[];
  skip?: string[];
  listTransforms?: boolean;
  explain?: string;
  serverRoot?: string;
  define?: string[];
  mode: 'replace' | 'dual';
  preserveDefaults?: boolean;
  verify?: boolean;
  httpd?: string;
  backup?: string | boolean;
  format: 'text' | 'json' | 'sarif';
  quiet?: boolean;
  verbose?: boolean;
  color: boolean;
}

export function buildProgram(): Command {
  return new Command()
    .name('httpd24-codemod')
    .description('Rewrite Apache httpd 2.2 configuration into equivalent 2.4 configuration.')
    .version(version(), '-V, --version')
    .argument('[path...]', 'configuration files or folders (folders are searched for *.conf, httpd.conf, apache2.conf, .htaccess)')
    .option('-n, --dry-run', 'write nothing; print unified diffs and the findings')
    .option('--check', 'write nothing; list the files that would change (exit 1 when any would)')
    .option('--diff-file <file>', 'also write the combined patch to this file')
    .option('--only <ids>', 'run only these transforms (comma list)', list)
    .option('--skip <ids>', 'run all but these transforms (comma list)', list)
    .option('--list-transforms', 'print every transform: id, kind, summary')
    .option('--explain <id>', "print a transform's documentation")
    .option('--server-root <dir>', 'resolve relative Include paths against this folder (default: ServerRoot, else the main file\'s folder)')
    .option('--define <name>', 'treat <IfDefine NAME> as true and set ${NAME} (NAME or NAME=VALUE; repeatable)', collect)
    .addOption(new Option('--mode <mode>', 'replace 2.2 access control, or keep it beside the 2.4 form for files that must run on both').choices(['replace', 'dual']).default('replace'))
    .option('--preserve-defaults', 'pin 2.2 defaults that changed in 2.4 explicitly instead of only reporting them')
    .option('--verify', "run httpd 2.4's config test on the converted tree (in a temporary copy) first; write nothing when it fails")
    .option('--httpd <path>', 'the httpd 2.4 binary (httpd, apache2 or apachectl) for --verify; implies --verify')
    .option('--backup [suffix]', 'keep each original beside the rewritten file (default suffix .orig)')
    .addOption(new Option('--format <format>', 'report format on stdout').choices(['text', 'json', 'sarif']).default('text'))
    .option('-q, --quiet', 'print only diffs, manual follow-ups, errors and the summary')
    .option('--verbose', 'print every finding with detail, and stack traces for internal errors')
    .option('--no-color', 'no colour (also off when NO_COLOR is set or stdout is not a terminal; FORCE_COLOR forces it)')
    .showHelpAfterError('(run with --help for usage)');
}

export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  program.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  try {
    program.parse(argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  const o = program.opts<CliOptions>();
  const paths = [...program.args];
  // `--backup x.conf`: commander takes x.conf as the optional suffix; a suffix starts with
  // '.', '~', '_' or '-' and is part of a file name (no '/'), anything else is a path.
  if (typeof o.backup === 'string' && (!/^[.~_-]/.test(o.backup) || o.backup.includes('/'))) {
    paths.unshift(o.backup);
    o.backup = true;
  }
  const colorOn = colorEnabled(io.stdout, io.env, !o.color);
  const c: Colors = pc.createColors(colorOn);

  if (o.listTransforms) {
    const w = Math.max(...transforms.map((t) => t.id.length));
    for (const t of transforms) io.stdout.write(`${t.id.padEnd(w)}  ${t.kind.padEnd(7)}  ${t.title}\n`);
    return 0;
  }
  if (o.explain) {
    const t = transforms.find((x) => x.id === o.explain);
    if (!t) {
      io.stderr.write(`httpd24-codemod: unknown transform '${o.explain}' (see --list-transforms)\n`);
      return 2;
    }
    const page = join(packageRoot(), 'docs', 'transforms', `${t.id}.md`);
    io.stdout.write(existsSync(page) ? readFileSync(page, 'utf8') : `${t.id} (${t.kind}): ${t.title}\n${t.docs}\n`);
    return 0;
  }
  if (paths.length === 0) {
    io.stderr.write('httpd24-codemod: give at least one file or folder (run with --help for usage)\n');
    return 2;
  }
  if (o.dryRun && o.check) {
    io.stderr.write('httpd24-codemod: --dry-run and --check are separate modes; give one\n');
    return 2;
  }

  const defines = new Map<string, string>();
  for (const d of o.define ?? []) {
    const eq = d.indexOf('=');
    defines.set(eq < 0 ? d : d.slice(0, eq), eq < 0 ? '' : d.slice(eq + 1));
  }
  const engine: EngineOptions = {
    cwd: io.cwd,
    serverRoot: o.serverRoot,
    defines,
    only: o.only,
    skip: o.skip,
    mode: o.mode,
    preserveDefaults: !!o.preserveDefaults,
    verbose: !!o.verbose,
    progress: progressLine(io.stderr, !!o.quiet),
  };
  let selected;
  try {
    selected = selectTransforms(engine);
  } catch (e) {
    io.stderr.write(`httpd24-codemod: ${(e as Error).message}\n`);
    return 2;
  }

  const p = plan(paths, engine);
  engine.progress?.('');
  let writing = !o.dryRun && !o.check;
  const findings: Finding[] = [...p.findings];
  if (o.diffFile) {
    // The patch must never land on a file of the tree (it would replace a config).
    let target = resolve(io.cwd, o.diffFile);
    try {
      target = realpathSync(target);
    } catch {
      /* a new file */
    }
    const clash = p.tree.byPath.get(target);
    if (clash) {
      io.stderr.write(`httpd24-codemod: --diff-file ${o.diffFile} is ${clash.display}, one of the configuration files being converted; choose another name (nothing was written)\n`);
      return 2;
    }
  }

  if ((o.verify || o.httpd) && p.tree.files.length > 0) {
    const refuse = (file: string, message: string): void => {
      findings.push({ transform: 'verify', file, line: 0, column: 0, severity: 'error', message: writing ? `${message}; nothing written` : message });
      writing = false;
    };
    const found = findHttpd(o.httpd, io.env);
    if (!found.httpd) refuse(paths[0], `--verify: ${found.problem}`);
    else {
      const v = verifyPlan(p, { httpd: found.httpd, cwd: io.cwd, defines, serverRoot: o.serverRoot ? resolve(io.cwd, o.serverRoot) : undefined });
      findings.push(...v.findings);
      if (!v.ok) refuse(v.tested[0] ?? paths[0], `${found.httpd.path} ${found.httpd.version} -t fails on the converted configuration (${v.tested.join(', ')})`);
      else if (o.verbose) io.stderr.write(`verified with ${found.httpd.path} ${found.httpd.version} -t: ${v.tested.join(', ') || 'nothing to test'}\n`);
    }
  }

  let interrupted = false;
  const onSignal = (): void => {
    interrupted = true;
  };
  // The handler stays until the report is out: a signal after the last write must not kill
  // the run with every file new and no report saying so.
  const release = (): void => {
    if (!io.exitsAfter) for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
  };
  const exit = (code: number): number => {
    release();
    return code;
  };
  if (writing) {
    // Until now nothing was written and the default action (exit) is right. From here a
    // signal lets the group being written finish, and no further group starts.
    for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
    try {
      findings.push(...(await apply(p, { backup: o.backup === undefined || o.backup === false ? undefined : o.backup === true ? '.orig' : o.backup, shouldStop: () => interrupted })));
    } catch (e) {
      release();
      throw e;
    } finally {
      removePendingTempFiles();
    }
    if (interrupted) findings.push({ transform: 'write', file: paths[0], line: 0, column: 0, severity: 'error', message: 'interrupted: files already written are complete, the rest are unchanged' });
  }

  const changed = p.files.filter((x) => x.status === 'changed');
  const diffOf = (x: FileOutcome): string => unifiedDiff(x.file.display, x.before, x.after, hunks(x.before, x.after, 3, x.file.doc));
  if (o.diffFile) {
    try {
      writeFileSync(resolve(io.cwd, o.diffFile), Buffer.from(changed.map(diffOf).join(''), 'latin1'));
    } catch (e) {
      findings.push({ transform: 'write', file: o.diffFile, line: 0, column: 0, severity: 'error', message: `cannot write the patch: ${errText(e)}` });
    }
  }

  const sorted = sortFindings(findings);
  const s = summarize(p, sorted);
  const errors = sorted.filter((f) => f.severity === 'error');
  for (const f of errors) io.stderr.write(errorLine(f) + '\n');

  if (o.format === 'json') {
    io.stdout.write(JSON.stringify({
      tool: 'httpd24-codemod',
      version: version(),
      mode: o.dryRun ? 'dry-run' : o.check ? 'check' : 'write',
      summary: s,
      files: p.files.map((x) => ({ path: x.file.display, role: x.file.role, status: x.status })),
      findings: sorted,
    }, null, 2) + '\n');
  } else if (o.format === 'sarif') {
    io.stdout.write(JSON.stringify(toSarif(p, sorted, selected, version()), null, 2) + '\n');
  } else {
    const shown = (f: Finding): boolean => f.severity !== 'error' && (!o.quiet || f.severity === 'manual');
    const byFile = new Map<string, Finding[]>();
    for (const f of sorted) {
      if (!shown(f)) continue;
      if (!byFile.has(f.file)) byFile.set(f.file, []);
      byFile.get(f.file)!.push(f);
    }
    // Plain diffs carry the files' exact bytes (so they apply); coloured ones are for reading.
    const colored = (diff: string): Uint8Array | string => (colorOn ? colorDiff(displayText(diff), c) : Buffer.from(diff, 'latin1'));
    if (o.check) {
      for (const x of changed) io.stdout.write(`would change: ${x.file.display}\n`);
    }
    for (const x of p.files) {
      if (o.dryRun && x.status === 'changed') io.stdout.write(colored(diffOf(x)));
      for (const f of byFile.get(x.file.display) ?? []) io.stdout.write(findingLine(f, c) + '\n');
      byFile.delete(x.file.display);
    }
    for (const fs of byFile.values()) for (const f of fs) io.stdout.write(findingLine(f, c) + '\n');
    if (o.verbose) for (const x of p.files) io.stdout.write(c.dim(`${x.file.display}: ${x.file.role}, ${x.status}`) + '\n');
    io.stdout.write(summaryLine(s, o.dryRun || o.check ? 'would change' : 'changed') + '\n');
  }

  if (s.errors > 0 || p.loadFailed > 0) return exit(2);
  if (o.check) return exit(changed.length > 0 ? 1 : 0);
  if (o.dryRun) return exit(changed.length > 0 || sorted.length > 0 ? 1 : 0);
  return exit(s.manual > 0 ? 1 : 0);
}
