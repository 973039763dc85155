// Runs transforms on text in memory, without touching disk: for fixtures, docs examples and
// --explain. The file is a tree of its own (no includes followed).

import { ConfigTree, type FileRole } from '../model/tree.js';
import { parse, print } from '../syntax/index.js';
import type { Finding, Transform, TransformContext, TransformOptions } from '../../transforms/types.js';
import { lineOf } from './run.js';

export interface MemoryResult {
  output: string;
  findings: Finding[];
}

export function runOnText(text: string, transforms: readonly Transform[], opts: { name?: string; role?: FileRole } & Partial<TransformOptions> = {}): MemoryResult {
  const name = opts.name ?? 'input.conf';
  const doc = parse(text);
  const tree = new ConfigTree();
  const role: FileRole = opts.role ?? (name.endsWith('.htaccess') ? 'htaccess' : 'main');
  const file = { path: '/' + name, display: name, doc, role, includedBy: [] };
  tree.add(file);
  const findings: Finding[] = [];
  const options: TransformOptions = { mode: opts.mode ?? 'replace', preserveDefaults: opts.preserveDefaults ?? false };
  for (const t of transforms) {
    const ctx: TransformContext = {
      file,
      doc,
      tree,
      options,
      enabled: () => true,
      link: () => undefined,
      report: (r) => {
        const line = r.line ?? lineOf(r.node);
        findings.push({ transform: t.id, file: (r.file ?? file).display, line, column: line > 0 ? 1 : 0, severity: r.severity, message: r.message, docs: t.docs });
      },
    };
    t.run(ctx);
  }
  return { output: print(doc), findings };
}
