import { accessAnalysis } from '../src/authz/analyze.js';
import { AUTHORITATIVE_DIRECTIVES } from '../src/authz/state.js';
import { ancestors, type Directive, directives, type Section } from '../src/syntax/index.js';
import type { Transform } from './types.js';

/** Gone in 2.4 (httpd 2.4 refuses them: "Invalid command"); AuthLDAPAuthzEnabled too. */
const GONE = new Set([...AUTHORITATIVE_DIRECTIVES, 'authldapauthzenabled']);

export const authoritativeDirectives: Transform = {
  id: 'authoritative-directives',
  title: 'Authz*Authoritative, AuthDefaultAuthoritative and AuthLDAPAuthzEnabled removed (2.4 has none of them)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#access',
  run(ctx) {
    const a = accessAnalysis(ctx.tree);
    for (const d of [...directives(ctx.doc)]) {
      if (!GONE.has(d.key) || !ctx.enabled(d)) continue;
      const off = (d.values[0] ?? '').toLowerCase() === 'off';
      const what = effect(d, off, a); // while the line still knows its section
      d.remove();
      ctx.report({ node: d, line: d.line, severity: 'change', message: `${d.name} ${d.values.join(' ')} removed: 2.4 has no such directive (it refuses to start on it); ${what}` });
    }
  },
};

/** What the line did, and where that went. */
function effect(d: Directive, off: boolean, a: ReturnType<typeof accessAnalysis>): string {
  if (!off) return 'On was the default, so nothing changes';
  if (d.is('AuthLDAPAuthzEnabled')) return 'with it Off, 2.2 ignored ldap-* Require lines; check the Require lines of this section';
  if (d.is('AuthDefaultAuthoritative')) return 'it only mattered when no authentication provider handled a user (2.2 then answered 500); 2.4 answers 401 there';
  if (d.is('AuthzDefaultAuthoritative')) return 'it only mattered for users no authz module accepted (2.2 then answered 500 instead of 401); 2.4 answers 401';
  const scope = ancestors(d).find((s: Section) => a.planOf.has(s));
  const plan = scope ? a.planOf.get(scope) : undefined;
  if (plan?.action === 'convert') return 'with it Off, 2.2 let the next authz module decide when this one refused; the converted Require rules grant when any of those modules would';
  if (plan?.action === 'manual') return 'with it Off, 2.2 let the next authz module decide when this one refused; this section keeps its 2.2 Require lines, which 2.4 ORs (decide by hand, see the finding on the section)';
  return 'with it Off, 2.2 let the next authz module decide when this one refused; 2.4 ORs Require lines, which has the same effect here';
}
