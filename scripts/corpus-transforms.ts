// Runs transforms over ../shared/corpus one at a time and prints, per transform, how many
// files it changed and how many findings of each severity it reported; with --diffs DIR it
// also writes each transform's diffs there for reading. Each corpus file is converted on
// its own (the corpus holds single files, not whole server trees).
//   node dist/scripts/corpus-transforms.js [--only id,id] [--diffs DIR]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { runOnText } from '../src/engine/memory.js';
import { decodeBytes } from '../src/syntax/index.js';
import { transforms } from '../transforms/index.js';

const corpus = resolve(__dirname, '../../../shared/corpus');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const diffs = args.includes('--diffs') ? args[args.indexOf('--diffs') + 1] : null;

const [header, ...rows] = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
const cols = header.split('\t');
const entries = rows.map((r) => {
  const f = r.split('\t');
  return { file: f[cols.indexOf('file')], kind: f[cols.indexOf('kind')] };
});

for (const t of transforms.filter((x) => !only || only.includes(x.id))) {
  let changed = 0;
  const counts: Record<string, number> = { change: 0, warning: 0, manual: 0, error: 0 };
  let patch = '';
  for (const e of entries) {
    const text = decodeBytes(readFileSync(join(corpus, e.file)));
    const role = e.kind === 'htaccess' || e.file.includes('.htaccess') ? 'htaccess' : undefined;
    const r = runOnText(text, [t], { role, name: e.file });
    if (r.output !== text) changed++;
    for (const f of r.findings) counts[f.severity]++;
    if (diffs && (r.output !== text || r.findings.length > 0)) {
      patch += createTwoFilesPatch('a/' + e.file, 'b/' + e.file, text, r.output);
      for (const f of r.findings) patch += `# ${e.file}:${f.line} ${f.severity}: ${f.message}\n`;
    }
  }
  console.log(`${t.id}\t${changed} files changed\t${counts.change} change\t${counts.warning} warning\t${counts.manual} manual\t${counts.error} error`);
  if (diffs) {
    mkdirSync(diffs, { recursive: true });
    writeFileSync(join(diffs, `${t.id}.diff`), patch, 'latin1');
  }
}
