// Prints a tree back to text. Untouched nodes print their original bytes; edited and
// created nodes are rendered from their fields, with indentation and line endings
// borrowed from their neighbours so that inserted lines look hand-written.

import type { Container, Document, Node, Section } from './nodes.js';

export function print(doc: Document): string {
  if (!doc.modified) return doc.source;
  const out: string[] = [];
  printChunks(doc, (text) => out.push(text));
  return out.join('');
}

/**
 * Receives the printed text piece by piece: each node's line(s) (`close` set for a section's
 * close tag), and null for bytes that belong to no node (the BOM, a line ending added after
 * a last line that had none). The engine uses it to tell original lines from edited ones.
 */
export type ChunkSink = (text: string, node: Node | null, close: boolean) => void;

/** The document's text as a sequence of chunks, in order; their concatenation is print(doc). */
export function printChunks(doc: Document, sink: ChunkSink): void {
  if (doc.bom) sink(doc.bom, null, false);
  let lastHadEol = true;
  let lastContinues = false;
  let lastBackslash = false;
  const emit = (chunk: string, node: Node, close: boolean): void => {
    if (chunk.length === 0) return;
    // The file's last line may end in a backslash (and a CR). Without a line ending it is an ordinary
    // character: a space keeps it one once a line follows. With one, it is a continuation
    // Apache ends at end of file: a blank line ends it, so nothing is joined to it.
    if (!lastHadEol) sink((lastBackslash ? ' ' : '') + doc.eol, null, false);
    else if (lastContinues) sink(doc.eol, null, false);
    sink(chunk, node, close);
    lastHadEol = chunk.charCodeAt(chunk.length - 1) === 10;
    lastContinues = /\\\r?\n$/.test(chunk);
    // A CR after it too: Apache's continuation is a backslash, an optional CR, then LF.
    const end = chunk.charCodeAt(chunk.length - 1) === 13 ? chunk.length - 2 : chunk.length - 1;
    lastBackslash = end >= 0 && chunk.charCodeAt(end) === 92;
  };

  // Iterative walk: sections may nest thousands deep.
  const stack: Frame[] = [{ container: doc, i: 0, indent: '' }];
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    const list = f.container.children;
    if (f.i >= list.length) {
      stack.pop();
      if (f.container.kind === 'section') emit(renderClose(f.container, f.indent, stack[stack.length - 1], doc), f.container, true);
      continue;
    }
    const n = list[f.i++];
    if (n.kind === 'section') {
      const indent = indentOf(n, f, doc);
      emit(n.raw ?? renderOpen(n, indent, eolOf(n, f, doc)), n, false);
      stack.push({ container: n, i: 0, indent });
    } else {
      emit(n.raw ?? renderLine(n, indentOf(n, f, doc), eolOf(n, f, doc)), n, false);
    }
  }
}

function renderLine(n: Exclude<Node, Section>, indent: string, eol: string): string {
  switch (n.kind) {
    case 'directive': {
      const args = n.args.map((a) => a.raw).join(' ');
      return indent + n.name + (args ? n.nameSep + args : '') + eol;
    }
    case 'comment':
      return indent + '#' + n.text + eol;
    case 'blank':
      return eol;
    case 'unparsed':
      return n.raw ?? '';
  }
}

function renderOpen(s: Section, indent: string, eol: string): string {
  const args = s.args.map((a) => a.raw).join(' ');
  return indent + '<' + s.name + (args ? s.nameSep + args : '') + '>' + eol;
}

/** `parent` is the frame of the container holding `s`, its index just past `s`. */
function renderClose(s: Section, indent: string, parent: { container: Container; i: number }, doc: Document): string {
  if (s.closeRaw !== undefined) return s.closeRaw;
  return (s.closeIndent ?? indent) + '</' + s.name + '>' + (s.closeEol ?? eolOf(s, parent, doc));
}

interface Frame {
  container: Container;
  i: number;
  indent: string;
  /** Per child: the indentation of the nearest directive or section sibling that has one. */
  borrowed?: Array<string | undefined>;
}

/** The node's own indentation, or the nearest sibling's (the one before on a tie), or the parent's plus one step. */
function indentOf(n: Node, f: Frame, doc: Document): string {
  if (n.indent !== undefined) return n.indent;
  f.borrowed ??= nearestIndents(f.container.children);
  return f.borrowed[f.i - 1] ?? (f.container.kind === 'section' ? f.indent + doc.indentUnit : '');
}

/**
 * For each position, the indentation of the closest other directive or section with one
 * of its own, in two linear passes: scanning outwards per created node was quadratic when
 * a transform creates thousands of lines in one section (an IP blocklist: minutes).
 */
function nearestIndents(list: readonly Node[]): Array<string | undefined> {
  const has = (s: Node): boolean => (s.kind === 'directive' || s.kind === 'section') && s.indent !== undefined;
  const before: number[] = new Array<number>(list.length);
  let last = -1;
  for (let k = 0; k < list.length; k++) {
    before[k] = last;
    if (has(list[k])) last = k;
  }
  const out = new Array<string | undefined>(list.length);
  let next = -1;
  for (let k = list.length - 1; k >= 0; k--) {
    const b = before[k];
    const pick = b < 0 ? next : next < 0 ? b : k - b <= next - k ? b : next;
    out[k] = pick < 0 ? undefined : list[pick].indent;
    if (has(list[k])) next = k;
  }
  return out;
}

/** The node's own line ending, else a neighbour's, else the file's usual one. */
function eolOf(n: Node, f: { container: Container; i: number }, doc: Document): string {
  if (n.eol !== undefined) return n.eol;
  // The frame's index (not indexOf): a file may hold many thousands of created lines.
  const list = f.container.children;
  const near = list[f.i - 2] ?? list[f.i];
  if (near?.eol) return near.eol;
  return doc.eol;
}
