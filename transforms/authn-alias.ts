import { renameModuleRefs } from './lib/modules.js';
import type { Transform } from './types.js';

// The rename is shared with `modules` (lib/modules.ts RENAMED_IN_24): this transform runs
// first and does it for mod_authn_alias alone, so `--only authn-alias` works and `modules`
// then finds nothing left to rename.
export const authnAlias: Transform = {
  id: 'authn-alias',
  title: 'mod_authn_alias → mod_authn_core in LoadModule and <IfModule>',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_authn_core.html#authnprovideralias',
  run(ctx) {
    renameModuleRefs(ctx, ['authn_alias_module']);
  },
};
