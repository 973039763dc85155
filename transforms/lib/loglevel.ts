// Setting one module's log level where a removed directive used to control logging
// (RewriteLogLevel, DumpIOLogLevel, CharsetOptions/ExtFilterOptions DebugLevel=N).
//
// 2.4 LogLevel rules that decide where `module:level` may go (core.c set_loglevel()):
// a plain level resets every module level set before it in the same scope, so the module
// level must come after the scope's last plain level; and a module name only parses when
// the module is loaded, so it must not move out of an <IfModule> for that module unless
// the server loads it.

import { levelRank, logModuleId, parseLogLevelArg, setsPlainLevel } from '../../src/model/loglevel.js';
import { model, virtualHostOf } from '../../src/model/server.js';
import type { ConfigFile } from '../../src/model/tree.js';
import { skippedBy24 } from '../../src/model/version.js';
import { type Directive, directive, quoteArg, type Section } from '../../src/syntax/index.js';
import type { TransformContext } from '../types.js';
import { liveContexts, readingOrder, scopeOf } from './select.js';
import { replaceArgs } from './edit.js';

export type LevelOutcome =
  /** Added to the scope's last LogLevel line. */
  | { kind: 'merged'; into: Directive; file: ConfigFile }
  /** A new LogLevel line where the old directive was; `resetBy` lists later plain levels that undo it. */
  | { kind: 'added'; directive: Directive; resetBy: Array<{ directive: Directive; file: ConfigFile }> }
  /** LogLevel is not allowed in .htaccess: nothing was added. */
  | { kind: 'htaccess' };

interface ScopeLogLevel {
  directive: Directive;
  file: ConfigFile;
  scope: Section | null;
  conditions: Section[];
  /** Position in reading order. */
  at: number;
}

/**
 * Sets `module:level` for the scope of `at` (server, virtual host or directory section):
 * merged into the scope's last LogLevel when that is safe, else as a new LogLevel line that
 * replaces `at` (`replace`) or follows it. The caller reports the outcome.
 */
export function setModuleLogLevel(ctx: TransformContext, at: Directive, module: string, level: string, replace: boolean): LevelOutcome {
  if (ctx.file.role === 'htaccess') return { kind: 'htaccess' };
  const id = logModuleId(module);
  const spec = `${module}:${level}`;
  const contexts = liveContexts(ctx, at);

  // Every LogLevel of the scope(s) `at` is read in, and where `at` itself is read.
  const scopes = contexts.map((c) => scopeOf(c.sections));
  const found: ScopeLogLevel[] = [];
  const atPositions: Array<{ at: number; scope: Section | null }> = [];
  const mains = [...new Set(contexts.map((c) => c.main))];
  if (!withinSection(ctx, at, found, atPositions)) {
    for (const main of mains.length > 0 ? mains : [null]) {
      let i = 0;
      for (const v of readingOrder(ctx, main)) {
        i++;
        if (v.node === at) atPositions.push({ at: i, scope: scopeOf(v.sections).scope });
        if (v.node.kind !== 'directive' || !v.node.is('LogLevel') || skippedBy24(v.sections)) continue;
        const s = scopeOf(v.sections);
        if (scopes.some((x) => x.scope === s.scope)) found.push({ directive: v.node, file: v.file, scope: s.scope, conditions: s.conditions, at: i });
      }
    }
  }

  // One context: merge into the scope's last LogLevel when it is read under the same conditions.
  if (contexts.length === 1 && found.length > 0) {
    const last = found[found.length - 1];
    const main = contexts[0].main;
    const moduleLoaded = main !== null && model(ctx.tree).server(main).hasModule(id) === 'yes';
    const sameConditions = sameSet(
      scopes[0].conditions.filter((s) => !(moduleLoaded && s.is('IfModule') && logModuleId(s.values[0] ?? '') === id)),
      last.conditions,
    );
    if (sameConditions && ctx.enabled(last.directive)) {
      const kept = last.directive.args.filter((a) => parseLogLevelArg(a.value).module !== id);
      replaceArgs(last.directive, [...kept, quoteArg(spec)]);
      if (replace) at.remove();
      return { kind: 'merged', into: last.directive, file: last.file };
    }
  }

  const added = directive('LogLevel', spec);
  if (replace) {
    added.indent = at.indent;
    added.eol = at.eol;
    at.replaceWith(added);
  } else {
    at.after(added);
  }
  const resetBy = found
    .filter((f) => setsPlainLevel(f.directive.values) && atPositions.some((p) => p.at < f.at && f.scope === p.scope))
    .map((f) => ({ directive: f.directive, file: f.file }));
  return { kind: 'added', directive: added, resetBy };
}

/**
 * The walk above for the usual case, reading only the section `at` is set in: when `at` is
 * read in one place only, inside a section (a virtual host, a directory) that includes no
 * other file, every LogLevel of its scope is in that section, so the same lines come out in
 * the same order without walking the whole server (once per converted line, after each edit:
 * quadratic in a tree of thousands of virtual hosts). False when the case does not apply.
 */
function withinSection(ctx: TransformContext, at: Directive, found: ScopeLogLevel[], atPositions: Array<{ at: number; scope: Section | null }>): boolean {
  const all = model(ctx.tree).contextsOf(ctx.file, at);
  if (all.length !== 1 || all[0].main === null || skippedBy24(all[0].sections)) return false;
  const outer = all[0].sections;
  const scope = scopeOf(outer).scope;
  if (scope === null || scope.root() !== ctx.file.doc) return false;
  const upTo = outer.slice(0, outer.indexOf(scope) + 1);
  // Document order within the section, with the sections around each node.
  const entries: Array<{ node: Directive; sections: Section[] }> = [];
  const visit = (s: Section, around: Section[]): boolean => {
    for (const n of s.children) {
      if (n.kind === 'section') {
        // Deep nesting: leave it to the (iterative) walk.
        if (around.length > 100 || !visit(n, [...around, n])) return false;
      } else if (n.kind === 'directive') {
        if (n.is('Include') || n.is('IncludeOptional')) return false;
        if (n === at || n.is('LogLevel')) entries.push({ node: n, sections: around });
      }
    }
    return true;
  };
  if (!visit(scope, upTo)) return false;
  let i = 0;
  for (const e of entries) {
    i++;
    if (e.node === at) atPositions.push({ at: i, scope: scopeOf(e.sections).scope });
    if (!e.node.is('LogLevel') || skippedBy24(e.sections)) continue;
    const s = scopeOf(e.sections);
    if (s.scope === scope) found.push({ directive: e.node, file: ctx.file, scope: s.scope, conditions: s.conditions, at: i });
  }
  return true;
}

function sameSet<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/**
 * The level 2.2 logged at for the server (main or virtual host) that reads `node`: the
 * scope's last LogLevel, else the main server's, else warn (2.2 had no per-directory
 * LogLevel). Undefined when it cannot be known (several contexts, no main config, a variable).
 */
export function serverLevel22(ctx: TransformContext, node: Directive): string | undefined {
  const contexts = liveContexts(ctx, node);
  if (contexts.length !== 1 || !contexts[0].main) return undefined;
  const vhost = virtualHostOf(contexts[0]);
  let mainLevel = 'warn';
  let hostLevel: string | undefined;
  for (const v of readingOrder(ctx, contexts[0].main)) {
    const n = v.node;
    if (n.kind !== 'directive' || !n.is('LogLevel')) continue;
    const plain = n.values.filter((a) => parseLogLevelArg(a).module === null);
    if (plain.length === 0) continue;
    const { scope } = scopeOf(v.sections);
    if (scope === null) mainLevel = plain[plain.length - 1];
    else if (scope === vhost) hostLevel = plain[plain.length - 1];
  }
  const level = hostLevel ?? mainLevel;
  return levelRank(level) === undefined ? undefined : level.toLowerCase();
}

/** A LogLevel line named in a finding: "the LogLevel at line N" (or file:N), or a line added earlier in this run. */
export function logLevelLine(ctx: TransformContext, file: ConfigFile, d: Directive): string {
  if (d.line === 0) return 'the LogLevel line added before it';
  return `the LogLevel at ${file === ctx.file ? `line ${d.line}` : `${file.display}:${d.line}`}`;
}
