import { runFacet } from './lib/access.js';
import type { Transform } from './types.js';

// 2.2 let the first authz module in hook (LoadModule) order that owns an applicable Require
// line decide alone; 2.4 ORs the lines. The analysis keeps only the lines 2.2 honoured.
export const requireMultiProvider: Transform = {
  id: 'require-multi-provider',
  title: 'Require lists of several kinds (user + group, valid-user + group): keep only the lines 2.2 honoured, by module order',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#access',
  run(ctx) {
    runFacet(ctx, 'require-multi-provider');
  },
};
