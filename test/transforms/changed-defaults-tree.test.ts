// changed-defaults with .htaccess files: the tree knows where they are, and which
// <Directory> sections (with or without AllowOverride) cover their folders.
import { join } from 'node:path';
import { plan } from '../../src/engine/run.js';
import { changedDefaults } from '../../transforms/changed-defaults.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let root = '';
afterEach(() => root && removeTree(root));

function run(files: Record<string, string>, preserveDefaults = false) {
  root = makeTree(files);
  return plan(['.'], { cwd: root, mode: 'replace', preserveDefaults, transforms: [changedDefaults] });
}

const SERVER = 'DocumentRoot /srv/www\nTimeout 60\nOptions FollowSymLinks\nEnableSendfile Off\nFileETag MTime Size\nLimitRequestBody 0\n';

test('an .htaccess under a <Directory> without AllowOverride is reported; one with it is not', () => {
  const p = run({
    'httpd.conf': `${SERVER}<Directory />\n    Options None\n</Directory>\n<Directory /srv/www/open>\n    AllowOverride AuthConfig\n</Directory>\n<Directory /srv/www>\n    DirectoryIndex index.html\n</Directory>\n`,
    'srv/www/.htaccess': 'DirectoryIndex home.html\n',
    'srv/www/open/.htaccess': 'AuthType Basic\n',
  });
  const about = (f: string) => p.findings.filter((x) => x.transform === 'changed-defaults' && x.file === f).map((x) => x.message);
  expect(about('srv/www/.htaccess')).toEqual([expect.stringMatching(/^no AllowOverride applies to this folder \(nearest: <Directory \/srv\/www> at httpd.conf:13\): 2.2 read this file with AllowOverride All/)]);
  expect(about('srv/www/open/.htaccess')).toEqual([]);
  // The server as a whole relies on the default too.
  expect(about('httpd.conf')).toEqual([expect.stringMatching(/^no AllowOverride in <Directory \/>/)]);
});

test('AllowOverride in <Directory /> covers every .htaccess: nothing to report', () => {
  const p = run({
    'httpd.conf': `${SERVER}<Directory />\n    AllowOverride None\n</Directory>\n`,
    'srv/www/.htaccess': 'DirectoryIndex home.html\n',
  });
  expect(p.findings.filter((x) => x.transform === 'changed-defaults')).toEqual([]);
});

test('--preserve-defaults pins AllowOverride All in <Directory /> of the main config', () => {
  const p = run({ 'httpd.conf': `${SERVER}<Directory />\n    Options None\n</Directory>\n`, 'srv/www/.htaccess': 'DirectoryIndex home.html\n' }, true);
  const main = p.files.find((f) => f.file.path === join(root, 'httpd.conf'))!;
  expect(main.after).toBe(`${SERVER}<Directory />\n    Options None\n    AllowOverride All\n</Directory>\n`);
  expect(p.files.find((f) => f.file.path === join(root, 'srv/www/.htaccess'))!.status).toBe('unchanged');
});
