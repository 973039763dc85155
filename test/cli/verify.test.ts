// --verify: httpd 2.4's config test on the converted tree, in a temporary copy, before
// anything is written; Apache's error lines mapped back to the user's files and lines.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apacheMessages, configTest, findHttpd, verifyPlan } from '../../src/engine/verify.js';
import { plan } from '../../src/engine/run.js';
import type { Transform } from '../../transforms/types.js';
import { describeWithHttpd } from '../helpers/httpd.js';
import { makeTree, removeTree, runCli, snapshot } from '../helpers/tree.js';

let roots: string[] = [];
const tree = (files: Record<string, string>): string => {
  const root = makeTree(files);
  roots.push(root);
  for (const f of Object.keys(files)) {
    const p = join(root, f);
    writeFileSync(p, readFileSync(p, 'latin1').split('@ROOT@').join(root), 'latin1');
  }
  return root;
};
afterEach(() => {
  roots.forEach(removeTree);
  roots = [];
});

// A 2.2 server whose modules/ folder is not on this machine (a checked-out tree): the
// LoadModule lines must be served from the 2.4 installation's module folder.
const SERVER = {
  'conf/httpd.conf': [
    'ServerRoot "@ROOT@"',
    'Listen 127.0.0.1:8080',
    'LoadModule alias_module modules/mod_alias.so',
    'LoadModule dir_module modules/mod_dir.so',
    'ServerName www.example.com',
    'PidFile logs/httpd.pid',
    'Include "@ROOT@/conf.d/*.conf"',
    '<IfModule prefork.c>',
    '    MaxClients 150',
    '</IfModule>',
    '',
  ].join('\n'),
  'conf.d/site.conf': 'Alias /x "@ROOT@/htdocs"\n',
  'htdocs/index.html': 'hi\n',
};

describe('without a usable httpd', () => {
  test('no httpd anywhere: a clear reason naming what to install', () => {
    const r = findHttpd(undefined, { PATH: '' }, []);
    expect(r.httpd).toBeUndefined();
    expect(r.problem).toMatch(/^no Apache httpd found .*install httpd 2\.4 .*--httpd <path>$/);
  });

  test('--httpd that is not an Apache httpd: exit 2, one clear line, nothing written', async () => {
    const root = tree(SERVER);
    const before = snapshot(root);
    const r = await runCli(['--verify', '--httpd', '/bin/true', '.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--verify: /bin/true does not answer -v like an Apache httpd; nothing written');
    expect(snapshot(root)).toEqual(before);
  });

  test("Apache's messages: innermost file of an Include chain, reason on the next line, warnings with their place", () => {
    const out = [
      'AH00526: Syntax error on line 3 of /srv/conf.d/bad.conf:',
      "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
      'apache2: Syntax error on line 7 of /srv/conf/httpd.conf: Syntax error on line 2 of /srv/conf.d/a.conf: Cannot load modules/mod_x.so into server: nope',
      '[Sat Nov 21 23:55:12.391474 2026] [core:warn] [pid 10236:tid 10236] AH00117: Ignoring deprecated use of DefaultType in line 109 of /srv/conf/httpd.conf.',
      'AH00112: Warning: DocumentRoot [/srv/htdocs] does not exist',
      "AH00558: apache2: Could not reliably determine the server's fully qualified domain name",
      'Syntax OK',
    ].join('\n');
    expect(apacheMessages(out, (p) => p.replace('/srv/', ''))).toEqual([
      { severity: 'error', file: 'conf.d/bad.conf', line: 3, message: "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration" },
      { severity: 'error', file: 'conf.d/a.conf', line: 2, message: 'Cannot load modules/mod_x.so into server: nope' },
      { severity: 'warning', file: 'conf/httpd.conf', line: 109, message: 'AH00117: Ignoring deprecated use of DefaultType' },
      { severity: 'warning', file: undefined, line: 0, message: 'AH00112: Warning: DocumentRoot [/srv/htdocs] does not exist' },
    ]);
  });
});

describeWithHttpd('--verify with a real httpd 2.4', (httpd) => {
  test('a tree that passes is written; the missing MPM and module folder are handled and said', async () => {
    const root = tree(SERVER);
    // A private temporary folder, to see that the copy is removed (other workers use the shared one).
    const tmp = makeTree({});
    roots.push(tmp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    let r;
    try {
      // Without the modules transform nothing adds an MPM: --verify's own handling is seen.
      r = await runCli(['--verify', '--skip', 'modules', '.'], root);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'conf/httpd.conf'), 'latin1')).toContain('    MaxRequestWorkers 150\n');
    expect(r.out).toContain('conf/httpd.conf: warning verify: no MPM is loaded');
  });

  test('a failing config test: exit 2, nothing written, errors at the user\'s file and line', async () => {
    const root = tree({ ...SERVER, 'conf.d/zz-bad.conf': '# added by hand\n\nBogusDirective22 on\n' });
    const before = snapshot(root);
    for (const mode of [[], ['--dry-run'], ['--check']]) {
      const r = await runCli(['--verify', ...mode, '.'], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("conf.d/zz-bad.conf:3: apache2 -t: Invalid command 'BogusDirective22'".replace('apache2', httpd.path.split('/').pop()!));
      expect(r.stderr).not.toContain('httpd24-verify-'); // no temporary path leaks out
      if (mode.length === 0) expect(r.stderr).toMatch(/-t fails on the converted configuration \(conf\/httpd\.conf\); nothing written/);
      expect(snapshot(root)).toEqual(before);
    }
  });

  test("Apache's line in the converted text is reported at the user's line", async () => {
    // The two removed lines move BogusDirective22 from line 4 to line 2 of what httpd reads.
    const root = tree({ ...SERVER, 'conf.d/zz-bad.conf': '# by hand\nAuthzUserAuthoritative On\nAuthzGroupFileAuthoritative On\nBogusDirective22 on\n' });
    const r = await runCli(['--verify', '--dry-run', '.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("conf.d/zz-bad.conf:4: apache2 -t: Invalid command 'BogusDirective22'".replace('apache2', httpd.path.split('/').pop()!));
  });

  test('the copy holds the converted text: ServerRoot and absolute Include point into it, lines unchanged', () => {
    // A transform that removes a directive 2.4 rejects: the original fails, the conversion passes.
    const drop: Transform = {
      id: 'drop-bogus', title: 'drop BogusDirective22', kind: 'rewrite', docs: '',
      run(ctx) {
        for (const n of [...ctx.doc.children]) if (n.kind === 'directive' && n.is('BogusDirective22')) n.remove();
      },
    } as Transform;
    const root = tree({ ...SERVER, 'conf.d/zz-bad.conf': 'BogusDirective22 on\nAlias /y "@ROOT@/htdocs"\n' });
    expect(configTest(httpd, join(root, 'conf/httpd.conf'), { before: [`LoadModule mpm_prefork_module ${httpd.modulesDir}/mod_mpm_prefork.so`] }).ok).toBe(false);
    const p = plan(['.'], { cwd: root, mode: 'replace', preserveDefaults: false, transforms: [drop] });
    const v = verifyPlan(p, { httpd, cwd: root, keep: true });
    try {
      expect(v.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(v.ok).toBe(true);
      const copied = readFileSync(join(v.copy!, 'conf/httpd.conf'), 'latin1').split('\n');
      expect(copied[0]).toBe(`ServerRoot "${v.copy}"`);
      expect(copied[6]).toBe(`Include "${v.copy}/conf.d/*.conf"`);
      expect(copied.length).toBe(SERVER['conf/httpd.conf'].split('\n').length);
      expect(readFileSync(join(v.copy!, 'conf.d/zz-bad.conf'), 'latin1')).toBe(`Alias /y "${root}/htdocs"\n`);
    } finally {
      rmSync(v.copy!, { recursive: true, force: true });
    }
    expect(readFileSync(join(root, 'conf.d/zz-bad.conf'), 'latin1')).toContain('BogusDirective22 on'); // the user's file is untouched
  });

  test('a fragment alone is tested inside a server that loads every module', async () => {
    const root = tree({
      'sites/good.conf': '<VirtualHost *:80>\n  ServerName a.example\n  RewriteEngine On\n  Header set X-A 1\n</VirtualHost>\n',
      // SSIAccessEnable is a 2.2 directive 2.4 no longer has; the tool only reports it.
      'sites/bad.conf': '<VirtualHost *:80>\n  ServerName b.example\n  SSIAccessEnable on\n</VirtualHost>\n',
    });
    const good = await runCli(['--verify', '--dry-run', 'sites/good.conf'], root);
    expect([good.code, good.stderr]).toEqual([0, '']);
    const bad = await runCli(['--verify', '--dry-run', 'sites/bad.conf'], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("sites/bad.conf:3: apache2 -t: Invalid command 'SSIAccessEnable'".replace('apache2', httpd.path.split('/').pop()!));
  });

  test('--httpd names the binary to use', async () => {
    const root = tree(SERVER);
    const r = await runCli(['--httpd', httpd.path, '--dry-run', '--verbose', '.'], root);
    expect(r.stderr).toContain(`verified with ${httpd.path} ${httpd.version} -t: conf/httpd.conf`);
    expect(existsSync(join(root, 'conf/httpd.conf'))).toBe(true);
  });
});
