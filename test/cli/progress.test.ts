// The progress line: only on a terminal, only once a run has taken a second, cleared at the end.
import { progressLine } from '../../src/cli/main.js';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return { out, s: { isTTY, write: (x: string) => out.push(x) } };
}

describe('progressLine', () => {
  test('silent when stderr is not a terminal, or with --quiet', () => {
    expect(progressLine(stream(false).s, false)).toBeUndefined();
    expect(progressLine(stream(true).s, true)).toBeUndefined();
  });

  test('nothing in the first second; then one rewritten line, cleared at the end', () => {
    let t = 0;
    const { out, s } = stream(true);
    const p = progressLine(s, false, () => t)!;
    p('reading the configuration');
    expect(out).toEqual([]);
    t = 1500;
    p('converting: modules (2 of 39), 20002 files');
    p('');
    expect(out).toEqual(['\r\x1b[Kconverting: modules (2 of 39), 20002 files', '\r\x1b[K']);
  });

  test('a run that ends within the second leaves nothing behind', () => {
    const { out, s } = stream(true);
    const p = progressLine(s, false, () => 0)!;
    p('converting');
    p('');
    expect(out).toEqual([]);
  });
});
