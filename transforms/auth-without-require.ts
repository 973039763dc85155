import { runFacet } from './lib/access.js';
import type { Transform } from './types.js';

// 2.2 served a request whose section set AuthType with no Require in effect; 2.4 answers 500
// (AH01627). The analysis finds the sections where no Require reaches the request in 2.4.
export const authWithoutRequire: Transform = {
  id: 'auth-without-require',
  title: 'AuthType with no Require in effect: add the Require that gives what 2.2 gave (2.4 answers 500)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_authz_core.html#require',
  run(ctx) {
    runFacet(ctx, 'auth-without-require');
  },
};
