import { type Arg, quoteArg } from '../src/syntax/index.js';
import type { Transform } from './types.js';
import { candidates } from './lib/select.js';
import { replaceArgs } from './lib/edit.js';

// 2.2 FilterProvider name provider dispatch match (httpd@2.2.34:modules/filters/mod_filter.c
// filter_provider(), filter_lookup()) → 2.4 FilterProvider name provider "ap_expr".
// A missing dispatch value makes 2.2's match false before any "!" applies; ap_expr reads a
// missing value as "", so a test that "" would pass gets a "-n X &&" presence guard.

export interface Translation {
  expr: string;
  /** Set when 2.4 cannot say exactly what 2.2 did. */
  approximate?: string;
}

/** An ap_expr string literal (util_expr_scan.l: backslash escapes, %{ and $N are special). */
function literal(s: string): string {
  return "'" + s.replace(/[\\'%$]/g, (c) => '\\' + c) + "'";
}

/** The ap_expr term for a 2.2 dispatch criterion; null when 2.2 refused it. */
export function dispatchTerm(dispatch: string): string | null {
  const eq = dispatch.indexOf('=');
  if (eq < 0) {
    if (/^handler$/i.test(dispatch)) return '%{HANDLER}';
    return /^content-type$/i.test(dispatch) ? '%{CONTENT_TYPE}' : `resp(${literal(dispatch)})`;
  }
  const table = dispatch.slice(0, eq + 1).toLowerCase();
  const name = dispatch.slice(eq + 1);
  if (table === 'env=') return `reqenv(${literal(name)})`;
  // 2.2 added nothing to Vary; req() would.
  if (table === 'req=') return `req_novary(${literal(name)})`;
  if (table === 'resp=') return /^content-type$/i.test(name) ? '%{CONTENT_TYPE}' : `resp(${literal(name)})`;
  return null;
}

const DELIMITERS = ['#', '/', '|', '!', ',', ';', ':', '_', '^', '-', '.'];

/** `m<d>re<d>[i]` with a delimiter the pattern does not contain (ap_expr regexes have no escapes). */
function regex(re: string, icase: boolean): string | null {
  const d = DELIMITERS.find((c) => !re.includes(c));
  if (!d) return null;
  return (d === '/' ? '' : 'm') + d + re + d + (icase ? 'i' : '');
}

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.|?*+()[\]{}]/g, (c) => '\\' + c);
}

/** C atoi(): leading blanks, a sign, digits; anything else reads as 0. */
function atoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? parseInt(m[1], 10) : 0;
}

/** Can the regex match an empty value? (JavaScript's reading; unknown patterns count as yes.) */
function matchesEmpty(re: string, icase: boolean): boolean {
  try {
    return new RegExp(re, icase ? 'i' : '').test('');
  } catch {
    return true;
  }
}

/** The 2.4 expression for a 2.2 dispatch/match pair; null (with a reason) when 2.2 refused it. */
export function translate(dispatch: string, match: string): Translation | { error: string } {
  const term = dispatchTerm(dispatch);
  if (term === null) return { error: `unknown dispatch "${dispatch}" (2.2 refused it too)` };
  let m = match;
  const negated = m.startsWith('!');
  if (negated) m = m.slice(1);
  let test: string;
  let emptyPasses: boolean;
  let approximate: string | undefined;
  const c = m[0] ?? '';
  if (c === '<' || c === '>' || c === '=') {
    const op = m.startsWith('<=') ? '-le' : m.startsWith('>=') ? '-ge' : c === '<' ? '-lt' : c === '>' ? '-gt' : '-eq';
    const n = atoi(m.slice(op === '-le' || op === '-ge' ? 2 : 1));
    test = `${term} ${op} ${n}`;
    // A missing value reads as 0 in ap_expr.
    emptyPasses = { '-lt': 0 < n, '-le': 0 <= n, '-gt': 0 > n, '-ge': 0 >= n, '-eq': n === 0 }[op]!;
  } else if (c === '/') {
    const end = m.lastIndexOf('/');
    if (end <= 0) return { error: 'regular expression without a closing "/" (2.2 refused it too)' };
    const re = m.slice(1, end);
    const icase = m.slice(end + 1).includes('i'); // 2.2 honoured no other flag
    const r = regex(re, icase);
    if (r === null) return { error: 'the regular expression uses every delimiter ap_expr offers' };
    test = `${term} =~ ${r}`;
    emptyPasses = matchesEmpty(re, icase);
  } else if (c === '*' || (c === '$' && m.length === 1)) {
    // "Is present": ap_expr cannot tell a present empty value from a missing one.
    test = `-n ${term}`;
    emptyPasses = false;
    approximate = `2.2's "${c}" matched when ${dispatch} was present, even empty; "-n" needs a non-empty value`;
  } else if (c === '$') {
    // Case-insensitive substring (2.2 lower-cased both sides and used strstr()).
    const r = regex(escapeRegex(m.slice(1)), true);
    if (r === null) return { error: 'the text uses every delimiter ap_expr offers' };
    test = `${term} =~ ${r}`;
    emptyPasses = false;
  } else {
    // Case-insensitive equality (strcasecmp); ap_expr's == is case-sensitive.
    test = `tolower(${term}) == ${literal(m.toLowerCase())}`;
    emptyPasses = m === '';
  }
  const present = emptyPasses ? `-n ${term} && ${test}` : test;
  const expr = negated ? `!(${present})` : present;
  return approximate ? { expr, approximate } : { expr };
}

export const filterProvider: Transform = {
  id: 'filter-provider',
  title: '2.2 four-argument FilterProvider → the 2.4 expression form',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_filter.html#filterprovider',
  run(ctx) {
    for (const d of candidates(ctx, ['filterprovider'])) {
      if (d.args.length !== 4) continue; // three arguments: already the 2.4 form
      const [name, provider, dispatch, match] = d.args;
      const t = translate(dispatch.value, match.value);
      if ('error' in t) {
        ctx.report({ node: d, severity: 'manual', message: `FilterProvider ${dispatch.value} ${match.value} not converted: ${t.error}; 2.4 takes one expression instead (see mod_filter)` });
        continue;
      }
      const expr: Arg = quoteArg(t.expr, '"');
      replaceArgs(d, [name, provider, expr]);
      ctx.report({ node: d, severity: 'change', message: `FilterProvider ${dispatch.value} ${match.value} → ${expr.raw}: 2.4 takes one ap_expr expression instead of a dispatch and a match` });
      if (t.approximate) ctx.report({ node: d, severity: 'manual', message: `${t.approximate}: check that this difference does not matter here` });
    }
  },
};
