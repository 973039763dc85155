// Every transform has a page in docs/transforms/<id>.md, and the page's example is the
// transform's real output: running the transform on the "Before" block gives the "After"
// block exactly. (--explain prints the same page.) The catalogue in docs/README.md links
// every page, docs/cli.md documents exactly the options --help lists, and the changelog
// names every transform.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOnText } from '../src/engine/memory.js';
import { buildProgram } from '../src/cli/main.js';
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

describe('docs/README.md', () => {
  const md = readFileSync(join(__dirname, '..', 'docs', 'README.md'), 'utf8');
  const rows = [...md.matchAll(/^\| \[([a-z0-9-]+)\]\(transforms\/([a-z0-9-]+)\.md\) \| (\w+) \|/gm)].map((m) => ({ id: m[1], page: m[2], kind: m[3] }));

  test('the catalogue links every transform once, with its kind, and nothing else', () => {
    expect(rows.filter((r) => r.id !== r.page)).toEqual([]);
    expect(rows.map((r) => `${r.id} ${r.kind}`).sort()).toEqual(transforms.map((t) => `${t.id} ${t.kind}`).sort());
  });
});

describe('docs/cli.md', () => {
  // The options table: its first column holds the flags (`-n`, `--dry-run`).
  const md = readFileSync(join(__dirname, '..', 'docs', 'cli.md'), 'utf8');
  const table = /^## Options\n+([\s\S]*?)\n\n/m.exec(md)?.[1] ?? '';
  const documented = table.split('\n').filter((l) => l.startsWith('| `')).flatMap((l) => [...l.split(' | ')[0].matchAll(/`(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1]));

  test('documents every option of --help, and none that --help lacks', () => {
    const program = buildProgram();
    const flags = program.options.flatMap((o) => [o.short, o.long]).filter((f): f is string => !!f);
    flags.push('-h', '--help');
    expect(documented.length).toBeGreaterThan(10);
    expect([...new Set(documented)].sort()).toEqual([...new Set(flags)].sort());
  });
});

describe('CHANGELOG.md', () => {
  test('has an entry for every transform', () => {
    const md = readFileSync(join(__dirname, '..', 'CHANGELOG.md'), 'utf8');
    expect(transforms.filter((t) => !md.includes(`\n- \`${t.id}\`: `)).map((t) => t.id)).toEqual([]);
  });
});
