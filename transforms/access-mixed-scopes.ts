import { accessFor } from '../src/authz/analyze.js';
import type { Transform } from './types.js';

// 2.4 runs mod_access_compat (Order/Allow/Deny) and mod_authz_core (Require) one after the
// other: both must allow a request. The analysis reports where kept 2.2 lines meet Require.
export const accessMixedScopes: Transform = {
  id: 'access-mixed-scopes',
  title: 'Order/Allow/Deny kept next to Require for the same requests: in 2.4 both must pass',
  kind: 'advice',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#access',
  run(ctx) {
    for (const n of accessFor(ctx.tree, ctx.file).notes) {
      if (n.transform === 'access-mixed-scopes' && n.file === ctx.file) ctx.report({ node: n.node, line: n.line, severity: n.severity, message: n.message });
    }
  },
};
