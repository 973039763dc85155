// Runs transforms on text in memory, without touching disk: for fixtures, docs examples and
// --explain. The file is a tree of its own (no includes followed).

import { type ConfigFile, ConfigTree, type FileRole } from '../model/tree.js';
import { type Document, parse, print } from '../syntax/index.js';
import type { Finding, Transform, TransformContext, TransformOptions } from '../../transforms/types.js';
import { lineOf, oneLine } from './run.js';

export interface MemoryResult {
  output: string;
  findings: Finding[];
}

export interface MemoryOptions extends Partial<TransformOptions> {
  name?: string;
  role?: FileRole;
  /** Other files of the same tree (absolute path → text), e.g. the .htaccess files a server reads. */
  files?: Record<string, string>;
}

export function runOnText(text: string, transforms: readonly Transform[], opts: MemoryOptions = {}): MemoryResult {
  return runOnDocument(parse(text), transforms, opts);
}

/** Like runOnText, on a document already parsed (edited in place): tests compare its nodes before and after. */
export function runOnDocument(doc: Document, transforms: readonly Transform[], opts: MemoryOptions = {}): MemoryResult {
  const name = opts.name ?? 'input.conf';
  const tree = new ConfigTree();
  const role: FileRole = opts.role ?? (name.endsWith('.htaccess') ? 'htaccess' : 'main');
  const file: ConfigFile = { path: '/' + name, display: name, doc, role, includedBy: [] };
  tree.add(file);
  for (const [path, content] of Object.entries(opts.files ?? {})) {
    tree.add({ path, display: path, doc: parse(content), role: path.endsWith('/.htaccess') ? 'htaccess' : 'standalone', includedBy: [] });
  }
  const others = tree.files.filter((f) => f !== file);
  const findings: Finding[] = [];
  const options: TransformOptions = { mode: opts.mode ?? 'replace', preserveDefaults: opts.preserveDefaults ?? false };
  for (const t of transforms) {
    for (const other of others) t.run(contextFor(other, t, false));
    t.run(contextFor(file, t, true));
  }
  return { output: print(doc), findings };

  function contextFor(f: ConfigFile, t: Transform, collect: boolean): TransformContext {
    return {
      file: f,
      doc: f.doc,
      tree,
      options,
      enabled: () => true,
      link: () => undefined,
      report: (r) => {
        if (!collect || (r.file && r.file !== file)) return;
        const line = r.line ?? lineOf(r.node);
        findings.push({ transform: t.id, file: file.display, line, column: line > 0 ? 1 : 0, severity: r.severity, message: oneLine(r.message), docs: t.docs });
      },
    };
  }
}
