import { directives, quoteArg } from '../src/syntax/index.js';
import type { Transform } from './types.js';

// 2.2 (ssl_engine_config.c, ssl_cmd_SSLSessionCache) read `shm:`, `shmht:` and `shmcb:`
// case-insensitively, all as the shmcb cache; 2.4 looks the part before the colon up as a
// socache provider name, case-sensitively: `shm`, `shmht` and `SHMCB` are unknown there
// ("'shm' session cache not supported").
const RENAME: Record<string, string> = { shm: 'shmcb', shmht: 'shmcb' };
const PROVIDERS = new Set(['shmcb', 'dbm', 'dc', 'memcache']);

export const sslSessionCache: Transform = {
  id: 'ssl-session-cache',
  title: 'SSLSessionCache shm:/shmht: → shmcb: (and provider names in lower case)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_ssl.html#sslsessioncache',
  run(ctx) {
    for (const d of directives(ctx.doc)) {
      if (!d.is('SSLSessionCache') || d.args.length !== 1 || !ctx.enabled(d)) continue;
      const a = d.args[0];
      const m = /^([A-Za-z]+):([\s\S]*)$/.exec(a.value);
      if (!m) continue;
      const lower = m[1].toLowerCase();
      const to = RENAME[lower] ?? (PROVIDERS.has(lower) ? lower : null);
      if (to === null || to === m[1]) continue;
      d.setArgs([quoteArg(`${to}:${m[2]}`, a.quote)]);
      ctx.report({
        node: d,
        severity: 'change',
        message: RENAME[lower]
          ? `SSLSessionCache ${m[1]}: is the shmcb cache under its 2.4 name (path and size kept; mod_socache_shmcb must be loaded)`
          : `SSLSessionCache ${m[1]}: written ${to}: (2.4 matches cache provider names case-sensitively)`,
      });
    }
  },
};
