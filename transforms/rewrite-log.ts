import { setsPlainLevel } from '../src/model/loglevel.js';
import { type ConfigFile, treeCache } from '../src/model/tree.js';
import type { Directive, Section } from '../src/syntax/index.js';
import type { Transform, TransformContext } from './types.js';
import { type LevelOutcome, logLevelLine, setModuleLogLevel } from './lib/loglevel.js';
import { candidates, liveContexts, readingOrder, scopeOf } from './lib/select.js';

// RewriteLog and RewriteLogLevel are gone in 2.4: mod_rewrite logs at APLOG_DEBUG + level
// (do_rewritelog()), i.e. LogLevel rewrite:traceN, into the ErrorLog.
//
// What 2.2 did (httpd@2.2.34:modules/mappers/mod_rewrite.c): both are per server (main or
// virtual host); a trace is written only when the server has a RewriteLog file AND a level
// above 0; a virtual host inherits neither from the main server unless it says
// RewriteOptions Inherit (config_server_merge()). 2.4's module log levels, in contrast, are
// inherited by every virtual host that sets no plain LogLevel of its own.

const MAX_TRACE = 8;

/** C atoi(). */
function atoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? parseInt(m[1], 10) : 0;
}

interface ServerScope {
  levels: Directive[];
  logs: Directive[];
  inherit: boolean;
  plainLogLevel: boolean;
  /** The <VirtualHost>, or null for the main server, and the file it is in. */
  section: Section | null;
  file: ConfigFile;
}

interface Facts {
  /** The file each directive and virtual host was read from. */
  fileOf: Map<Directive | Section, ConfigFile>;
  main: ServerScope;
  vhosts: ServerScope[];
  byScope: Map<Section | null, ServerScope>;
}

const facts = treeCache<Map<ConfigFile, Facts>>();

/** The rewrite-log settings of every server scope, read before anything is converted. */
function factsOf(ctx: TransformContext, main: ConfigFile): Facts {
  let perTree = facts.get(ctx.tree);
  if (!perTree) facts.set(ctx.tree, (perTree = new Map()));
  const known = perTree.get(main);
  if (known) return known;
  const scope = (section: Section | null, file: ConfigFile): ServerScope => ({ levels: [], logs: [], inherit: false, plainLogLevel: false, section, file });
  const f: Facts = { fileOf: new Map(), main: scope(null, main), vhosts: [], byScope: new Map() };
  f.byScope.set(null, f.main);
  for (const v of readingOrder(ctx, main)) {
    const n = v.node;
    if (n.kind === 'section' && n.is('VirtualHost')) {
      const s = scope(n, v.file);
      f.vhosts.push(s);
      f.byScope.set(n, s);
      continue;
    }
    if (n.kind !== 'directive') continue;
    f.fileOf.set(n, v.file);
    const { scope: at } = scopeOf(v.sections);
    const s = f.byScope.get(at);
    if (!s) continue; // inside <Directory> and the like: not a server setting
    if (n.is('RewriteLogLevel')) s.levels.push(n);
    else if (n.is('RewriteLog')) s.logs.push(n);
    else if (n.is('RewriteOptions') && n.values.some((w) => w.toLowerCase() === 'inherit')) s.inherit = true;
    else if (n.is('LogLevel') && setsPlainLevel(n.values)) s.plainLogLevel = true;
  }
  perTree.set(main, f);
  return f;
}

const last = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];
const levelOf = (s: ServerScope): number => (s.levels.length > 0 ? atoi(last(s.levels)!.values[0] ?? '') : 0);
const hasLog = (s: ServerScope): boolean => s.logs.length > 0 && (last(s.logs)!.values[0] ?? '') !== '';

/** The level 2.2 traced at in a scope (0: no trace written). */
function traced22(f: Facts, s: ServerScope): number {
  if (s === f.main) return hasLog(s) ? Math.max(levelOf(s), 0) : 0;
  const level = s.inherit && levelOf(s) === 0 ? levelOf(f.main) : levelOf(s);
  const log = hasLog(s) || (s.inherit && hasLog(f.main));
  return log ? Math.max(level, 0) : 0;
}

function where(ctx: TransformContext, file: ConfigFile | undefined, node: { line: number }): string {
  return !file || file === ctx.file ? `line ${node.line}` : `${file.display}:${node.line}`;
}

export const rewriteLog: Transform = {
  id: 'rewrite-log',
  title: 'RewriteLogLevel N → LogLevel rewrite:traceN; RewriteLog removed (the trace goes to the ErrorLog)',
  kind: 'rewrite',
  reach: 'tree', // merges into the scope's last LogLevel, which may be in another file
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_rewrite.html#logging',
  run(ctx) {
    // Read every server first: the 2.2 meaning of each line depends on the others.
    for (const main of ctx.tree.mains) factsOf(ctx, main);
    for (const d of candidates(ctx, ['rewriteloglevel', 'rewritelog'])) {
      const contexts = liveContexts(ctx, d);
      const main = contexts.length === 1 ? contexts[0].main : null;
      const f = main ? factsOf(ctx, main) : null;
      const s = f?.byScope.get(scopeOf(contexts[0]?.sections ?? []).scope) ?? null;
      if (d.is('RewriteLog')) {
        convertLog(ctx, d, f, s);
      } else {
        const silent = contexts.length > 1 ? silentPlaces(ctx, contexts) : [];
        if (convertLevel(ctx, d, f, s) && silent.length > 0) {
          ctx.report({ node: d, severity: 'manual', message: `this file is read in ${contexts.length} places and 2.2 traced only where a RewriteLog applied; in ${silent.join(', ')} it wrote nothing, but the new LogLevel applies there too: move it where it belongs` });
        }
      }
    }
  },
};

/** For a file read in several places: the virtual hosts (or main server) where no RewriteLog applied in 2.2. */
function silentPlaces(ctx: TransformContext, contexts: ReturnType<typeof liveContexts>): string[] {
  const out: string[] = [];
  for (const c of contexts) {
    if (!c.main) continue;
    const f = factsOf(ctx, c.main);
    const s = f.byScope.get(scopeOf(c.sections).scope);
    if (!s) continue;
    const logs = hasLog(s) || (s !== f.main && s.inherit && hasLog(f.main));
    if (!logs) out.push(s.section ? `the <VirtualHost> at ${where(ctx, s.file, s.section)}` : 'the main server');
  }
  return out;
}

function convertLog(ctx: TransformContext, d: Directive, f: Facts | null, s: ServerScope | null): void {
  d.remove();
  const file = d.values[0] ?? '';
  const used = !f || !s || traced22(f, s) > 0 || (s === f.main && f.vhosts.some((v) => v.inherit && !hasLog(v) && traced22(f, v) > 0));
  if (!used) {
    ctx.report({ node: d, severity: 'change', message: `RewriteLog ${file} removed: 2.4 has no such directive, and with no RewriteLogLevel above 0 for this server 2.2 wrote nothing to it` });
    return;
  }
  ctx.report({ node: d, severity: 'change', message: `RewriteLog ${file} removed: 2.4 has no separate rewrite log` });
  ctx.report({ node: d, severity: 'warning', message: `the rewrite trace now goes to the ErrorLog, each line tagged [rewrite:traceN]; a separate file cannot be reproduced (filter the error log for "rewrite:" instead)` });
}

/** Converts or removes one RewriteLogLevel; true when a rewrite level was set for 2.4. */
function convertLevel(ctx: TransformContext, d: Directive, f: Facts | null, s: ServerScope | null): boolean {
  const n = atoi(d.values[0] ?? '');
  const was = `RewriteLogLevel ${d.values.join(' ')}`;
  if (n <= 0) {
    d.remove();
    ctx.report({ node: d, severity: 'change', message: `${was} removed: level 0 writes no trace, which is 2.4's default` });
    return false;
  }
  if (f && s) {
    if (last(s.levels) !== d) {
      d.remove();
      ctx.report({ node: d, severity: 'change', message: `${was} removed: the RewriteLogLevel at ${where(ctx, f.fileOf.get(last(s.levels)!), last(s.levels)!)} overrides it for this server` });
      return false;
    }
    const feedsVhosts = s === f.main && f.vhosts.some((v) => v.inherit && levelOf(v) === 0 && traced22(f, v) > 0);
    if (traced22(f, s) === 0 && !feedsVhosts) {
      d.remove();
      ctx.report({ node: d, severity: 'change', message: `${was} removed: it had no effect in 2.2, where no RewriteLog applies to this server (add LogLevel rewrite:trace${Math.min(n, MAX_TRACE)} to see the trace in the error log)` });
      return false;
    }
  }
  const level = `trace${Math.min(n, MAX_TRACE)}`;
  const outcome = setModuleLogLevel(ctx, d, 'rewrite', level, true);
  report(ctx, d, was, level, n, outcome);
  if (f && s === f.main) reportVirtualHosts(ctx, d, f, level);
  return true;
}

function report(ctx: TransformContext, d: Directive, was: string, level: string, n: number, o: LevelOutcome): void {
  const capped = n > MAX_TRACE ? ` (trace${MAX_TRACE} is the highest 2.4 level and shows every rewrite trace)` : '';
  if (o.kind === 'merged') {
    ctx.report({ node: d, severity: 'change', message: `${was} → rewrite:${level} added to ${logLevelLine(ctx, o.file, o.into)}${capped}: 2.4 sets mod_rewrite's trace with LogLevel` });
  } else if (o.kind === 'added') {
    ctx.report({ node: d, severity: 'change', message: `${was} → LogLevel rewrite:${level}${capped}: 2.4 sets mod_rewrite's trace with LogLevel` });
    for (const r of o.resetBy) {
      ctx.report({ node: d, severity: 'manual', message: `${logLevelLine(ctx, r.file, r.directive)} is read after this line and its plain level resets module levels: add rewrite:${level} to it` });
    }
  }
}

// 2.4 virtual hosts inherit the main server's module levels unless they set a plain LogLevel;
// 2.2 virtual hosts traced only with a RewriteLog of their own or RewriteOptions Inherit.
function reportVirtualHosts(ctx: TransformContext, d: Directive, f: Facts, level: string): void {
  const gain = f.vhosts.filter((v) => !v.plainLogLevel && traced22(f, v) === 0);
  if (gain.length > 0) {
    const first = gain[0];
    ctx.report({ node: d, severity: 'warning', message: `in 2.4 the ${gain.length} virtual host(s) without a LogLevel of their own (first at ${where(ctx, first.file, first.section!)}) inherit rewrite:${level} and write a trace; in 2.2 they wrote none (no RewriteLog of their own and no RewriteOptions Inherit)` });
  }
  for (const v of f.vhosts.filter((x) => x.plainLogLevel && levelOf(x) <= 0 && traced22(f, x) > 0)) {
    ctx.report({ node: d, severity: 'manual', message: `the virtual host at ${where(ctx, v.file, v.section!)} traced at this level in 2.2 (RewriteOptions Inherit), but its own LogLevel resets module levels in 2.4: add rewrite:${level} to it` });
  }
}
