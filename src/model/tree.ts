// The configuration tree: every file the run reads, how they include each other, and
// which .htaccess files sit under which server. The engine builds it (it does the I/O);
// the model and the transforms read it.

import type { Directive, Document } from '../syntax/index.js';

/**
 * - main: a server's main config (httpd.conf, apache2.conf, or a file with server-level
 *   directives such as ServerRoot/Listen/LoadModule) that other files hang from;
 * - included: reached from a main config by Include/IncludeOptional;
 * - htaccess: a per-directory file (AccessFileName);
 * - standalone: a config fragment given on its own, not reached from any main config.
 */
export type FileRole = 'main' | 'included' | 'htaccess' | 'standalone';

export interface ConfigFile {
  /** Real absolute path (symlinks resolved): the file that is read and rewritten. */
  readonly path: string;
  /** The path shown to people and used in diffs: relative to the current folder. */
  readonly display: string;
  doc: Document;
  /** Set by the loader; whoever changes it calls ConfigTree.rolesChanged(). */
  role: FileRole;
  /** Include directives that pull this file in. */
  readonly includedBy: Array<{ file: ConfigFile; directive: Directive }>;
}

export interface IncludeEdge {
  readonly from: ConfigFile;
  readonly directive: Directive;
  /** The pattern after ServerRoot and ${VAR} resolution. */
  readonly resolved: string;
  readonly targets: ConfigFile[];
}

const treeCaches: Array<WeakMap<ConfigTree, unknown>> = [];

/**
 * A store of facts computed from a tree (models, analyses, plans), shared by the transforms
 * of one pass. releaseTree() empties it once the pass is over: a large tree's analysis is
 * then not held while the engine checks the result on a second tree.
 */
export function treeCache<T>(): WeakMap<ConfigTree, T> {
  const m = new WeakMap<ConfigTree, T>();
  treeCaches.push(m);
  return m;
}

/** Drops everything treeCache() stores kept for the tree (asked again, it is computed again). */
export function releaseTree(tree: ConfigTree): void {
  for (const m of treeCaches) m.delete(tree);
}

export class ConfigTree {
  readonly files: ConfigFile[] = [];
  readonly byPath = new Map<string, ConfigFile>();
  /** Include directive → the files it reads, in the order Apache reads them. */
  readonly includes = new Map<Directive, IncludeEdge>();
  /** The ServerRoot each main config resolves relative paths against. */
  readonly serverRoots = new Map<ConfigFile, string>();
  /**
   * For a copy of a server's tree (ServerRoot says /etc/httpd, the files are elsewhere):
   * absolute paths under `from` are read under `to`.
   */
  readonly rootMaps = new Map<ConfigFile, { from: string; to: string }>();
  /** Names given with --define (and Define directives seen while loading). */
  readonly defines = new Map<string, string>();

  add(file: ConfigFile): void {
    this.files.push(file);
    this.byPath.set(file.path, file);
    this.byRole = null;
  }

  /** Main configs and .htaccess files, listed once: transforms ask for every file of a tree of thousands. */
  private byRole: { mains: ConfigFile[]; htaccess: ConfigFile[] } | null = null;

  /** To be called after changing a file's role (the loader does, while it reads the tree). */
  rolesChanged(): void {
    this.byRole = null;
  }

  private roles(): { mains: ConfigFile[]; htaccess: ConfigFile[] } {
    if (this.byRole === null) {
      this.byRole = { mains: this.files.filter((f) => f.role === 'main'), htaccess: this.files.filter((f) => f.role === 'htaccess') };
    }
    return this.byRole;
  }

  get mains(): ConfigFile[] {
    return [...this.roles().mains];
  }

  get htaccessFiles(): ConfigFile[] {
    return [...this.roles().htaccess];
  }

  /** The main configs a file belongs to (itself for a main config). */
  mainsOf(file: ConfigFile): ConfigFile[] {
    const out = new Set<ConfigFile>();
    const seen = new Set<ConfigFile>();
    const todo = [file];
    while (todo.length > 0) {
      const f = todo.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      if (f.role === 'main') out.add(f);
      for (const inc of f.includedBy) todo.push(inc.file);
    }
    return [...out];
  }
}

/** An absolute path under the declared ServerRoot of a copied tree, in the copy. */
export function mapRoot(p: string, map: { from: string; to: string } | undefined): string {
  if (!map) return p;
  if (p === map.from) return map.to;
  return p.startsWith(map.from + '/') ? map.to + p.slice(map.from.length) : p;
}

