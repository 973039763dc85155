// stateKey names what a section says about access: the guard evaluates one chain per distinct
// list of keys, so equal keys must mean equal states, and any difference must show.
import { readSection, stateKey } from '../../src/authz/state.js';
import type { ConditionEnv } from '../../src/model/conditions.js';
import { parse } from '../../src/syntax/index.js';

const env = (version: '2.2' | '2.4'): ConditionEnv => ({ version, hasModule: () => 'yes', defined: () => 'unknown' });
const key = (text: string, version: '2.2' | '2.4' = '2.2'): string => stateKey(readSection(parse(text).children, env(version)));

test('the same lines, written anywhere and in any case or spacing, have one key', () => {
  const a = 'Order allow,deny\nAllow from 10.0.0.0/8 .example.org env=ok\nSatisfy any\nRequire valid-user\nAuthType Basic\n';
  const b = '# another file\n  ORDER Allow,Deny\r\n  allow   from 10.0.0.0/8 .example.org env=ok\r\n  satisfy Any\r\n  Require   valid-user\r\n  AuthType Basic\r\n';
  expect(key(a)).toBe(key(b));
  expect(key('Require all granted\n', '2.4')).toBe(key('<IfModule mod_authz_core.c>\nRequire all granted\n</IfModule>\n', '2.4'));
});

test('every difference that changes an answer changes the key', () => {
  const variants = [
    '',
    'Order allow,deny\n',
    'Order deny,allow\n',
    'Order deny,allow\nAllow from 10.0.0.0/8\n',
    'Order deny,allow\nAllow from 10.0.0.0/16\n',
    'Order deny,allow\nDeny from 10.0.0.0/8\n',
    'Order deny,allow\nAllow from .example.org\n',
    'Order deny,allow\nAllow from example.org\n',
    'Order deny,allow\nAllow from env=ok\n',
    'Order deny,allow\nAllow from env=!ok\n',
    'Order deny,allow\nAllow from all\n',
    '<Limit POST>\nOrder deny,allow\nAllow from all\n</Limit>\n',
    '<LimitExcept POST>\nOrder deny,allow\nAllow from all\n</LimitExcept>\n',
    'Satisfy any\n',
    'Satisfy all\n',
    'Require valid-user\n',
    'Require user a b\n',
    'Require user ab\n',
    'Require group a\n',
    'AuthType Basic\n',
    'AuthType Digest\n',
    'AuthGroupFile /etc/groups\n',
    'AuthzUserAuthoritative Off\n',
    'Order sideways\n',
  ];
  const keys = variants.map((v) => key(v));
  expect(new Set(keys).size).toBe(variants.length);
  const v24 = [
    'Require all granted\n',
    'Require all denied\n',
    'Require not ip 10.0.0.1\n',
    'Require ip 10.0.0.1\n',
    '<RequireAll>\nRequire ip 10.0.0.1\n</RequireAll>\n',
    '<RequireAny>\nRequire ip 10.0.0.1\n</RequireAny>\n',
    '<RequireNone>\nRequire ip 10.0.0.1\n</RequireNone>\n',
    'AuthMerging And\nRequire ip 10.0.0.1\n',
    'AuthMerging Or\nRequire ip 10.0.0.1\n',
  ];
  expect(new Set(v24.map((v) => key(v, '2.4'))).size).toBe(v24.length);
});
