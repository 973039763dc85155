import { ifModuleConditions, moduleId } from '../src/model/modules.js';
import { type Directive, directives, wrap } from '../src/syntax/index.js';
import { MAYBE_BUILTIN_24 } from './lib/conditions.js';
import { applyPlan, planFor, REMOVED_IN_24, renameModuleRefs, serversOf, STOCK_24 } from './lib/modules.js';
import type { Transform, TransformContext } from './types.js';

const ID = 'modules';

/** Directives of mod_mem_cache: unknown to 2.4 ("Invalid command"). */
const MEM_CACHE = /^mcache/i;

export const modules: Transform = {
  id: ID,
  title: 'LoadModule lines: drop 2.2-only modules, rename, add the modules 2.4 needs (guarded)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#modules',
  run(ctx) {
    fileEdits(ctx);
    const servers = serversOf(ctx);
    let inServer = false;
    for (const main of servers) {
      const plan = planFor(ctx, main, ID);
      if (!plan.known) continue;
      inServer = true;
      applyPlan(ctx, plan);
      for (const n of plan.missing) {
        if (n.file !== ctx.file) continue;
        ctx.report({ node: n.node, severity: 'manual', message: `${n.what} needs ${n.module}, which this server does not load: 2.4 refuses to start ("Unknown Authz provider"), where 2.2 failed these requests; load it if the rule should work, or remove the rule` });
      }
    }
    if (!inServer) fragmentReport(ctx);
  },
};

/** Edits that concern this file's own LoadModule lines and <IfModule> tests. */
function fileEdits(ctx: TransformContext): void {
  renameModuleRefs(ctx);
  for (const d of [...directives(ctx.doc)]) {
    if (!ctx.enabled(d)) continue;
    if (d.is('LoadModule') && d.values.length >= 1) {
      const id = d.values[0].toLowerCase();
      if (REMOVED_IN_24[id]) {
        d.remove();
        if (id === 'mem_cache_module') {
          ctx.report({ node: d, line: d.line, severity: 'manual', message: `LoadModule ${id} removed: ${REMOVED_IN_24[id]}; cache with mod_cache_disk (CacheEnable disk, CacheRoot) or mod_cache_socache (CacheEnable socache, CacheSocache) instead` });
        } else {
          ctx.report({ node: d, line: d.line, severity: 'change', message: `LoadModule ${id} removed: ${REMOVED_IN_24[id]}` });
        }
      } else if (MAYBE_BUILTIN_24.has(id) && !guarded(d, id)) {
        wrap([d], 'IfModule', ['!' + id]);
        ctx.report({ node: d, severity: 'change', message: `LoadModule ${id} guarded with <IfModule !${id}>: some 2.4 builds (Debian's) compile it in, and loading it again stops start-up` });
      }
    } else if (MEM_CACHE.test(d.name) && !insideMemCacheTest(d)) {
      d.remove();
      ctx.report({ node: d, line: d.line, severity: 'change', message: `${d.name} removed: mod_mem_cache is gone in 2.4 and its directives stop start-up ("Invalid command")` });
    }
  }
}

function guarded(d: Directive, id: string): boolean {
  return ifModuleConditions(d).some((c) => c.negated && c.id === id);
}

function insideMemCacheTest(d: Directive): boolean {
  return ifModuleConditions(d).some((c) => !c.negated && c.id === moduleId('mod_mem_cache.c'));
}

/**
 * A file no server with LoadModule lines reads (a fragment, a lone .htaccess): nothing can
 * be added, so say what the server must load — except what every stock 2.4 config loads.
 */
function fragmentReport(ctx: TransformContext): void {
  const plan = planFor(ctx, ctx.file, ID + ':fragment');
  const told = new Set<string>();
  for (const n of plan.needs) {
    if (n.file !== ctx.file || !n.add || STOCK_24.has(n.module) || told.has(n.module)) continue;
    told.add(n.module);
    ctx.report({ node: n.node, severity: 'warning', message: `${n.what} needs ${n.module} in 2.4; this file has no LoadModule lines, so make sure the server loads it` });
  }
}
