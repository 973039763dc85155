import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTree, removeTree, runCli, snapshot } from '../helpers/tree.js';

// A small server: main config including a vhost folder, CRLF and no-final-newline files,
// a Latin-1 comment, and an .htaccess.
const SERVER = {
  'conf/httpd.conf': 'ServerRoot "@ROOT@"\nListen 80\nInclude conf.d/*.conf\n<IfModule prefork.c>\n    MaxClients 150\n    MaxRequestsPerChild 0\n</IfModule>\n',
  'conf.d/a.conf': '# Caf\xe9\r\n<IfModule worker.c>\r\n  MaxClients 64\r\n</IfModule>\r\n',
  'conf.d/b.conf': '<IfModule prefork.c>\nmaxclients 10\n</IfModule>',
  'conf.d/untouched.conf': 'KeepAlive On\n',
  'htdocs/.htaccess': 'Options -Indexes\n',
};

function server(extra: Record<string, string | Buffer> = {}): string {
  const root = makeTree({ ...SERVER, ...extra });
  const conf = join(root, 'conf/httpd.conf');
  writeFileSync(conf, readFileSync(conf, 'utf8').replace('@ROOT@', root));
  return root;
}

let roots: string[] = [];
const track = (r: string): string => {
  roots.push(r);
  return r;
};
afterEach(() => {
  roots.forEach(removeTree);
  roots = [];
});

describe('dry run', () => {
  test('writes nothing: no file changes bytes or mtime', async () => {
    const root = track(server());
    const before = snapshot(root);
    const r = await runCli(['--dry-run', '.'], root);
    expect(r.code).toBe(1);
    expect(snapshot(root)).toEqual(before);
    const c = await runCli(['--check', '.'], root);
    expect(c.code).toBe(1);
    expect(snapshot(root)).toEqual(before);
  });

  test('its patch, applied with git apply and with patch -p1, gives exactly the in-place result', async () => {
    const root = track(server());
    const viaGit = track(makeTree({}));
    const viaPatch = track(makeTree({}));
    cpSync(root, viaGit, { recursive: true });
    cpSync(root, viaPatch, { recursive: true });
    const r = await runCli(['-n', '.'], root);
    expect(r.out).toContain('diff --git a/conf/httpd.conf b/conf/httpd.conf');
    expect(r.out).toContain('\\ No newline at end of file');
    writeFileSync(join(viaGit, 'p.patch'), r.stdout);
    writeFileSync(join(viaPatch, 'p.patch'), r.stdout);
    execFileSync('git', ['apply', 'p.patch'], { cwd: viaGit });
    execFileSync('patch', ['-p1', '-s', '-i', 'p.patch'], { cwd: viaPatch });
    const w = await runCli(['.'], root);
    expect(w.code).toBe(0);
    const expected = snapshot(root);
    for (const copy of [viaGit, viaPatch]) {
      const got = snapshot(copy);
      got.delete('p.patch');
      for (const [p, v] of expected) expect([p, got.get(p)?.bytes.toString('latin1')]).toEqual([p, v.bytes.toString('latin1')]);
    }
    // The CRLF file kept its line endings and its Latin-1 byte.
    expect(readFileSync(join(root, 'conf.d/a.conf'), 'latin1')).toBe('# Caf\xe9\r\n<IfModule worker.c>\r\n  MaxRequestWorkers 64\r\n</IfModule>\r\n');
  });

  test('--diff-file writes the same patch', async () => {
    const root = track(server());
    const r = await runCli(['-n', '--diff-file', 'out.patch', 'conf', 'conf.d'], root);
    const patch = readFileSync(join(root, 'out.patch'), 'latin1');
    // The file holds the diffs of stdout and nothing else.
    expect(patch.match(/^diff --git .*$/gm)).toEqual(r.out.match(/^diff --git .*$/gm));
    expect(patch).toContain('+    MaxRequestWorkers 150');
    expect(patch).not.toContain('files scanned');
    expect(patch.split('\n').filter((l) => r.out.includes(l)).length).toBe(patch.split('\n').length);
  });

  test('ends with the summary line', async () => {
    const root = track(server());
    // Counts are pinned to one transform: others (changed-defaults…) add their own findings.
    const r = await runCli(['-n', '--only', 'mpm-renames', '.'], root);
    const last = r.out.trimEnd().split('\n').pop();
    expect(last).toBe('5 files scanned, 3 would change, 4 changes, 0 warnings, 0 need manual review, 0 errors');
  });
});

describe('exit codes', () => {
  test('--check: 1 while changes are due, 0 once converted', async () => {
    const root = track(server());
    expect((await runCli(['--check', '.'], root)).code).toBe(1);
    expect((await runCli(['.'], root)).code).toBe(0);
    const again = await runCli(['--check', '.'], root);
    expect(again.code).toBe(0);
    expect(again.out).not.toContain('would change:');
    // Once converted, a dry run of the same transforms has nothing left to say (advice
    // transforms would still report, and rightly exit 1).
    expect((await runCli(['--dry-run', '--only', 'mpm-renames', '.'], root)).code).toBe(0);
  });

  test('a broken file is reported with file and line, the others still convert, exit 2', async () => {
    const root = track(server({ 'conf.d/broken.conf': 'MaxClients 5\n<Directory /x>\nOptions None\n' }));
    const r = await runCli(['.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('conf.d/broken.conf:2: <Directory> opened on line 2 is never closed; file left unchanged');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readFileSync(join(root, 'conf.d/broken.conf'), 'utf8')).toBe('MaxClients 5\n<Directory /x>\nOptions None\n');
    expect(readFileSync(join(root, 'conf.d/b.conf'), 'utf8')).toContain('MaxRequestWorkers 10');
  });

  test('a path that does not exist: exit 2, others processed', async () => {
    const root = track(server());
    const r = await runCli(['nope.conf', 'conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.conf: cannot read: no such file or folder');
    expect(readFileSync(join(root, 'conf/httpd.conf'), 'utf8')).toContain('MaxRequestWorkers 150');
  });

  test('unknown transform id and no paths are usage errors', async () => {
    const root = track(server());
    expect((await runCli(['--only', 'nope', '.'], root)).code).toBe(2);
    expect((await runCli([], root)).code).toBe(2);
  });
});

describe('report formats', () => {
  test('JSON', async () => {
    const root = track(server());
    const r = await runCli(['-n', '--only', 'mpm-renames', '--format', 'json', '.'], root);
    const j = JSON.parse(r.out);
    expect(j.tool).toBe('httpd24-codemod');
    expect(j.mode).toBe('dry-run');
    expect(j.summary).toEqual({ scanned: 5, changed: 3, changes: 4, warnings: 0, manual: 0, errors: 0 });
    expect(j.files).toContainEqual({ path: 'conf/httpd.conf', role: 'main', status: 'changed' });
    expect(j.files).toContainEqual({ path: 'htdocs/.htaccess', role: 'htaccess', status: 'unchanged' });
    expect(j.findings[0]).toEqual({
      transform: 'mpm-renames', file: 'conf.d/a.conf', line: 3, column: 1, severity: 'change',
      message: 'MaxClients is named MaxRequestWorkers in 2.4 (same value; the old name is deprecated)',
      docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#run-time',
    });
  });

  test('SARIF 2.1.0 with rules, locations and fixes', async () => {
    const root = track(server());
    const r = await runCli(['-n', '--only', 'mpm-renames', '--format', 'sarif', '.'], root);
    const s = JSON.parse(r.out);
    expect(s.version).toBe('2.1.0');
    const run = s.runs[0];
    expect(run.tool.driver.name).toBe('httpd24-codemod');
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toContain('mpm-renames');
    const res = run.results.find((x: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) => x.locations[0].physicalLocation.artifactLocation.uri === 'conf/httpd.conf');
    expect(res).toMatchObject({ ruleId: 'mpm-renames', level: 'note', locations: [{ physicalLocation: { region: { startLine: 5 } } }] });
    expect(res.fixes[0].artifactChanges[0].replacements[0]).toEqual({ deletedRegion: { startLine: 5, endLine: 6, startColumn: 1 }, insertedContent: { text: '    MaxRequestWorkers 150\n    MaxConnectionsPerChild 0\n' } });
    for (const x of run.results) expect(run.tool.driver.rules[x.ruleIndex].id).toBe(x.ruleId);
  });

  test('colour: off when not a terminal or NO_COLOR, on with FORCE_COLOR', async () => {
    const root = track(server());
    expect((await runCli(['-n', '.'], root)).out).not.toContain('\x1b[');
    expect((await runCli(['-n', '.'], root, { FORCE_COLOR: '1' })).out).toContain('\x1b[');
    expect((await runCli(['-n', '.'], root, { FORCE_COLOR: '1', NO_COLOR: '1' })).out).not.toContain('\x1b[');
    expect((await runCli(['-n', '--no-color', '.'], root, { FORCE_COLOR: '1' })).out).not.toContain('\x1b[');
  });

  test('--quiet keeps diffs and the summary, drops change findings', async () => {
    const root = track(server());
    const r = await runCli(['-n', '-q', '.'], root);
    expect(r.out).toContain('diff --git');
    expect(r.out).not.toContain(': change mpm-renames:');
    expect(r.out).toContain('files scanned');
  });

  test('--list-transforms and --explain', async () => {
    const root = track(server());
    const l = await runCli(['--list-transforms'], root);
    expect(l.out).toMatch(/^mpm-renames\s+rewrite\s+MaxClients/m);
    const e = await runCli(['--explain', 'mpm-renames'], root);
    expect(e.code).toBe(0);
    expect(e.out).toContain('MaxRequestWorkers');
    expect((await runCli(['--explain', 'nope'], root)).code).toBe(2);
  });
});

describe('selection and inline control', () => {
  test('--skip and --only', async () => {
    const root = track(server());
    expect((await runCli(['--check', '--skip', 'mpm-renames', '.'], root)).code).toBe(0);
    expect((await runCli(['--check', '--only', 'mpm-renames', '.'], root)).code).toBe(1);
  });

  test('disable comments leave the marked lines as they are', async () => {
    const root = track(makeTree({
      'x.conf': '# httpd24-codemod-disable-next-line mpm-renames\nMaxClients 1\nMaxClients 2\n# httpd24-codemod-disable\nMaxClients 3\n# httpd24-codemod-enable\nMaxClients 4\n# httpd24-codemod-disable-next-line other-id\nMaxClients 5\n',
    }));
    await runCli(['x.conf'], root);
    expect(readFileSync(join(root, 'x.conf'), 'utf8')).toBe('# httpd24-codemod-disable-next-line mpm-renames\nMaxClients 1\nMaxRequestWorkers 2\n# httpd24-codemod-disable\nMaxClients 3\n# httpd24-codemod-enable\nMaxRequestWorkers 4\n# httpd24-codemod-disable-next-line other-id\nMaxRequestWorkers 5\n');
  });
});

describe('config tree', () => {
  test('Include outside the given paths is reported, not followed', async () => {
    const outside = track(makeTree({ 'secret.conf': 'MaxClients 1\n' }));
    const root = track(makeTree({ 'httpd.conf': `Include ${outside}/secret.conf\n` }));
    const r = await runCli(['-n', 'httpd.conf'], root);
    expect(r.out).toContain(`httpd.conf:1: warning include: Include ${outside}/secret.conf reaches ${outside}/secret.conf, outside the paths given; not followed (give its folder or --server-root)`);
    expect(r.out).not.toContain('secret.conf b/');
    const withRoot = await runCli(['-n', '--server-root', outside, 'httpd.conf'], root);
    expect(withRoot.out).toContain('+MaxRequestWorkers 1');
  });

  test('Include cycles and self-includes are findings, not crashes', async () => {
    const root = track(makeTree({
      'httpd.conf': 'ServerRoot "."\nInclude a.conf\n',
      'a.conf': 'Include b.conf\nMaxClients 1\n',
      'b.conf': 'Include a.conf\nInclude b.conf\n',
    }));
    const conf = join(root, 'httpd.conf');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('"."', `"${root}"`));
    const r = await runCli(['-n', '.'], root);
    expect(r.stderr).toContain('b.conf:1: Include a.conf includes a.conf, which is already being read (Include cycle); not followed');
    expect(r.stderr).toContain('b.conf:2: Include b.conf includes b.conf, which is already being read (Include cycle); not followed');
    expect(r.out).toContain('+MaxRequestWorkers 1');
  });

  test('a wildcard Include that matches nothing is reported (2.4 refuses to start on it)', async () => {
    const root = track(makeTree({ 'httpd.conf': `ServerRoot "ROOT"\nInclude conf.d/*.conf\n` }));
    writeFileSync(join(root, 'httpd.conf'), `ServerRoot "${root}"\nInclude conf.d/*.conf\n`);
    const r = await runCli(['-n', '.'], root);
    expect(r.out).toContain('httpd.conf:2: warning include: Include conf.d/*.conf matches no file; httpd 2.4 refuses to start on a wildcard Include that matches nothing (IncludeOptional allows it)');
  });

  test('binary files in a walked folder are skipped and reported', async () => {
    const root = track(makeTree({ 'x.conf': Buffer.from([0x4d, 0, 1, 2]), 'y.conf': 'MaxClients 1\n' }));
    const r = await runCli(['-n', '.'], root);
    expect(r.out).toContain('x.conf: warning binary-file: binary file (NUL bytes) skipped');
    expect(r.out).toContain('+MaxRequestWorkers 1');
  });
});

describe('writing', () => {
  test('keeps file mode and rewrites a symlinked file at its target', async () => {
    const root = track(makeTree({ 'real/target.conf': 'MaxClients 7\n', 'site/x.conf': 'MaxClients 8\n' }));
    chmodSync(join(root, 'site/x.conf'), 0o640);
    symlinkSync(join(root, 'real/target.conf'), join(root, 'site/link.conf'));
    const r = await runCli(['site'], root);
    expect(r.code).toBe(0);
    expect(lstatSync(join(root, 'site/link.conf')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'site/link.conf'))).toBe(join(root, 'real/target.conf'));
    expect(readFileSync(join(root, 'real/target.conf'), 'utf8')).toBe('MaxRequestWorkers 7\n');
    expect(lstatSync(join(root, 'site/x.conf')).mode & 0o777).toBe(0o640);
  });

  test('--backup keeps the original and never overwrites an existing backup', async () => {
    const root = track(makeTree({ 'x.conf': 'MaxClients 1\n', 'x.conf.orig': 'older backup\n' }));
    // A word after --backup that does not look like a suffix is a path, not the suffix.
    const r = await runCli(['--backup', 'x.conf'], root);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'x.conf.orig'), 'utf8')).toBe('older backup\n');
    expect(readFileSync(join(root, 'x.conf.orig.1'), 'utf8')).toBe('MaxClients 1\n');
    expect(r.out).toContain('x.conf.orig already exists and is kept; the original is in x.conf.orig.1');
    expect(existsSync(join(root, 'x.conf'))).toBe(true);
  });

  test('no temp files are left behind', async () => {
    const root = track(server());
    await runCli(['.'], root);
    expect([...snapshot(root).keys()].filter((p) => p.includes('httpd24-codemod'))).toEqual([]);
  });
});
