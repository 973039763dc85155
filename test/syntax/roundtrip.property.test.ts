import fc from 'fast-check';
import { directive, type Document, type Node, parse, print, quoteArg, splitArgs, walk } from '../../src/syntax/index.js';
import { configText } from '../helpers/configArb.js';

// CI runs at least 10,000 generated cases for the round trip (FC_RUNS raises it locally).
const RUNS = Number(process.env.FC_RUNS ?? 10000);

describe('round trip', () => {
  test(`print(parse(text)) === text for generated configs (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(configText, (text) => {
        const doc = parse(text);
        if (print(doc) !== text) return false;
        doc.modified = true; // through every node's raw, not the fast path
        return print(doc) === text;
      }),
      { numRuns: RUNS },
    );
  });

  test('arbitrary bytes round-trip and diagnostics point at real lines', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 200 }), (text) => {
        const doc = parse(text);
        doc.modified = true;
        const lines = text.split('\n').length;
        return print(doc) === text && doc.diagnostics.every((d) => d.line >= 1 && d.line <= lines && d.column >= 1);
      }),
      { numRuns: Math.ceil(RUNS / 5) },
    );
  });
});

/** Each node's byte span in the original text, in document order (open tag for sections). */
function spans(doc: Document): Map<Node, [number, number]> {
  const out = new Map<Node, [number, number]>();
  let pos = doc.bom.length;
  // Sections print open raw, children, close raw; walk() yields in the same order, and
  // close tags are emitted after the last descendant.
  const closeAfter: Array<{ at: Node; len: number }> = [];
  const all = [...walk(doc)];
  const lastDescendant = (n: Node): Node => {
    let cur = n;
    while (cur.kind === 'section' && cur.children.length > 0) cur = cur.children[cur.children.length - 1];
    return cur;
  };
  for (const n of all) {
    out.set(n, [pos, pos + n.raw!.length]);
    pos += n.raw!.length;
    if (n.kind === 'section') closeAfter.push({ at: lastDescendant(n), len: n.closeRaw!.length });
    // Emit any close tags whose section ends with this node (innermost first).
    for (let k = closeAfter.length - 1; k >= 0; k--) {
      if (closeAfter[k].at === n) {
        pos += closeAfter[k].len;
        closeAfter.splice(k, 1);
      }
    }
  }
  return out;
}

describe('edits change only the edited node', () => {
  const withDirective = configText.filter((t) => {
    const d = parse(t);
    return !d.hasErrors() && [...walk(d)].some((n) => n.kind === 'directive');
  });
  const edit = fc.constantFrom('rename', 'setArgs', 'remove', 'insertAfter', 'insertBefore');

  test('bytes before and after the edited node are unchanged', () => {
    fc.assert(
      fc.property(withDirective, fc.nat(), edit, (text, pick, kind) => {
        const doc = parse(text);
        const ds = [...walk(doc)].filter((n) => n.kind === 'directive');
        const d = ds[pick % ds.length];
        if (d.kind !== 'directive') return true;
        const [a, b] = spans(doc).get(d)!;
        const before = text.slice(0, a);
        const self = text.slice(a, b);
        const after = text.slice(b);
        switch (kind) {
          case 'rename': d.rename('Renamed'); break;
          case 'setArgs': d.setArgs(['x', 'two words']); break;
          case 'remove': d.remove(); break;
          case 'insertAfter': d.after(directive('Inserted', 'on')); break;
          case 'insertBefore': d.before(directive('Inserted', 'on')); break;
        }
        const out = print(doc);
        if (kind === 'remove') return out === before + after;
        if (kind === 'insertBefore') return out.startsWith(before) && out.endsWith(self + after) && out.length > text.length;
        if (kind === 'insertAfter') {
          // A last line without an ending gains one so the new line can follow it.
          return out.startsWith(before + self) && out.endsWith(after) && out.length > text.length;
        }
        const mid = out.slice(before.length, out.length - after.length);
        return out.startsWith(before) && out.endsWith(after) && mid.includes(kind === 'rename' ? 'Renamed' : 'x "two words"');
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

describe('quoting', () => {
  test('quoteArg writes any value so that Apache reads it back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\\', '"', "'", '#', '$', '\xe9'), maxLength: 12 }), (v) => {
        const arg = quoteArg(v);
        const back = splitArgs(arg.raw + ' next');
        return back.length === 2 && back[0].value === v && back[1].value === 'next';
      }),
      { numRuns: 2000 },
    );
  });
});
