// For random 2.2 policies (Order, Allow/Deny entries, Satisfy, Require lists, <Limit> masks,
// nested directories), the converted text, parsed back, answers every request class exactly
// as 2.2 did (2.2 and 2.4 evaluators), or the section was refused with a manual finding.
import fc from 'fast-check';
import { type ChainState, eval22, eval24, hookOrder22 } from '../../src/authz/evaluate.js';
import { requestClasses } from '../../src/authz/requests.js';
import { readSection } from '../../src/authz/state.js';
import { methodsOf } from '../../src/authz/translate.js';
import { runOnText } from '../../src/engine/memory.js';
import type { ConditionEnv } from '../../src/model/conditions.js';
import { parse, type Section } from '../../src/syntax/index.js';
import { transforms } from '../../transforms/index.js';

const RUNS = Number(process.env.FC_RUNS_AUTHZ ?? 400);
// The access-control family: each applies the rewrites of one reason from the shared analysis.
const accessControl = transforms.filter((t) => ['access-control', 'require-multi-provider', 'authz-dbm-group', 'auth-without-require'].includes(t.id));
const env = (version: '2.2' | '2.4'): ConditionEnv => ({ version, hasModule: () => 'yes', defined: () => 'unknown' });

const entry = fc.constantFrom('all', '10.0.0.0/8', '10.1.0.0/16', '10.1.2.3', '192.0.2.0/24', 'env=e1', 'env=!e2', 'host.example');
const mask = fc.constantFrom(null, 'Limit GET', 'Limit POST PUT', 'LimitExcept GET');
const line = fc.oneof(
  fc.tuple(fc.constantFrom('Order deny,allow', 'Order allow,deny', 'Order mutual-failure'), mask),
  fc.tuple(fc.array(entry, { minLength: 1, maxLength: 3 }).map((es) => 'Allow from ' + es.join(' ')), mask),
  fc.tuple(fc.array(entry, { minLength: 1, maxLength: 3 }).map((es) => 'Deny from ' + es.join(' ')), mask),
  fc.tuple(fc.constantFrom('Satisfy Any', 'Satisfy All'), mask),
  fc.tuple(fc.constantFrom('Require valid-user', 'Require user alice', 'Require user bob carol', 'Require group g1'), mask),
);
const sectionBody = fc.array(line, { maxLength: 5 }).map((ls) =>
  ls.map(([l, m]) => (m ? `    <${m}>\n        ${l}\n    </${m.split(' ')[0]}>\n` : `    ${l}\n`)).join(''),
);
const config = fc
  .tuple(fc.constantFrom('stock', 'rhel'), fc.array(sectionBody, { minLength: 1, maxLength: 3 }))
  .map(([order, bodies]) => {
    const mods = order === 'stock' ? ['authz_groupfile', 'authz_user'] : ['authz_user', 'authz_groupfile'];
    let text = mods.map((m) => `LoadModule ${m}_module modules/mod_${m}.so\n`).join('') + 'LoadModule authz_default_module modules/mod_authz_default.so\n';
    bodies.forEach((b, i) => {
      const path = ['/srv', '/srv/a', '/srv/a/b'][i];
      text += `<Directory ${path}>\n${i === 0 ? '    AuthType Basic\n    AuthGroupFile /etc/groups\n' : ''}${b}</Directory>\n`;
    });
    return { text, order: mods.map((m) => m + '_module').concat('authz_default_module') };
  });

function chains(text: string, version: '2.2' | '2.4'): ChainState[][] {
  const secs = parse(text).children.filter((n): n is Section => n.kind === 'section');
  const states = secs.map((s) => ({ state: readSection(s.children, env(version)) }));
  return states.map((_, i) => states.slice(0, i + 1));
}

test(`converted policies answer like 2.2 or are refused with a finding (${RUNS} cases)`, () => {
  let converted = 0;
  let refused = 0;
  let checked = 0;
  fc.assert(
    fc.property(config, ({ text, order }) => {
      const res = runOnText(text, accessControl);
      converted += res.findings.filter((f) => f.severity === 'change').length;
      refused += res.findings.filter((f) => f.severity === 'manual').length;
      const manualLines = new Set(res.findings.filter((f) => f.severity === 'manual').map((f) => f.line));
      const secs = parse(text).children.filter((n): n is Section => n.kind === 'section');
      const before = chains(text, '2.2');
      const after = chains(res.output, '2.4');
      const server = { hookOrder: hookOrder22(order), authzDefault: true };
      for (let k = 0; k < before.length; k++) {
        const refused = secs.slice(0, k + 1).some((s) => manualLines.has(s.line));
        if (refused) continue;
        const states = [...before[k], ...after[k]].map((c) => c.state);
        for (const r of requestClasses(states, methodsOf(states))) {
          const want = eval22(before[k], r, server);
          if (want === 'unknown') continue;
          const got = eval24(after[k], r);
          checked++;
          if (want !== got) {
            throw new Error(`level ${k}: ${r.method} ${r.client.addr.toString(16)} ${JSON.stringify([...r.client.env])} ${r.cred.kind}${r.cred.kind === 'user' ? ' ' + r.cred.name + ' ' + [...r.cred.groups] : ''}: 2.2 ${want}, converted ${got}\n${text}\n---\n${res.output}`);
          }
        }
      }
      return true;
    }),
    { numRuns: RUNS },
  );
  // The property must bite: most sections are really converted and checked.
  console.log(`translate property: ${converted} sections converted, ${refused} refused, ${checked} request classes compared`);
  expect(converted).toBeGreaterThan(refused * 3);
  expect(checked).toBeGreaterThan(RUNS * 50);
});
