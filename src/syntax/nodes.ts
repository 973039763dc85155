// The concrete syntax tree. Every byte of a file belongs to exactly one node (or to the
// document's BOM), and every node keeps the bytes it was parsed from in `raw`. Printing an
// untouched node prints `raw`; an edited or created node has no `raw` and is rendered from
// its fields, borrowing indentation and line endings from its neighbours (see print.ts).

import { type Arg, quoteArg, splitArgs } from './words.js';

export type Node = Directive | Section | Comment | Blank | Unparsed;
export type Container = Document | Section;

export interface Diagnostic {
  line: number;
  column: number;
  severity: 'error' | 'warning';
  message: string;
}

/** Thrown when an edit reaches a node that is frozen (an inline disable comment covers it). */
export class FrozenNodeError extends Error {
  constructor(readonly node: Node) {
    super(`line ${node.line} is marked with an httpd24-codemod-disable comment and must not change`);
  }
}

abstract class NodeBase {
  parent: Container | null = null;
  /** Set by the engine while a transform the node is disabled for runs: edits then throw. */
  frozen = false;
  /** 1-based line where the node starts in the original file; 0 for created nodes. */
  line = 0;
  /** Leading whitespace of the first line; undefined for created nodes. */
  indent: string | undefined = undefined;
  /** Line ending of the (last) line: '\n', '\r\n' or '' at end of file; undefined for created nodes. */
  eol: string | undefined = undefined;
  /** The original bytes of the node's own lines; undefined when edited or created. */
  raw: string | undefined = undefined;

  /** The document this node belongs to, if it is attached to one. */
  root(): Document | null {
    let p: Container | null = this.parent;
    while (p !== null && p.kind === 'section') p = p.parent;
    return p;
  }

  /** Where the node was last seen among its parent's children: a hint, checked before use. */
  indexHint = -1;

  /** Position among the parent's children (-1 when detached). */
  index(): number {
    if (!this.parent) return -1;
    const list = this.parent.children;
    const self = this as unknown as Node;
    // Edits in a loop shift a node by a few places at a time: look near the last known
    // position first (indexOf from the start made loops over big sections quadratic).
    const hint = Math.min(Math.max(this.indexHint, 0), list.length - 1);
    for (let d = 0; d < 64; d++) {
      if (list[hint + d] === self) return (this.indexHint = hint + d);
      if (d > 0 && list[hint - d] === self) return (this.indexHint = hint - d);
    }
    return (this.indexHint = list.indexOf(self));
  }

  prev(): Node | undefined {
    const i = this.index();
    return i > 0 ? this.parent!.children[i - 1] : undefined;
  }

  next(): Node | undefined {
    const i = this.index();
    return i >= 0 ? this.parent!.children[i + 1] : undefined;
  }

  /** Removes the node, with its line(s). */
  remove(): this {
    const p = this.parent;
    if (p) {
      assertEditable(this as unknown as Node);
      const i = this.index();
      if (i >= 0) p.children.splice(i, 1);
      this.parent = null;
      Document.structureVersion++;
      markModified(p);
    }
    return this;
  }

  /** Inserts nodes before this one. */
  before(...nodes: Node[]): this {
    insertAt(this.requireParent(), this.index(), nodes);
    return this;
  }

  /** Inserts nodes after this one. */
  after(...nodes: Node[]): this {
    insertAt(this.requireParent(), this.index() + 1, nodes);
    return this;
  }

  /** Replaces this node with the given nodes. */
  replaceWith(...nodes: Node[]): void {
    const p = this.requireParent();
    const i = this.index();
    this.remove();
    insertAt(p, i, nodes);
  }

  protected requireParent(): Container {
    if (!this.parent) throw new Error('node is not attached to a document');
    return this.parent;
  }

  /** Drops the original bytes so the printer renders the node from its fields. */
  protected touch(): void {
    assertEditable(this as unknown as Node);
    this.raw = undefined;
    markModified(this.parent);
  }
}

/** Records that the document holding `c` changed, so print() renders it. */
export function markModified(c: Container | null): void {
  let p: Container | null = c;
  while (p !== null && p.kind === 'section') p = p.parent;
  if (p) {
    p.modified = true;
    p.edits++;
    Document.editVersion++;
    Document.onEdit?.(p);
  }
}

export function assertEditable(n: Node | Container): void {
  if (n.kind !== 'document' && n.frozen) throw new FrozenNodeError(n);
}

function detach(n: Node): void {
  if (n.parent) n.remove();
}

function insertAt(c: Container, index: number, nodes: Node[]): void {
  assertEditable(c);
  for (const n of nodes) detach(n);
  nodes.forEach((n, k) => {
    n.parent = c;
    n.indexHint = index + k;
  });
  spliceIn(c.children, index, 0, nodes);
  Document.structureVersion++;
  markModified(c);
}

/** Array.splice without spreading the items as call arguments (a spread of ~100,000 overflows the stack). */
export function spliceIn<T>(list: T[], index: number, remove: number, items: readonly T[]): void {
  const CHUNK = 8192;
  if (items.length <= CHUNK) {
    list.splice(index, remove, ...items);
    return;
  }
  list.splice(index, remove);
  for (let k = 0; k < items.length; k += CHUNK) list.splice(index + k, 0, ...items.slice(k, k + CHUNK));
}

/** Name and arguments shared by directives and section open tags. */
abstract class NamedNode extends NodeBase {
  protected _name: string;
  /** The lower-case name, made on first use (looked up for every node by every transform). */
  private _key: string | undefined = undefined;
  protected _args: Arg[] | undefined;
  /** The argument text as Apache sees it (continuations joined), parsed on first use. */
  protected argText: string;
  /** Whitespace between the name and the first argument, kept when the node is re-rendered. */
  nameSep = ' ';

  constructor(name: string, args: ReadonlyArray<string | Arg> | string) {
    super();
    this._name = name;
    if (typeof args === 'string') {
      this.argText = args;
      this._args = undefined;
    } else {
      this._args = args.map(toArg);
      this.argText = '';
    }
  }

  get name(): string {
    return this._name;
  }

  /** The name in lower case: directive and section names are case-insensitive. */
  get key(): string {
    if (this._key === undefined) this._key = this._name.toLowerCase();
    return this._key;
  }

  /** Case-insensitive name test. */
  is(name: string): boolean {
    return this._name.length === name.length && this.key === name.toLowerCase();
  }

  get args(): readonly Arg[] {
    if (this._args === undefined) this._args = splitArgs(this.argText);
    return this._args;
  }

  /** Argument values as Apache reads them. */
  get values(): string[] {
    return this.args.map((a) => a.value);
  }

  /** Renames; the rest of the line (spacing, arguments, continuations) keeps its bytes. */
  rename(name: string): this {
    if (name === this._name) return this;
    assertEditable(this as unknown as Node);
    const prefix = (this.indent ?? '') + ((this as unknown as Node).kind === 'section' ? '<' : '');
    const raw = this.raw;
    if (raw !== undefined && startsWithName(raw, prefix, this._name)) {
      this.raw = prefix + name + raw.slice(prefix.length + this._name.length);
      markModified(this.parent);
    } else {
      this.touch();
    }
    this._name = name;
    this._key = undefined;
    return this;
  }

  /** Replaces the arguments; plain strings are quoted when they need it. */
  setArgs(args: ReadonlyArray<string | Arg>): this {
    this._args = args.map(toArg);
    this.touch();
    return this;
  }
}

/** `text` begins with `prefix` then `name` (names compared without case). */
function startsWithName(text: string, prefix: string, name: string): boolean {
  return text.startsWith(prefix) && text.slice(prefix.length, prefix.length + name.length).toLowerCase() === name.toLowerCase();
}

function toArg(a: string | Arg): Arg {
  return typeof a === 'string' ? quoteArg(a) : a;
}

export class Directive extends NamedNode {
  readonly kind = 'directive' as const;

  constructor(name: string, args: ReadonlyArray<string | Arg> | string = []) {
    super(name, args);
  }
}

export class Section extends NamedNode {
  readonly kind = 'section' as const;
  children: Node[] = [];
  /** The close tag as written: its bytes, indent, line ending and line; undefined when created or edited. */
  closeRaw: string | undefined = undefined;
  closeIndent: string | undefined = undefined;
  closeEol: string | undefined = undefined;
  closeLine = 0;

  constructor(name: string, args: ReadonlyArray<string | Arg> | string = [], children: Node[] = []) {
    super(name, args);
    for (const c of children) this.append(c);
  }

  override rename(name: string): this {
    if (name === this._name) return this;
    const prefix = (this.closeIndent ?? '') + '</';
    const close = this.closeRaw;
    const old = this._name;
    super.rename(name);
    this.closeRaw = close !== undefined && startsWithName(close, prefix, old) ? prefix + name + close.slice(prefix.length + old.length) : undefined;
    return this;
  }

  append(...nodes: Node[]): this {
    insertAt(this, this.children.length, nodes);
    return this;
  }

  prepend(...nodes: Node[]): this {
    insertAt(this, 0, nodes);
    return this;
  }
}

export class Comment extends NodeBase {
  readonly kind = 'comment' as const;
  /** The text after '#' (continuation lines joined). */
  readonly text: string;

  constructor(text: string) {
    super();
    this.text = text;
  }
}

export class Blank extends NodeBase {
  readonly kind = 'blank' as const;
}

/**
 * Text that is kept verbatim without being read as configuration: the body of a <Perl>
 * section (reason 'verbatim'), or a line the parser could not place, such as a stray
 * close tag or the open tag of a section never closed (reported as a diagnostic).
 */
export class Unparsed extends NodeBase {
  readonly kind = 'unparsed' as const;
  readonly reason: string;

  constructor(raw: string, reason: string) {
    super();
    this.raw = raw;
    this.reason = reason;
  }
}

export class Document {
  /** Called on every edit of any document (the engine uses it to tie files edited together). */
  static onEdit: ((doc: Document) => void) | undefined = undefined;
  /** Counts insertions and removals in any document: models that list nodes rebuild when it moves. */
  static structureVersion = 0;
  /** Counts every edit of a node in any document (renames and new arguments too): indexes by name rebuild when it moves. */
  static editVersion = 0;
  readonly kind = 'document' as const;
  readonly parent = null;
  children: Node[] = [];
  /** The file as read (byte string); printing an unmodified document returns it unchanged. */
  readonly source: string;
  /** A UTF-8 byte order mark that preceded the first line, kept out of the first node. */
  bom = '';
  /** Set by any edit; until then print() returns `source`. */
  modified = false;
  /** Counts this document's edits (insertions, removals, renames, new arguments). */
  edits = 0;
  /** See namesIn(). */
  names: { edits: number; keys: Set<string> } | null = null;
  /** The line ending most lines use, for created lines. */
  eol = '\n';
  /** The indentation step the file uses inside sections, for created lines. */
  indentUnit = '    ';
  diagnostics: Diagnostic[] = [];

  constructor(source: string) {
    this.source = source;
  }

  append(...nodes: Node[]): this {
    insertAt(this, this.children.length, nodes);
    return this;
  }

  prepend(...nodes: Node[]): this {
    insertAt(this, 0, nodes);
    return this;
  }

  hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === 'error');
  }
}

/** Visits every node in document order, without recursion (sections nest arbitrarily deep). */
export function* walk(container: Container): Generator<Node> {
  const stack: Array<{ list: Node[]; i: number }> = [{ list: container.children, i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i >= top.list.length) {
      stack.pop();
      continue;
    }
    const n = top.list[top.i++];
    yield n;
    if (n.kind === 'section') stack.push({ list: n.children, i: 0 });
  }
}

/**
 * The names (lower case) of the directives and sections in a document, kept until it is
 * edited: a transform looking for a few names skips the files that have none of them.
 */
export function namesIn(doc: Document): ReadonlySet<string> {
  if (doc.names === null || doc.names.edits !== doc.edits) {
    const keys = new Set<string>();
    for (const n of walk(doc)) if (n.kind === 'directive' || n.kind === 'section') keys.add(n.key);
    doc.names = { edits: doc.edits, keys };
  }
  return doc.names.keys;
}

/** Does the document hold a directive or section with one of these names (lower case)? */
export function mentions(doc: Document, keys: readonly string[]): boolean {
  const have = namesIn(doc);
  return keys.some((k) => have.has(k));
}

/** Every directive (not section) in document order. */
export function* directives(container: Container): Generator<Directive> {
  for (const n of walk(container)) if (n.kind === 'directive') yield n;
}

/** The enclosing sections of a node, innermost first. */
export function ancestors(node: Node): Section[] {
  const out: Section[] = [];
  let p = node.parent;
  while (p !== null && p.kind === 'section') {
    out.push(p);
    p = p.parent;
  }
  return out;
}

/** The line to report for a node: its own, else the nearest original line around it. */
export function lineOf(node: Node | undefined): number {
  let n: Node | null | undefined = node;
  while (n) {
    for (let s: Node | null | undefined = n; s; s = s.prev()) if (s.line > 0) return s.line;
    const p: Node['parent'] = n.parent;
    n = p && p.kind === 'section' ? p : null;
  }
  return 0;
}

