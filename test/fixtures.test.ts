// jscodeshift-style fixtures: __testfixtures__/<transform>/<case>.input.conf must become
// <case>.output.conf byte for byte, with the findings in <case>.findings.json when present.
// Every output must also parse cleanly and stay unchanged when converted again.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOnText } from '../src/engine/memory.js';
import { decodeBytes, parse } from '../src/syntax/index.js';
import { transforms } from '../transforms/index.js';

const ROOT = join(__dirname, '..', '__testfixtures__');

export interface FixtureCase {
  transform: string;
  name: string;
  input: string;
  output: string;
  findings?: Array<{ line: number; severity: string; message: string; transform?: string }>;
  options?: { mode?: 'replace' | 'dual'; preserveDefaults?: boolean };
  /** Other files of the tree (absolute path → text): <case>.files.json. */
  files?: Record<string, string>;
}

export function fixtureCases(): FixtureCase[] {
  const out: FixtureCase[] = [];
  for (const id of readdirSync(ROOT).sort()) {
    const dir = join(ROOT, id);
    for (const f of readdirSync(dir).sort()) {
      const m = /^(.*)\.input\.conf$/.exec(f);
      if (!m) continue;
      const base = join(dir, m[1]);
      const read = (p: string): string => decodeBytes(readFileSync(p));
      out.push({
        transform: id,
        name: m[1],
        input: read(base + '.input.conf'),
        output: read(base + '.output.conf'),
        findings: existsSync(base + '.findings.json') ? JSON.parse(readFileSync(base + '.findings.json', 'utf8')) : undefined,
        options: existsSync(base + '.options.json') ? JSON.parse(readFileSync(base + '.options.json', 'utf8')) : undefined,
        files: existsSync(base + '.files.json') ? JSON.parse(readFileSync(base + '.files.json', 'utf8')) : undefined,
      });
    }
  }
  return out;
}

const cases = fixtureCases();

describe('fixtures', () => {
  test('every transform has fixtures, and every fixture folder names a transform', () => {
    const ids = new Set(transforms.map((t) => t.id));
    const folders = new Set(cases.map((c) => c.transform));
    expect([...ids].filter((id) => !folders.has(id))).toEqual([]);
    expect([...folders].filter((f) => !ids.has(f))).toEqual([]);
  });

  test.each(cases.map((c) => [`${c.transform}/${c.name}`, c] as const))('%s', (_n, c) => {
    const t = transforms.find((x) => x.id === c.transform)!;
    const role = c.name.startsWith('htaccess') ? 'htaccess' : undefined;
    const res = runOnText(c.input, [t], { role, files: c.files, ...c.options });
    expect(res.output).toBe(c.output);
    if (c.findings) {
      expect(res.findings.map((f) => ({ line: f.line, severity: f.severity, message: f.message, ...(f.transform !== c.transform ? { transform: f.transform } : {}) }))).toEqual(c.findings);
    } else if (c.input !== c.output) {
      // A rewrite is always explained.
      expect(res.findings.some((f) => f.severity === 'change')).toBe(true);
    }
    expect(parse(res.output).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Idempotent: converting the output changes nothing.
    expect(runOnText(res.output, [t], { role, files: c.files, ...c.options }).output).toBe(res.output);
  });
});
