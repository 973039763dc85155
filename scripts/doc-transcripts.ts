// Terminal transcripts in the docs are real runs of the tool. A block marked
//
//   <!-- transcript -->
//   ```console
//   $ npx httpd24-codemod --check examples/httpd
//   (output)
//   ```
//
// is re-run and its output replaced: `npm run docs:update` rewrites the pages,
// test/doc-transcripts.test.ts fails while a page is out of date. Each block runs in a fresh
// scratch copy of examples/; a block marked `<!-- transcript continued -->` runs in the
// previous block's copy, so a page can walk through dry run, apply and check. Supported
// commands: `npx httpd24-codemod ARGS`, optionally piped into
// `| head -n N`, and `echo $?`.

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { main, packageRoot } from '../src/cli/main.js';

export const ROOT = packageRoot();

// The fence may be longer than three backticks when the output holds fences itself.
const BLOCK = /(<!-- transcript( continued)? -->\n(`{3,})console\n)([\s\S]*?)(^\3$)/gm;

/** The Markdown files that may hold transcripts, relative to the project root. */
export function transcriptPages(root = ROOT): string[] {
  const out = ['README.md', 'examples/README.md'];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  walk('docs');
  return out.filter((p) => existsSync(join(root, p)));
}

/** Shell-style words: spaces split, single and double quotes group. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g;
  let m: RegExpExecArray | null;
  let cur = '';
  let last = -1;
  while ((m = re.exec(line))) {
    const part = m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]);
    if (last === m.index) cur += part;
    else {
      if (last >= 0) words.push(cur);
      cur = part;
    }
    last = re.lastIndex;
  }
  if (last >= 0) words.push(cur);
  return words;
}

/** Runs every transcript of a page and returns the page with fresh output. */
export async function renderPage(md: string, root = ROOT): Promise<string> {
  const blocks = [...md.matchAll(BLOCK)];
  if (blocks.length === 0) return md;
  const scratches: string[] = [];
  const freshCopy = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'h24-docs-'));
    scratches.push(dir);
    cpSync(join(root, 'examples'), join(dir, 'examples'), { recursive: true });
    return dir;
  };
  try {
    let scratch = '';
    let lastCode = 0;
    const fresh: string[] = [];
    for (const b of blocks) {
      if (!b[2] || !scratch) {
        scratch = freshCopy();
        lastCode = 0; // a new shell
      }
      const commands = b[4].split('\n').filter((l) => l.startsWith('$ ')).map((l) => l.slice(2));
      if (commands.length === 0) throw new Error(`a transcript block has no "$ " command line:\n${b[4]}`);
      let text = '';
      for (const cmd of commands) {
        text += `$ ${cmd}\n`;
        const head = /\s+\|\s+head -n (\d+)$/.exec(cmd);
        const words = shellWords(head ? cmd.slice(0, head.index) : cmd);
        if (words[0] === 'echo' && words[1] === '$?' && words.length === 2 && !head) {
          text += `${lastCode}\n`;
          continue;
        }
        if (words[0] === 'npx') words.shift();
        if (words[0] !== 'httpd24-codemod') throw new Error(`transcripts run only "npx httpd24-codemod ... [| head -n N]" and "echo $?", not: ${cmd}`);
        const chunks: Buffer[] = [];
        const sink = { write: (s: string | Uint8Array) => chunks.push(typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s)), isTTY: false };
        lastCode = await main(['node', ...words], { stdout: sink, stderr: sink, env: {}, cwd: scratch });
        let output = Buffer.concat(chunks).toString('utf8');
        if (head) {
          output = output.split('\n').slice(0, Number(head[1])).join('\n');
          lastCode = 0; // a pipeline's status is the last command's
        }
        text += output;
        if (!text.endsWith('\n')) text += '\n';
      }
      if (text.split('\n').some((l) => l.startsWith(b[3]))) throw new Error(`the output of "${commands.join('; ')}" holds a ${b[3]} fence: fence the block with more backticks`);
      fresh.push(text);
    }
    let i = 0;
    return md.replace(BLOCK, (_all, open: string, _cont: string, _fence: string, _body: string, close: string) => open + fresh[i++] + close);
  } finally {
    for (const d of scratches) rmSync(d, { recursive: true, force: true });
  }
}

async function run(): Promise<void> {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const page of transcriptPages()) {
    const path = join(ROOT, page);
    const md = readFileSync(path, 'utf8');
    const next = await renderPage(md);
    if (next === md) continue;
    stale++;
    if (check) process.stdout.write(`out of date: ${relative(process.cwd(), path)}\n`);
    else {
      writeFileSync(path, next);
      process.stdout.write(`updated: ${relative(process.cwd(), path)}\n`);
    }
  }
  process.exitCode = check && stale > 0 ? 1 : 0;
}

if (require.main === module) {
  run().catch((e: Error) => {
    process.stderr.write(`doc-transcripts: ${e.message}\n`);
    process.exitCode = 2;
  });
}
