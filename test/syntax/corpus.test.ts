import { readFileSync } from 'node:fs';
import { decodeBytes, parse, print, walk } from '../../src/syntax/index.js';
import { CORPUS, corpusEntries, describeWithShared } from '../helpers/shared.js';

describeWithShared('corpus round trip', CORPUS, () => {
  const entries = corpusEntries() ?? [];

  test('the manifest lists the 120 corpus files', () => {
    expect(entries.length).toBe(120);
  });

  test.each(entries.map((e) => [e.file, e] as const))('%s', (_name, e) => {
    const bytes = readFileSync(e.path);
    const text = decodeBytes(bytes);
    const doc = parse(text);
    // No node lost: nothing left unplaced and nothing reported.
    expect(doc.diagnostics).toEqual([]);
    expect([...walk(doc)].filter((n) => n.kind === 'unparsed' && n.reason !== 'verbatim')).toEqual([]);
    // Byte-exact, through the fast path and node by node.
    expect(Buffer.compare(Buffer.from(print(doc), 'latin1'), bytes)).toBe(0);
    doc.modified = true;
    expect(Buffer.compare(Buffer.from(print(doc), 'latin1'), bytes)).toBe(0);
  });
});
