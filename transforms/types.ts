// What a transform is, what it gets to work with, and what it reports.
// A transform finds nodes, asks the model what they mean, edits through the syntax API
// and reports a finding for every change and every follow-up a person must do.

import type { ConfigFile, ConfigTree } from '../src/model/tree.js';
import type { Document, Node } from '../src/syntax/index.js';

/**
 * - change: the tool rewrote something (the diff shows what);
 * - warning: behaviour differs in 2.4 and was not rewritten, but nothing is broken;
 * - manual: a person must decide or do something (the message says what);
 * - error: something could not be done (unreadable file, parse error, internal failure).
 */
export type Severity = 'change' | 'warning' | 'manual' | 'error';

export interface Finding {
  transform: string;
  /** The file as shown to people (relative to the current folder). */
  file: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
  /** Apache documentation for the change. */
  docs?: string;
}

export interface TransformOptions {
  /** `dual` keeps 2.2 blocks beside 2.4 ones under <IfModule [!]mod_authz_core.c>. */
  mode: 'replace' | 'dual';
  /** Pin 2.2 defaults that changed in 2.4 instead of only reporting them. */
  preserveDefaults: boolean;
}

export interface ReportInput {
  severity: Severity;
  message: string;
  /** Where: a node (its line), or an explicit line; defaults to line 1 of the file. */
  node?: Node;
  line?: number;
  /** Another file of the tree, for transforms that reach across files. */
  file?: ConfigFile;
}

export interface TransformContext {
  readonly file: ConfigFile;
  readonly doc: Document;
  readonly tree: ConfigTree;
  readonly options: TransformOptions;
  report(finding: ReportInput): void;
  /** False for nodes an inline `# httpd24-codemod-disable…` comment covers for this transform. */
  enabled(node: Node): boolean;
  /**
   * Declares that this file's conversion depends on another file's (for example a converted
   * .htaccess needs a LoadModule line added to the main config): the two are then written
   * together or not at all. Editing or reporting on another file links it too.
   */
  link(file: ConfigFile): void;
}

export interface Transform {
  /** Stable id, used by --only/--skip, findings and docs/transforms/<id>.md. */
  readonly id: string;
  /** One-line summary for --list-transforms. */
  readonly title: string;
  readonly kind: 'rewrite' | 'advice';
  /** The Apache documentation this transform implements. */
  readonly docs: string;
  /**
   * 'tree': it may edit a file other than the one it runs on (merging into a LogLevel of an
   * included file). Without it, a transform edits only `ctx.doc` (others it links); the engine
   * holds it to that, and the idempotence check runs it only on the files the first pass changed.
   */
  readonly reach?: 'tree';
  /** Runs on one file; every transform runs over all files before the next one starts. */
  run(ctx: TransformContext): void;
}
