// The fixtures in __testfixtures__/<transform>/: <case>.input.conf, <case>.output.conf, and
// optionally <case>.findings.json and <case>.options.json. Read by the fixture test and by
// the suites that check fixture outputs elsewhere (apache2 -t).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBytes } from '../../src/syntax/index.js';

const ROOT = join(__dirname, '..', '..', '__testfixtures__');

export interface FixtureCase {
  transform: string;
  name: string;
  input: string;
  output: string;
  findings?: Array<{ line: number; severity: string; message: string; transform?: string }>;
  options?: { mode?: 'replace' | 'dual'; preserveDefaults?: boolean };
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
      });
    }
  }
  return out;
}

