import { MPM_IDS, insideIfModule } from '../src/model/modules.js';
import { directives } from '../src/syntax/index.js';
import type { Transform } from './types.js';

const RENAMES: Record<string, string> = {
  maxclients: 'MaxRequestWorkers',
  maxrequestsperchild: 'MaxConnectionsPerChild',
};

export const mpmRenames: Transform = {
  id: 'mpm-renames',
  title: 'MaxClients → MaxRequestWorkers, MaxRequestsPerChild → MaxConnectionsPerChild',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#run-time',
  run(ctx) {
    for (const d of directives(ctx.doc)) {
      const to = RENAMES[d.key];
      if (!to || !ctx.enabled(d)) continue;
      const from = d.name;
      d.rename(to);
      ctx.report({ node: d, severity: 'change', message: `${from} is named ${to} in 2.4 (same value; the old name is deprecated)` });
      // 2.2 worker and event count MaxClients in threads; 2.4's event MPM serves idle and
      // keep-alive connections without a worker, so it takes more clients than this limit.
      if (to === 'MaxRequestWorkers' && insideIfModule(d, [MPM_IDS[2]])) {
        ctx.report({ node: d, severity: 'warning', message: 'under the event MPM MaxRequestWorkers limits busy worker threads, not connections: 2.4 keeps idle keep-alive connections without a worker, so more clients can be connected than this number (see AsyncRequestWorkerFactor)' });
      }
    }
  },
};
