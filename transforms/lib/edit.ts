// Small edit helpers shared by transforms.

import type { Arg, Directive } from '../../src/syntax/index.js';

/**
 * Replaces a directive's arguments. The line is re-rendered on one line; when the original
 * was continued with a backslash, the gap the continuation left after the name becomes one
 * space (alignment on a single line is kept).
 */
export function replaceArgs(d: Directive, args: ReadonlyArray<string | Arg>): void {
  if (d.raw !== undefined && /^[ \t]*\S+[ \t]*\\\r?\n/.test(d.raw)) d.nameSep = ' ';
  d.setArgs(args);
}
