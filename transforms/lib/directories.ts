// Which server an .htaccess file belongs to, and which <Directory> sections cover its
// folder. The tree we read is often a copy of the server's files (the configs say
// /var/www, the copy sits in /tmp/x/var/www), so a <Directory> path covers a folder when
// its components appear in the folder's path, at the copy's root or below.

import { model, type Visit } from '../../src/model/server.js';
import type { ConfigFile, ConfigTree } from '../../src/model/tree.js';
import { substitute } from '../../src/model/vars.js';
import type { Section } from '../../src/syntax/index.js';
import { dirname } from 'node:path';

/** The path components of a <Directory> argument, or null for regex forms. */
function directoryParts(section: Section, tree: ConfigTree, main: ConfigFile): string[] | null {
  if (!section.is('Directory') || section.values.length === 0) return null;
  if (section.values[0] === '~' || section.values.length > 1) return null;
  let path = substitute(section.values[0], tree.defines).text;
  // A path under the ServerRoot directive's value lives under the root we resolved.
  const sr = main.doc.children.find((n) => n.kind === 'directive' && n.is('ServerRoot'));
  const root = tree.serverRoots.get(main);
  if (sr && sr.kind === 'directive' && sr.values[0] && root) {
    const srv = sr.values[0].replace(/\/+$/, '');
    if (srv !== '' && (path === srv || path.startsWith(srv + '/'))) path = root + path.slice(srv.length);
  }
  return path.split('/').filter((p) => p !== '');
}

function globPart(pattern: string, name: string): boolean {
  if (!/[*?[]/.test(pattern)) return pattern === name;
  const re = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${re}$`).test(name);
}

/** Number of components of the covering <Directory> when it covers `folder`, else -1. */
export function coverDepth(section: Section, folder: string, tree: ConfigTree, main: ConfigFile): number {
  const parts = directoryParts(section, tree, main);
  if (parts === null) return -1;
  if (parts.length === 0) return 0;
  const have = folder.split('/').filter((p) => p !== '');
  for (let k = 0; k + parts.length <= have.length; k++) {
    if (parts.every((p, i) => globPart(p, have[k + i]))) return parts.length;
  }
  return -1;
}

/** Per list of a server's Directory visits (a new list after any edit): those outside <VirtualHost>. */
const serverLevel = new WeakMap<readonly Visit[], Visit[]>();

/** The <Directory> sections of a server (not those inside <VirtualHost>) that cover the folder, shortest path first. */
export function coveringDirectories(main: ConfigFile, folder: string, tree: ConfigTree): Array<{ visit: Visit; section: Section; depth: number }> {
  const out: Array<{ visit: Visit; section: Section; depth: number }> = [];
  // Asked for every .htaccess file: the thousands of <Directory> sections inside virtual hosts are filtered out once.
  const named = model(tree).server(main).named('directory');
  let dirs = serverLevel.get(named);
  if (!dirs) {
    dirs = named.filter((v) => v.node.kind === 'section' && !v.sections.some((s) => s.is('VirtualHost')));
    serverLevel.set(named, dirs);
  }
  for (const v of dirs) {
    if (v.node.kind !== 'section') continue;
    const depth = coverDepth(v.node, folder, tree, main);
    if (depth >= 0) out.push({ visit: v, section: v.node, depth });
  }
  return out.sort((a, b) => a.depth - b.depth);
}

/**
 * The servers an .htaccess file belongs to: the only server of the tree, or the servers
 * with a <Directory> (other than `/`) covering its folder.
 */
export function serversOfHtaccess(file: ConfigFile, tree: ConfigTree): ConfigFile[] {
  const mains = tree.mains;
  if (mains.length <= 1) return mains;
  const folder = dirname(file.path);
  return mains.filter((m) => coveringDirectories(m, folder, tree).some((c) => c.depth > 0));
}
