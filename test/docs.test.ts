// Every transform has a page in docs/transforms/<id>.md, and the page's example is the
// transform's real output: running the transform on the "Before" block gives the "After"
// block exactly. (--explain prints the same page.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOnText } from '../src/engine/memory.js';
import { transforms } from '../transforms/index.js';

const DOCS = join(__dirname, '..', 'docs', 'transforms');

/** The code blocks that follow "Before" and "After" labels, in order, as pairs. */
export function examplePairs(md: string): Array<{ before: string; after: string; role?: 'htaccess' }> {
  const blocks = [...md.matchAll(/^(Before|After)\b([^\n]*)\n+```[a-z]*\n([\s\S]*?)^```/gm)].map((m) => ({ label: m[1], note: m[2], code: m[3] }));
  const pairs: Array<{ before: string; after: string; role?: 'htaccess' }> = [];
  for (let i = 0; i + 1 < blocks.length; i += 2) {
    if (blocks[i].label !== 'Before' || blocks[i + 1].label !== 'After') throw new Error('examples must come as Before/After pairs');
    pairs.push({ before: blocks[i].code, after: blocks[i + 1].code, ...(/\.htaccess/.test(blocks[i].note) ? { role: 'htaccess' as const } : {}) });
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
      expect(runOnText(p.before, [t], { role: p.role }).output).toBe(p.after);
    }
  });
});
