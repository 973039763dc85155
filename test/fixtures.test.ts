// jscodeshift-style fixtures: __testfixtures__/<transform>/<case>.input.conf must become
// <case>.output.conf byte for byte, with the findings in <case>.findings.json when present.
// Every output must also parse cleanly and stay unchanged when converted again.
import { runOnText } from '../src/engine/memory.js';
import { parse } from '../src/syntax/index.js';
import { transforms } from '../transforms/index.js';
import { fixtureCases } from './helpers/fixtures.js';

const cases = fixtureCases();

describe('fixtures', () => {
  test('every transform has fixtures, and every fixture folder names a transform', () => {
    const ids = new Set(transforms.map((t) => t.id));
    const folders = new Set(cases.map((c) => c.transform));
    expect([...ids].filter((id) => !folders.has(id))).toEqual([]);
    expect([...folders].filter((f) => !ids.has(f))).toEqual([]);
  });

  test.each(cases.map((c) => [`${c.transform}/${c.name}`, c] as const))('%s', (_n, c) => {
    const t = transforms.find((x) => x.id === c.transform)!;
    const role = c.name.startsWith('htaccess') ? 'htaccess' : undefined;
    const res = runOnText(c.input, [t], { role, ...c.options });
    expect(res.output).toBe(c.output);
    if (c.findings) {
      expect(res.findings.map((f) => ({ line: f.line, severity: f.severity, message: f.message, ...(f.transform !== c.transform ? { transform: f.transform } : {}) }))).toEqual(c.findings);
    } else if (c.input !== c.output) {
      // A rewrite is always explained.
      expect(res.findings.some((f) => f.severity === 'change')).toBe(true);
    }
    expect(parse(res.output).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Idempotent: converting the output changes nothing.
    expect(runOnText(res.output, [t], { role, ...c.options }).output).toBe(res.output);
  });
});
