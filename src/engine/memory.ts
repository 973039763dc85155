// Runs transforms on text in memory, without touching disk: for fixtures, docs examples and
// --explain. The file is a tree of its own (no includes followed).

import { ConfigTree, type FileRole } from '../model/tree.js';
import { type Document, parse, print } from '../syntax/index.js';
import type { Finding, Transform, TransformContext, TransformOptions } from '../../transforms/types.js';
import { lineOf } from './run.js';

export interface MemoryResult {
  output: string;
  findings: Finding[];
}

export type MemoryOptions = { name?: string; role?: FileRole } & Partial<TransformOptions>;

export function runOnText(text: string, transforms: readonly Transform[], opts: MemoryOptions = {}): MemoryResult {
  return runOnDocument(parse(text), transforms, opts);
}

/** Like runOnText, on a document already parsed (edited in place): tests compare its nodes before and after. */
export function runOnDocument(doc: Document, transforms: readonly Transform[], opts: MemoryOptions = {}): MemoryResult {
  const name = opts.name ?? 'input.conf';
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
      report: (r) => {
        const line = r.line ?? lineOf(r.node);
        findings.push({ transform: t.id, file: (r.file ?? file).display, line, column: line > 0 ? 1 : 0, severity: r.severity, message: r.message, docs: t.docs });
      },
    };
    t.run(ctx);
  }
  return { output: print(doc), findings };
}
