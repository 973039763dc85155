// Advice transforms: find the directives (or sections) that use a module whose behaviour
// changed, and say what changed and what to do. Nothing is rewritten. `once` keeps a
// general remark to the first use in each file, so a file with fifty `Options +Includes`
// gets one finding, not fifty.

import { type Directive, mentions, type Section, walk } from '../../src/syntax/index.js';
import type { Severity, Transform, TransformContext } from '../types.js';

export interface AdviceSpec {
  id: string;
  title: string;
  docs: string;
  /** The directive and section names (lower case) `match` is asked about; files without any are skipped. */
  names: readonly string[];
  /** The message for a node that uses the changed behaviour, or null. */
  match(node: Directive | Section, ctx: TransformContext): string | null;
  once?: boolean;
  severity?: Severity;
}

export function advice(spec: AdviceSpec): Transform {
  return {
    id: spec.id,
    title: spec.title,
    kind: 'advice',
    docs: spec.docs,
    run(ctx) {
      if (!mentions(ctx.doc, spec.names)) return;
      for (const n of walk(ctx.doc)) {
        if ((n.kind !== 'directive' && n.kind !== 'section') || !spec.names.includes(n.key)) continue;
        const message = spec.match(n, ctx);
        if (message === null) continue;
        ctx.report({ node: n, severity: spec.severity ?? 'warning', message });
        if (spec.once) return;
      }
    },
  };
}

/** Is the node inside a per-directory section (or an .htaccess file)? */
export function inDirectoryContext(n: Directive | Section, ctx: TransformContext): boolean {
  if (ctx.file.role === 'htaccess') return true;
  for (let p = n.parent; p !== null && p.kind === 'section'; p = p.parent) {
    if (/^(directory|directorymatch|location|locationmatch|files|filesmatch|proxy|proxymatch|limit|limitexcept|if|elseif|else)$/i.test(p.name)) return true;
  }
  return false;
}
