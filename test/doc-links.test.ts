// Links between the project's pages point at files and headings that exist.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT, transcriptPages } from '../scripts/doc-transcripts.js';

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const noCode = md.replace(/^(`{3,})[\s\S]*?^\1$/gm, '');
  for (const m of noCode.matchAll(/^#{1,6} (.+)$/gm)) out.add(slug(m[1]));
  return out;
}

describe('doc links', () => {
  const pages = [...transcriptPages(), 'CHANGELOG.md'];

  test.each(pages)('%s links only to files and headings that exist', (page) => {
    const md = readFileSync(join(ROOT, page), 'utf8').replace(/^(`{3,})[\s\S]*?^\1$/gm, '');
    const broken: string[] = [];
    for (const m of md.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const path = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(file));
      if (!existsSync(path)) {
        broken.push(`${target}: no ${relative(ROOT, path)}`);
        continue;
      }
      if (anchor && statSync(path).isFile() && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(anchor)) {
        broken.push(`${target}: no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('slugs follow GitHub', () => {
    expect(slug('5. Check with Apache 2.4')).toBe('5-check-with-apache-24');
    expect(slug('GitHub Actions: check and upload SARIF')).toBe('github-actions-check-and-upload-sarif');
    expect(slug('`--verify`')).toBe('--verify');
  });
});
