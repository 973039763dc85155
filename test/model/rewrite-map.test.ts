// A server-context RewriteRule hides which folder a URL reaches only when it may rewrite to
// a path: redirects, [F]/[G], "-" and [PT] to a URL-path go through the URL map we know.
import { rewriteMayReachFiles } from '../../src/model/scopes.js';

describe('rewriteMayReachFiles', () => {
  test.each([
    [['^/(.*)$', 'http://www.example.com/$1', '[R=301,L]'], false],
    [['^/old$', '/new', '[redirect]'], false],
    [['^/private', '-', '[F]'], false],
    [['^/gone', '-', '[G,L]'], false],
    [['^', '-', '[E=x:1]'], false],
    [['^/legacy/(.*)\\.php$', '/app/$1', '[PT,L]'], false],
    [['^/(.*)$', '/srv/other/$1', '[L]'], true],
    [['^/(.*)$', '/srv/other/$1'], true],
    [['^/api/(.*)$', 'http://backend/$1', '[P]'], true],
    [['^/api/(.*)$', 'http://backend/$1', '[PT,P]'], true],
    [['^/(.*)$', 'http://www.example.com/$1'], true],
  ])('%j → %s', (args, expected) => {
    expect(rewriteMayReachFiles(args as string[])).toBe(expected);
  });
});
