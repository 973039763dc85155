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
  // 2.4 has no mod_mem_cache and skips the section, so /srv/cache cannot be carried over,
  // and neither can /srv, whose policy it inherits from: both stay for review.
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

  test('stay manual, and a second run agrees with the first (found by the long fuzz run)', () => {
    const first = runOnText(input, transforms, { role: 'main' });
    expect(first.output).not.toContain('mem_cache_module');
    expect(first.output).toContain('Allow from 10.0.0.0/8');
    expect(first.output).toContain('Deny from all');
    expect(first.findings.some((f) => f.transform === 'access-control' && f.severity === 'manual')).toBe(true);
    const second = runOnText(first.output, transforms, { role: 'main' });
    expect(second.output).toBe(first.output);
  });
});
