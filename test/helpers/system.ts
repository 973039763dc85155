// Running the real command (dist/, built by `npm test`'s tsc step) as another user or in
// a private mount namespace, for faults an in-process run cannot produce: root ignores
// file modes, and a full disk needs a small file system of its own. Each capability is
// probed once; tests that need a missing one skip and say why.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
export const BIN = join(ROOT, 'bin/httpd24-codemod.js');
const MAIN_JS = join(ROOT, 'dist/src/cli/main.js');

/** Fails clearly when dist/ is missing or older than the sources (run `npm run build`). */
export function requireBuilt(): void {
  if (!existsSync(MAIN_JS)) throw new Error('dist/ is missing: run `npm run build` (npm test does it) before these tests');
  const built = statSync(MAIN_JS).mtimeMs;
  for (const f of ['src/cli/main.ts', 'src/engine/run.ts', 'src/engine/write.ts', 'src/engine/load.ts']) {
    if (statSync(join(ROOT, f)).mtimeMs > built) throw new Error(`dist/ is older than ${f}: run \`npm run build\` first`);
  }
}

function probe(cmd: string, args: string[]): boolean {
  try {
    return spawnSync(cmd, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;
  } catch {
    return false;
  }
}

/** Why a test cannot run the command as `nobody`, or null when it can. */
export function cannotDropPrivileges(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root, so cannot switch to nobody';
  if (!probe('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true'])) return 'setpriv cannot switch to uid 65534';
  if (!probe('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', MAIN_JS])) return `nobody cannot read ${MAIN_JS} (a folder above it is private)`;
  return null;
}

/** Why a test cannot mount a tmpfs in a private mount namespace, or null when it can. */
export function cannotMountTmpfs(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root';
  const d = mkdtempSync(join(tmpdir(), 'h24-ns-'));
  try {
    return probe('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs '${d}'`]) ? null : 'unshare -m with a tmpfs mount is not permitted here';
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

/** test() that skips, saying why, when `why` is not null. */
export function testIf(why: string | null, name: string, fn: () => Promise<void>, timeout?: number): void {
  if (why === null) test(name, fn, timeout);
  else {
    test.skip(`${name} (skipped: ${why})`, fn);
    // eslint-disable-next-line no-console
    console.warn(`[skip] ${name}: ${why}`);
  }
}

export interface Spawned {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Started {
  kill(signal: NodeJS.Signals): void;
  done: Promise<Spawned>;
}

/** Starts a command; `done` resolves when it ends (rejects when it outlives `timeoutMs`: a hang). */
export function start(cmd: string, args: string[], opts: { cwd: string; timeoutMs?: number }): Started {
  const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const done = new Promise<Spawned>((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('latin1').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const limit = opts.timeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} did not finish in ${limit} ms (hang?)`));
    }, limit);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
  return { kill: (signal) => child.kill(signal), done };
}

/** Runs a command to completion; `kill` sends a signal after the given milliseconds. */
export function run(cmd: string, args: string[], opts: { cwd: string; kill?: { signal: NodeJS.Signals; afterMs: number }; timeoutMs?: number }): Promise<Spawned> {
  const s = start(cmd, args, opts);
  if (opts.kill) {
    const { signal, afterMs } = opts.kill;
    const t = setTimeout(() => s.kill(signal), afterMs);
    void s.done.finally(() => clearTimeout(t));
  }
  return s.done;
}

/** The command line of the built tool, run as nobody. */
export function asNobody(args: string[]): [string, string[]] {
  return ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN, ...args]];
}

export function chownR(path: string, uid: number): void {
  execFileSync('chown', ['-R', `${uid}:${uid}`, path]);
}
