// Argument words, split the way Apache's ap_getword_conf() splits them
// (server/util.c): whitespace separates words; a word that starts with " or ' runs to the
// matching unescaped quote; inside quotes \" (or \') and \\ are escapes, in a bare word
// only \\ is; any other backslash is kept as is.

/** One argument as written (`raw`, quotes included) and as Apache reads it (`value`). */
export interface Arg {
  readonly raw: string;
  readonly value: string;
  /** The quote character the argument was written with, or '' for a bare word. */
  readonly quote: '"' | "'" | '';
}

/** apr_isspace(): space, \t, \n, \v, \f, \r. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function unescape(s: string, quote: string): string {
  if (s.indexOf('\\') < 0) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length && (s[i + 1] === '\\' || (quote !== '' && s[i + 1] === quote))) {
      out += s[i + 1];
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

/** Reads one word starting at `pos` (which must not be whitespace); returns it and the end. */
export function readWord(text: string, pos: number): { arg: Arg; end: number } {
  const q = text[pos];
  if (q === '"' || q === "'") {
    let end = pos + 1;
    while (end < text.length && text[end] !== q) {
      if (text[end] === '\\' && end + 1 < text.length && (text[end + 1] === q || text[end + 1] === '\\')) end += 2;
      else end++;
    }
    const inner = text.slice(pos + 1, end);
    if (end < text.length) end++; // closing quote
    return { arg: { raw: text.slice(pos, end), value: unescape(inner, q), quote: q }, end };
  }
  let end = pos;
  while (end < text.length && !isSpace(text.charCodeAt(end))) end++;
  const raw = text.slice(pos, end);
  return { arg: { raw, value: unescape(raw, ''), quote: '' }, end };
}

/** Splits an argument string into words. */
export function splitArgs(text: string): Arg[] {
  const out: Arg[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) return out;
    const { arg, end } = readWord(text, i);
    out.push(arg);
    i = end;
  }
}

/**
 * Writes a value as an argument that Apache reads back as exactly `value`: bare when it
 * can be, else double-quoted with the escapes ap_getword_conf() undoes.
 */
export function quoteArg(value: string, prefer: '"' | "'" | '' = ''): Arg {
  // A bare word ending in a backslash would continue the line (cfg_getline): quote it.
  const needsQuotes = value === '' || /[\s"']/.test(value[0] ?? '') || /\s/.test(value) || value.includes('\\\\') || value.endsWith('\\');
  if (!needsQuotes && prefer === '') return { raw: value, value, quote: '' };
  const q = prefer === "'" && !value.includes("'") ? "'" : '"';
  let raw = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    const next = i + 1 < value.length ? value[i + 1] : q; // the closing quote follows the last char
    if (c === q) raw += '\\' + c;
    else if (c === '\\' && (next === '\\' || next === q)) raw += '\\\\';
    else raw += c;
  }
  return { raw: q + raw + q, value, quote: q };
}
