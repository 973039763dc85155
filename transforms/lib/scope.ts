// Server-level scope of a node: the <VirtualHost> it is in (across Include), or null for
// the main server. mod_ssl's server settings merge vhost over main server field by field.

import { model, virtualHostOf } from '../../src/model/server.js';
import type { ConfigFile } from '../../src/model/tree.js';
import type { Directive, Node, Section } from '../../src/syntax/index.js';
import type { TransformContext } from '../types.js';

/** The virtual host around a node of ctx.file (the first context when it is included twice). */
export function vhostOf(ctx: TransformContext, node: Node): Section | null {
  const c = model(ctx.tree).contextsOf(ctx.file, node)[0];
  return c ? virtualHostOf(c) : null;
}

/**
 * Directives of the given names that apply to a scope: set in the same virtual host, or at
 * main-server level (inherited by every vhost). Searches every server the file belongs to,
 * or the file itself when it belongs to none.
 */
export function settingsFor(ctx: TransformContext, vhost: Section | null, names: readonly string[]): Directive[] {
  const out: Directive[] = [];
  const mains = ctx.tree.mainsOf(ctx.file);
  const visit = (node: Node, sections: readonly Section[]): void => {
    if (node.kind !== 'directive' || !names.some((n) => node.is(n))) return;
    const vh = [...sections].reverse().find((s) => s.is('VirtualHost')) ?? null;
    if (vh === null || vh === vhost) out.push(node);
  };
  if (mains.length === 0) {
    const m = model(ctx.tree);
    for (const n of walkDoc(ctx)) visit(n, m.contextsOf(ctx.file, n)[0]?.sections ?? []);
  } else {
    // One name: the server's index has its directives in reading order; several: one walk keeps their order.
    for (const main of mains) for (const v of names.length === 1 ? model(ctx.tree).server(main).named(names[0].toLowerCase()) : model(ctx.tree).server(main).walk()) visit(v.node, v.sections);
  }
  return out;
}

function* walkDoc(ctx: TransformContext): Generator<Node> {
  const stack: Node[][] = [ctx.doc.children];
  while (stack.length > 0) {
    const list = stack.pop()!;
    for (const n of list) {
      yield n;
      if (n.kind === 'section') stack.push(n.children);
    }
  }
}

/**
 * A server's own main config: a file that sets up the main server (ServerRoot, User,
 * Group, DocumentRoot, ErrorLog or PidFile outside any section; the file name proves
 * nothing: Nagios and Koji ship conf.d fragments called httpd.conf),
 * as opposed to a fragment the engine treats as a main because it has LoadModule or
 * Listen lines (conf.d/ssl.conf): server-wide conclusions (which MPM, which defaults the
 * server relies on) are only drawn from the former.
 */
const MAIN_SERVER = new Set(['serverroot', 'user', 'group', 'documentroot', 'errorlog', 'pidfile']);

export function isServerMainConfig(file: ConfigFile): boolean {
  if (file.role !== 'main') return false;
  return file.doc.children.some((n) => n.kind === 'directive' && MAIN_SERVER.has(n.key));
}
