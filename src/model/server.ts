// The server as Apache reads it: a main config with everything it includes, in reading
// order, and for any node the sections around it (across Include boundaries: an Include
// inside <VirtualHost> puts the included file's directives in that virtual host).

import { ancestors, type Directive, Document, type Node, type Section } from '../syntax/index.js';
import { moduleId } from './modules.js';
import { type ConfigFile, type ConfigTree, treeCache } from './tree.js';

/** Where a node sits: its server (main config, or null for a fragment) and the sections around it. */
export interface NodeContext {
  main: ConfigFile | null;
  /** Enclosing sections, outermost first, including those around the Include that reached the file. */
  sections: readonly Section[];
}

export type Tristate = 'yes' | 'no' | 'unknown';

interface FileContext {
  main: ConfigFile | null;
  sections: readonly Section[];
}

const views = treeCache<TreeModel>();

/** The model of a tree, built once and shared by every transform. */
export function model(tree: ConfigTree): TreeModel {
  let m = views.get(tree);
  if (!m) {
    m = new TreeModel(tree);
    views.set(tree, m);
  }
  return m;
}

export class TreeModel {
  private readonly fileContexts = new Map<ConfigFile, FileContext[]>();
  private readonly servers = new Map<ConfigFile, ServerModel>();

  constructor(readonly tree: ConfigTree) {}

  /** The section chains that enclose a whole file (one per way it is included). */
  contextsOfFile(file: ConfigFile): FileContext[] {
    const known = this.fileContexts.get(file);
    if (known) return known;
    this.fileContexts.set(file, []); // breaks include cycles
    let out: FileContext[] = [];
    if (file.includedBy.length === 0) out = [{ main: file.role === 'main' ? file : null, sections: [] }];
    for (const site of file.includedBy) {
      const around = [...ancestors(site.directive)].reverse();
      for (const c of this.contextsOfFile(site.file)) out.push({ main: c.main, sections: [...c.sections, ...around] });
    }
    this.fileContexts.set(file, out);
    return out;
  }

  /** Every context a node appears in (several when its file is included from several places). */
  contextsOf(file: ConfigFile, node: Node): NodeContext[] {
    const own = [...ancestors(node)].reverse();
    return this.contextsOfFile(file).map((c) => ({ main: c.main, sections: own.length === 0 ? c.sections : [...c.sections, ...own] }));
  }

  /** The server model for a main config. */
  server(main: ConfigFile): ServerModel {
    let s = this.servers.get(main);
    if (!s) {
      s = new ServerModel(this.tree, main);
      this.servers.set(main, s);
    }
    return s;
  }

  /** The servers a file belongs to. */
  serversOf(file: ConfigFile): ServerModel[] {
    return this.tree.mainsOf(file).map((m) => this.server(m));
  }
}

/** Modules that 2.2 builds commonly compile in: without a LoadModule line they may still be there. */
const MAYBE_STATIC_22 = new Set(['core_module', 'http_module', 'so_module', 'log_config_module', 'logio_module', 'mpm_prefork_module', 'mpm_worker_module', 'mpm_event_module']);

export interface Visit {
  node: Node;
  file: ConfigFile;
  /** Enclosing sections, outermost first, across Include boundaries (built when first read). */
  readonly sections: readonly Section[];
  /** How many sections enclose the node. */
  depth: number;
  /** The <VirtualHost> around the node, or null at server level. */
  vhost: Section | null;
}

/**
 * The sections open at a point of the walk, as a chain of frames: each frame knows its parent,
 * so entering a section costs O(1) and the array is only built for the nodes that ask.
 */
class Scope {
  private list: readonly Section[] | undefined;
  constructor(readonly parent: Scope | null, readonly section: Section | null, readonly depth: number, readonly vhost: Section | null) {}

  static root(): Scope {
    return new Scope(null, null, 0, null);
  }

  enter(s: Section): Scope {
    return new Scope(this, s, this.depth + 1, s.is('VirtualHost') ? s : this.vhost);
  }

  sections(): readonly Section[] {
    if (this.list === undefined) {
      const out: Section[] = new Array(this.depth);
      let k = this.depth;
      for (let f: Scope | null = this; f && f.section; f = f.parent) out[--k] = f.section;
      this.list = out;
    }
    return this.list;
  }
}

/**
 * A Visit whose sections are read from its scope when asked. A class, not an object literal
 * with a getter: V8 keeps such literals in dictionary mode (about 600 bytes each), and a
 * server of 10,000 virtual hosts has hundreds of thousands of visits.
 */
class ServerVisit implements Visit {
  readonly depth: number;
  readonly vhost: Section | null;
  constructor(readonly node: Node, readonly file: ConfigFile, private readonly scope: Scope) {
    this.depth = scope.depth;
    this.vhost = scope.vhost;
  }

  get sections(): readonly Section[] {
    return this.scope.sections();
  }
}

/** One server: its main config and what it includes, in Apache's reading order. */
export class ServerModel {
  /** LoadModule lines in reading order: module id and where. */
  readonly loadModules: Array<{ id: string; path: string; directive: Directive; file: ConfigFile }> = [];
  private readonly loaded = new Set<string>();

  constructor(readonly tree: ConfigTree, readonly main: ConfigFile) {
    for (const v of this.walk()) {
      const n = v.node;
      if (n.kind === 'directive' && n.is('LoadModule') && n.values.length >= 1) {
        const id = n.values[0].toLowerCase();
        this.loadModules.push({ id, path: n.values[1] ?? '', directive: n, file: v.file });
        this.loaded.add(id);
      }
    }
  }

  private cached: { version: number; visits: Visit[] } | null = null;

  /**
   * Every node of the server in reading order (Include directives followed where they stand).
   * Transforms ask for it once per file, so the list is kept until a node is inserted or
   * removed anywhere; renames and argument edits do not move nodes.
   */
  visits(): readonly Visit[] {
    if (this.cached === null || this.cached.version !== Document.structureVersion) {
      this.cached = { version: Document.structureVersion, visits: [...this.walkNodes()] };
    }
    return this.cached.visits;
  }

  private index: { structure: number; edits: number; byKey: Map<string, Visit[]> } | null = null;

  /**
   * The directives and sections of the server named `key` (lower case), in reading order.
   * Transforms that look up a few names for every file ask here instead of walking the
   * whole server each time; the index is rebuilt after any edit (a rename changes names).
   */
  named(key: string): readonly Visit[] {
    if (this.index === null || this.index.structure !== Document.structureVersion || this.index.edits !== Document.editVersion) {
      const byKey = new Map<string, Visit[]>();
      for (const v of this.visits()) {
        const n = v.node;
        if (n.kind !== 'directive' && n.kind !== 'section') continue;
        const list = byKey.get(n.key);
        if (list) list.push(v);
        else byKey.set(n.key, [v]);
      }
      this.index = { structure: Document.structureVersion, edits: Document.editVersion, byKey };
    }
    return this.index.byKey.get(key) ?? [];
  }

  /** The server's nodes in reading order (see visits()). */
  *walk(): Generator<Visit> {
    yield* this.visits();
  }

  private *walkNodes(): Generator<Visit> {
    interface Frame { file: ConfigFile; list: Node[]; i: number; scope: Scope }
    const stack: Frame[] = [{ file: this.main, list: this.main.doc.children, i: 0, scope: Scope.root() }];
    const reading = new Set<ConfigFile>([this.main]);
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      if (f.i >= f.list.length) {
        stack.pop();
        if (stack.length === 0 || stack[stack.length - 1].file !== f.file) reading.delete(f.file);
        continue;
      }
      const n = f.list[f.i++];
      const scope = f.scope;
      yield new ServerVisit(n, f.file, scope);
      if (n.kind === 'section') {
        stack.push({ file: f.file, list: n.children, i: 0, scope: scope.enter(n) });
      } else if (n.kind === 'directive' && (n.is('Include') || n.is('IncludeOptional'))) {
        const edge = this.tree.includes.get(n);
        if (!edge) continue;
        // Targets are pushed in reverse so the first is read first.
        for (let k = edge.targets.length - 1; k >= 0; k--) {
          const t = edge.targets[k];
          if (reading.has(t)) continue;
          reading.add(t);
          stack.push({ file: t, list: t.doc.children, i: 0, scope });
        }
      }
    }
  }

  /** Is the module loaded (2.2 view)? Unknown for modules a 2.2 build may compile in. */
  hasModule(name: string): Tristate {
    const id = moduleId(name);
    if (this.loaded.has(id)) return 'yes';
    if (this.loadModules.length === 0 || MAYBE_STATIC_22.has(id)) return 'unknown';
    return 'no';
  }

  /** The module ids in LoadModule order (hook order for DSOs). */
  get moduleOrder(): string[] {
    return this.loadModules.map((m) => m.id);
  }

  /** Virtual hosts, in reading order. */
  virtualHosts(): Section[] {
    const out: Section[] = [];
    for (const v of this.walk()) if (v.node.kind === 'section' && v.node.is('VirtualHost')) out.push(v.node);
    return out;
  }
}

/** The <VirtualHost> a context is in, or null at server level. */
export function virtualHostOf(ctx: NodeContext): Section | null {
  for (let i = ctx.sections.length - 1; i >= 0; i--) if (ctx.sections[i].is('VirtualHost')) return ctx.sections[i];
  return null;
}

/** Server-level or virtual-host-level (not inside Directory, Location, Files, …): where server directives live. */
export function isServerLevel(ctx: NodeContext): boolean {
  return ctx.sections.every((s) => s.is('VirtualHost') || s.is('IfModule') || s.is('IfDefine') || s.is('IfVersion'));
}
