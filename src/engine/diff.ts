// Unified diffs with git-style headers, so `git apply` and `patch -p1` take them.
// Texts are byte strings (see syntax/bytes.ts): the patch carries the files' exact bytes,
// CR before LF and "\ No newline at end of file" included.
//
// A general-purpose diff costs O(N·D): minutes on a 100,000-line file in which every
// other line changes. When the document the text was printed from is at hand, the tree
// says which lines are original (a node the transforms left alone prints the bytes it
// was parsed from, at its line), so only the lines between them are compared, and those
// with a bounded effort.

import { diffArrays } from 'diff';
import { type Document, fromUnicode, type Section, printChunks } from '../syntax/index.js';

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Most line pairs × edits jsdiff may spend on one changed region before it is shown whole. */
const DIFF_BUDGET = 4_000_000;

/** The lines of a text, each with its '\n' (the last may have none). */
class Lines {
  /** Offset where each line starts, then text.length. */
  readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    if (this.starts[this.starts.length - 1] !== text.length) this.starts.push(text.length);
  }
  get count(): number {
    return this.starts.length - 1;
  }
  /** Line k (0-based) with its line ending. */
  raw(k: number): string {
    return this.text.slice(this.starts[k], this.starts[k + 1]);
  }
  /** Line k without its line ending ('\r' stays: it is a byte of the line for patch). */
  body(k: number): string {
    const end = this.starts[k + 1];
    return this.text.slice(this.starts[k], this.text.charCodeAt(end - 1) === 10 ? end - 1 : end);
  }
  noEol(k: number): boolean {
    return k === this.count - 1 && this.text.charCodeAt(this.text.length - 1) !== 10;
  }
}

/** Lines [oldA, oldB) of the old text became lines [newA, newB) of the new; `equal` when unchanged. */
interface Segment {
  equal: boolean;
  oldA: number;
  oldB: number;
  newA: number;
  newB: number;
}

/**
 * The hunks that turn `before` into `after`. Give `doc` (the document `after` was printed
 * from, parsed from `before`) to let its untouched nodes fix the alignment.
 */
export function hunks(before: string, after: string, context = 3, doc?: Document): Hunk[] {
  if (before === after) return [];
  const a = new Lines(before);
  const b = new Lines(after);
  const coarse = (doc && treeSegments(doc, a, b)) || [{ equal: false, oldA: 0, oldB: a.count, newA: 0, newB: b.count }];
  const fine: Segment[] = [];
  for (const s of coarse) {
    if (s.equal) fine.push(s);
    else refine(s, a, b, fine);
  }
  return buildHunks(fine, a, b, context);
}

/**
 * Segments from the tree: a chunk printed from a node's original bytes, found at its
 * original line, is an equal run; everything else is changed. Null when the chunks do
 * not reproduce `after` (the document was edited since) — the caller then diffs the texts.
 */
function treeSegments(doc: Document, a: Lines, b: Lines): Segment[] | null {
  const src = doc.source;
  if (src !== a.text) return null;
  const texts: string[] = [];
  const from: number[] = []; // original first line (0-based), or -1
  const size: number[] = []; // lines the chunk spans
  printChunks(doc, (text, node, close) => {
    let line = -1;
    if (node !== null) {
      const l = close ? (node as Section).closeLine : node.line;
      const raw = close ? (node as Section).closeRaw : node.raw;
      if (l > 0 && l <= a.count && raw === text) {
        const off = a.starts[l - 1] + (l === 1 ? doc.bom.length : 0);
        const end = off + text.length;
        if (src.startsWith(text, off) && (end === src.length || src.charCodeAt(end - 1) === 10)) line = l - 1;
      }
    }
    texts.push(text);
    from.push(line);
    size.push(lineCount(text));
  });
  if (doc.bom !== '' && texts.length > 0) {
    // The BOM belongs to line 1: equal only when printed right before line 1's own bytes.
    if (texts.length > 1 && from[1] === 0) {
      texts.splice(0, 2, doc.bom + texts[1]);
      from.splice(0, 1);
      size.splice(0, 1);
    } else {
      for (let i = 0; i < from.length; i++) if (from[i] === 0) from[i] = -1;
    }
  }
  // A chunk without a line ending is only whole when nothing follows it.
  for (let i = 0; i < texts.length - 1; i++) {
    if (from[i] >= 0 && texts[i].charCodeAt(texts[i].length - 1) !== 10) from[i] = -1;
  }
  if (texts.join('') !== b.text) return null;

  // Nodes moved by a transform come out of order: keep the longest increasing run.
  const keep = increasingRun(from);
  const out: Segment[] = [];
  let oldPos = 0;
  let newPos = 0;
  let off = 0; // offset in `after`
  let k = 0; // b.starts index at or after `off`
  for (let i = 0; i < texts.length; i++) {
    if (keep[i]) {
      while (b.starts[k] < off) k++;
      const s = from[i];
      if (s < oldPos || b.starts[k] !== off) return null; // cannot happen; never guess
      if (s > oldPos || k > newPos) out.push({ equal: false, oldA: oldPos, oldB: s, newA: newPos, newB: k });
      out.push({ equal: true, oldA: s, oldB: s + size[i], newA: k, newB: k + size[i] });
      oldPos = s + size[i];
      newPos = k + size[i];
    }
    off += texts[i].length;
  }
  if (oldPos < a.count || newPos < b.count) out.push({ equal: false, oldA: oldPos, oldB: a.count, newA: newPos, newB: b.count });
  return out;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && text.charCodeAt(text.length - 1) !== 10 ? n + 1 : n;
}

/** Marks the longest strictly increasing subsequence of the values ≥ 0 (O(n log n)). */
function increasingRun(values: readonly number[]): boolean[] {
  const tails: number[] = []; // index of the smallest tail of each length
  const prev = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < 0) continue;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const keep = new Array<boolean>(values.length).fill(false);
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) keep[i] = true;
  return keep;
}

/** Splits a changed segment into equal and changed lines, within the effort budget. */
function refine(s: Segment, a: Lines, b: Lines, out: Segment[]): void {
  let { oldA, oldB, newA, newB } = s;
  const head = oldA;
  while (oldA < oldB && newA < newB && a.raw(oldA) === b.raw(newA)) {
    oldA++;
    newA++;
  }
  if (oldA > head) out.push({ equal: true, oldA: head, oldB: oldA, newA: newA - (oldA - head), newB: newA });
  let tail = 0;
  while (oldB - tail > oldA && newB - tail > newA && a.raw(oldB - tail - 1) === b.raw(newB - tail - 1)) tail++;
  oldB -= tail;
  newB -= tail;
  const n = oldB - oldA;
  const m = newB - newA;
  const parts = n > 0 && m > 0 ? diffArrays(range(a, oldA, oldB), range(b, newA, newB), { maxEditLength: Math.max(64, Math.floor(DIFF_BUDGET / (n + m))) }) : undefined;
  if (parts === undefined) {
    if (n > 0 || m > 0) pushChange(out, oldA, oldB, newA, newB);
  } else {
    let o = oldA;
    let w = newA;
    for (const p of parts) {
      if (p.added) {
        pushChange(out, o, o, w, w + p.count);
        w += p.count;
      } else if (p.removed) {
        pushChange(out, o, o + p.count, w, w);
        o += p.count;
      } else {
        out.push({ equal: true, oldA: o, oldB: o + p.count, newA: w, newB: w + p.count });
        o += p.count;
        w += p.count;
      }
    }
  }
  if (tail > 0) out.push({ equal: true, oldA: oldB, oldB: oldB + tail, newA: newB, newB: newB + tail });
}

function range(l: Lines, from: number, to: number): string[] {
  const out: string[] = [];
  for (let k = from; k < to; k++) out.push(l.raw(k));
  return out;
}

/** Adds a change, merged with a change right before it (removed lines print first). */
function pushChange(out: Segment[], oldA: number, oldB: number, newA: number, newB: number): void {
  const last = out[out.length - 1];
  if (last && !last.equal && last.oldB === oldA && last.newB === newA) {
    last.oldB = oldB;
    last.newB = newB;
  } else {
    out.push({ equal: false, oldA, oldB, newA, newB });
  }
}

const NO_EOL = '\\ No newline at end of file';

function buildHunks(segs: readonly Segment[], a: Lines, b: Lines, context: number): Hunk[] {
  const out: Hunk[] = [];
  let h: Hunk | null = null;
  let oldEnd = 0; // old lines covered by h so far
  const ctx = (hunk: Hunk, from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      hunk.lines.push(' ' + a.body(k));
      if (a.noEol(k)) hunk.lines.push(NO_EOL);
      hunk.oldLines++;
      hunk.newLines++;
    }
  };
  const close = (hunk: Hunk): void => {
    ctx(hunk, oldEnd, Math.min(oldEnd + context, a.count));
    out.push(hunk);
  };
  for (const s of segs) {
    if (s.equal || (s.oldA === s.oldB && s.newA === s.newB)) continue;
    if (h !== null && s.oldA - oldEnd <= 2 * context) {
      ctx(h, oldEnd, s.oldA);
    } else {
      if (h !== null) close(h);
      const lead = Math.max(s.oldA - context, h === null ? 0 : oldEnd + context);
      h = { oldStart: lead + 1, oldLines: 0, newStart: s.newA - (s.oldA - lead) + 1, newLines: 0, lines: [] };
      ctx(h, lead, s.oldA);
    }
    for (let k = s.oldA; k < s.oldB; k++) {
      h.lines.push('-' + a.body(k));
      if (a.noEol(k)) h.lines.push(NO_EOL);
    }
    for (let k = s.newA; k < s.newB; k++) {
      h.lines.push('+' + b.body(k));
      if (b.noEol(k)) h.lines.push(NO_EOL);
    }
    h.oldLines += s.oldB - s.oldA;
    h.newLines += s.newB - s.newA;
    oldEnd = s.oldB;
  }
  if (h !== null) close(h);
  return out;
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

/**
 * Where a line of `after` (1-based) was in `before`: its own line when the conversion left
 * it alone, else the first line the change that wrote it replaced or stood before
 * (`written` is then true).
 */
export function lineInBefore(before: string, after: string): (line: number) => { line: number; written: boolean } {
  const hs = hunks(before, after, 0);
  const last = Math.max(1, lineCount(before));
  return (line) => {
    let shift = 0; // old line − new line before the hunk at hand
    for (const h of hs) {
      if (line < h.newStart) break;
      if (line < h.newStart + h.newLines) return { line: Math.min(last, Math.max(1, h.oldStart)), written: true };
      shift = h.oldStart + h.oldLines - (h.newStart + h.newLines);
    }
    return { line: line + shift, written: false };
  };
}
