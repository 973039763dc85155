// The pipeline: load → transforms (in order, each over every file) → print → verify.
// plan() computes everything and touches nothing on disk; apply() writes.

import { basename, dirname } from 'node:path';
import { type ConfigFile, type ConfigTree, releaseTree } from '../model/tree.js';
import { Document, FrozenNodeError, lineOf, type Node, parse, print } from '../syntax/index.js';
import { transforms as allTransforms } from '../../transforms/index.js';
import type { Finding, ReportInput, Transform, TransformContext, TransformOptions } from '../../transforms/types.js';
import { DisabledNodes } from './disable.js';
import { errText } from './errors.js';
import { HeapWatch } from './heap.js';
import { load, type SourceInfo } from './load.js';
import { changedOnDisk, commitTemp, discardTemp, writeBackup, writeTemp } from './write.js';

export interface EngineOptions extends TransformOptions {
  cwd: string;
  serverRoot?: string;
  defines?: ReadonlyMap<string, string>;
  /** Transform ids to run (default: all) and to leave out. */
  only?: readonly string[];
  skip?: readonly string[];
  /** The transforms to choose from (tests inject their own). */
  transforms?: readonly Transform[];
  /** Internal errors carry their stack. */
  verbose?: boolean;
  /** Told what the run is doing, for a progress line (e.g. "checking: transform 3 of 39"). */
  progress?: (what: string) => void;
}

export type FileStatus = 'unchanged' | 'changed' | 'failed';

export interface FileOutcome {
  file: ConfigFile;
  before: string;
  after: string;
  status: FileStatus;
}

export interface Plan {
  tree: ConfigTree;
  files: FileOutcome[];
  findings: Finding[];
  sources: Map<ConfigFile, SourceInfo>;
  /** Paths that could not be loaded at all. */
  loadFailed: number;
  /** Files whose edits must be written together or not at all. */
  groups: ConfigFile[][];
}

export function selectTransforms(opts: Pick<EngineOptions, 'only' | 'skip' | 'transforms'>): Transform[] {
  const list = [...(opts.transforms ?? allTransforms)];
  const known = new Set(list.map((t) => t.id));
  for (const id of [...(opts.only ?? []), ...(opts.skip ?? [])]) {
    if (!known.has(id)) throw new Error(`unknown transform '${id}' (see --list-transforms)`);
  }
  return list.filter((t) => (!opts.only || opts.only.length === 0 || opts.only.includes(t.id)) && !(opts.skip ?? []).includes(t.id));
}

/** Union-find over files: edits that depend on each other land together. */
class Groups {
  private readonly up = new Map<ConfigFile, ConfigFile>();
  private readonly size = new Map<ConfigFile, number>();
  find(f: ConfigFile): ConfigFile {
    let r = f;
    while (this.up.has(r) && this.up.get(r) !== r) r = this.up.get(r)!;
    // Path compression: every file on the way points at the root.
    for (let x = f; x !== r; ) {
      const next = this.up.get(x)!;
      this.up.set(x, r);
      x = next;
    }
    return r;
  }
  join(a: ConfigFile, b: ConfigFile): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    // Union by size: the smaller group joins the larger, so chains stay short.
    const sa = this.size.get(ra) ?? 1;
    const sb = this.size.get(rb) ?? 1;
    const [big, small] = sa >= sb ? [ra, rb] : [rb, ra];
    this.up.set(small, big);
    this.size.set(big, sa + sb);
  }
  all(files: readonly ConfigFile[]): ConfigFile[][] {
    const m = new Map<ConfigFile, ConfigFile[]>();
    for (const f of files) {
      const r = this.find(f);
      if (!m.has(r)) m.set(r, []);
      m.get(r)!.push(f);
    }
    return [...m.values()];
  }
}

/** A finding is one line: control characters that came from configuration values are shown escaped. */
export function oneLine(message: string): string {
  return message.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
}

export { lineOf } from '../syntax/index.js';

interface PassResult {
  findings: Finding[];
  failed: Map<ConfigFile, string>;
  /** Transform ids that edited each file. */
  editedBy: Map<ConfigFile, Set<string>>;
  groups: Groups;
}

/**
 * Runs the transforms over a loaded tree, editing its documents in place. With `only`, a
 * transform that edits just the file it runs on (no `reach: 'tree'`) runs only on those paths.
 */
function runTransforms(tree: ConfigTree, list: readonly Transform[], opts: EngineOptions, collect: boolean, heap: HeapWatch, only?: ReadonlySet<string>): PassResult {
  const findings: Finding[] = [];
  const failed = new Map<ConfigFile, string>();
  const editedBy = new Map<ConfigFile, Set<string>>();
  const groups = new Groups();
  for (const f of tree.files) if (f.doc.hasErrors()) failed.set(f, 'parse error');
  const disabled = new Map<ConfigFile, DisabledNodes>();
  for (const f of tree.files) {
    const d = new DisabledNodes(f.doc);
    if (!d.empty) disabled.set(f, d);
  }
  const fileOfDoc = new Map<Document, ConfigFile>(tree.files.map((f) => [f.doc, f]));
  const options: TransformOptions = { mode: opts.mode, preserveDefaults: opts.preserveDefaults };

  // A node's disable comments are those of the file it belongs to (transforms reach across files).
  const disabledFor = (node: Node, current: ConfigFile): DisabledNodes | undefined => {
    const doc = node.root();
    return disabled.get((doc && fileOfDoc.get(doc)) ?? current);
  };

  const stage = collect ? 'converting' : 'checking the result';
  for (const [i, t] of list.entries()) {
    opts.progress?.(`${stage}: ${t.id} (${i + 1} of ${list.length}), ${tree.files.length} files`);
    // Protected nodes of every file stay frozen while t runs, so an edit across files cannot slip through.
    for (const d of disabled.values()) d.freeze(t.id, true);
    for (const file of tree.files) {
      if (failed.has(file)) continue;
      if (only && t.reach !== 'tree' && !only.has(file.path)) continue;
      let strayEdit: ConfigFile | undefined;
      const ctx: TransformContext = {
        file,
        doc: file.doc,
        tree,
        options,
        enabled: (node) => {
          const dis = disabledFor(node, file);
          return !dis || !dis.disabled(node, t.id);
        },
        link: (other) => groups.join(file, other),
        report: (r: ReportInput) => {
          const target = r.file ?? file;
          if (target !== file) groups.join(file, target);
          if (!collect) return;
          const line = r.line ?? lineOf(r.node);
          findings.push({ transform: t.id, file: target.display, line, column: line > 0 ? 1 : 0, severity: r.severity, message: oneLine(r.message), docs: t.docs });
        },
      };
      Document.onEdit = (doc) => {
        const edited = fileOfDoc.get(doc);
        if (!edited) return;
        if (!editedBy.has(edited)) editedBy.set(edited, new Set());
        editedBy.get(edited)!.add(t.id);
        if (edited !== file) groups.join(file, edited);
        if (edited !== file && t.reach !== 'tree') strayEdit ??= edited;
      };
      try {
        t.run(ctx);
        // Joined above, so the other file is left unchanged with this one.
        if (strayEdit) throw new Error(`it edited ${strayEdit.display} while running on this file, without declaring reach 'tree'`);
      } catch (e) {
        const why = e instanceof FrozenNodeError
          ? `${t.id} tried to change line ${e.node.line}, which an httpd24-codemod-disable comment protects`
          : `${t.id} failed: ${(e as Error).message}` + (opts.verbose && (e as Error).stack ? `\n${(e as Error).stack}` : '');
        failed.set(file, why);
        if (collect) findings.push({ transform: t.id, file: file.display, line: e instanceof FrozenNodeError ? e.node.line : 0, column: 0, severity: 'error', message: `${why}; file left unchanged` });
      } finally {
        Document.onEdit = undefined;
      }
    }
    for (const d of disabled.values()) d.freeze(t.id, false);
    heap.between();
  }
  return { findings, failed, editedBy, groups };
}

export function plan(paths: readonly string[], opts: EngineOptions): Plan {
  const list = selectTransforms(opts);
  opts.progress?.('reading the configuration');
  const loaded = load(paths, { cwd: opts.cwd, serverRoot: opts.serverRoot, defines: opts.defines });
  const { tree, sources } = loaded;
  const findings = [...loaded.findings];
  const heap = new HeapWatch();
  const pass = runTransforms(tree, list, opts, true, heap);
  findings.push(...pass.findings);

  const files: FileOutcome[] = tree.files.map((file) => {
    const before = sources.get(file)!.text;
    if (pass.failed.has(file)) return { file, before, after: before, status: 'failed' as const };
    const after = print(file.doc);
    return { file, before, after, status: after === before ? ('unchanged' as const) : ('changed' as const) };
  });

  // What the transforms computed from the tree is not needed any more; the check below builds its own.
  releaseTree(tree);
  heap.between(true);

  const outcomeOf = new Map(files.map((o) => [o.file, o]));
  const outcomeAt = new Map(files.map((o) => [o.file.path, o]));

  // Verification 1: the output must parse without new errors.
  for (const o of files) {
    if (o.status !== 'changed') continue;
    const again = parse(o.after);
    if (again.diagnostics.filter((d) => d.severity === 'error').length > 0) {
      const d = again.diagnostics.find((x) => x.severity === 'error')!;
      fail(o, 'verify', d.line, `the converted file would not parse (${d.message}); file left unchanged`);
    }
  }

  // Verification 2: running again on the output must change nothing.
  const changed = files.filter((o) => o.status === 'changed');
  if (changed.length > 0) {
    const overlay = new Map(changed.map((o) => [o.file.path, o.after]));
    const second = load(paths, { cwd: opts.cwd, serverRoot: opts.serverRoot, defines: opts.defines, overlay, cache: loaded.cache });
    // Only converted files are judged, and most transforms edit only the file they run on.
    const again = runTransforms(second.tree, list, opts, false, heap, new Set(overlay.keys()));
    for (const f2 of second.tree.files) {
      const by = again.editedBy.get(f2);
      const o = outcomeAt.get(f2.path);
      if (!o || o.status !== 'changed') continue;
      if (again.failed.has(f2) && again.failed.get(f2) !== 'parse error') {
        fail(o, 'verify', 0, `a second run on the converted file fails (${again.failed.get(f2)}); file left unchanged`);
      } else if (by && print(f2.doc) !== o.after) {
        fail(o, 'verify', 0, `a second run would change the converted file again (${[...by].join(', ')}): not idempotent here, file left unchanged (please report this)`);
      }
    }
    releaseTree(second.tree);
  }

  // Files edited together stand or fall together.
  const groups = pass.groups.all(tree.files);
  for (const g of groups) {
    const bad = g.map((f) => outcomeOf.get(f)!).filter((o) => o.status === 'failed');
    if (bad.length === 0) continue;
    for (const f of g) {
      const o = outcomeOf.get(f)!;
      if (o.status === 'changed') fail(o, 'verify', 0, `not changed because ${bad[0].file.display}, whose conversion it depends on, could not be converted`);
    }
  }

  return { tree, files, findings, sources, loadFailed: loaded.failed, groups };

  function fail(o: FileOutcome, id: string, line: number, message: string): void {
    o.status = 'failed';
    o.after = o.before;
    findings.push({ transform: id, file: o.file.display, line, column: line > 0 ? 1 : 0, severity: 'error', message });
  }
}

export interface ApplyOptions {
  /** Keep originals as `file + suffix`. */
  backup?: string;
  /** Checked between groups: stop writing (e.g. after SIGINT). */
  shouldStop?: () => boolean;
}

/**
 * Writes the changed files of a plan, group by group: each group all-new or all-old.
 * A file is written to a temp file beside it, compared with what was read (someone may
 * have edited it since: then it is not overwritten), backed up if asked, and renamed
 * over the original. Returns findings about the writes; a failed group does not stop the
 * others.
 */
export async function apply(p: Plan, opts: ApplyOptions = {}): Promise<Finding[]> {
  const out: Finding[] = [];
  const byFile = new Map(p.files.map((o) => [o.file, o]));
  const fail = (o: FileOutcome, message: string): void => {
    out.push({ transform: 'write', file: o.file.display, line: 0, column: 0, severity: 'error', message });
    o.status = 'failed';
  };
  for (const group of p.groups) {
    const todo = group.map((f) => byFile.get(f)!).filter((o) => o.status === 'changed');
    if (todo.length === 0) continue;
    // Let signal handlers run between groups.
    await new Promise((r) => setImmediate(r));
    if (opts.shouldStop?.()) {
      for (const o of todo) fail(o, 'interrupted before this file was written; it is unchanged');
      continue;
    }
    const temps: Array<{ o: FileOutcome; tmp: string }> = [];
    const discardAll = (): void => {
      for (const t of temps) discardTemp(t.tmp);
    };
    let writing: FileOutcome | undefined;
    try {
      for (const o of todo) {
        writing = o;
        temps.push({ o, tmp: writeTemp(o.file.path, Buffer.from(o.after, 'latin1'), p.sources.get(o.file)!) });
      }
    } catch (e) {
      discardAll();
      const why = `cannot write in ${dirname(writing!.file.display) || '.'}: ${errText(e)}`;
      for (const o of todo) fail(o, o === writing ? `${why}; file unchanged` : `not written because ${writing!.file.display} could not be (${errText(e)}); file unchanged`);
      continue;
    }
    // Checked last, right before the renames: the window for a concurrent edit is small.
    const problem = todo.map((o) => ({ o, why: changedOnDisk(o.file.path, p.sources.get(o.file)!) })).find((x) => x.why !== null);
    if (problem) {
      discardAll();
      for (const o of todo) fail(o, o === problem.o ? problem.why! : `not written because ${problem.o.file.display} could not be (${problem.why})`);
      continue;
    }
    const done: FileOutcome[] = [];
    const linkNotes: Finding[] = [];
    for (const { o, tmp } of temps) {
      try {
        if (opts.backup !== undefined) {
          const name = writeBackup(o.file.path, Buffer.from(o.before, 'latin1'), p.sources.get(o.file)!, opts.backup);
          if (name !== o.file.path + opts.backup) {
            out.push({ transform: 'write', file: o.file.display, line: 0, column: 0, severity: 'warning', message: `${basename(o.file.path)}${opts.backup} already exists and is kept; the original is in ${basename(name)}` });
          }
        }
        commitTemp(tmp, o.file.path);
        done.push(o);
        const links = p.sources.get(o.file)!.nlink;
        if (links > 1) linkNotes.push({ transform: 'write', file: o.file.display, line: 0, column: 0, severity: 'warning', message: `this file had ${links} names (hard links); only this name holds the converted text, the others keep the old one` });
      } catch (e) {
        discardAll();
        // Put back what this group already replaced, so the group stays all-old.
        const notRestored: FileOutcome[] = [];
        for (const d of done) {
          try {
            commitTemp(writeTemp(d.file.path, Buffer.from(d.before, 'latin1'), p.sources.get(d.file)!), d.file.path);
          } catch {
            notRestored.push(d);
          }
        }
        const busy = (e as NodeJS.ErrnoException).code === 'EBUSY' ? ' (a file mounted on its own, as in a container? convert a copy)' : '';
        const why = `cannot ${opts.backup !== undefined ? 'back up or ' : ''}replace ${o.file.display}: ${errText(e)}${busy}`;
        for (const x of todo) {
          if (notRestored.includes(x)) fail(x, `${why}; this file was already converted and could not be put back: the others of its group are unchanged`);
          else fail(x, x === o ? `${why}; file unchanged` : `not written because ${o.file.display} could not be (${errText(e)}); file unchanged`);
        }
        break;
      }
    }
    if (done.length === temps.length) out.push(...linkNotes);
  }
  return out;
}
