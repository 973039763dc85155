// SARIF 2.1.0: one rule per transform, one result per finding, and for rewrites a fix
// carrying the replacement (the zero-context hunk that covers the finding's line).

import { hunks } from '../engine/diff.js';
import type { Plan } from '../engine/run.js';
import { displayText } from '../syntax/index.js';
import type { Finding, Transform } from '../../transforms/types.js';

const LEVEL: Record<Finding['severity'], 'error' | 'warning' | 'note'> = { error: 'error', manual: 'warning', warning: 'warning', change: 'note' };

export function toSarif(p: Plan, findings: readonly Finding[], transforms: readonly Transform[], version: string): object {
  const rules = transforms.map((t) => ({
    id: t.id,
    name: t.id,
    shortDescription: { text: t.title },
    helpUri: t.docs,
    properties: { kind: t.kind as string },
  }));
  const ruleIds = new Set(rules.map((r) => r.id));
  // Engine findings (parse, include, write …) get rules of their own.
  for (const f of findings) {
    if (!ruleIds.has(f.transform)) {
      ruleIds.add(f.transform);
      rules.push({ id: f.transform, name: f.transform, shortDescription: { text: `httpd24-codemod ${f.transform}` }, helpUri: 'https://httpd.apache.org/docs/2.4/upgrading.html', properties: { kind: 'engine' } });
    }
  }
  const hunksByFile = new Map<string, ReturnType<typeof hunks>>();
  for (const o of p.files) if (o.status === 'changed') hunksByFile.set(o.file.display, hunks(o.before, o.after, 0, o.file.doc));
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));

  const results = findings.map((f) => {
    const result: Record<string, unknown> = {
      ruleId: f.transform,
      ruleIndex: ruleIndex.get(f.transform) ?? -1,
      level: LEVEL[f.severity],
      kind: f.severity === 'change' ? 'informational' : 'fail',
      message: { text: f.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(f.file) }, ...(f.line > 0 ? { region: { startLine: f.line } } : {}) } }],
      properties: { severity: f.severity },
    };
    if (f.severity === 'change') {
      // An insertion hunk sits just after the line the finding names.
      const h = hunkAt(hunksByFile.get(f.file) ?? [], f.line);
      if (h) {
        const inserted = h.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1) + '\n').join('');
        const deletedRegion = h.oldLines > 0
          ? { startLine: h.oldStart, endLine: h.oldStart + h.oldLines - 1, startColumn: 1 }
          : { startLine: h.oldStart, startColumn: 1, endColumn: 1 };
        result.fixes = [{
          description: { text: f.message },
          artifactChanges: [{ artifactLocation: { uri: uriOf(f.file) }, replacements: [{ deletedRegion, insertedContent: { text: displayText(inserted) } }] }],
        }];
      }
    }
    return result;
  });

  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'httpd24-codemod', version, informationUri: 'https://httpd.apache.org/docs/2.4/upgrading.html', rules } },
      results,
    }],
  };
}

/** The hunk covering a line (hunks are in line order; binary search: a file may have thousands). */
function hunkAt(hs: ReturnType<typeof hunks>, line: number): ReturnType<typeof hunks>[number] | undefined {
  const first = (x: (typeof hs)[number]): number => x.oldStart - (x.oldLines === 0 ? 1 : 0);
  const last = (x: (typeof hs)[number]): number => x.oldStart + Math.max(x.oldLines, 1) - 1;
  let lo = 0;
  let hi = hs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (last(hs[mid]) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo < hs.length && first(hs[lo]) <= line ? hs[lo] : undefined;
}

function uriOf(file: string): string {
  return file.split('\\').join('/').split('/').map(encodeURIComponent).join('/');
}
