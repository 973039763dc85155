// The edit API beyond the node methods (rename, setArgs, remove, before, after,
// replaceWith, append, prepend): factories for new nodes, replacing a run of siblings,
// wrapping nodes in a section, and re-indenting moved nodes.

import { assertEditable, Document, Blank, Comment, type Container, Directive, markModified, type Node, Section, spliceIn, walk } from './nodes.js';
import type { Arg } from './words.js';

/** A new directive; the printer gives it the indentation and line ending of its neighbours. */
export function directive(name: string, ...args: Array<string | Arg>): Directive {
  return new Directive(name, args);
}

/** A new section holding the given nodes. */
export function section(name: string, args: Array<string | Arg>, children: Node[] = []): Section {
  return new Section(name, args, children);
}

/** A new comment line: `# text`. */
export function comment(text: string): Comment {
  return new Comment(text === '' ? '' : ' ' + text);
}

export function blank(): Blank {
  return new Blank();
}

function checkRun(nodes: readonly Node[]): { parent: Container; first: number } {
  if (nodes.length === 0) throw new Error('empty run of nodes');
  const parent = nodes[0].parent;
  if (!parent) throw new Error('node is not attached to a document');
  const first = nodes[0].index();
  nodes.forEach((n, k) => {
    if (parent.children[first + k] !== n) throw new Error('nodes are not a run of adjacent siblings');
  });
  return { parent, first };
}

/**
 * Replaces a run of adjacent siblings with new nodes. Comments and blank lines inside the
 * run are kept (placed after the replacement) unless `dropTrivia` is set: a rewrite must not
 * lose an admin's notes.
 */
export function replaceRun(run: readonly Node[], replacement: readonly Node[], opts: { dropTrivia?: boolean } = {}): void {
  const { parent } = checkRun(run);
  const inRun = new Set(run);
  const removed = run.filter((n) => opts.dropTrivia || (n.kind !== 'comment' && n.kind !== 'blank'));
  if (replacement.some((n) => inRun.has(n))) {
    // A node of the run reused in its replacement: one node at a time, as before.
    run[0].before(...replacement);
    for (const n of removed) n.remove();
    return;
  }
  // One splice for the whole run: removing node by node is quadratic in a large section.
  assertEditable(parent);
  for (const n of removed) assertEditable(n);
  for (const n of replacement) if (n.parent) n.remove();
  const first = run[0].index();
  const gone = new Set(removed);
  const kept = run.filter((n) => !gone.has(n));
  for (const n of removed) n.parent = null;
  const items = [...replacement, ...kept];
  items.forEach((n, k) => {
    n.parent = parent;
    n.indexHint = first + k;
  });
  spliceIn(parent.children, first, run.length, items);
  Document.structureVersion++;
  markModified(parent);
}

/**
 * Wraps a run of adjacent siblings in a new section, re-indenting them one step so the
 * result looks hand-written. Returns the section.
 */
export function wrap(run: readonly Node[], name: string, args: Array<string | Arg>): Section {
  checkRun(run);
  const s = new Section(name, args);
  const anchor = run[0];
  // The new section takes the place and indentation of the first wrapped node.
  s.indent = anchor.kind === 'directive' || anchor.kind === 'section' || anchor.kind === 'comment' ? anchor.indent : undefined;
  anchor.before(s);
  const root = s.root();
  const unit = root?.indentUnit ?? '    ';
  for (const n of run) {
    s.append(n);
    reindent(n, unit);
  }
  return s;
}

/** Adds `extra` to the indentation of a node (and everything inside it). */
export function reindent(node: Node, extra: string): void {
  const all: Node[] = [node];
  if (node.kind === 'section') for (const n of walk(node)) all.push(n);
  for (const n of all) assertEditable(n);
  for (const n of all) {
    if (n.kind === 'blank') continue;
    if (n.indent !== undefined) n.indent = extra + n.indent;
    if (n.raw !== undefined) n.raw = extra + n.raw;
    if (n.kind === 'section') {
      if (n.closeIndent !== undefined) n.closeIndent = extra + n.closeIndent;
      if (n.closeRaw !== undefined) n.closeRaw = extra + n.closeRaw;
    }
  }
  markModified(node.parent);
}
