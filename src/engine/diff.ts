// Unified diffs with git-style headers, so `git apply` and `patch -p1` take them.
// Texts are byte strings (see syntax/bytes.ts): the patch carries the files' exact bytes,
// CR before LF and "\ No newline at end of file" included.

import { structuredPatch } from 'diff';
import { fromUnicode } from '../syntax/index.js';

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export function hunks(before: string, after: string, context = 3): Hunk[] {
  return structuredPatch('a', 'b', before, after, '', '', { context }).hunks;
}

/** git quotes a path that holds a quote, a backslash, a control or a non-ASCII byte. */
function gitPath(prefix: string, path: string): string {
  const bytes = fromUnicode(path.split('\\').join('/'));
  if (!/["\\\x00-\x1f\x7f-\xff]/.test(bytes)) return prefix + bytes;
  let q = '';
  for (const c of prefix + bytes) {
    const code = c.charCodeAt(0);
    if (c === '"' || c === '\\') q += '\\' + c;
    else if (c === '\t') q += '\\t';
    else if (c === '\n') q += '\\n';
    else if (code < 0x20 || code >= 0x7f) q += '\\' + code.toString(8).padStart(3, '0');
    else q += c;
  }
  return '"' + q + '"';
}

/** The patch for one file, or '' when nothing changed. `path` is relative to the current folder. */
export function unifiedDiff(path: string, before: string, after: string, precomputed?: Hunk[]): string {
  if (before === after) return '';
  const hs = precomputed ?? hunks(before, after);
  const a = gitPath('a/', path);
  const b = gitPath('b/', path);
  const out = [`diff --git ${a} ${b}\n--- ${a}\n+++ ${b}\n`];
  for (const h of hs) {
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n`);
    for (const l of h.lines) out.push(l + '\n');
  }
  return out.join('');
}
