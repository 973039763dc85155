import { ancestors, directives, quoteArg } from '../src/syntax/index.js';
import { readBy24 } from './lib/conditions.js';
import { settingsFor, vhostOf } from './lib/scope.js';
import type { Transform } from './types.js';

// 2.4's mod_cache: `mem` is gone (mod_mem_cache was removed; mod_cache_disk or
// mod_cache_socache replace it), and a URL of `/` no longer matches forward-proxied
// requests: their keys start with the scheme (upgrading.xml).
export const cacheEnable: Transform = {
  id: 'cache-enable',
  title: 'CacheEnable mem → disk; forward-proxied content needs the scheme in CacheEnable',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_cache.html#cacheenable',
  run(ctx) {
    for (const d of directives(ctx.doc)) {
      if (!d.is('CacheEnable') || d.args.length === 0) continue;
      // Inside <IfModule mod_mem_cache.c> (Debian's mem_cache.conf): 2.4 never reads it.
      if (!readBy24(ancestors(d).reverse(), { loaded: new Set(), known: false })) continue;
      const vh = vhostOf(ctx, d);
      if (d.values[0].toLowerCase() === 'mem' && ctx.enabled(d)) {
        d.setArgs([quoteArg('disk', d.args[0].quote), ...d.args.slice(1)]);
        const root = settingsFor(ctx, vh, ['CacheRoot']).length > 0;
        ctx.report({ node: d, severity: root ? 'change' : 'manual', message: `CacheEnable mem is CacheEnable disk: mod_mem_cache is gone in 2.4 and mod_cache_disk replaces it${root ? '' : '; it needs a CacheRoot folder, which this configuration does not set: add one (or use CacheEnable socache with CacheSocache)'}` });
      }
      const url = d.values[1] ?? '';
      if (url.startsWith('/') && settingsFor(ctx, vh, ['ProxyRequests']).some((p) => (p.values[0] ?? '').toLowerCase() === 'on')) {
        ctx.report({ node: d, severity: 'warning', message: `this server is a forward proxy: in 2.4 "${url}" no longer matches proxied requests, whose URLs start with the scheme; add CacheEnable ${d.values[0]} http:// (and https://, ftp://) to keep caching them` });
      }
    }
  },
};
