// Temporary config trees for end-to-end tests, and an in-process CLI runner.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { main } from '../../src/cli/main.js';

export function makeTree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'h24-'));
  for (const [p, content] of Object.entries(files)) {
    const full = join(root, p);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === 'string' ? Buffer.from(content, 'latin1') : content);
  }
  return root;
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Every regular file under root: relative path → bytes and mtime. */
export function snapshot(root: string): Map<string, { bytes: Buffer; mtimeMs: number; mode: number }> {
  const out = new Map<string, { bytes: Buffer; mtimeMs: number; mode: number }>();
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(relative(root, p), { bytes: readFileSync(p), mtimeMs: st.mtimeMs, mode: st.mode });
    }
  };
  walk(root);
  return out;
}

export interface CliRun {
  code: number;
  stdout: Buffer;
  stderr: string;
  out: string;
}

export async function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (arr: Buffer[]) => ({ write: (s: string | Uint8Array) => arr.push(typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s)), isTTY: false });
  const code = await main(['node', 'httpd24-codemod', ...args], { stdout: sink(out), stderr: sink(err), env, cwd });
  const stdout = Buffer.concat(out);
  return { code, stdout, stderr: Buffer.concat(err).toString('utf8'), out: stdout.toString('latin1') };
}

/** Temporary trees removed after each test of the file: `tree(files)` makes one, `track(dir)` adopts one. */
export function useTempTrees(): { tree: (files: Record<string, string | Buffer>) => string; track: (dir: string) => string } {
  let roots: string[] = [];
  afterEach(() => {
    roots.forEach(removeTree);
    roots = [];
  });
  const track = (dir: string): string => {
    roots.push(dir);
    return dir;
  };
  return { tree: (files) => track(makeTree(files)), track };
}

/** A file of a tree as a byte string. */
export function readBytes(root: string, path: string): string {
  return readFileSync(join(root, path), 'latin1');
}
