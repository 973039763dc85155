// The terminal transcripts in README.md, docs/ and examples/README.md are real runs of the
// tool on examples/ (see scripts/doc-transcripts.ts). When behaviour changes, this fails
// until `npm run docs:update` is run and its diff reviewed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage, ROOT, shellWords, transcriptPages } from '../scripts/doc-transcripts.js';

describe('doc transcripts', () => {
  const pages = transcriptPages();

  test('the user-facing pages have transcripts to check', () => {
    const withTranscripts = pages.filter((p) => readFileSync(join(ROOT, p), 'utf8').includes('<!-- transcript -->'));
    expect(withTranscripts).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md', 'docs/migration-guide.md']));
  });

  test.each(pages)('%s shows the output the tool really prints (else: npm run docs:update)', async (page) => {
    const md = readFileSync(join(ROOT, page), 'utf8');
    expect(await renderPage(md)).toBe(md);
  });

  test('a stale transcript is rewritten with the real output and exit code', async () => {
    const md = 'x\n<!-- transcript -->\n```console\n$ npx httpd24-codemod --only mpm-renames --check examples/httpd/conf/extra/httpd-mpm.conf\nstale\n$ echo $?\n7\n```\n';
    const out = await renderPage(md);
    expect(out).toContain('would change: examples/httpd/conf/extra/httpd-mpm.conf\n');
    expect(out).not.toContain('stale');
    expect(out).toMatch(/\$ echo \$\?\n1\n```\n$/);
  });

  test('each block starts from a fresh copy of examples/ unless marked continued', async () => {
    const file = 'examples/httpd/conf/extra/httpd-mpm.conf';
    const apply = `<!-- transcript -->\n\`\`\`console\n$ npx httpd24-codemod --only mpm-renames ${file}\n\`\`\`\n`;
    const check = (marker: string): string => `<!-- ${marker} -->\n\`\`\`console\n$ npx httpd24-codemod --only mpm-renames --check ${file}\n$ echo $?\n\`\`\`\n`;
    expect(await renderPage(apply + check('transcript'))).toMatch(/would change: .*\n[\s\S]*\$ echo \$\?\n1\n/);
    expect(await renderPage(apply + check('transcript continued'))).toMatch(/0 would change[\s\S]*\$ echo \$\?\n0\n/);
  });

  test('| head -n N keeps the first N lines, and the pipeline exits 0', async () => {
    const out = await renderPage('<!-- transcript -->\n```console\n$ npx httpd24-codemod --list-transforms | head -n 1\n$ echo $?\n```\n');
    expect(out).toMatch(/^<!-- transcript -->\n```console\n\$ npx httpd24-codemod --list-transforms \| head -n 1\n\S+ +(rewrite|advice) +.+\n\$ echo \$\?\n0\n```\n$/);
  });

  test('output that holds the block\'s own fence is refused; a longer fence takes it', async () => {
    const block = (fence: string): string => `<!-- transcript -->\n${fence}console\n$ npx httpd24-codemod --explain mpm-renames\n${fence}\n`;
    await expect(renderPage(block('```'))).rejects.toThrow(/fence the block with more backticks/);
    expect(await renderPage(block('````'))).toContain('\n```apache\n');
  });

  test('only the tool and echo $? may run', async () => {
    await expect(renderPage('<!-- transcript -->\n```console\n$ rm -rf examples\n```\n')).rejects.toThrow(/transcripts run only/);
  });

  test('shell words: quotes group, adjacent parts join', () => {
    expect(shellWords(`a "b c" 'd e' f"g h"i`)).toEqual(['a', 'b c', 'd e', 'fg hi']);
  });
});
