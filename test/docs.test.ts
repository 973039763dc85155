// Every transform has a page in docs/transforms/<id>.md, and the page's example is the
// transform's real output: running the transform on the "Before" block gives the "After"
// block exactly. (--explain prints the same page.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOnText } from '../src/engine/memory.js';
import { transforms } from '../transforms/index.js';

const DOCS = join(__dirname, '..', 'docs', 'transforms');

/**
 * The code blocks labelled "Before …" and "After …", in order, as pairs. A block labelled
 * "Files …" (a JSON object: absolute path → text) puts other files of the tree beside the
 * next pair, for transforms that read them (.htaccess files for AllowOverride).
 */
export function examplePairs(md: string): Array<{ before: string; after: string; role?: 'htaccess'; files?: Record<string, string> }> {
  const blocks = [...md.matchAll(/^(Before|After|Files)\b([^\n]*)\n+```[a-z]*\n([\s\S]*?)^```/gm)].map((m) => ({ label: m[1], note: m[2], code: m[3] }));
  const pairs: Array<{ before: string; after: string; role?: 'htaccess'; files?: Record<string, string> }> = [];
  let files: Record<string, string> | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.label === 'Files') {
      files = JSON.parse(b.code);
      continue;
    }
    const next = blocks[i + 1];
    if (b.label !== 'Before' || !next || next.label !== 'After') throw new Error('examples must come as Before/After pairs');
    pairs.push({ before: b.code, after: next.code, ...(/\.htaccess/.test(b.note) ? { role: 'htaccess' as const } : {}), ...(files ? { files } : {}) });
    files = undefined;
    i++;
  }
  return pairs;
}

describe('transform documentation', () => {
  test.each(transforms.map((t) => [t.id, t] as const))('%s has a page whose example matches the real output', (id, t) => {
    const page = join(DOCS, `${id}.md`);
    expect(existsSync(page)).toBe(true);
    const md = readFileSync(page, 'utf8');
    expect(md.startsWith(`# ${id}\n`)).toBe(true);
    expect(md).toContain(t.docs);
    const pairs = examplePairs(md);
    expect(pairs.length).toBeGreaterThan(0);
    for (const p of pairs) {
      expect(runOnText(p.before, [t], { role: p.role, files: p.files }).output).toBe(p.after);
    }
  });
});
