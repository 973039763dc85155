// Which directives a transform should look at: those of the current file that the transform
// may change (no disable comment) and that a 2.4 server reads somewhere (not only inside
// <IfVersion> blocks that 2.4 skips).

import type { ConfigFile } from '../../src/model/tree.js';
import { model, type NodeContext, type Visit } from '../../src/model/server.js';
import { skippedBy24 } from '../../src/model/version.js';
import { ancestors, type Directive, directives, mentions, type Node, type Section, walk } from '../../src/syntax/index.js';
import type { TransformContext } from '../types.js';

/** The contexts the node is read in by 2.4 (all of them when nothing is known). */
export function liveContexts(ctx: TransformContext, node: Node): NodeContext[] {
  const all = model(ctx.tree).contextsOf(ctx.file, node);
  return all.filter((c) => !skippedBy24(c.sections));
}

/** True when the node is read by 2.4 in at least one place its file is included (or nothing says otherwise). */
export function readBy24(ctx: TransformContext, node: Node): boolean {
  const all = model(ctx.tree).contextsOf(ctx.file, node);
  return all.length === 0 || all.some((c) => !skippedBy24(c.sections));
}

/** This file's directives named `names` (lower case) that the transform may change, in file order. */
export function candidates(ctx: TransformContext, names: readonly string[]): Directive[] {
  const out: Directive[] = [];
  if (!mentions(ctx.doc, names)) return out;
  for (const d of directives(ctx.doc)) if (names.includes(d.key) && ctx.enabled(d) && readBy24(ctx, d)) out.push(d);
  return out;
}

/** Directive and section names that only make their contents conditional, not a scope of their own. */
export const CONDITIONAL_SECTIONS = ['ifmodule', 'ifdefine', 'ifversion'];

/**
 * The scope of a node from its enclosing sections (outermost first): the innermost section
 * that is not conditional (VirtualHost, Directory, Location, …; null for the server level),
 * and the conditional sections between that scope and the node.
 */
export function scopeOf(sections: readonly Section[]): { scope: Section | null; conditions: Section[] } {
  let i = sections.length - 1;
  const conditions: Section[] = [];
  while (i >= 0 && CONDITIONAL_SECTIONS.includes(sections[i].key)) conditions.push(sections[i--]);
  return { scope: i >= 0 ? sections[i] : null, conditions };
}

/**
 * The nodes a server reads, in reading order, with their sections: the whole server when the
 * file belongs to a main config, else the file alone (a fragment given on its own).
 */
export function* readingOrder(ctx: TransformContext, main: ConfigFile | null): Generator<Visit> {
  if (main) {
    yield* model(ctx.tree).server(main).walk();
    return;
  }
  for (const node of walk(ctx.doc)) {
    const sections = [...ancestors(node)].reverse();
    yield { node, file: ctx.file, sections, depth: sections.length, vhost: [...sections].reverse().find((s) => s.is('VirtualHost')) ?? null };
  }
}
