// The evaluators against rows semantics.md marks "verified" (run on real 2.2 and 2.4 servers).
import { type Client } from '../../src/authz/entries.js';
import { type ChainState, type Credentials, eval22, eval24, hookOrder22, type Request } from '../../src/authz/evaluate.js';
import { readSection } from '../../src/authz/state.js';
import type { ConditionEnv } from '../../src/model/conditions.js';
import { parse, type Section } from '../../src/syntax/index.js';

const env = (version: '2.2' | '2.4'): ConditionEnv => ({ version, hasModule: () => 'yes', defined: () => 'unknown' });
/** Each top-level section of the text, read as one scope of a chain (in order). */
function chain(text: string, version: '2.2' | '2.4'): ChainState[] {
  return parse(text).children.filter((n): n is Section => n.kind === 'section').map((s) => ({ state: readSection(s.children, env(version)) }));
}
const client = (last: number): Client => ({ family: 4, addr: 0x7f000000n + BigInt(last), host: null, env: new Set() });
const none: Credentials = { kind: 'none' };
const user = (name: string, groups: string[] = []): Credentials => ({ kind: 'user', name, groups: new Set(groups.map((g) => 'file:' + g)), grants: new Set() });
const req = (last: number, cred: Credentials = none, method = 'GET'): Request => ({ method, client: client(last), cred });
const stock22 = { hookOrder: hookOrder22(['authz_groupfile_module', 'authz_user_module', 'authz_default_module']), authzDefault: true };
const rhel22 = { hookOrder: hookOrder22(['authz_user_module', 'authz_groupfile_module', 'authz_default_module']), authzDefault: true };

describe('2.2 host rules are never merged (semantics.md §3.5, verified)', () => {
  const parent = '<P>\nOrder allow,deny\nAllow from all\nDeny from 127.0.0.3\n</P>\n';
  test('a child with only "Allow from .2" drops the parent rules: .3 gets in', () => {
    expect(eval22(chain(parent, '2.2'), req(3), stock22)).toBe(403);
    expect(eval22(chain(parent + '<C>\nAllow from 127.0.0.2\n</C>\n', '2.2'), req(3), stock22)).toBe(200);
  });
  test('a child with only "Order allow,deny" refuses everybody', () => {
    const p = '<P>\nOrder deny,allow\nDeny from all\nAllow from 127.0.0.1\n</P>\n';
    expect(eval22(chain(p, '2.2'), req(1), stock22)).toBe(200);
    expect(eval22(chain(p + '<C>\nOrder allow,deny\n</C>\n', '2.2'), req(1), stock22)).toBe(403);
  });
  test('a child <Limit POST> deny resets GET to open', () => {
    const c = chain('<P>\nOrder deny,allow\nDeny from all\n</P>\n<C>\n<Limit POST>\nOrder deny,allow\nDeny from all\n</Limit>\n</C>\n', '2.2');
    expect(eval22(c, req(2), stock22)).toBe(200);
    expect(eval22(c, req(2, none, 'POST'), stock22)).toBe(403);
  });
});

describe('Satisfy: 2.2 against 2.4 with mod_access_compat (semantics.md §4.3, verified)', () => {
  const parent = '<P>\nOrder deny,allow\nDeny from all\nAllow from 127.0.0.1\nAuthType Basic\nRequire valid-user\nSatisfy Any\n</P>\n';
  test('child with only an Allow: 2.2 200 (Satisfy Any inherited), 2.4 401', () => {
    const text = parent + '<C>\nAllow from 127.0.0.2\n</C>\n';
    expect(eval22(chain(text, '2.2'), req(3), stock22)).toBe(200);
    expect(eval24(chain(text, '2.4'), req(3))).toBe(401);
  });
  test('Order deny,allow + Deny from all + Satisfy Any with no Require: 2.2 403, 2.4 200', () => {
    const text = '<P>\nOrder deny,allow\nDeny from all\nSatisfy Any\n</P>\n';
    expect(eval22(chain(text, '2.2'), req(1), stock22)).toBe(403);
    expect(eval24(chain(text, '2.4'), req(1))).toBe(200);
  });
});

describe('2.2 Require lists: the first authz module in hook order decides (semantics.md §5.2, verified)', () => {
  const text = '<P>\nAuthType Basic\nAuthGroupFile /g\nRequire user bob\nRequire group admins\n</P>\n';
  test('stock order (groupfile first): only group members', () => {
    expect(eval22(chain(text, '2.2'), req(1, user('alice', ['admins'])), stock22)).toBe(200);
    expect(eval22(chain(text, '2.2'), req(1, user('bob')), stock22)).toBe(401);
  });
  test('user module first: only bob', () => {
    expect(eval22(chain(text, '2.2'), req(1, user('alice', ['admins'])), rhel22)).toBe(401);
    expect(eval22(chain(text, '2.2'), req(1, user('bob')), rhel22)).toBe(200);
  });
  test('2.4 ORs the same lines', () => {
    expect(eval24(chain(text, '2.4'), req(1, user('bob')))).toBe(200);
    expect(eval24(chain(text, '2.4'), req(1, user('alice', ['admins'])))).toBe(200);
  });
  test('Require without AuthType is a 500 in both; AuthType with no Require is 200 in 2.2 and 500 in 2.4', () => {
    const noType = '<P>\nRequire valid-user\n</P>\n';
    expect(eval22(chain(noType, '2.2'), req(1, user('bob')), stock22)).toBe(500);
    expect(eval24(chain(noType, '2.4'), req(1, user('bob')))).toBe(500);
    const noRequire = '<P>\nAuthType Basic\n</P>\n';
    expect(eval22(chain(noRequire, '2.2'), req(1), stock22)).toBe(200);
    expect(eval24(chain(noRequire, '2.4'), req(1))).toBe(500);
  });
});

describe('2.4 authz_core (semantics.md §6)', () => {
  test('a child Require replaces the parent policy; AuthMerging And keeps both (verified)', () => {
    const p = '<P>\nAuthType Basic\nRequire ip 127.0.0.1\n</P>\n';
    expect(eval24(chain(p + '<C>\nRequire valid-user\n</C>\n', '2.4'), req(2, user('bob')))).toBe(200);
    expect(eval24(chain(p + '<C>\nAuthMerging And\nRequire valid-user\n</C>\n', '2.4'), req(2, user('bob')))).toBe(403);
  });
  test('mixing: an inherited compat deny and a Location Require granted: both must pass (403)', () => {
    expect(eval24(chain('<D>\nOrder deny,allow\nDeny from all\n</D>\n<L>\nRequire all granted\n</L>\n', '2.4'), req(1))).toBe(403);
  });
  test('negation: Require not inside RequireAll, neutral when the negated provider denies', () => {
    const t = '<P>\n<RequireAll>\nRequire all granted\nRequire not ip 127.0.0.2\n</RequireAll>\n</P>\n';
    expect(eval24(chain(t, '2.4'), req(1))).toBe(200);
    expect(eval24(chain(t, '2.4'), req(2))).toBe(403);
  });
  test('Require limited to other methods grants the method (top level is AND)', () => {
    const t = '<P>\nAuthType Basic\n<Limit POST>\nRequire valid-user\n</Limit>\n</P>\n';
    expect(eval24(chain(t, '2.4'), req(1))).toBe(200);
    expect(eval24(chain(t, '2.4'), req(1, none, 'POST'))).toBe(401);
  });
});
