// A deterministic hosting-provider tree in Apache 2.2 style, for the benchmark (scripts/bench.ts):
// conf/httpd.conf (stock 2.2 module list and layout, MPM blocks, <Directory /> deny-all, a
// DocumentRoot grant, Include of the vhost files), one conf/vhosts/siteNNNNN.conf per site
// and one sites/siteNNNNN/htdocs/.htaccess per site. Sites vary the way a fleet does: access
// rules (allow all, an office network, env=, Satisfy Any with Basic auth), an /admin
// <Location> with auth, rewrite rules, plain and piped logs, CRLF files, continuation lines
// and comments. The same seed and size always give the same bytes (paths aside: ServerRoot is
// the folder it is generated into).
//   node dist/scripts/bench-tree.js DIR VHOSTS [SEED]

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** mulberry32: a small seeded PRNG, enough for picking variants. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Modules of a stock RHEL/CentOS 5 httpd 2.2 httpd.conf, in its order (all have a 2.4 counterpart on Debian, or a transform that removes them). */
const MODULES = [
  'auth_basic', 'auth_digest', 'authn_file', 'authn_alias', 'authn_anon', 'authn_dbm', 'authn_default',
  'authz_host', 'authz_user', 'authz_owner', 'authz_groupfile', 'authz_dbm', 'authz_default',
  'ldap', 'authnz_ldap', 'include', 'log_config', 'logio', 'env', 'ext_filter', 'mime_magic', 'expires',
  'deflate', 'headers', 'usertrack', 'setenvif', 'mime', 'dav', 'status', 'autoindex', 'info', 'dav_fs',
  'vhost_alias', 'negotiation', 'dir', 'actions', 'speling', 'userdir', 'alias', 'substitute', 'rewrite',
  'proxy', 'proxy_balancer', 'proxy_ftp', 'proxy_http', 'proxy_ajp', 'proxy_connect', 'cache', 'suexec',
  'disk_cache', 'cgi', 'version',
];

export interface TreeStats {
  root: string;
  vhosts: number;
  files: number;
  bytes: number;
}

const name = (i: number): string => `site${String(i).padStart(5, '0')}`;

export function mainConfig(root: string): string {
  const lines: string[] = [];
  lines.push(
    '#',
    '# This is the main Apache server configuration file.  It contains the',
    '# configuration directives that give the server its instructions.',
    '# See <URL:http://httpd.apache.org/docs/2.2/> for detailed information.',
    '#',
    '# Generated for the httpd24-codemod benchmark (scripts/bench-tree.ts).',
    '#',
    '',
    '### Section 1: Global Environment',
    '#',
    `ServerRoot "${root}"`,
    'PidFile run/httpd.pid',
    'Timeout 120',
    'KeepAlive Off',
    'MaxKeepAliveRequests 100',
    'KeepAliveTimeout 15',
    '',
    '## Server-Pool Size Regulation (MPM specific)',
    '',
    '# prefork MPM',
    '<IfModule prefork.c>',
    'StartServers       8',
    'MinSpareServers    5',
    'MaxSpareServers   20',
    'ServerLimit      256',
    'MaxClients       256',
    'MaxRequestsPerChild  4000',
    '</IfModule>',
    '',
    '# worker MPM',
    '<IfModule worker.c>',
    'StartServers         2',
    'MaxClients         150',
    'MinSpareThreads     25',
    'MaxSpareThreads     75',
    'ThreadsPerChild     25',
    'MaxRequestsPerChild  0',
    '</IfModule>',
    '',
    'Listen 80',
    '',
    '#',
    '# Dynamic Shared Object (DSO) Support',
    '#',
  );
  for (const m of MODULES) lines.push(`LoadModule ${m}_module modules/mod_${m}.so`);
  lines.push(
    '',
    'Include conf.d/*.conf',
    '',
    'User daemon',
    'Group daemon',
    '',
    '### Section 2: \'Main\' server configuration',
    '',
    'ServerAdmin root@localhost',
    'ServerName fleet.example.net:80',
    'UseCanonicalName Off',
    `DocumentRoot "${root}/htdocs"`,
    '',
    '<Directory />',
    '    Options FollowSymLinks',
    '    AllowOverride None',
    '    Order deny,allow',
    '    Deny from all',
    '</Directory>',
    '',
    `<Directory "${root}/htdocs">`,
    '    Options Indexes FollowSymLinks',
    '    AllowOverride None',
    '    Order allow,deny',
    '    Allow from all',
    '</Directory>',
    '',
    `<Directory "${root}/sites">`,
    '    AllowOverride AuthConfig Limit FileInfo Indexes Options',
    '</Directory>',
    '',
    'DirectoryIndex index.html index.html.var index.php',
    'AccessFileName .htaccess',
    '',
    '<Files ~ "^\\.ht">',
    '    Order allow,deny',
    '    Deny from all',
    '</Files>',
    '',
    'TypesConfig conf/mime.types',
    'DefaultType text/plain',
    '',
    'HostnameLookups Off',
    'ErrorLog logs/error_log',
    'LogLevel warn',
    'LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined',
    'LogFormat "%h %l %u %t \\"%r\\" %>s %b" common',
    'CustomLog logs/access_log combined',
    'ServerSignature On',
    '',
    'Alias /icons/ "/var/www/icons/"',
    '<Directory "/var/www/icons">',
    '    Options Indexes MultiViews',
    '    AllowOverride None',
    '    Order allow,deny',
    '    Allow from all',
    '</Directory>',
    '',
    '<Location /server-status>',
    '    SetHandler server-status',
    '    Order deny,allow',
    '    Deny from all',
    '    Allow from 127.0.0.1 10.0.0.0/8',
    '</Location>',
    '',
    'AddDefaultCharset UTF-8',
    '<IfModule mod_deflate.c>',
    '    AddOutputFilterByType DEFLATE text/html text/plain text/css',
    '</IfModule>',
    '',
    '### Section 3: Virtual Hosts',
    '',
    'NameVirtualHost *:80',
    'Include conf/vhosts/*.conf',
    '',
  );
  return lines.join('\n');
}

/** One site's vhost file: its lines, and whether it is written with CRLF. */
function vhostConfig(root: string, i: number, r: () => number): { text: string; crlf: boolean } {
  const n = name(i);
  const domain = `customer${i}.example.com`;
  const docroot = `${root}/sites/${n}/htdocs`;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const L: string[] = [];
  L.push(
    `# ${n}: ${domain}`,
    `# Account ${100000 + i}, plan ${pick(['basic', 'business', 'premium', 'reseller'])}; managed by the hosting panel.`,
    '# Changes made by hand are kept, but please note them in the ticket.',
    '<VirtualHost *:80>',
    `    ServerName www.${domain}`,
  );
  if (r() < 0.3) {
    L.push(`    ServerAlias ${domain} \\`, `        static.${domain} media.${domain}`);
  } else {
    L.push(`    ServerAlias ${domain}`);
  }
  L.push(`    ServerAdmin webmaster@${domain}`, `    DocumentRoot "${docroot}"`, '');
  // Access to the document root.
  const access = r();
  L.push(`    <Directory "${docroot}">`);
  L.push(`        Options ${pick(['Indexes FollowSymLinks', '-Indexes +FollowSymLinks', 'FollowSymLinks', 'SymLinksIfOwnerMatch Includes'])}`);
  L.push(`        AllowOverride ${pick(['All', 'AuthConfig Limit FileInfo', 'AuthConfig FileInfo Indexes Limit Options', 'All'])}`);
  if (access < 0.55) {
    L.push('        Order allow,deny', '        Allow from all');
  } else if (access < 0.7) {
    L.push('        # office network only', '        Order deny,allow', '        Deny from all', `        Allow from 10.${i % 250}.0.0/16 192.168.${i % 250}`);
  } else if (access < 0.8) {
    L.push('        Order deny,allow', '        Deny from all', '        Allow from env=trusted_client');
  } else {
    L.push(
      '        # staff from the office, everybody else with a password',
      '        AuthType Basic',
      `        AuthName "${domain} staging"`,
      `        AuthUserFile ${root}/sites/${n}/.htpasswd`,
      '        Require valid-user',
      '        Order deny,allow',
      '        Deny from all',
      `        Allow from 10.${i % 250}.0.0/16`,
      '        Satisfy Any',
    );
  }
  L.push('    </Directory>', '');
  if (access >= 0.7 && access < 0.8) {
    L.push(`    SetEnvIf Remote_Addr "^10\\.${i % 250}\\." trusted_client`, `    SetEnvIf X-Office-Token "^${(i * 7919) % 100000}$" trusted_client`, '');
  }
  if (r() < 0.35) {
    L.push(
      '    <Location /admin>',
      '        AuthType Basic',
      '        AuthName "Administration"',
      `        AuthUserFile ${root}/sites/${n}/.htpasswd-admin`,
      `        Require user admin ${pick(['ops', 'deploy', 'owner'])}`,
      '    </Location>',
      '',
    );
  }
  if (r() < 0.6) {
    L.push(
      '    RewriteEngine On',
      `    RewriteCond %{HTTP_HOST} ^${domain.replace(/\./g, '\\.')}$ [NC]`,
      `    RewriteRule ^/(.*)$ http://www.${domain}/$1 [R=301,L]`,
    );
    if (r() < 0.4) L.push('    RewriteRule ^/legacy/(.*)\\.php$ \\', '        /app/$1 [PT,L]');
    if (r() < 0.15) L.push(`    RewriteLog logs/${n}-rewrite_log`, '    RewriteLogLevel 2');
    L.push('');
  }
  if (r() < 0.25) {
    L.push(`    ErrorLog "|/usr/sbin/rotatelogs ${root}/logs/${n}-error_log.%Y%m%d 86400"`, `    CustomLog "|/usr/sbin/rotatelogs ${root}/logs/${n}-access_log.%Y%m%d 86400" combined`);
  } else {
    L.push(`    ErrorLog logs/${n}-error_log`, `    CustomLog logs/${n}-access_log combined`);
  }
  if (r() < 0.2) L.push('    DefaultType application/octet-stream');
  L.push('</VirtualHost>', '');
  return { text: L.join('\n'), crlf: r() < 0.2 };
}

function htaccess(i: number, r: () => number): string {
  const L: string[] = [`# .htaccess for site${String(i).padStart(5, '0')}`];
  const kind = r();
  if (kind < 0.3) {
    L.push('# blocked after abuse reports', `Deny from 203.0.113.${i % 250}`, `Deny from 198.51.100.0/24`);
  } else if (kind < 0.5) {
    L.push('AuthType Basic', 'AuthName "Members"', `AuthUserFile /home/site${i}/.htpasswd`, 'Require valid-user');
  } else if (kind < 0.6) {
    L.push('Order allow,deny', 'Allow from all', `Deny from 192.0.2.${i % 250}`);
  }
  if (r() < 0.6) {
    L.push(
      '',
      'RewriteEngine On',
      'RewriteBase /',
      'RewriteCond %{REQUEST_FILENAME} !-f',
      'RewriteCond %{REQUEST_FILENAME} !-d',
      'RewriteRule ^(.*)$ index.php?q=$1 [L,QSA]',
    );
  }
  if (r() < 0.5) L.push('', 'Options -Indexes');
  if (r() < 0.3) L.push('ErrorDocument 404 /404.html');
  L.push('');
  return L.join('\n');
}

/** Writes a tree of `vhosts` sites under `dir` (created); returns its size. */
export function generateTree(dir: string, vhosts: number, seed = 22): TreeStats {
  const root = resolve(dir);
  const r = rng(seed);
  let bytes = 0;
  let files = 0;
  const write = (p: string, text: string): void => {
    const full = join(root, p);
    const buf = Buffer.from(text, 'latin1');
    writeFileSync(full, buf);
    bytes += buf.length;
    files++;
  };
  for (const d of ['conf', 'conf/vhosts', 'conf.d', 'htdocs', 'logs', 'run', 'sites']) mkdirSync(join(root, d), { recursive: true });
  write('conf/httpd.conf', mainConfig(root));
  writeFileSync(join(root, 'conf/mime.types'), 'text/html\thtml htm\ntext/plain\ttxt\n');
  write('conf.d/welcome.conf', [
    '# Shown when no other page is found for the main server.',
    '<LocationMatch "^/+$">',
    '    Options -Indexes',
    '    ErrorDocument 403 /error/noindex.html',
    '</LocationMatch>',
    '',
  ].join('\n'));
  for (let i = 1; i <= vhosts; i++) {
    const n = name(i);
    const v = vhostConfig(root, i, r);
    write(`conf/vhosts/${n}.conf`, v.crlf ? v.text.replace(/\n/g, '\r\n') : v.text);
    mkdirSync(join(root, 'sites', n, 'htdocs'), { recursive: true });
    write(`sites/${n}/htdocs/.htaccess`, htaccess(i, r));
  }
  return { root, vhosts, files, bytes };
}

if (require.main === module) {
  const [dir, count, seed] = process.argv.slice(2);
  if (!dir || !count) {
    process.stderr.write('usage: node dist/scripts/bench-tree.js DIR VHOSTS [SEED]\n');
    process.exit(2);
  }
  const s = generateTree(dir, Number(count), seed ? Number(seed) : undefined);
  process.stdout.write(`${s.root}: ${s.vhosts} vhosts, ${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB\n`);
}
