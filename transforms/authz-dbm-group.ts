import { runFacet } from './lib/access.js';
import type { Transform } from './types.js';

// In 2.2 mod_authz_dbm answered "Require group" from AuthDBMGroupFile; in 2.4 "group" is
// mod_authz_groupfile's (AuthGroupFile) and the DBM groups are "dbm-group".
export const authzDbmGroup: Transform = {
  id: 'authz-dbm-group',
  title: 'Require group → Require dbm-group (and file-group → dbm-file-group) where the groups come from AuthDBMGroupFile',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_authz_dbm.html#reqgroup',
  run(ctx) {
    runFacet(ctx, 'authz-dbm-group');
  },
};
