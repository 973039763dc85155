import { advice } from './lib/advice.js';

/** Directives that switch SSI on (mod_include). */
function enablesSsi(name: string, values: string[]): boolean {
  const n = name.toLowerCase();
  const v = values.map((x) => x.toLowerCase());
  if (n === 'options') return v.some((w) => /^[+]?includes(noexec)?$/.test(w));
  if (n === 'addoutputfilter' || n === 'setoutputfilter') return v.some((w) => w.split(';').includes('includes'));
  if (n === 'addhandler' || n === 'sethandler') return v[0] === 'server-parsed';
  if (n === 'addtype') return v[0] === 'text/x-server-parsed-html';
  if (n === 'xbithack') return v[0] === 'on' || v[0] === 'full';
  return false;
}

export const ssiLegacyExpr = advice({
  id: 'ssi-legacy-expr',
  title: 'mod_include: <!--#if expr--> uses the ap_expr parser in 2.4',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_include.html#ssilegacyexprparser',
  once: true,
  names: ['options', 'addoutputfilter', 'setoutputfilter', 'addhandler', 'sethandler', 'addtype', 'xbithack'],
  match: (n) => (n.kind === 'directive' && enablesSsi(n.name, n.values)
    ? 'SSI is on here: 2.4 parses <!--#if expr="…"--> with the new expression syntax; if the pages use 2.2 expressions, add `SSILegacyExprParser on` in the <Directory> that serves them (and note that SSI* directives in a directory no longer reset the other SSI* settings)'
    : null),
});
