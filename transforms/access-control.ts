import { runFacet } from './lib/access.js';
import type { Transform } from './types.js';

export const accessControl: Transform = {
  id: 'access-control',
  title: 'Order/Allow/Deny/Satisfy (and the Require lines they combine with) → Require, checked equal to 2.2 for every request',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#access',
  run(ctx) {
    runFacet(ctx, 'access-control');
  },
};
