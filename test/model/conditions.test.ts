// <IfModule> around a module 2.4 removed: the tool deletes that module's LoadModule line,
// so in its own output the 2.2 view can no longer tell whether the module was loaded.
import { runOnText } from '../../src/engine/memory.js';
import { viewModules } from '../../src/model/conditions.js';
import { transforms } from '../../transforms/index.js';

describe('viewModules', () => {
  const none = () => 'no' as const;
  test('a removed module not loaded is unknown to the 2.2 view, absent from the 2.4 view', () => {
    expect(viewModules('2.2', none)('mod_mem_cache.c')).toBe('unknown');
    expect(viewModules('2.4', none)('mod_mem_cache.c')).toBe('no');
    expect(viewModules('2.2', () => 'yes')('mem_cache_module')).toBe('yes');
  });
  test('other modules keep the 2.2 answer', () => {
    expect(viewModules('2.2', none)('mod_rewrite.c')).toBe('no');
    expect(viewModules('2.4', () => 'yes')('mod_rewrite.c')).toBe('yes');
  });
});

describe('access sections inside <IfModule mod_mem_cache.c>', () => {
  // 2.2: mem_cache is loaded, so /srv/cache is open to 10/8 and the rest of /srv denied.
  // 2.4 has no mod_mem_cache and skips the section, so /srv/cache cannot be carried over: it
  // stays for review, with 2.4's 403 named. /srv converts: kept in 2.2 form or not, 2.4 answers
  // /srv/cache the same (denied), so keeping it would only keep the rest of /srv in 2.2 form.
  const input = [
    'LoadModule authz_host_module modules/mod_authz_host.so',
    'LoadModule mem_cache_module modules/mod_mem_cache.so',
    '<Directory /srv>',
    '  Order deny,allow',
    '  Deny from all',
    '</Directory>',
    '<IfModule mod_mem_cache.c>',
    '  <Directory /srv/cache>',
    '    Order allow,deny',
    '    Allow from 10.0.0.0/8',
    '  </Directory>',
    '</IfModule>',
    '',
  ].join('\n');

  test('/srv/cache stays manual, /srv converts, and a second run agrees with the first (found by the long fuzz run)', () => {
    const first = runOnText(input, transforms, { role: 'main' });
    expect(first.output).not.toContain('mem_cache_module');
    expect(first.output).toContain('Allow from 10.0.0.0/8');
    expect(first.output).toContain('<Directory /srv>\n  Require all denied\n</Directory>');
    const manual = first.findings.filter((f) => f.transform === 'access-control' && f.severity === 'manual');
    expect(manual.map((f) => f.line)).toEqual([8]);
    expect(manual[0].message).toContain('Left as it is, 2.4 with mod_access_compat would answer GET /<any> from 10.0.0.0 and no password with 403 where 2.2 answered 200');
    const second = runOnText(first.output, transforms, { role: 'main' });
    expect(second.output).toBe(first.output);
  });
});
