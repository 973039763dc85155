// `modules` over whole server trees: needs come from every file of the server (included
// files, .htaccess), lines are added only where the server's LoadModule lines live, and the
// files whose directives need them are written together with that file.
import { join } from 'node:path';
import { plan } from '../../src/engine/run.js';
import { addOutputFilterByType } from '../../transforms/add-output-filter-by-type.js';
import { modules } from '../../transforms/modules.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let root = '';
afterEach(() => root && removeTree(root));

function run(files: Record<string, string>, transforms = [modules]) {
  root = makeTree(files);
  const p = plan(['.'], { cwd: root, mode: 'replace', preserveDefaults: false, transforms });
  const out = (rel: string) => p.files.find((f) => f.file.path === join(root, rel))!;
  return { p, out };
}

test('LoadModule lines live in an included file: the modules are added there, after the last one', () => {
  const { p, out } = run({
    'conf/httpd.conf': 'ServerRoot "/etc/httpd"\nInclude conf.modules.d/*.conf\nUser apache\nInclude conf.d/*.conf\n',
    'conf.modules.d/00-base.conf': 'LoadModule authz_host_module /usr/lib64/httpd/modules/mod_authz_host.so\nLoadModule mpm_prefork_module /usr/lib64/httpd/modules/mod_mpm_prefork.so\n',
    'conf.d/app.conf': '<Location /app>\n    Require ip 10.0.0.0/8\n</Location>\nAddOutputFilterByType DEFLATE text/html\n',
  });
  expect(out('conf/httpd.conf').status).toBe('unchanged');
  expect(out('conf.d/app.conf').status).toBe('unchanged');
  const base = out('conf.modules.d/00-base.conf');
  expect(base.after).toBe(
    'LoadModule authz_host_module /usr/lib64/httpd/modules/mod_authz_host.so\nLoadModule mpm_prefork_module /usr/lib64/httpd/modules/mod_mpm_prefork.so\n' +
    '\n# Modules httpd 2.4 needs for this configuration (added by httpd24-codemod)\n' +
    '<IfModule !unixd_module>\n    LoadModule unixd_module /usr/lib64/httpd/modules/mod_unixd.so\n</IfModule>\n' +
    '<IfModule !authz_core_module>\n    LoadModule authz_core_module /usr/lib64/httpd/modules/mod_authz_core.so\n</IfModule>\n' +
    '<IfModule !filter_module>\n    LoadModule filter_module /usr/lib64/httpd/modules/mod_filter.so\n</IfModule>\n',
  );
  // The file whose Require needs authz_core is written together with the file that loads it.
  const group = p.groups.find((g) => g.some((f) => f.path === join(root, 'conf.modules.d/00-base.conf')))!;
  expect(group.map((f) => f.path)).toEqual(expect.arrayContaining([join(root, 'conf.d/app.conf'), join(root, 'conf/httpd.conf')]));
  const added = p.findings.filter((f) => f.transform === 'modules');
  expect(added.map((f) => f.file)).toEqual(['conf.modules.d/00-base.conf', 'conf.modules.d/00-base.conf', 'conf.modules.d/00-base.conf']);
  expect(added[1].message).toContain('Require at conf.d/app.conf:2');
});

test('2.2 access directives left in an .htaccess file need mod_access_compat in the server', () => {
  const { out } = run({
    'httpd.conf': 'LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule authz_core_module modules/mod_authz_core.so\n<Directory /srv/www>\n    AllowOverride All\n</Directory>\n',
    'srv/www/.htaccess': 'Order deny,allow\nDeny from all\n',
  });
  expect(out('httpd.conf').after).toContain('<IfModule !access_compat_module>\n    LoadModule access_compat_module modules/mod_access_compat.so\n</IfModule>\n');
  expect(out('srv/www/.htaccess').status).toBe('unchanged');
});

test('no 2.2 access directive left anywhere: mod_access_compat is not added', () => {
  const { out } = run({
    'httpd.conf': 'LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule authz_core_module modules/mod_authz_core.so\n<Directory /srv/www>\n    Require all denied\n</Directory>\n',
    'srv/www/.htaccess': 'Require all granted\n',
  });
  expect(out('httpd.conf').status).toBe('unchanged');
});

test('add-output-filter-by-type and modules together add mod_filter once, under one comment', () => {
  const { out, p } = run({
    'httpd.conf': 'LoadModule deflate_module modules/mod_deflate.so\nUser daemon\nAddOutputFilterByType DEFLATE text/html\n',
  }, [addOutputFilterByType, modules]);
  const after = out('httpd.conf').after;
  expect(after.match(/LoadModule filter_module/g)).toHaveLength(1);
  expect(after.match(/added by httpd24-codemod/g)).toHaveLength(1);
  expect(after).toContain('LoadModule mpm_prefork_module modules/mod_mpm_prefork.so');
  expect(p.findings.filter((f) => f.message.includes('filter_module added')).map((f) => f.transform)).toEqual(['add-output-filter-by-type']);
  // The verification pass (second run) found nothing more to do.
  expect(p.findings.filter((f) => f.severity === 'error')).toEqual([]);
});
