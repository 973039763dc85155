// Access to ../shared (the corpus and the authz cases), which sits beside the project in CI
// but may be absent on a developer's machine: tests then skip with a clear message.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SHARED = resolve(__dirname, '../../../shared');
export const CORPUS = join(SHARED, 'corpus');
export const AUTHZ_CASES = join(SHARED, 'authz-cases');

export interface CorpusEntry {
  file: string;
  path: string;
  repo: string;
  kind: string;
  features: string[];
}

export function corpusEntries(): CorpusEntry[] | null {
  const manifest = join(CORPUS, 'MANIFEST.tsv');
  if (!existsSync(manifest)) return null;
  const [header, ...rows] = readFileSync(manifest, 'utf8').trim().split('\n');
  const cols = header.split('\t');
  return rows.map((r) => {
    const f = r.split('\t');
    const get = (c: string): string => f[cols.indexOf(c)] ?? '';
    return { file: get('file'), path: join(CORPUS, get('file')), repo: get('repo'), kind: get('kind'), features: get('features').split(',').filter(Boolean) };
  });
}

/** describe() that skips, saying why, when the shared folder is missing. */
export function describeWithShared(what: string, dir: string, fn: () => void): void {
  if (existsSync(dir)) describe(what, fn);
  else {
    describe.skip(`${what} (skipped: ${dir} not found; put ../shared beside the project)`, fn);
    // eslint-disable-next-line no-console
    console.warn(`[skip] ${what}: ${dir} not found`);
  }
}
