// `npm run bench`: times httpd24-codemod on generated hosting-provider trees (bench-tree.ts)
// of 100, 1,000 and 10,000 vhosts. Per size, the median of several runs of:
//   (a) parse + print of every file in-process (the printer forced to render every node), MB/s;
//   (b) the whole CLI with --dry-run on the tree (diffs written to /dev/null);
//   (c) the whole CLI converting a copy of the tree in place (the same tree generated again at a
//       path of the same length, so it holds the same bytes but for that path);
//   (d) one small .htaccess end to end (node start-up included);
//   (e) the peak memory (RSS) of (b);
// and, where an httpd 2.4 is installed, `httpd -t` on the tree (c) produced: Apache 2.4 cannot
// read the 2.2 tree, so it is timed on the converted one, modules taken from the installation.
//   node dist/scripts/bench.js [--sizes 100,1000,10000] [--runs 5] [--timeout 900] [--dir .bench] [--keep]
// A run that passes --timeout seconds is stopped and reported as such; further runs of that
// measurement are skipped.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findHttpd } from '../src/engine/verify.js';
import { decodeBytes, parse, print } from '../src/syntax/index.js';
import { generateTree, type TreeStats } from './bench-tree.js';

const ROOT = resolve(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'httpd24-codemod.js');

interface Args {
  sizes: number[];
  runs: number;
  timeout: number;
  dir: string;
  keep: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { sizes: [100, 1000, 10000], runs: 5, timeout: 900, dir: join(ROOT, '.bench'), keep: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--sizes': a.sizes = v.split(',').map(Number); i++; break;
      case '--runs': a.runs = Number(v); i++; break;
      case '--timeout': a.timeout = Number(v); i++; break;
      case '--dir': a.dir = resolve(v); i++; break;
      case '--keep': a.keep = true; break;
      default:
        process.stderr.write(`bench: unknown option ${argv[i]}\n`);
        process.exit(2);
    }
  }
  return a;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A measurement: the median of its runs, or how it failed. */
interface Timing {
  median: number | null;
  runs: number[];
  note?: string;
}

interface CliRun {
  seconds: number;
  /** User + system CPU seconds (with measureRss). */
  cpu: number | null;
  status: number | null;
  peakKb: number | null;
  timedOut: boolean;
  stderr: string;
}

/** Runs the CLI once; the peak RSS comes from a preload that reports it at exit. */
function runCli(args: string[], timeoutS: number, measureRss: boolean, cwd: string): CliRun {
  const rssFile = join(cwd, `.rss-${process.pid}`);
  const env = { ...process.env };
  if (measureRss) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --require ${join(__dirname, 'bench-rss.js')}`.trim();
  env.H24_BENCH_RSS = rssFile;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutS * 1000, killSignal: 'SIGKILL', maxBuffer: 64 << 20 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  let peakKb: number | null = null;
  let cpu: number | null = null;
  if (measureRss && existsSync(rssFile)) {
    const u = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRSS: number; cpu: number };
    peakKb = u.maxRSS;
    cpu = u.cpu / 1e6;
    rmSync(rssFile, { force: true });
  }
  const timedOut = r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
  return { seconds, cpu, status: r.status, peakKb, timedOut, stderr: String(r.stderr ?? '') };
}

/** Exit codes 0 and 1 are normal runs (1: changes or findings); 2 is a failure. */
function checkRun(r: CliRun, what: string): string | undefined {
  if (r.timedOut) return `stopped after ${r.seconds.toFixed(0)} s`;
  if (r.status !== 0 && r.status !== 1) return `${what} exited ${r.status}: ${r.stderr.split('\n')[0]}`;
  return undefined;
}

function allFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) allFiles(p, out);
    else if (e.isFile() && (e.name.endsWith('.conf') || e.name === '.htaccess')) out.push(p);
  }
  return out;
}

/** (a) parse + print of every file, with the printer made to render each node. */
function roundTrip(root: string, runs: number): { timing: Timing; bytes: number } {
  const texts = allFiles(root).map((f) => decodeBytes(readFileSync(f)));
  const bytes = texts.reduce((n, t) => n + t.length, 0);
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = process.hrtime.bigint();
    for (const t of texts) {
      const doc = parse(t);
      doc.modified = true;
      if (print(doc) !== t) throw new Error('round trip changed a file');
    }
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return { timing: { median: median(times), runs: times }, bytes };
}

function repeat(runs: number, timeoutS: number, once: () => { seconds: number; problem?: string }): Timing {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const r = once();
    if (r.problem) return { median: times.length ? median(times) : null, runs: times, note: r.problem };
    times.push(r.seconds);
    // Slow measurements get fewer runs: at most about two timeouts' worth in all.
    if (times.reduce((x, y) => x + y, 0) > 2 * timeoutS) break;
  }
  return { median: median(times), runs: times };
}

interface Row {
  stats: TreeStats;
  mb: number;
  roundTrip: Timing;
  dryRun: Timing;
  inPlace: Timing;
  single: Timing;
  peakMb: number | null;
  apache: Timing | null;
}

function benchSize(n: number, a: Args, httpd: ReturnType<typeof findHttpd>['httpd']): Row {
  // Same-length names: the copy holds the same bytes but for the root path.
  const tree = join(a.dir, `tree-${n}`);
  const copy = join(a.dir, `copy-${n}`);
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const stats = generateTree(tree, n);
  const mb = stats.bytes / 1e6;
  log(`${n} vhosts: ${stats.files} files, ${mb.toFixed(1)} MB in ${tree}`);

  roundTrip(tree, 1); // warm-up: compile the parser before timing it
  const rt = roundTrip(tree, a.runs);
  log(`  (a) round trip ${fmtS(rt.timing)} = ${(mb / rt.timing.median!).toFixed(0)} MB/s`);

  let peakKb = 0;
  const cpu: number[] = [];
  const dryRun = repeat(a.runs, a.timeout, () => {
    const r = runCli(['--dry-run', tree], a.timeout, true, a.dir);
    if (r.peakKb) peakKb = Math.max(peakKb, r.peakKb);
    if (r.cpu !== null) cpu.push(r.cpu);
    return { seconds: r.seconds, problem: checkRun(r, 'dry run') };
  });
  log(`  (b) --dry-run ${fmtS(dryRun)} (runs ${dryRun.runs.map((x) => x.toFixed(2)).join(', ')}; CPU ${cpu.length ? median(cpu).toFixed(2) : '?'} s), peak ${(peakKb / 1024).toFixed(0)} MB`);

  const inPlace = repeat(a.runs, a.timeout, () => {
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    generateTree(copy, n);
    const r = runCli([copy], a.timeout, false, a.dir);
    return { seconds: r.seconds, problem: checkRun(r, 'in-place run') };
  });
  log(`  (c) in place ${fmtS(inPlace)}`);

  // (d) One site's .htaccess alone.
  const one = join(a.dir, `single-${n}`);
  rmSync(one, { recursive: true, force: true });
  mkdirSync(one, { recursive: true });
  writeFileSync(join(one, '.htaccess'), readFileSync(join(tree, 'sites', 'site00001', 'htdocs', '.htaccess')));
  const single = repeat(Math.max(a.runs, 10), a.timeout, () => {
    const r = runCli(['--dry-run', join(one, '.htaccess')], a.timeout, false, a.dir);
    return { seconds: r.seconds, problem: checkRun(r, 'single file') };
  });
  log(`  (d) single .htaccess ${fmtS(single, 'ms')}`);

  let apache: Timing | null = null;
  if (httpd) {
    if (inPlace.note) apache = { median: null, runs: [], note: 'no converted tree' };
    else {
      // The converted copy, with the installation's modules where the tree expects them.
      const mods = join(copy, 'modules');
      if (!existsSync(mods)) symlinkSync(httpd.modulesDir ?? '/usr/lib/apache2/modules', mods);
      const conf = join(copy, 'conf', 'httpd.conf');
      apache = repeat(a.runs, a.timeout, () => {
        const t0 = process.hrtime.bigint();
        const r = spawnSync(httpd.path, ['-t', '-f', conf], { encoding: 'utf8', timeout: a.timeout * 1000 });
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        const out = (r.stderr ?? '') + (r.stdout ?? '');
        return { seconds, problem: r.status === 0 && /Syntax OK/.test(out) ? undefined : `${httpd.path} -t failed: ${out.split('\n').filter(Boolean).slice(-2).join(' / ')}` };
      });
      log(`  ${httpd.path} -t on the converted tree ${fmtS(apache)}${apache.note ? ` (${apache.note})` : ''}`);
    }
  }
  if (!a.keep) for (const d of [tree, copy, one]) rmSync(d, { recursive: true, force: true });
  return { stats, mb, roundTrip: rt.timing, dryRun, inPlace, single, peakMb: peakKb ? peakKb / 1024 : null, apache };
}

function log(s: string): void {
  process.stderr.write(s + '\n');
}

function fmtS(t: Timing, unit: 's' | 'ms' = 's'): string {
  if (t.median === null) return t.note ?? 'n/a';
  const v = unit === 'ms' ? `${(t.median * 1000).toFixed(0)} ms` : `${t.median.toFixed(2)} s`;
  return t.note ? `${v} (${t.note})` : v;
}

function main(): void {
  const a = parseArgs(process.argv.slice(2));
  mkdirSync(a.dir, { recursive: true });
  const found = findHttpd();
  const httpd = found.httpd;
  log(httpd ? `httpd: ${httpd.path} ${httpd.version}` : `httpd: none (${found.problem}); the apache2 -t column stays empty`);
  log(`node ${process.version}, ${require('node:os').cpus().length} cores, ${a.runs} runs per measurement (median)`);
  const rows: Row[] = [];
  for (const n of a.sizes) rows.push(benchSize(n, a, httpd));

  const head = ['vhosts', 'files', 'MB', 'round trip MB/s', '--dry-run', 'in place', 'one .htaccess', 'peak RSS', 'apache2 -t', 'ratio'];
  const cells = rows.map((r) => [
    String(r.stats.vhosts),
    String(r.stats.files),
    r.mb.toFixed(1),
    r.roundTrip.median ? (r.mb / r.roundTrip.median).toFixed(0) : 'n/a',
    fmtS(r.dryRun),
    fmtS(r.inPlace),
    fmtS(r.single, 'ms'),
    r.peakMb === null ? 'n/a' : `${r.peakMb.toFixed(0)} MB`,
    r.apache ? fmtS(r.apache) : 'not installed',
    r.apache?.median && r.dryRun.median ? (r.dryRun.median / r.apache.median).toFixed(2) : 'n/a',
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]): string => '| ' + c.map((x, i) => x.padEnd(w[i])).join(' | ') + ' |';
  const out: string[] = [line(head), '|' + w.map((x) => '-'.repeat(x + 2)).join('|') + '|', ...cells.map(line), ''];
  for (const r of rows) {
    out.push(`${r.stats.vhosts} vhosts: ${r.mb.toFixed(1)} MB, cli ${fmtS(r.dryRun)}, apache2 -t ${r.apache ? fmtS(r.apache) : 'n/a'}, ratio ${r.apache?.median && r.dryRun.median ? (r.dryRun.median / r.apache.median).toFixed(2) : 'n/a'}, peak ${r.peakMb === null ? 'n/a' : r.peakMb.toFixed(0) + ' MB'}`);
  }
  if (httpd) out.push(`(apache2 -t read the tree httpd24-codemod converted in place: 2.4 cannot parse the 2.2 tree; modules/ points at ${httpd.modulesDir ?? '/usr/lib/apache2/modules'})`);
  process.stdout.write(out.join('\n') + '\n');
}

main();
