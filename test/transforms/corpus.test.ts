// Every transform over every corpus file: no failure, output that parses, and a second
// run that changes nothing (each file converted on its own, as a main config or .htaccess).
// `node dist/scripts/corpus-transforms.js` prints the per-transform counts.
import { readFileSync } from 'node:fs';
import { runOnText } from '../../src/engine/memory.js';
import { decodeBytes, parse } from '../../src/syntax/index.js';
import { transforms } from '../../transforms/index.js';
import { CORPUS, corpusEntries, describeWithShared } from '../helpers/shared.js';

describeWithShared('transforms over the corpus', CORPUS, () => {
  const entries = corpusEntries() ?? [];

  test.each(entries.map((e) => [e.file, e] as const))('%s', (_name, e) => {
    const text = decodeBytes(readFileSync(e.path));
    const role = e.kind === 'htaccess' || e.file.includes('.htaccess') ? 'htaccess' : undefined;
    const first = runOnText(text, transforms, { role, name: e.file });
    expect(first.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(parse(first.output).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const second = runOnText(first.output, transforms, { role, name: e.file });
    expect(second.output).toBe(first.output);
    expect(second.findings.filter((f) => f.severity === 'change')).toEqual([]);
  });
});
