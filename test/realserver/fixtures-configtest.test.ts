// Every fixture output of the server, MPM and logging transforms must be a configuration a
// real httpd 2.4 accepts: each is wrapped in a minimal standalone config (its own
// ServerRoot in a temp dir, a loopback Listen, the modules its directives need from
// Debian's build) and checked with `apache2 -t -f`. Fixtures that mention the worker or
// event MPM are checked under that MPM too (the event run proves the mpm-accept guard).
// Never the system's apache2 configuration. Skips without apache2, except in CI.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureCases } from '../helpers/fixtures.js';

const TRANSFORMS = ['mpm-renames', 'name-virtual-host', 'default-type', 'keepalive-value', 'mutex', 'options-mixed', 'rewrite-log', 'dumpio-loglevel', 'debuglevel-options', 'piped-logs', 'filter-provider'];

/** Fixtures whose output keeps lines on purpose that 2.4 refuses, with why. */
const EXPECTED_TO_FAIL: Record<string, string> = {
  'mutex/refused-order': 'keeps "AcceptMutex bogus" and "SSLMutex fcntl", which 2.2 refused too, for a person',
};

/** Fixtures whose input 2.4 refuses: checking that it does shows the check can fail. */
const INPUT_REFUSED = [
  'debuglevel-options/charset-ext-filter', 'dumpio-loglevel/debug-server', 'filter-provider/dispatch-match', 'filter-provider/h5bp-compress',
  'keepalive-value/numbers', 'mutex/stock-httpd-mpm', 'mutex/ssl-rewrite', 'options-mixed/mixed-order', 'options-mixed/htaccess-none-all', 'rewrite-log/main-server',
];

/** Values for ${VARIABLES} a fixture uses; any other variable gets a directory that exists. */
const DEFINES: Record<string, string> = { KEEPALIVE: 'On' };

const MODULE_DIR = '/usr/lib/apache2/modules';
/** Modules the fixtures' directives, LogLevel names, Mutex names and filter providers need. */
const MODULES = ['rewrite', 'dumpio', 'charset_lite', 'ext_filter', 'filter', 'deflate', 'include', 'case_filter', 'substitute', 'ssl', 'socache_shmcb', 'mime', 'alias', 'authz_core'];

function findApache(): string | null {
  for (const bin of ['apache2', 'httpd']) {
    const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return existsSync('/usr/sbin/apache2') ? '/usr/sbin/apache2' : null;
}

const inCi = (): boolean => !!process.env.CI && process.env.CI !== '0' && process.env.CI.toLowerCase() !== 'false';

let port = 20000 + (process.pid % 20000);

function wrapper(root: string, mpm: string, body: string, htaccess: boolean): string {
  const vars = [...new Set([...body.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]))];
  const load = MODULES.filter((m) => existsSync(join(MODULE_DIR, `mod_${m}.so`))).map((m) => `LoadModule ${m}_module ${MODULE_DIR}/mod_${m}.so`);
  const include = htaccess ? `<Directory "${root}/htdocs">\n    Include "${root}/fixture.conf"\n</Directory>` : `Include "${root}/fixture.conf"`;
  return [
    `ServerRoot "${root}"`,
    'ServerName localhost',
    `Listen 127.0.0.1:${port++}`,
    `LoadModule mpm_${mpm}_module ${MODULE_DIR}/mod_mpm_${mpm}.so`,
    ...load,
    `ErrorLog "${root}/logs/error_log"`,
    `PidFile "${root}/logs/httpd.pid"`,
    `Mutex "file:${root}/logs" default`,
    ...vars.map((v) => `Define ${v} "${DEFINES[v] ?? root + '/logs'}"`),
    include,
    '',
  ].join('\n');
}

function configTest(apache: string, mpm: string, body: string, htaccess: boolean): { ok: boolean; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'h24-configtest-'));
  try {
    mkdirSync(join(root, 'logs'));
    mkdirSync(join(root, 'htdocs'));
    // Fixtures load modules as "modules/mod_x.so", relative to ServerRoot.
    symlinkSync(MODULE_DIR, join(root, 'modules'));
    writeFileSync(join(root, 'fixture.conf'), Buffer.from(body, 'latin1'));
    writeFileSync(join(root, 'httpd.conf'), wrapper(root, mpm, body, htaccess));
    const r = spawnSync(apache, ['-t', '-f', join(root, 'httpd.conf')], { encoding: 'utf8', timeout: 30_000 });
    return { ok: r.status === 0, out: (r.stdout + r.stderr).trim() };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const apache = findApache();
const cases = fixtureCases().filter((c) => TRANSFORMS.includes(c.transform));

if (!apache && !inCi()) {
  // eslint-disable-next-line no-console
  console.warn('[skip] fixture outputs under apache2 -t: no apache2 or httpd binary on PATH');
  describe.skip('fixture outputs pass apache2 -t (skipped: no apache2 or httpd binary on PATH)', () => undefined);
} else {
  describe('fixture outputs pass apache2 -t', () => {
    test('an apache2 binary is installed (CI must run this suite, not skip it)', () => {
      expect(apache).not.toBeNull();
    });

    test('the wrapper alone is accepted (the modules it loads exist here)', () => {
      expect(configTest(apache!, 'prefork', '', false)).toEqual({ ok: true, out: 'Syntax OK' });
    });

    test.each(cases.map((c) => [`${c.transform}/${c.name}`, c] as const))('%s', (name, c) => {
      const htaccess = c.name.startsWith('htaccess');
      const mpms = ['prefork', ...(/worker/i.test(c.output) ? ['worker'] : []), ...(/event/i.test(c.output) ? ['event'] : [])];
      for (const mpm of mpms) {
        const r = configTest(apache!, mpm, c.output, htaccess);
        if (EXPECTED_TO_FAIL[name]) {
          expect({ mpm, ok: r.ok }).toEqual({ mpm, ok: false });
        } else {
          expect({ mpm, ...r, out: r.ok ? '' : r.out }).toEqual({ mpm, ok: true, out: '' });
        }
      }
    });

    test.each(INPUT_REFUSED)('the 2.2 input of %s is refused by 2.4', (name) => {
      const c = cases.find((x) => `${x.transform}/${x.name}` === name)!;
      expect(configTest(apache!, 'prefork', c.input, c.name.startsWith('htaccess')).ok).toBe(false);
    });
  });
}
