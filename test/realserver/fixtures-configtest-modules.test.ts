// Every converted fixture of the module, SSL, module-advice and changed-defaults transforms
// must be accepted by a real httpd 2.4 (`apache2 -t`), inside a minimal wrapper config:
// a temporary ServerRoot (with `modules` pointing at Debian's module folder, so the
// fixtures' `modules/mod_X.so` paths load), Listen on a free loopback port, logs and pid in
// the temp folder. The system's apache2 configuration and service are never used.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOnText } from '../../src/engine/memory.js';
import { transforms } from '../../transforms/index.js';
import { fixtureCases } from '../helpers/fixtures.js';

const MODULES_DIR = '/usr/lib/apache2/modules';

function findHttpd(): string | null {
  for (const p of ['/usr/sbin/apache2', '/usr/sbin/httpd', '/usr/local/apache2/bin/httpd']) if (existsSync(p)) return p;
  return null;
}

/** What each transform's fixtures need around them: modules to load (besides an MPM). */
interface Wrapper {
  load: string[];
  /** The fixture loads its own modules (and MPM). */
  whole?: boolean;
  /** .htaccess content: put it inside <Directory> of the temp ServerRoot. */
  directory?: boolean;
  /** The output is expected to fail, with this message (the finding says why). */
  fails?: RegExp;
}

const CORE = ['authz_core', 'authn_core'];
const BY_TRANSFORM: Record<string, Wrapper> = {
  modules: { load: [], whole: true },
  'authn-alias': { load: ['mpm_prefork'], whole: true },
  'add-output-filter-by-type': { load: [], whole: true },
  'ssl-protocol': { load: ['ssl', 'socache_shmcb'] },
  'ssl-session-cache': { load: ['ssl', 'socache_shmcb', 'socache_dbm'] },
  'ssl-crl-check': { load: ['ssl', 'socache_shmcb'] },
  'ssl-proxy-peer-checks': { load: ['ssl', 'socache_shmcb', 'proxy', 'proxy_http'] },
  'ssl-dn-format': { load: ['ssl', 'socache_shmcb', 'headers', 'rewrite', ...CORE] },
  'cache-session-identifiers': { load: ['cache'] },
  'cache-enable': { load: ['cache', 'cache_disk', 'proxy'] },
  // Advice only: the output is the input, which 2.4 refuses, as the finding says.
  'ldap-trusted-client-cert': { load: ['ldap'], fails: /LDAPTrustedClientCert not allowed (here|in <VirtualHost> context)/ },
  'dav-lockdb': { load: ['dav', 'dav_fs'] },
  'ssi-legacy-expr': { load: ['include', 'mime'] },
  'proxy-scgi-pathinfo': { load: ['proxy', 'proxy_scgi', 'proxy_http'] },
  'substitute-line-limit': { load: ['substitute', 'filter'] },
  'reqtimeout-defaults': { load: [], whole: true },
  'deflate-no-grow': { load: ['deflate', 'filter', 'mime'] },
  'autoindex-xhtml': { load: ['autoindex'] },
  'htpasswd-md5': { load: [...CORE, 'auth_basic', 'authn_file', 'authz_user'] },
  'changed-defaults': { load: ['ssl', 'socache_shmcb', 'dir'] },
};
const BY_CASE: Record<string, Wrapper> = {
  'modules/fragment-no-loadmodule': { load: ['mpm_prefork', ...CORE, 'ssl', 'socache_shmcb'] },
  'modules/conf-d-fragment': { load: ['mpm_prefork'], whole: true },
  'modules/provider-missing': { load: [], whole: true, fails: /Unknown Authz provider: group/ },
  'add-output-filter-by-type/htaccess-fragment': { load: ['mpm_prefork', 'filter', 'deflate'], directory: true },
  'htpasswd-md5/htaccess-crlf': { load: ['mpm_prefork', ...CORE, 'auth_basic', 'authn_file', 'authz_user'], directory: true },
};

const httpd = findHttpd();
const ids = new Set([...Object.keys(BY_TRANSFORM)]);
const cases = fixtureCases().filter((c) => ids.has(c.transform));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

if (!httpd) {
  if (process.env.CI === 'true') {
    test('apache2 is installed (CI needs it for the config tests)', () => {
      throw new Error('apache2 (Debian package apache2) is not installed; .ci/run installs it');
    });
  } else {
    // eslint-disable-next-line no-console
    console.warn('[skip] fixtures config test: apache2 not found (apt-get install apache2)');
    test.skip('fixtures pass apache2 -t (skipped: apache2 not installed)', () => undefined);
  }
} else {
  describe('converted fixtures pass apache2 -t', () => {
    let root = '';
    let port = 0;
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'h24-configtest-'));
      symlinkSync(MODULES_DIR, join(root, 'modules'));
      for (const d of ['logs', 'htdocs', 'conf/ssl.crl', 'conf/ssl.crt']) mkdirSync(join(root, d), { recursive: true });
      // Files the SSL fixtures name (mod_ssl checks they exist and are not empty).
      writeFileSync(join(root, 'conf/ssl.crl/ca-bundle.crl'), 'placeholder\n');
      writeFileSync(join(root, 'conf/ssl.crt/ca-bundle.crt'), 'placeholder\n');
      port = await freePort();
    });
    afterAll(() => root && rmSync(root, { recursive: true, force: true }));

    test.each(cases.map((c) => [`${c.transform}/${c.name}`, c] as const))('%s', (name, c) => {
      const w = BY_CASE[name] ?? BY_TRANSFORM[c.transform];
      const t = transforms.find((x) => x.id === c.transform)!;
      const role = c.name.startsWith('htaccess') ? 'htaccess' : undefined;
      const out = runOnText(c.input, [t], { role, ...c.options }).output;
      const body = w.directory ? `<Directory "${root}/htdocs">\n${out}\n</Directory>\n` : out;
      const fixture = join(root, 'fixture.conf');
      writeFileSync(fixture, Buffer.from(body, 'latin1'));
      const load = [...(w.whole ? [] : ['mpm_prefork']), ...w.load].filter((m, i, a) => a.indexOf(m) === i);
      const wrapper = [
        `ServerRoot "${root}"`,
        `Listen 127.0.0.1:${port}`,
        'ServerName localhost',
        `PidFile "${root}/logs/httpd.pid"`,
        `ErrorLog "${root}/logs/error_log"`,
        `Mutex file:${root}/logs default`,
        ...load.map((m) => `LoadModule ${m}_module modules/mod_${m}.so`),
        `Include "${fixture}"`,
        '',
      ].join('\n');
      writeFileSync(join(root, 'httpd.conf'), wrapper);
      const r = spawnSync(httpd, ['-t', '-f', join(root, 'httpd.conf')], { encoding: 'utf8', env: { ...process.env, APACHE_RUN_DIR: join(root, 'logs') } });
      const said = `${r.stdout}${r.stderr}`;
      if (w.fails) {
        expect(r.status).not.toBe(0);
        expect(said).toMatch(w.fails);
      } else {
        if (r.status !== 0) throw new Error(`apache2 -t rejected the converted ${name}:\n${said}`);
        expect(said).toContain('Syntax OK');
      }
    });
  });
}
