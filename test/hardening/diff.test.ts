// Diffs are exact (applying the hunks gives the new text byte for byte) whether they come
// from the tree or from the texts alone, after any mix of edits the edit API allows.
import fc from 'fast-check';
import { hunks, lineInBefore, unifiedDiff } from '../../src/engine/diff.js';
import { comment, directive, type Node, parse, print, walk, wrap } from '../../src/syntax/index.js';
import { configText } from '../helpers/configArb.js';
import { applyHunks } from '../helpers/patch.js';

type Edit = { op: 'rename' | 'args' | 'remove' | 'before' | 'after' | 'wrap' | 'move'; at: number; to: number };
const edit: fc.Arbitrary<Edit> = fc.record({
  op: fc.constantFrom('rename', 'args', 'remove', 'before', 'after', 'wrap', 'move'),
  at: fc.nat(),
  to: fc.nat(),
});

function applyEdit(nodes: Node[], e: Edit): void {
  const live = nodes.filter((n) => n.parent !== null && n.root() !== null);
  if (live.length === 0) return;
  const n = live[e.at % live.length];
  switch (e.op) {
    case 'rename':
      if (n.kind === 'directive' || n.kind === 'section') n.rename(n.name + 'X');
      break;
    case 'args':
      if (n.kind === 'directive' || n.kind === 'section') n.setArgs(['a b', ...n.values.slice(0, 1)]);
      break;
    case 'remove':
      n.remove();
      break;
    case 'before':
      n.before(directive('Require', 'all', 'granted'));
      break;
    case 'after':
      n.after(comment('added'));
      break;
    case 'wrap':
      wrap([n], 'IfModule', ['mod_x.c']);
      break;
    case 'move': {
      const target = live[e.to % live.length];
      if (target === n || (n.kind === 'section' && [...walk(n)].includes(target))) break;
      n.remove();
      target.after(n);
      break;
    }
  }
}

describe('hunks', () => {
  test('applying them gives the new text exactly, from the tree and from the texts', () => {
    fc.assert(
      fc.property(configText, fc.array(edit, { maxLength: 6 }), fc.constantFrom(0, 1, 3), (text, edits, context) => {
        const doc = parse(text);
        const nodes = [...walk(doc)];
        for (const e of edits) applyEdit(nodes, e);
        const after = print(doc);
        const fromTree = hunks(text, after, context, doc);
        const fromText = hunks(text, after, context);
        expect(applyHunks(text, fromTree)).toBe(after);
        expect(applyHunks(text, fromText)).toBe(after);
        if (text === after) expect(fromTree).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  test('only the edited line shows when one directive among identical ones is renamed', () => {
    const text = 'Allow from all\n'.repeat(20);
    const doc = parse(text);
    (doc.children[10] as ReturnType<typeof directive>).rename('Require');
    const hs = hunks(text, print(doc), 0, doc);
    expect(hs).toEqual([{ oldStart: 11, oldLines: 1, newStart: 11, newLines: 1, lines: ['-Allow from all', '+Require from all'] }]);
  });

  test('a file without a final newline and a BOM', () => {
    const text = '\xef\xbb\xbfMaxClients 1\r\nKeepAlive On';
    const doc = parse(text);
    doc.children[1].after(directive('X', '1'));
    const after = print(doc);
    const d = unifiedDiff('x.conf', text, after, hunks(text, after, 3, doc));
    // The BOM line is context; the last line gains the file's CRLF before the new one.
    expect(after).toBe('\xef\xbb\xbfMaxClients 1\r\nKeepAlive On\r\nX 1\r\n');
    expect(d).toBe('diff --git a/x.conf b/x.conf\n--- a/x.conf\n+++ b/x.conf\n@@ -1,2 +1,3 @@\n \xef\xbb\xbfMaxClients 1\r\n-KeepAlive On\n\\ No newline at end of file\n+KeepAlive On\r\n+X 1\r\n');
    expect(applyHunks(text, hunks(text, after, 3, doc))).toBe(after);
  });

  test('100,000 lines with every other line changed: linear, not O(N·D)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 100_000; i++) lines.push(i % 2 === 0 ? `MaxClients ${i % 7}` : 'Allow from all');
    const text = lines.join('\n') + '\n';
    const doc = parse(text);
    for (const n of doc.children) if (n.kind === 'directive' && n.is('MaxClients')) n.rename('MaxRequestWorkers');
    const after = print(doc);
    const t0 = performance.now();
    const hs = hunks(text, after, 3, doc);
    const ms = performance.now() - t0;
    expect(applyHunks(text, hs)).toBe(after);
    expect(hs.reduce((s, h) => s + h.lines.filter((l) => l[0] === '-').length, 0)).toBe(50_000);
    // Measured ~150 ms on a 2-core machine; jsdiff alone took over 5 minutes.
    expect(ms).toBeLessThan(10_000);
    // Without the tree the effort bound keeps it finite (one coarse hunk is still exact).
    const t1 = performance.now();
    expect(applyHunks(text, hunks(text, after, 3))).toBe(after);
    expect(performance.now() - t1).toBeLessThan(20_000);
  });

  test("lineInBefore: a converted line's place in the user's file", () => {
    const before = ['a', 'gone1', 'gone2', 'b', 'old', 'c', ''].join('\n');
    const after = ['a', 'b', 'new1', 'new2', 'c', 'added', ''].join('\n');
    const at = lineInBefore(before, after);
    expect(at(1)).toEqual({ line: 1, written: false });
    expect(at(2)).toEqual({ line: 4, written: false }); // b moved up two lines
    expect(at(3)).toEqual({ line: 5, written: true }); // written in place of "old"
    expect(at(4)).toEqual({ line: 5, written: true });
    expect(at(5)).toEqual({ line: 6, written: false });
    expect(at(6)).toEqual({ line: 6, written: true }); // added after the last line: shown at it
    expect(lineInBefore(before, before)(4)).toEqual({ line: 4, written: false });
  });
});
