// Large input through the whole pipeline (load, transforms, verification with its second
// run, diff, write): no quadratic step. The budgets are generous for a slow CI machine;
// the numbers measured on a 2-core machine are in the comments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, useTempTrees } from '../helpers/tree.js';
import { applyHunks } from '../helpers/patch.js';
import { type Directive, directive, parse, print, replaceRun, type Section, section } from '../../src/syntax/index.js';

const temp = useTempTrees();
const tree = (name: string, text: string): string => temp.tree({ [name]: text });

/** The hunks of a --dry-run patch for one file, parsed back. */
function patchHunks(patch: string): Array<{ oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }> {
  const out = [];
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(lines[i]);
    if (!m) continue;
    const [oldStart, oldLines, newStart, newLines] = m.slice(1).map(Number);
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && /^[ +\-\\]/.test(lines[j]); j++) body.push(lines[j]);
    out.push({ oldStart: oldLines === 0 ? oldStart + 1 : oldStart, oldLines, newStart: newLines === 0 ? newStart + 1 : newStart, newLines, lines: body });
  }
  return out;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await fn();
  return [r, performance.now() - t0];
}

test('100,000 lines, every other one renamed: dry run patch and write', async () => {
  const text = Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? `MaxClients ${i % 13}` : `Allow from 10.0.${i % 256}.0/24`)).join('\n') + '\n';
  const root = tree('many.conf', text);
  const [dry, dryMs] = await timed(() => runCli(['-n', '-q', 'many.conf'], root));
  expect(dry.code).toBe(1);
  expect(applyHunks(text, patchHunks(dry.out))).toBe(text.replaceAll('MaxClients', 'MaxRequestWorkers'));
  const [w, writeMs] = await timed(() => runCli(['-q', 'many.conf'], root));
  expect(w.code).toBe(0);
  expect(readFileSync(join(root, 'many.conf'), 'latin1')).toBe(text.replaceAll('MaxClients', 'MaxRequestWorkers'));
  // ~1 s each measured; over 5 minutes before the diff was computed from the tree.
  expect(dryMs).toBeLessThan(60_000);
  expect(writeMs).toBeLessThan(60_000);
}, 180_000);

test('a 1 MB single line', async () => {
  const long = 'RewriteRule ^/' + 'a'.repeat(1024 * 1024) + ' /b [L]';
  const text = `MaxClients 1\n${long}\nMaxClients 2\n`;
  const root = tree('long.conf', text);
  const [r, ms] = await timed(() => runCli(['-q', 'long.conf'], root));
  expect(r.code).toBe(0);
  expect(readFileSync(join(root, 'long.conf'), 'latin1')).toBe(`MaxRequestWorkers 1\n${long}\nMaxRequestWorkers 2\n`);
  expect(ms).toBeLessThan(30_000); // ~0.1 s
});

test('a 50 MB file with edits at both ends', async () => {
  const line = 'KeepAlive On # ' + 'x'.repeat(80) + '\n';
  const body = line.repeat(Math.ceil((50 * 1024 * 1024) / line.length));
  const text = 'MaxClients 10\n' + body + 'MaxRequestsPerChild 0\n';
  const root = tree('big.conf', text);
  const [dry, dryMs] = await timed(() => runCli(['-n', '-q', 'big.conf'], root));
  expect(dry.code).toBe(1);
  expect(dry.out.split('\n').filter((l) => /^[+-][^+-]/.test(l))).toEqual(['-MaxClients 10', '+MaxRequestWorkers 10', '-MaxRequestsPerChild 0', '+MaxConnectionsPerChild 0']);
  const [w, writeMs] = await timed(() => runCli(['-q', '--backup', 'big.conf'], root));
  expect(w.code).toBe(0);
  const expected = 'MaxRequestWorkers 10\n' + body + 'MaxConnectionsPerChild 0\n';
  expect(readFileSync(join(root, 'big.conf')).equals(Buffer.from(expected, 'latin1'))).toBe(true);
  expect(readFileSync(join(root, 'big.conf.orig')).equals(Buffer.from(text, 'latin1'))).toBe(true);
  // ~3 s each measured.
  expect(dryMs).toBeLessThan(90_000);
  expect(writeMs).toBeLessThan(90_000);
}, 240_000);

test('100,000 lines in 25,000 <Directory> sections', async () => {
  const block = (i: number): string => `<Directory /srv/www/site${i}>\n    Options None\n    MaxClients ${i}\n</Directory>\n`;
  const text = Array.from({ length: 25_000 }, (_, i) => block(i)).join('');
  const root = tree('dirs.conf', text);
  const [r, ms] = await timed(() => runCli(['-q', 'dirs.conf'], root));
  expect(r.code).toBe(0);
  expect(readFileSync(join(root, 'dirs.conf'), 'latin1')).toBe(text.replaceAll('MaxClients', 'MaxRequestWorkers'));
  expect(ms).toBeLessThan(60_000); // ~1 s
}, 120_000);

describe('many edits in one section (an IP blocklist .htaccess)', () => {
  const blocklist = '<Directory /srv>\n' + Array.from({ length: 50_000 }, (_, i) => `    Deny from 10.${(i >> 8) & 255}.${i & 255}.0/24\n`).join('') + '</Directory>\n';
  const expected = '<Directory /srv>\n    <RequireAll>\n' + Array.from({ length: 50_000 }, (_, i) => `        Require not ip 10.${(i >> 8) & 255}.${i & 255}.0/24\n`).join('') + '    </RequireAll>\n</Directory>\n';

  test('50,000 lines replaced by one created section: edit and print are linear', () => {
    const doc = parse(blocklist);
    const dir = doc.children[0] as Section;
    const t0 = performance.now();
    const run = [...dir.children];
    replaceRun(run, [section('RequireAll', [], run.map((d) => directive('Require', 'not', 'ip', (d as Directive).values[1])))]);
    const out = print(doc);
    const ms = performance.now() - t0;
    expect(out).toBe(expected);
    expect(ms).toBeLessThan(20_000); // ~0.1 s; printing alone took over 3 minutes before
  });

  test('50,000 lines replaced one by one (before + remove)', () => {
    const doc = parse(blocklist);
    const dir = doc.children[0] as Section;
    const t0 = performance.now();
    for (const d of [...dir.children]) {
      d.before(directive('Require', 'not', 'ip', (d as Directive).values[1]));
      d.remove();
    }
    const out = print(doc);
    const ms = performance.now() - t0;
    expect(out).toBe(blocklist.replaceAll('    Deny from', '    Require not ip'));
    expect(ms).toBeLessThan(60_000); // ~2 s (6 s + 200 s printing before)
  });
});
