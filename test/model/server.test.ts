import { join } from 'node:path';
import { load } from '../../src/engine/load.js';
import { model, isServerLevel, virtualHostOf } from '../../src/model/server.js';
import { moduleId } from '../../src/model/modules.js';
import { releaseTree } from '../../src/model/tree.js';
import { type Directive, directives } from '../../src/syntax/index.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let root = '';
afterEach(() => root && removeTree(root));

function setup(files: Record<string, string>) {
  root = makeTree(files);
  const res = load(['.'], { cwd: root });
  return { tree: res.tree, file: (p: string) => res.tree.byPath.get(join(root, p))! };
}

test('reading order follows Include where it stands, and sections carry across files', () => {
  const { tree, file } = setup({
    'conf/httpd.conf': '\nLoadModule a_module m/a.so\n<VirtualHost *:80>\nInclude conf/vh/*.conf\n</VirtualHost>\nLoadModule c_module m/c.so\n',
    'conf/vh/x.conf': 'LoadModule b_module m/b.so\n<Directory /x>\nOptions None\n</Directory>\n',
  });
  // ServerRoot must hold the tree for the include to resolve.
  const main = file('conf/httpd.conf');
  expect(main.role).toBe('main');
  const m = model(tree);
  expect(m.server(main).moduleOrder).toEqual(['a_module', 'b_module', 'c_module']);
  const opts = [...directives(file('conf/vh/x.conf').doc)].find((d) => d.is('Options')) as Directive;
  const [ctx] = m.contextsOf(file('conf/vh/x.conf'), opts);
  expect(ctx.main).toBe(main);
  expect(ctx.sections.map((s) => s.name)).toEqual(['VirtualHost', 'Directory']);
  expect(virtualHostOf(ctx)?.values).toEqual(['*:80']);
  expect(isServerLevel(ctx)).toBe(false);
});

test('a file included from two places has two contexts', () => {
  const { tree, file } = setup({
    'httpd.conf': 'Include common.conf\n<VirtualHost a>\nInclude common.conf\n</VirtualHost>\n',
    'common.conf': 'LogLevel warn\n',
  });
  const d = file('common.conf').doc.children[0];
  const ctxs = model(tree).contextsOf(file('common.conf'), d);
  expect(ctxs.map((c) => c.sections.map((s) => s.name))).toEqual([[], ['VirtualHost']]);
  expect(ctxs.every((c) => c.main === file('httpd.conf'))).toBe(true);
});

test('module state: loaded, absent, or possibly compiled in', () => {
  const { tree, file } = setup({ 'httpd.conf': 'LoadModule rewrite_module modules/mod_rewrite.so\n' });
  const s = model(tree).server(file('httpd.conf'));
  expect(s.hasModule('mod_rewrite.c')).toBe('yes');
  expect(s.hasModule('ssl_module')).toBe('no');
  expect(s.hasModule('prefork.c')).toBe('unknown');
  expect(moduleId('mod_authn_alias.c')).toBe('authn_alias_module');
  expect(moduleId('worker.c')).toBe('mpm_worker_module');
});

test('releaseTree drops what the transforms computed from a tree; asked again, it is computed anew', () => {
  const { tree, file } = setup({ 'conf/httpd.conf': 'LoadModule a_module m/a.so\n' });
  const first = model(tree);
  expect(model(tree)).toBe(first);
  expect(first.server(file('conf/httpd.conf')).moduleOrder).toEqual(['a_module']);
  releaseTree(tree);
  const again = model(tree);
  expect(again).not.toBe(first);
  expect(again.server(file('conf/httpd.conf')).moduleOrder).toEqual(['a_module']);
});
