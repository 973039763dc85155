// Which requests can happen decides which chains the access analysis must keep equal: the
// main server gets no request when virtual hosts take every Listen address.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ANY_NAME, fileMembers, ServerScopes } from '../../src/model/scopes.js';
import { model } from '../../src/model/server.js';
import { parse } from '../../src/syntax/index.js';
import { runCli, useTempTrees } from '../helpers/tree.js';

const { tree } = useTempTrees();

/** The scopes of a server whose whole configuration is `conf`. */
function scopesOf(conf: string): ServerScopes {
  const root = tree({ 'httpd.conf': conf });
  const doc = parse(readFileSync(join(root, 'httpd.conf'), 'latin1'));
  const file = { path: join(root, 'httpd.conf'), display: 'httpd.conf', doc, role: 'main' as const };
  const t = { files: [file], mains: [file], htaccessFiles: [], defines: new Map(), serverRoots: new Map(), rootMaps: new Map() };
  return new ServerScopes(model(t as never).server(file as never), new Map());
}

const mainReachable = (conf: string): boolean => scopesOf(conf).mainReachable();

describe('ServerScopes.mainReachable', () => {
  test.each([
    ['Listen 80\n<VirtualHost *:80>\n</VirtualHost>\n', false],
    ['Listen 80\nListen 8080\n<VirtualHost *:80>\n</VirtualHost>\n', true],
    ['Listen 80\n<VirtualHost 192.0.2.1:80>\n</VirtualHost>\n', true],
    ['Listen 192.0.2.1:80\n<VirtualHost 192.0.2.1:80>\n</VirtualHost>\n', false],
    ['Listen [::]:443 https\n<VirtualHost _default_:443>\n</VirtualHost>\n', false],
    ['Listen 80\n<VirtualHost *:*>\n</VirtualHost>\n', false],
    // No port: the default port depends on what the main server says; not guessed.
    ['Listen 80\n<VirtualHost *>\n</VirtualHost>\n', true],
    // The host may be missing while the Listen is there.
    ['Listen 443\n<IfModule mod_ssl.c>\n<VirtualHost *:443>\n</VirtualHost>\n</IfModule>\n', true],
    ['<IfModule mod_ssl.c>\nListen 443\n</IfModule>\n<IfModule mod_ssl.c>\n<VirtualHost *:443>\n</VirtualHost>\n</IfModule>\n', false],
    // No Listen at all: a fragment, say; nothing known.
    ['<VirtualHost *:80>\n</VirtualHost>\n', true],
  ])('%j → %s', (conf, expected) => {
    expect(mainReachable(conf)).toBe(expected);
  });
});

// 2.2: the site's .htaccess replaces the host rules, and inherits Satisfy Any and Require
// valid-user from the host's <Directory>: any client but 192.0.2.6, or a valid user.
// The main server's DocumentRoot holds the site too (/site/), where no Satisfy Any applies:
// when the main server can get requests (Listen 8080), the .htaccess governs requests with two
// different inherited policies and stays 2.2; when it cannot, it converts.
function server(listen: string): Record<string, string> {
  return {
    'conf/httpd.conf': [
      'ServerRoot @ROOT@',
      listen,
      'LoadModule authz_host_module modules/mod_authz_host.so',
      'LoadModule authz_user_module modules/mod_authz_user.so',
      'LoadModule auth_basic_module modules/mod_auth_basic.so',
      'LoadModule authn_file_module modules/mod_authn_file.so',
      'DocumentRoot @ROOT@/www',
      '<Directory />',
      '    Order deny,allow',
      '    Deny from all',
      '</Directory>',
      '<Directory @ROOT@/www>',
      '    AllowOverride Limit',
      '    Order allow,deny',
      '    Allow from all',
      '</Directory>',
      'NameVirtualHost *:80',
      '<VirtualHost *:80>',
      '    ServerName site.example.com',
      '    DocumentRoot @ROOT@/www/site',
      '    <Directory @ROOT@/www/site>',
      '        AllowOverride Limit AuthConfig',
      '        AuthType Basic',
      '        AuthName "staff"',
      '        AuthUserFile @ROOT@/htpasswd',
      '        Require valid-user',
      '        Order deny,allow',
      '        Deny from all',
      '        Allow from 10.6.0.0/16',
      '        Satisfy Any',
      '    </Directory>',
      '</VirtualHost>',
      '',
    ].join('\n'),
    'www/site/.htaccess': 'Order allow,deny\nAllow from all\nDeny from 192.0.2.6\n',
  };
}

async function convert(listen: string): Promise<{ htaccess: string; conf: string; manual: Array<{ file: string; line: number; message: string }> }> {
  const root = tree({});
  for (const [k, v] of Object.entries(server(listen))) {
    mkdirSync(dirname(join(root, k)), { recursive: true });
    writeFileSync(join(root, k), v.split('@ROOT@').join(root), 'latin1');
  }
  const r = await runCli(['--only', 'access-control', '--format', 'json', '.'], root);
  const j = JSON.parse(r.out) as { findings: Array<{ file: string; line: number; severity: string; message: string; transform: string }> };
  return {
    htaccess: readFileSync(join(root, 'www/site/.htaccess'), 'latin1'),
    conf: readFileSync(join(root, 'conf/httpd.conf'), 'latin1'),
    manual: j.findings.filter((f) => f.severity === 'manual' && f.transform === 'access-control'),
  };
}

describe('requests the main server cannot get', () => {
  test('Listen 80 only, every address a virtual host: the .htaccess converts with the policy it inherits there', async () => {
    const r = await convert('Listen 80');
    expect(r.manual).toEqual([]);
    expect(r.htaccess).not.toMatch(/Order|Allow from|Deny from/);
    expect(r.htaccess).toContain('Require valid-user');
    expect(r.htaccess).toContain('Require not ip 192.0.2.6');
  });

  test('Listen 8080 too: the main server answers /site/ without Satisfy Any, so the .htaccess stays 2.2', async () => {
    const r = await convert('Listen 80\nListen 8080');
    expect(r.htaccess).toBe('Order allow,deny\nAllow from all\nDeny from 192.0.2.6\n');
    expect(r.manual.map((f) => f.file)).toContain('www/site/.htaccess');
    expect(r.manual.find((f) => f.file === 'www/site/.htaccess')!.message).toContain('inherit different rules');
    // Its host rules would be ANDed with a converted parent's Require in 2.4: the sections
    // above it stay 2.2 with it.
    expect(r.conf).toContain('<Directory />\n    Order deny,allow\n    Deny from all\n</Directory>');
  });
});

// A host whose own filesystem sections cannot match a folder merges there exactly as the main
// server does: the analysis then computes the main server's part once for thousands of hosts.
describe('ServerScopes.ownFilesystemMayApply', () => {
  const conf = [
    '<Directory />',
    '  Order deny,allow',
    '  Deny from all',
    '  <Files "*.inc">',
    '    Deny from all',
    '  </Files>',
    '</Directory>',
    '<Directory /srv>',
    '  AllowOverride AuthConfig',
    '</Directory>',
    '<Files ~ "^\\.ht">',
    '  Deny from all',
    '</Files>',
    '<VirtualHost *:80>',
    '  <Directory /srv/a>',
    '    Allow from all',
    '    <Files secret.txt>',
    '      Deny from all',
    '    </Files>',
    '  </Directory>',
    '</VirtualHost>',
    '<VirtualHost *:80>',
    '  <Files "*.php">',
    '    Require valid-user',
    '  </Files>',
    '</VirtualHost>',
    '<VirtualHost *:80>',
    '  <Directory /srv/b*>',
    '    Allow from all',
    '  </Directory>',
    '</VirtualHost>',
    '<VirtualHost *:80>',
    '  <Proxy *>',
    '    Deny from all',
    '  </Proxy>',
    '</VirtualHost>',
    '<VirtualHost *:80>',
    '</VirtualHost>',
  ].join('\n') + '\n';

  test('only a folder at or below the host\'s own exact <Directory>; always with its own <Files> or wildcard <Directory>', () => {
    const ss = scopesOf(conf);
    const [exact, files, wild, proxy, empty] = ss.vhosts;
    expect(ss.ownFilesystemMayApply(exact, '/srv/a', false)).toBe(true);
    expect(ss.ownFilesystemMayApply(exact, '/srv/a/b/c', false)).toBe(true);
    expect(ss.ownFilesystemMayApply(exact, '/srv/ab', false)).toBe(false);
    expect(ss.ownFilesystemMayApply(exact, '/srv', false)).toBe(false);
    expect(ss.ownFilesystemMayApply(files, '/anything', false)).toBe(true);
    expect(ss.ownFilesystemMayApply(wild, '/srv', false)).toBe(true);
    expect(ss.ownFilesystemMayApply(proxy, '/srv', false)).toBe(false);
    expect(ss.ownFilesystemMayApply(proxy, '/', true)).toBe(true);
    expect(ss.ownFilesystemMayApply(exact, '/', true)).toBe(false);
    expect(ss.ownFilesystemMayApply(empty, '/srv/a', false)).toBe(false);
  });

  test('where it says no, the host\'s filesystem merge chain is the main server\'s, member for member', () => {
    const ss = scopesOf(conf);
    const env = { version: '2.2' as const, hasModule: () => 'yes' as const, defined: () => 'unknown' as const };
    let compared = 0;
    for (const vhost of ss.vhosts) {
      for (const dir of ['/', '/srv', '/srv/a', '/srv/a/x', '/srv/ab', '/srv/b1', '/other', '/srv/' + ANY_NAME]) {
        for (const file of [null, 'index.html', 'secret.txt', 'x.php', 'y.inc', '.htaccess']) {
          for (const proxy of [false, true]) {
            if (ss.ownFilesystemMayApply(vhost, dir, proxy)) continue;
            const probe = (v: typeof vhost | null) => ({ vhost: v, uri: null, dir, file, proxy });
            const ids = (v: typeof vhost | null) => fileMembers(ss, probe(v), env, new Map(), () => null, 'all').map((m) => `${m.scope.id}${m.certainty}`);
            expect(ids(vhost)).toEqual(ids(null));
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
