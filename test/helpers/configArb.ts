// fast-check generators of Apache configuration text: realistic constructs (directives with
// bare, quoted and escaped arguments, comments, sections, continuations, CRLF, tabs,
// trailing blanks, BOM, a missing final newline) mixed with random byte noise.
import fc from 'fast-check';

const names = ['Order', 'Allow', 'Deny', 'Satisfy', 'Require', 'Options', 'MaxClients', 'KeepAlive', 'Include', 'RewriteRule', 'AuthType', 'x'];
const sections = ['Directory', 'Location', 'IfModule', 'Files', 'VirtualHost', 'Limit', 'Perl'];
const byteChar = fc.integer({ min: 1, max: 255 }).map((c) => String.fromCharCode(c));
const ws = fc.constantFrom(' ', '  ', '\t', ' \t');
const indent = fc.constantFrom('', '  ', '    ', '\t', '\t\t', ' \t');
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r\n');

const bareWord = fc.stringMatching(/^[A-Za-z0-9_.,:\/${}%@*!=+\-\\#]{1,12}$/);
const quoted = fc.tuple(fc.constantFrom('"', "'"), fc.string({ unit: fc.constantFrom('a', ' ', '\\', '"', "'", '#', 'é', '%') , maxLength: 10 })).map(([q, s]) => q + s + q);
const arg = fc.oneof({ weight: 4, arbitrary: bareWord }, { weight: 2, arbitrary: quoted }, { weight: 1, arbitrary: fc.string({ unit: byteChar, maxLength: 6 }).map((s) => s.replace(/[\n]/g, '')) });

const directiveLine = fc.tuple(indent, fc.constantFrom(...names, ...names.map((n) => n.toLowerCase())), fc.array(fc.tuple(ws, arg), { maxLength: 5 }), fc.constantFrom('', ' ', '\t  '), fc.boolean())
  .map(([ind, name, args, trail, cont]) => {
    const parts = args.map(([w, a]) => w + a);
    if (cont && parts.length > 1) parts.splice(1, 0, ' \\\n   ');
    return ind + name + parts.join('') + trail;
  });
const commentLine = fc.tuple(indent, fc.string({ unit: byteChar, maxLength: 20 })).map(([i, t]) => i + '#' + t.replace(/\n/g, ''));
const blankLine = fc.constantFrom('', ' ', '\t', '  \t ');
const noiseLine = fc.string({ unit: byteChar, maxLength: 30 });

interface Tree { kind: 'line'; text: string } // flattened lines
const lineArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: directiveLine },
  { weight: 2, arbitrary: commentLine },
  { weight: 2, arbitrary: blankLine },
  { weight: 1, arbitrary: noiseLine },
);

/** A block: lines, with sections nested inside (usually balanced, sometimes not). */
const block: fc.Memo<string[]> = fc.memo((depth) =>
  fc.array(
    depth <= 1
      ? lineArb.map((l) => [l])
      : fc.oneof(
          { weight: 5, arbitrary: lineArb.map((l) => [l]) },
          {
            weight: 1,
            arbitrary: fc.tuple(indent, fc.constantFrom(...sections), fc.array(arg, { maxLength: 2 }), block(depth - 1), fc.constantFrom('>', ' >', '>', ''), fc.constantFrom('close', 'close', 'close', 'lower', 'none', 'other'))
              .map(([ind, name, args, body, gt, close]) => {
                const open = ind + '<' + name + (args.length ? ' ' + args.join(' ') : '') + gt;
                const closeLine = close === 'close' ? ind + '</' + name + '>' : close === 'lower' ? '</' + name.toLowerCase() + ' >' : close === 'other' ? '</Other>' : null;
                return [open, ...body, ...(closeLine === null ? [] : [closeLine])];
              }),
          },
        ).map((x) => x),
    { maxLength: 8 },
  ).map((xs) => xs.flat()),
);

export const configText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', '', '', '\xef\xbb\xbf'), block(4), fc.array(eol, { minLength: 64, maxLength: 64 }), fc.boolean())
  .map(([bom, lines, eols, finalNl]) => {
    let s = bom;
    lines.forEach((l, i) => {
      s += l + (i < lines.length - 1 || finalNl ? eols[i % eols.length] : '');
    });
    return s;
  });

export type { Tree };
