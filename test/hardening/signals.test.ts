// Interruption: SIGINT, SIGTERM or SIGHUP at any moment of a run leaves every file either
// fully old or fully new, and no temp file behind. The built command runs on a tree of
// 1,000 files and is signalled at random moments spread over a whole run, and once right
// after the first file was rewritten (so at least one signal lands mid-write for sure).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, requireBuilt, run, type Spawned, start } from '../helpers/system.js';
import { main } from '../../src/cli/main.js';

const FILES = 1000;
const oldText = (i: number): string => `# vhost ${i}\n<VirtualHost *:80>\n    ServerName h${i}.example\n    MaxClients ${i}\n</VirtualHost>\n` + '# filler line\n'.repeat(40);
const newText = (i: number): string => oldText(i).replace('MaxClients', 'MaxRequestWorkers');
const pathOf = (i: number): string => `site${String(i % 20).padStart(2, '0')}/v${String(i).padStart(4, '0')}.conf`;

let template: string;
const dirs: string[] = [];
beforeAll(() => {
  requireBuilt();
  template = mkdtempSync(join(tmpdir(), 'h24-sig-'));
  dirs.push(template);
  for (let i = 0; i < FILES; i++) {
    mkdirSync(join(template, pathOf(i), '..'), { recursive: true });
    writeFileSync(join(template, pathOf(i)), oldText(i));
  }
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function copy(): string {
  const d = mkdtempSync(join(tmpdir(), 'h24-sig-run-'));
  dirs.push(d);
  cpSync(template, d, { recursive: true });
  return d;
}

interface Outcome { old: number; new: number; run: Spawned }

/** Checks every file is exactly its old or its new version and nothing else is in the tree. */
function check(root: string, r: Spawned, tempsAllowed = false): Outcome {
  const all = (readdirSync(root, { recursive: true }) as string[]).map(String).filter((p) => p.endsWith('.conf') || p.includes('httpd24-codemod'));
  const temps = all.filter((p) => p.includes('.httpd24-codemod-'));
  if (!tempsAllowed) expect(temps).toEqual([]);
  expect(all).toHaveLength(FILES + temps.length);
  let o = 0;
  let n = 0;
  for (let i = 0; i < FILES; i++) {
    const text = readFileSync(join(root, pathOf(i)), 'latin1');
    if (text === oldText(i)) o++;
    else if (text === newText(i)) n++;
    else throw new Error(`${pathOf(i)} is neither its old nor its new version:\n${text}`);
  }
  // What the command says matches what happened.
  if (r.signal === 'SIGKILL') return { old: o, new: n, run: r };
  if (r.signal !== null) expect(n).toBe(0); // died before writing (default action)
  else if (r.code === 0) expect(n).toBe(FILES);
  else {
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('interrupted: files already written are complete, the rest are unchanged');
    expect(r.stderr.split('\n').filter((l) => l.endsWith('interrupted before this file was written; it is unchanged'))).toHaveLength(o);
  }
  return { old: o, new: n, run: r };
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

test('signals at random moments: every file old or new, no temp files', async () => {
  const calib = copy();
  const t0 = Date.now();
  const full = await run(process.execPath, [BIN, '-q', '.'], { cwd: calib });
  const duration = Date.now() - t0;
  expect(check(calib, full).new).toBe(FILES);

  const trials = 8;
  const outcomes: Outcome[] = [];
  for (let k = 0; k < trials; k++) {
    const root = copy();
    // The first within the first 5% of a run (start-up and plan(): nothing written yet),
    // then one moment in each k-th slice of it (a little beyond its end too).
    const afterMs = Math.floor((k === 0 ? Math.random() * 0.05 : (k + Math.random()) / trials) * duration * 1.1);
    const signal = SIGNALS[k % SIGNALS.length];
    const r = await run(process.execPath, [BIN, '-q', '.'], { cwd: root, kill: { signal, afterMs } });
    outcomes.push(check(root, r));
  }
  // The first moment is before the first write: the default action stops that run.
  expect(outcomes.some((o) => o.run.signal !== null)).toBe(true);
}, 180_000);

test.each(SIGNALS)('%s right after the first file was rewritten: the run stops between files', async (signal) => {
  const root = copy();
  const first = join(root, pathOf(0)); // files are written in the order they were read
  const r = await new Promise<Spawned>((resolve, reject) => {
    let sent = false;
    const p = start(process.execPath, [BIN, '-q', '.'], { cwd: root });
    const poll = setInterval(() => {
      if (sent) return;
      try {
        if (readFileSync(first, 'latin1') === newText(0)) {
          sent = true;
          clearInterval(poll);
          p.kill(signal);
        }
      } catch {
        /* between unlink and rename: cannot happen with rename(2), keep polling */
      }
    }, 1);
    p.done.then((x) => {
      clearInterval(poll);
      resolve(x);
    }, reject);
  });
  const o = check(root, r);
  expect(r.signal).toBeNull();
  expect(r.code).toBe(2);
  expect(o.new).toBeGreaterThan(0);
  expect(o.old).toBeGreaterThan(0);
}, 60_000);

test('SIGKILL mid-write (nothing can be cleaned up): still every file old or new; a second run finishes and names any stale temp file', async () => {
  const root = copy();
  const first = join(root, pathOf(0));
  const p = start(process.execPath, [BIN, '-q', '.'], { cwd: root });
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (readFileSync(first, 'latin1') === newText(0)) {
        clearInterval(poll);
        p.kill('SIGKILL');
        resolve();
      }
    }, 1);
  });
  const r = await p.done;
  expect(r.signal).toBe('SIGKILL');
  const o = check(root, r, true);
  expect(o.new).toBeGreaterThan(0);
  const stale = (readdirSync(root, { recursive: true }) as string[]).map(String).filter((x) => x.includes('.httpd24-codemod-'));
  const again = await run(process.execPath, [BIN, '--format', 'json', '.'], { cwd: root });
  expect(again.code).toBe(0);
  const warnings = (JSON.parse(again.stdout) as { findings: Array<{ file: string; severity: string; message: string }> }).findings.filter((f) => f.severity === 'warning');
  expect(warnings.map((f) => f.file).sort()).toEqual(stale.sort());
  for (const f of warnings) expect(f.message).toMatch(/^is a temp file left by a run of httpd24-codemod that was killed/);
  expect(check(root, again, true).new).toBe(FILES);
}, 60_000);

test('a signal after the last write (while the report is printed) is caught: the run reports every file written and exits 0', async () => {
  // The window is too short to hit from outside reliably, so the report's own output sends
  // the signal in-process: with no handler installed, process.emit would find no listener.
  const root = copy();
  const before = SIGNALS.map((s) => process.listenerCount(s));
  let during: number[] = [];
  const out: string[] = [];
  const sink = {
    isTTY: false,
    write: (x: string | Uint8Array): boolean => {
      if (during.length === 0) {
        during = SIGNALS.map((s) => process.listenerCount(s));
        process.emit('SIGTERM');
      }
      out.push(String(x));
      return true;
    },
  };
  const code = await main(['node', 'httpd24-codemod', '.'], { stdout: sink, stderr: sink, env: {}, cwd: root });
  expect(during).toEqual(before.map((n) => n + 1));
  expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual(before);
  expect(code).toBe(0);
  expect(out.join('')).not.toContain('interrupted');
  expect(check(root, { code, signal: null, stdout: out.join(''), stderr: '' } as Spawned).new).toBe(FILES);
});

test('for the bin (exitsAfter) the handler stays after the run: no moment in which a signal kills it unreported', async () => {
  // Releasing the handler and then ignoring signals left a gap in which the default action
  // killed a run with every file written (a random SIGTERM in CI found it).
  const root = copy();
  const before = SIGNALS.map((s) => process.listeners(s));
  const sink = { isTTY: false, write: (): boolean => true };
  const code = await main(['node', 'httpd24-codemod', '.'], { stdout: sink, stderr: sink, env: {}, cwd: root, exitsAfter: true });
  const added = SIGNALS.map((s, i) => process.listeners(s).filter((l) => !before[i].includes(l)));
  try {
    expect(added.map((l) => l.length)).toEqual([1, 1, 1]);
    expect(code).toBe(0);
    expect(process.emit('SIGTERM')).toBe(true); // caught: without a listener the default action would end the process
    expect(check(root, { code, signal: null, stdout: '', stderr: '' } as Spawned).new).toBe(FILES);
  } finally {
    SIGNALS.forEach((s, i) => added[i].forEach((l) => process.off(s, l as () => void)));
  }
});
