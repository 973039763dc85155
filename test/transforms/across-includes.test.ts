// Scope-aware transforms across Include boundaries: the LogLevel of a virtual host may sit
// in the main config while its RewriteLogLevel comes from an included file, and a file
// included in two places has two scopes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plan } from '../../src/engine/run.js';
import { transformById } from '../../transforms/index.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let root = '';
afterEach(() => root && removeTree(root));

function run(files: Record<string, string>, ids: string[]) {
  root = makeTree(files);
  const p = plan(['httpd.conf'], { cwd: root, serverRoot: root, mode: 'replace', preserveDefaults: false, transforms: ids.map((id) => transformById(id)!) });
  const out = (f: string): string => p.files.find((o) => o.file.path === join(root, f))!.after;
  return { p, out };
}

test('RewriteLogLevel in an included file joins the LogLevel of its virtual host in the main config', () => {
  const { p, out } = run({
    'httpd.conf': 'LoadModule rewrite_module m/mod_rewrite.so\nLogLevel warn\n<VirtualHost *:80>\n    ServerName a\n    LogLevel info\n    Include vhost-rewrite.conf\n</VirtualHost>\n',
    'vhost-rewrite.conf': 'RewriteEngine On\nRewriteLog logs/a-rewrite.log\nRewriteLogLevel 4\n',
  }, ['rewrite-log']);
  expect(out('httpd.conf')).toBe('LoadModule rewrite_module m/mod_rewrite.so\nLogLevel warn\n<VirtualHost *:80>\n    ServerName a\n    LogLevel info rewrite:trace4\n    Include vhost-rewrite.conf\n</VirtualHost>\n');
  expect(out('vhost-rewrite.conf')).toBe('RewriteEngine On\n');
  expect(p.findings.find((f) => f.message.startsWith('RewriteLogLevel 4'))?.message).toContain('the LogLevel at httpd.conf:5');
  // Both files are written together or not at all.
  expect(p.groups.some((g) => g.length === 2)).toBe(true);
});

test('a file included in two virtual hosts gets its own LogLevel line, read in both', () => {
  const { out } = run({
    'httpd.conf': 'LoadModule rewrite_module m/mod_rewrite.so\n<VirtualHost *:80>\n    LogLevel info\n    RewriteLog logs/r.log\n    Include common.conf\n</VirtualHost>\n<VirtualHost *:8080>\n    RewriteLog logs/r2.log\n    Include common.conf\n</VirtualHost>\n',
    'common.conf': 'RewriteLogLevel 2\n',
  }, ['rewrite-log']);
  expect(out('common.conf')).toBe('LogLevel rewrite:trace2\n');
});

test('a level in a file included where no RewriteLog applies is flagged', () => {
  const { p, out } = run({
    'httpd.conf': 'LoadModule rewrite_module m/mod_rewrite.so\n<VirtualHost *:80>\n    RewriteLog logs/r.log\n    Include common.conf\n</VirtualHost>\n<VirtualHost *:8080>\n    Include common.conf\n</VirtualHost>\n',
    'common.conf': 'RewriteLogLevel 2\n',
  }, ['rewrite-log']);
  expect(out('common.conf')).toBe('LogLevel rewrite:trace2\n');
  const manual = p.findings.filter((f) => f.severity === 'manual').map((f) => f.message);
  expect(manual).toEqual(['this file is read in 2 places and 2.2 traced only where a RewriteLog applied; in the <VirtualHost> at httpd.conf:6 it wrote nothing, but the new LogLevel applies there too: move it where it belongs']);
});

test('a virtual host that inherited the level through RewriteOptions Inherit but resets LogLevel is flagged', () => {
  const { p } = run({
    'httpd.conf': 'LoadModule rewrite_module m/mod_rewrite.so\nRewriteLog logs/r.log\nRewriteLogLevel 2\n<VirtualHost *:80>\n    LogLevel info\n    RewriteOptions Inherit\n</VirtualHost>\n',
  }, ['rewrite-log']);
  const manual = p.findings.filter((f) => f.severity === 'manual').map((f) => f.message);
  expect(manual).toEqual(['the virtual host at line 4 traced at this level in 2.2 (RewriteOptions Inherit), but its own LogLevel resets module levels in 2.4: add rewrite:trace2 to it']);
});

test('NameVirtualHost in the main config covers virtual hosts in included files', () => {
  const { p, out } = run({
    'httpd.conf': 'NameVirtualHost *:80\nInclude sites/*.conf\n',
    'sites/a.conf': '<VirtualHost *:80>\nServerName a\n</VirtualHost>\n',
    'sites/b.conf': '<VirtualHost *:80>\nServerName b\n</VirtualHost>\n<VirtualHost 192.0.2.1:80>\nServerName c\n</VirtualHost>\n<VirtualHost 192.0.2.1>\nServerName d\n</VirtualHost>\n',
  }, ['name-virtual-host']);
  expect(out('httpd.conf')).toBe('Include sites/*.conf\n');
  const warnings = p.findings.filter((f) => f.severity === 'warning');
  expect(warnings.map((f) => `${f.file}:${f.line}`)).toEqual(['sites/b.conf:7']);
  expect(warnings[0].message).toContain('(line 4)');
  expect(readFileSync(join(root, 'httpd.conf'), 'utf8')).toBe('NameVirtualHost *:80\nInclude sites/*.conf\n');
});

test('LockFile read after an AcceptMutex in an included MPM file is flagged', () => {
  const { p } = run({
    'httpd.conf': 'Include mpm.conf\nLockFile /tmp/accept.lock\n',
    'mpm.conf': '<IfModule prefork.c>\nAcceptMutex flock\n</IfModule>\n',
  }, ['mutex']);
  const manual = p.findings.filter((f) => f.severity === 'manual');
  expect(manual.map((f) => `${f.file}:${f.line}`)).toEqual(['httpd.conf:2']);
  expect(manual[0].message).toContain('AcceptMutex flock (mpm.conf:2)');
});
