// Parses Apache configuration text (a byte string, see bytes.ts) into a lossless tree.
//
// Lines are read as Apache reads them (server/util.c cfg_getline): a line whose last
// character before LF (or CRLF) is a backslash continues on the next line; a logical
// line whose first non-blank character is '#' is a comment (so a comment can continue
// too); '<Name args>' opens a section and '</Name>' closes it, names compared without
// regard to case. Parsing never throws: text that cannot be placed becomes an Unparsed
// node and a diagnostic.

import { Blank, Comment, type Container, type Diagnostic, Directive, Document, type Node, Section, Unparsed } from './nodes.js';
import { isSpace } from './words.js';

const BOM = '\xef\xbb\xbf';

/** Sections whose body is not configuration, kept verbatim up to the close tag. */
const VERBATIM_SECTIONS = new Set(['perl']);

interface OpenSection {
  section: Section;
  container: Container;
  key: string;
}

export function parse(source: string): Document {
  const doc = new Document(source);
  let pos = 0;
  if (source.startsWith(BOM)) {
    doc.bom = BOM;
    pos = BOM.length;
  }
  const len = source.length;
  const stack: OpenSection[] = [];
  // How many sections of each name are open: a stray close tag is known without
  // searching a stack that may be thousands deep.
  const openByKey = new Map<string, number>();
  const push = (o: OpenSection): void => {
    stack.push(o);
    openByKey.set(o.key, (openByKey.get(o.key) ?? 0) + 1);
  };
  const pop = (): OpenSection => {
    const o = stack.pop()!;
    openByKey.set(o.key, openByKey.get(o.key)! - 1);
    return o;
  };
  let container: Container = doc;
  let lineNo = 1;
  let crlf = 0;
  let lf = 0;
  const indentVotes = new Map<string, number>();

  const add = (n: Node): void => {
    n.parent = container;
    n.indexHint = container.children.length;
    container.children.push(n);
  };
  const diag = (line: number, column: number, severity: Diagnostic['severity'], message: string): void => {
    doc.diagnostics.push({ line, column, severity, message });
  };

  while (pos < len) {
    const start = pos;
    const startLine = lineNo;
    // Read one logical line: physical lines joined while they end in a backslash.
    let logical = '';
    let eol = '';
    let physical = 0;
    let lineStart = pos;
    for (;;) {
      physical++;
      const nl = source.indexOf('\n', lineStart);
      let contentEnd = nl < 0 ? len : nl;
      if (nl >= 0 && contentEnd > lineStart && source.charCodeAt(contentEnd - 1) === 13) contentEnd--;
      eol = nl < 0 ? '' : source.slice(contentEnd, nl + 1);
      if (eol === '\r\n') crlf++;
      else if (eol === '\n') lf++;
      const next = nl < 0 ? len : nl + 1;
      // Only a line that has a line ending continues (cfg_getline checks for LF).
      const continues = nl >= 0 && contentEnd > lineStart && source.charCodeAt(contentEnd - 1) === 92;
      logical += source.slice(lineStart, continues ? contentEnd - 1 : contentEnd);
      lineStart = next;
      if (!continues || next >= len) break;
    }
    pos = lineStart;
    lineNo = startLine + physical;
    const raw = source.slice(start, pos);

    // Leading whitespace.
    let i = 0;
    while (i < logical.length && isSpace(logical.charCodeAt(i))) i++;
    const indent = logical.slice(0, i);
    const rest = logical.slice(i);

    // Inside a verbatim section everything up to its close tag is kept as is.
    const top = stack.length > 0 ? stack[stack.length - 1].section : undefined;
    if (top && VERBATIM_SECTIONS.has(top.key)) {
      const close = matchCloseTag(rest);
      if (close === null || close.name.toLowerCase() !== top.key) {
        const n = new Unparsed(raw, 'verbatim');
        setPos(n, startLine, indent, eol);
        add(n);
        continue;
      }
    }

    if (rest.length === 0) {
      const n = new Blank();
      n.raw = raw;
      setPos(n, startLine, indent, eol);
      add(n);
      continue;
    }
    if (rest.charCodeAt(0) === 35 /* # */) {
      const n = new Comment(rest.slice(1));
      n.raw = raw;
      setPos(n, startLine, indent, eol);
      add(n);
      continue;
    }

    const close = matchCloseTag(rest);
    if (close !== null) {
      // Find the section this closes: the innermost open one with the same name.
      const key = close.name.toLowerCase();
      let k = (openByKey.get(key) ?? 0) > 0 ? stack.length - 1 : -1;
      while (k >= 0 && stack[k].key !== key) k--;
      if (k < 0) {
        const n = new Unparsed(raw, 'stray close tag');
        setPos(n, startLine, indent, eol);
        add(n);
        diag(startLine, indent.length + 1, 'error', stack.length > 0
          ? `</${close.name}> does not close the open <${stack[stack.length - 1].section.name}> (line ${stack[stack.length - 1].section.line})`
          : `</${close.name}> without a matching <${close.name}>`);
        continue;
      }
      // Sections opened after the matched one were never closed.
      if (stack.length - 1 > k) unclosed(k + 1, `closed by </${close.name}> on line ${startLine} first`);
      const open = pop();
      const s = open.section;
      s.closeRaw = raw;
      s.closeIndent = indent;
      s.closeEol = eol;
      s.closeLine = startLine;
      container = open.container;
      if (close.junk) diag(startLine, indent.length + 1, 'warning', `text after </${close.name}> is ignored by Apache`);
      continue;
    }

    const open = matchOpenTag(rest);
    if (open !== null) {
      const s = new Section(open.name, open.args);
      s.raw = raw;
      s.nameSep = open.sep;
      setPos(s, startLine, indent, eol);
      if (!open.closed) diag(startLine, indent.length + 1, 'error', `<${open.name}> directive missing closing '>'`);
      add(s);
      push({ section: s, container, key: s.key });
      container = s;
      continue;
    }

    // An ordinary directive: the first word is its name, the rest its arguments.
    let e = 0;
    while (e < rest.length && !isSpace(rest.charCodeAt(e))) e++;
    let a = e;
    while (a < rest.length && isSpace(rest.charCodeAt(a))) a++;
    const d = new Directive(rest.slice(0, e), rest.slice(a));
    d.raw = raw;
    if (a > e) d.nameSep = rest.slice(e, a);
    setPos(d, startLine, indent, eol);
    add(d);
    if (container.kind === 'section' && container.indent !== undefined && indent.startsWith(container.indent) && indent.length > container.indent.length) {
      const unit = indent.slice(container.indent.length);
      indentVotes.set(unit, (indentVotes.get(unit) ?? 0) + 1);
    }
  }

  if (stack.length > 0) unclosed(0, 'never closed');

  doc.eol = crlf > lf ? '\r\n' : '\n';
  let best = 0;
  for (const [unit, votes] of indentVotes) {
    if (votes > best) {
      best = votes;
      doc.indentUnit = unit;
    }
  }
  return doc;

  // Sections that were never closed (stack[from] and all opened inside it): each open tag
  // becomes Unparsed and the section's children move up into its place, so every byte is
  // still printed where it was. Each unclosed section is the last child of the one before
  // it, so the whole chain is flattened in one pass (not level by level: quadratic when
  // thousands are nested).
  function unclosed(from: number, why: string): void {
    const chain: OpenSection[] = [];
    while (stack.length > from) chain.push(pop());
    for (const o of chain) diag(o.section.line, (o.section.indent?.length ?? 0) + 1, 'error', `<${o.section.name}> opened on line ${o.section.line} is ${why}`);
    chain.reverse();
    const outer = chain[0];
    const parent = outer.container;
    const flat: Node[] = [];
    for (let i = 0; i < chain.length; i++) {
      const s = chain[i].section;
      const tag = new Unparsed(s.raw!, 'unclosed section');
      setPos(tag, s.line, s.indent!, s.eol!);
      tag.parent = parent;
      flat.push(tag);
      const inner = i + 1 < chain.length ? chain[i + 1].section : null;
      for (const c of s.children) {
        if (c === inner) continue;
        c.parent = parent;
        flat.push(c);
      }
      s.children = [];
    }
    const idx = parent.children.lastIndexOf(outer.section);
    parent.children = parent.children.slice(0, idx).concat(flat, parent.children.slice(idx + 1));
    container = parent;
  }
}

function setPos(n: Node, line: number, indent: string, eol: string): void {
  n.line = line;
  n.indent = indent;
  n.eol = eol;
}

/** `</Name>` with optional spaces before '>'. */
function matchCloseTag(rest: string): { name: string; junk: boolean } | null {
  if (rest.charCodeAt(0) !== 60 /* < */ || rest.charCodeAt(1) !== 47 /* / */) return null;
  let e = 2;
  while (e < rest.length && !isSpace(rest.charCodeAt(e)) && rest.charCodeAt(e) !== 62 /* > */) e++;
  if (e === 2) return null;
  const name = rest.slice(2, e);
  let k = e;
  while (k < rest.length && isSpace(rest.charCodeAt(k))) k++;
  if (rest.charCodeAt(k) !== 62) return { name, junk: true };
  k++;
  while (k < rest.length && isSpace(rest.charCodeAt(k))) k++;
  return { name, junk: k < rest.length };
}

/** `<Name args>`: the arguments are the text before the last '>' (as core.c reads them). */
function matchOpenTag(rest: string): { name: string; args: string; sep: string; closed: boolean } | null {
  if (rest.charCodeAt(0) !== 60 /* < */) return null;
  const c1 = rest.charCodeAt(1);
  // A name must start with a letter (or '_'); '<' followed by anything else is not a tag.
  if (!((c1 >= 65 && c1 <= 90) || (c1 >= 97 && c1 <= 122) || c1 === 95)) return null;
  let e = 1;
  while (e < rest.length && !isSpace(rest.charCodeAt(e)) && rest.charCodeAt(e) !== 62) e++;
  const name = rest.slice(1, e);
  let a = e;
  while (a < rest.length && isSpace(rest.charCodeAt(a))) a++;
  const gt = rest.lastIndexOf('>');
  if (gt < e) return { name, args: rest.slice(a), sep: rest.slice(e, a) || ' ', closed: false };
  let argEnd = gt;
  while (argEnd > a && isSpace(rest.charCodeAt(argEnd - 1))) argEnd--;
  return { name, args: a < argEnd ? rest.slice(a, argEnd) : '', sep: rest.slice(e, a) || ' ', closed: true };
}
