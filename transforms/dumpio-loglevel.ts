import { levelRank, parseLogLevelArg, shownBy22 } from '../src/model/loglevel.js';
import { type ConfigFile, treeCache } from '../src/model/tree.js';
import type { Directive, Section } from '../src/syntax/index.js';
import type { Transform, TransformContext } from './types.js';
import { logLevelLine, serverLevel22, setModuleLogLevel } from './lib/loglevel.js';
import { candidates, liveContexts, readingOrder, scopeOf } from './lib/select.js';

// 2.2 mod_dumpio wrote the dump at DumpIOLogLevel (default debug), so it appeared when the
// server's LogLevel reached that level. 2.4 removed the directive and always dumps at
// trace7 (httpd@2.4.62:modules/debugging/mod_dumpio.c): `LogLevel dumpio:trace7`.
// DumpIO* are per server (RSRC_CONF) with no merging: a virtual host inherits nothing.

interface DumpScope {
  levels: Directive[];
  switchedOn: Directive[];
  /** A LogLevel of this scope already sets dumpio's level (a converted or 2.4 config). */
  hasDumpioLevel: boolean;
}

const cache = treeCache<Map<ConfigFile, Map<Section | null, DumpScope>>>();

function scopesOf(ctx: TransformContext, main: ConfigFile): Map<Section | null, DumpScope> {
  let perTree = cache.get(ctx.tree);
  if (!perTree) cache.set(ctx.tree, (perTree = new Map()));
  const known = perTree.get(main);
  if (known) return known;
  const out = new Map<Section | null, DumpScope>();
  const get = (s: Section | null): DumpScope => {
    let x = out.get(s);
    if (!x) out.set(s, (x = { levels: [], switchedOn: [], hasDumpioLevel: false }));
    return x;
  };
  for (const v of readingOrder(ctx, main)) {
    const n = v.node;
    if (n.kind !== 'directive') continue;
    const { scope } = scopeOf(v.sections);
    if (scope !== null && !scope.is('VirtualHost')) continue;
    if (n.is('DumpIOLogLevel')) get(scope).levels.push(n);
    else if ((n.is('DumpIOInput') || n.is('DumpIOOutput')) && /^on$/i.test(n.values[0] ?? '')) get(scope).switchedOn.push(n);
    else if (n.is('LogLevel') && n.values.some((a) => parseLogLevelArg(a).module === 'dumpio_module')) get(scope).hasDumpioLevel = true;
  }
  perTree.set(main, out);
  return out;
}

function scopeFor(ctx: TransformContext, d: Directive): DumpScope | undefined {
  const contexts = liveContexts(ctx, d);
  if (contexts.length !== 1 || !contexts[0].main) return undefined;
  return scopesOf(ctx, contexts[0].main).get(scopeOf(contexts[0].sections).scope);
}

export const dumpioLoglevel: Transform = {
  id: 'dumpio-loglevel',
  title: 'DumpIOLogLevel removed; LogLevel dumpio:trace7 where 2.2 wrote the dump to the log',
  kind: 'rewrite',
  reach: 'tree', // merges into the scope's last LogLevel, which may be in another file
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_dumpio.html',
  run(ctx) {
    for (const main of ctx.tree.mains) scopesOf(ctx, main);
    for (const d of candidates(ctx, ['dumpiologlevel', 'dumpioinput', 'dumpiooutput'])) {
      const scope = scopeFor(ctx, d);
      if (d.is('DumpIOLogLevel')) convertLevel(ctx, d, scope);
      else keepDebugDump(ctx, d, scope);
    }
  },
};

function convertLevel(ctx: TransformContext, d: Directive, scope: DumpScope | undefined): void {
  const level = d.values[0] ?? '';
  const rank = levelRank(level);
  if (d.values.length !== 1 || rank === undefined || rank > levelRank('debug')!) {
    ctx.report({ node: d, severity: 'manual', message: `DumpIOLogLevel ${d.values.join(' ')} not converted: 2.2 took one level from emerg to debug; 2.4 removed the directive (use LogLevel dumpio:trace7)` });
    return;
  }
  const was = `DumpIOLogLevel ${level}`;
  if (scope && scope.levels[scope.levels.length - 1] !== d) {
    d.remove();
    ctx.report({ node: d, severity: 'change', message: `${was} removed: a later DumpIOLogLevel overrides it for this server` });
    return;
  }
  if (scope && scope.switchedOn.length === 0) {
    d.remove();
    ctx.report({ node: d, severity: 'change', message: `${was} removed: 2.4 has no such directive, and without DumpIOInput or DumpIOOutput On for this server 2.2 dumped nothing` });
    return;
  }
  const logLevel = serverLevel22(ctx, d);
  if (logLevel !== undefined && !shownBy22(level, logLevel)) {
    d.remove();
    ctx.report({ node: d, severity: 'change', message: `${was} removed: 2.4 has no such directive, and 2.2 wrote the dump at ${level}, below this server's LogLevel ${logLevel}, so nothing reached the log` });
    return;
  }
  const o = setModuleLogLevel(ctx, d, 'dumpio', 'trace7', true);
  reportOutcome(ctx, d, `${was} → dumpio:trace7: 2.4 always dumps at trace7, so LogLevel must reach trace7 for mod_dumpio`, o);
}

// DumpIOInput/Output On with the default DumpIOLogLevel (debug) under LogLevel debug: 2.2
// logged the dump, and 2.4 needs dumpio:trace7 to do the same.
function keepDebugDump(ctx: TransformContext, d: Directive, scope: DumpScope | undefined): void {
  if (!scope || scope.levels.length > 0 || scope.hasDumpioLevel || scope.switchedOn[0] !== d) return;
  if (serverLevel22(ctx, d) !== 'debug') return;
  const o = setModuleLogLevel(ctx, d, 'dumpio', 'trace7', false);
  reportOutcome(ctx, d, `LogLevel dumpio:trace7 added: 2.2 wrote this dump at debug (the default DumpIOLogLevel), which LogLevel debug showed; 2.4 dumps at trace7`, o);
}

function reportOutcome(ctx: TransformContext, d: Directive, message: string, o: ReturnType<typeof setModuleLogLevel>): void {
  const into = o.kind === 'merged' ? ` (added to ${logLevelLine(ctx, o.file, o.into)})` : '';
  ctx.report({ node: d, severity: 'change', message: message + into });
  if (o.kind === 'added') {
    for (const r of o.resetBy) {
      ctx.report({ node: d, severity: 'manual', message: `${logLevelLine(ctx, r.file, r.directive)} is read after this line and its plain level resets module levels: add dumpio:trace7 to it` });
    }
  }
}
