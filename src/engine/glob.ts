// Include wildcards as Apache expands them (server/config.c with apr_fnmatch and
// APR_FNM_PERIOD): `*`, `?` and `[...]` (negated with `!` or `^`) within one path
// component, a leading dot only matched by a leading dot, and matches read in byte order.

import { join } from 'node:path';
import { FsView } from './fsview.js';

export function hasWildcard(s: string): boolean {
  return /[*?[]/.test(s);
}

export function fnmatchRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]);
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      let neg = false;
      if (body[0] === '!' || body[0] === '^') {
        neg = true;
        body = body.slice(1);
      }
      re += '[' + (neg ? '^' : '') + body.replace(/[\\\]]/g, '\\$&') + ']';
      i = close;
    } else re += escapeRe(c);
  }
  // APR_FNM_PERIOD: a leading period must be matched by a period in the pattern.
  const period = pattern.startsWith('.') ? '' : '(?!\\.)';
  return new RegExp('^' + period + re + '$', 's');
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Byte-order comparison (strcmp), which is how Apache sorts the files it includes. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Expands an absolute pattern. Wildcards may appear in any component (2.4); each
 * component's matches are taken in byte order. Returns existing paths only.
 */
export function expandGlob(pattern: string, fsv: FsView = new FsView()): string[] {
  const parts = pattern.split('/');
  let bases = [parts[0] === '' ? '/' : parts[0]];
  for (let k = 1; k < parts.length; k++) {
    const part = parts[k];
    if (part === '') continue;
    const next: string[] = [];
    for (const base of bases) {
      if (!hasWildcard(part)) {
        next.push(join(base, part));
        continue;
      }
      let names: string[];
      try {
        names = fsv.names(base);
      } catch {
        continue;
      }
      const re = fnmatchRegExp(part);
      const last = k === parts.length - 1;
      for (const name of names.sort(byteOrder)) {
        if (!re.test(name)) continue;
        const p = join(base, name);
        if (!last) {
          // Only folders can hold the rest of the pattern.
          try {
            if (!fsv.stat(p).isDirectory()) continue;
          } catch {
            continue;
          }
        }
        next.push(p);
      }
    }
    bases = next;
  }
  return bases.filter((p) => {
    try {
      fsv.stat(p);
      return true;
    } catch {
      return false;
    }
  });
}
