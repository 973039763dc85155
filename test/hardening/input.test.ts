// Bad input: every case is reported in one line naming file (and line where there is
// one), the other files are still converted, and the exit code is 2 when something could
// not be done.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBytes, runCli, snapshot, useTempTrees } from '../helpers/tree.js';

const { tree } = useTempTrees();
const mkfifoSync = (p: string): void => void execFileSync('mkfifo', [p]);
const read = readBytes;

/** Every error on stderr is one line: `file[:line]: message`, no stack trace. */
function expectOneLineErrors(stderr: string): void {
  for (const l of stderr.split('\n').filter(Boolean)) expect(l).toMatch(/^[^\s:][^:]*(:\d+)?: \S/);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('binary and damaged files', () => {
  test('a binary file in a walked folder is skipped with a warning; the rest is converted', async () => {
    const root = tree({ 'conf.d/x.conf': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]), 'conf.d/y.conf': 'MaxClients 1\n' });
    const r = await runCli(['.'], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('conf.d/x.conf: warning binary-file: binary file (NUL bytes) skipped');
    expect(read(root, 'conf.d/y.conf')).toBe('MaxRequestWorkers 1\n');
    expect(readFileSync(join(root, 'conf.d/x.conf'))).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
  });

  test('a binary file given by name is an error (exit 2)', async () => {
    const root = tree({ 'x.conf': Buffer.from('MaxClients 1\n\0\0'), 'y.conf': 'MaxClients 2\n' });
    const r = await runCli(['x.conf', 'y.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('x.conf: binary file (NUL bytes), not a configuration file; left alone\n');
    expect(read(root, 'y.conf')).toBe('MaxRequestWorkers 2\n');
  });

  test('a NUL byte past the first 8 KiB: error naming the line, file unchanged', async () => {
    const text = '# padding\n'.repeat(1000) + 'MaxClients 1\nServerName a\0b\nMaxClients 2\n';
    const root = tree({ 'damaged.conf': text, 'ok.conf': 'MaxClients 3\n' });
    const r = await runCli(['.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('damaged.conf:1002: NUL byte on line 1002 (a damaged file?): Apache ignores the rest of that line; file left unchanged\n');
    expect(read(root, 'damaged.conf')).toBe(text);
    expect(read(root, 'ok.conf')).toBe('MaxRequestWorkers 3\n');
  });

  test('a FIFO named like a config file and /dev/zero given by name do not hang the run', async () => {
    const root = tree({ 'ok.conf': 'MaxClients 3\nInclude pipe.conf\n' });
    mkfifoSync(join(root, 'pipe.conf'));
    const r = await runCli(['.', '/dev/zero'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/dev/zero: not a regular file');
    expect(r.stderr).toContain('pipe.conf: not a regular file');
    expect(read(root, 'ok.conf')).toBe('MaxRequestWorkers 3\nInclude pipe.conf\n');
  });
});

describe('size', () => {
  test('a file over 256 MiB is refused before it is read (a sparse file: no disk used)', async () => {
    const root = tree({ 'ok.conf': 'MaxClients 1\n', 'huge.conf': '' });
    truncateSync(join(root, 'huge.conf'), 0);
    truncateSync(join(root, 'huge.conf'), 300 * 1024 * 1024);
    const r = await runCli(['.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('huge.conf: 300 MiB is more than the 256 MiB a configuration file can be here; left alone\n');
    expect(read(root, 'ok.conf')).toBe('MaxRequestWorkers 1\n');
  });
});

describe('encodings', () => {
  test('Latin-1 and invalid UTF-8 bytes are kept exactly; only the edited name changes', async () => {
    // \xe9 (Latin-1 é), a lone continuation byte, an overlong sequence, CRLF, no final newline.
    const text = '# Caf\xe9 \x80\xc0\xaf\r\nServerAdmin m\xfcller@example.org\r\nMaxClients 150 \xff\xfe\r\nAlias /d\xe9j\xe0 "/srv/d\xe9j\xe0"';
    const root = tree({ 'l1.conf': text });
    const r = await runCli(['-n', '--format', 'json', 'l1.conf'], root);
    const j = JSON.parse(r.stdout.toString('utf8'));
    expect(j.summary.changed).toBe(1);
    await runCli(['l1.conf'], root);
    expect(read(root, 'l1.conf')).toBe(text.replace('MaxClients', 'MaxRequestWorkers'));
  });

  test('bytes that are not UTF-8 are shown as \\xNN in findings, and JSON stays valid', async () => {
    const root = tree({ 'httpd.conf': 'Include caf\xe9/*.conf\nMaxClients 1\n' });
    const r = await runCli(['-n', '--format', 'json', 'httpd.conf'], root);
    const j = JSON.parse(r.stdout.toString('utf8'));
    expect(j.findings.map((f: { message: string }) => f.message)).toContain('Include caf\\xe9/*.conf matches no file; httpd 2.4 refuses to start on a wildcard Include that matches nothing (IncludeOptional allows it)');
  });

  test('a UTF-8 BOM and a UTF-8 path survive; the patch applies to the same bytes', async () => {
    const root = tree({ 'site-ü.conf': '\xef\xbb\xbfMaxClients 1\n# \xc3\xbc\n' });
    const r = await runCli(['-n', '.'], root);
    expect(r.out).toContain('diff --git "a/site-\\303\\274.conf" "b/site-\\303\\274.conf"');
    await runCli(['.'], root);
    expect(read(root, 'site-ü.conf')).toBe('\xef\xbb\xbfMaxRequestWorkers 1\n# \xc3\xbc\n');
  });
});

describe('sections', () => {
  test('sections nested 10,000 deep convert without recursion', async () => {
    const open = Array.from({ length: 10_000 }, (_, i) => `<IfModule m${i}.c>\n`).join('');
    const close = '</IfModule>\n'.repeat(10_000);
    const root = tree({ 'deep.conf': open + 'MaxClients 5\n' + close });
    const t0 = Date.now();
    const r = await runCli(['deep.conf'], root);
    expect(r.code).toBe(0);
    expect(read(root, 'deep.conf')).toBe(open + 'MaxRequestWorkers 5\n' + close);
    expect(Date.now() - t0).toBeLessThan(30_000); // ~0.3 s measured
  });

  test('10,000 unclosed sections: a capped list of errors, file unchanged, others converted', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `<Directory /d${i}>\n`).join('') + 'MaxClients 5\n';
    const root = tree({ 'open.conf': text, 'ok.conf': 'MaxClients 1\n' });
    const r = await runCli(['.'], root);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('open.conf:1: <Directory> opened on line 1 is never closed; file left unchanged');
    expect(lines[20]).toBe('open.conf:21: 9980 more parse problems on lines 21 to 10000, not listed one by one; file left unchanged');
    expectOneLineErrors(r.stderr);
    expect(read(root, 'open.conf')).toBe(text);
    expect(read(root, 'ok.conf')).toBe('MaxRequestWorkers 1\n');
  });

  test('stray and mismatched close tags: error with line, file unchanged', async () => {
    const stray = 'MaxClients 1\n</Directory>\n';
    const mismatched = '<Directory /x>\n<Files a>\nMaxClients 1\n</Directory>\n</Files>\n';
    const root = tree({ 'stray.conf': stray, 'mismatched.conf': mismatched });
    const r = await runCli(['.'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stray.conf:2: </Directory> without a matching <Directory>; file left unchanged');
    expect(r.stderr).toContain('mismatched.conf:2: <Files> opened on line 2 is closed by </Directory> on line 4 first; file left unchanged');
    expect(r.stderr).toContain('mismatched.conf:5: </Files> without a matching <Files>; file left unchanged');
    expectOneLineErrors(r.stderr);
    expect(read(root, 'stray.conf')).toBe(stray);
    expect(read(root, 'mismatched.conf')).toBe(mismatched);
  });

  test('10,000 unclosed sections followed by 10,000 stray close tags parse in linear time', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `<IfModule m${i}>\n`).join('') + '</Other>\n'.repeat(10_000);
    const root = tree({ 'x.conf': text });
    const t0 = Date.now();
    const r = await runCli(['-n', 'x.conf'], root);
    expect(r.code).toBe(2);
    expect(Date.now() - t0).toBeLessThan(30_000); // 4.2 s before the fix, 0.2 s after
  });

  test('odd spacing, "!", unexpected case and quoted paths with spaces are read as Apache reads them', async () => {
    const text = [
      '<IfModule   !mod_foo.c  >',
      '<ifmodule\tprefork.c>',
      '  maxclients 10',
      '  MAXREQUESTSPERCHILD 0',
      '</IFMODULE >',
      '</IfModule>',
      '<IfDefine !SSL>',
      '<Directory "/var/www/my site">',
      '  mAxClIeNtS 3',
      '</Directory>',
      '<Directory \'/srv/it\\\'s here\'>',
      '</directory>',
      '<Directory "/a \\"quoted\\" dir">',
      '</Directory>',
      '</IfDefine>',
      '',
    ].join('\n');
    const root = tree({ 'odd.conf': text });
    const r = await runCli(['odd.conf'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(read(root, 'odd.conf')).toBe(text.replace('maxclients', 'MaxRequestWorkers').replace('MAXREQUESTSPERCHILD', 'MaxConnectionsPerChild').replace('mAxClIeNtS', 'MaxRequestWorkers'));
  });
});

describe('${VAR} and Define', () => {
  test('${VAR} with no Define in Include and ServerRoot: warnings with line, not followed, exit 0', async () => {
    const root = tree({ 'httpd.conf': 'ServerRoot ${ROOT}\nInclude ${CONFDIR}/*.conf\nMaxClients 1\n', 'conf.d/a.conf': 'MaxClients 2\n' });
    const r = await runCli(['httpd.conf'], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('httpd.conf:1: warning server-root: ServerRoot uses ${ROOT}, which is not defined; relative paths resolve against . (use --server-root or --define)');
    expect(r.out).toContain('httpd.conf:2: warning include: Include ${CONFDIR}/*.conf: ${CONFDIR} is not defined (use --define); not followed');
    expect(read(root, 'conf.d/a.conf')).toBe('MaxClients 2\n');
    const d = await runCli(['--define', 'CONFDIR=conf.d', 'httpd.conf'], root);
    expect(d.code).toBe(0);
    expect(read(root, 'conf.d/a.conf')).toBe('MaxRequestWorkers 2\n');
  });
});

describe('files that go away or cannot be followed', () => {
  test('dangling symlinks and symlink loops in a walked folder are skipped with a warning', async () => {
    const root = tree({ 'conf.d/ok.conf': 'MaxClients 1\n' });
    symlinkSync(join(root, 'nowhere.conf'), join(root, 'conf.d/dangling.conf'));
    symlinkSync(join(root, 'conf.d/loop-b.conf'), join(root, 'conf.d/loop-a.conf'));
    symlinkSync(join(root, 'conf.d/loop-a.conf'), join(root, 'conf.d/loop-b.conf'));
    symlinkSync(join(root, 'conf.d'), join(root, 'conf.d/self')); // a folder loop
    const r = await runCli(['conf.d'], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('conf.d/dangling.conf: warning read-error: a dangling symbolic link, skipped');
    expect(r.out).toContain('conf.d/loop-a.conf: warning read-error: a symbolic link loop, skipped');
    expect(r.out).toContain('1 file scanned, 1 changed');
    expect(read(root, 'conf.d/ok.conf')).toBe('MaxRequestWorkers 1\n');
  });

  test('a symlinked folder is walked, its files rewritten at their real place', async () => {
    const root = tree({ 'sites-available/a.conf': 'MaxClients 1\n' });
    symlinkSync(join(root, 'sites-available'), join(root, 'enabled'));
    const r = await runCli(['enabled'], root);
    expect(r.code).toBe(0);
    expect(read(root, 'sites-available/a.conf')).toBe('MaxRequestWorkers 1\n');
  });

  test('a symbolic link given by name that dangles or loops: error, others converted', async () => {
    const root = tree({ 'ok.conf': 'MaxClients 1\n' });
    symlinkSync(join(root, 'nowhere.conf'), join(root, 'dangling.conf'));
    symlinkSync(join(root, 'loop.conf'), join(root, 'loop.conf'));
    const r = await runCli(['dangling.conf', 'loop.conf', 'ok.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('dangling.conf: cannot read: no such file or folder');
    expect(r.stderr).toContain('loop.conf: cannot read: too many levels of symbolic links');
    expect(read(root, 'ok.conf')).toBe('MaxRequestWorkers 1\n');
  });

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  /** Runs the CLI with `remove` deleted right before fs.<fn> is first called on `trigger`. */
  async function runRemoving(fn: 'readFileSync' | 'lstatSync', trigger: string, remove: string, root: string) {
    const real = fs[fn] as (...a: unknown[]) => unknown;
    const spy = jest.spyOn(fs, fn).mockImplementation(((...a: unknown[]) => {
      if (String(a[0]) === trigger && fs.existsSync(remove)) fs.unlinkSync(remove);
      return real(...a);
    }) as never);
    try {
      return await runCli(['.'], root);
    } finally {
      spy.mockRestore();
    }
  }

  test('a file that vanishes between discovery and read: error naming it, others converted', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n', 'b.conf': 'MaxClients 2\n', 'c.conf': 'MaxClients 3\n' });
    const r = await runRemoving('readFileSync', join(root, 'b.conf'), join(root, 'b.conf'), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('b.conf: cannot read: no such file or folder\n');
    expect(read(root, 'a.conf')).toBe('MaxRequestWorkers 1\n');
    expect(read(root, 'c.conf')).toBe('MaxRequestWorkers 3\n');
  });

  test('a file that vanishes while its folder is listed: a warning, not a dangling link', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n', 'b.conf': 'MaxClients 2\n' });
    const r = await runRemoving('lstatSync', join(root, 'b.conf'), join(root, 'b.conf'), root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('b.conf: warning read-error: vanished while its folder was read (no such file or folder); skipped');
    expect(read(root, 'a.conf')).toBe('MaxRequestWorkers 1\n');
  });

  test('a run on a tree with every kind of trouble at once still converts the good files', async () => {
    const root = tree({
      'conf/httpd.conf': 'ServerRoot "@"\nInclude conf.d\nInclude ${NOPE}/x.conf\nMaxClients 9\n',
      'conf.d/good.conf': 'MaxClients 1\n',
      'conf.d/bin.conf': Buffer.from([1, 0, 2]),
      'conf.d/open.conf': '<Directory /x>\n',
      'other/good.conf': 'MaxClients 2\n',
    });
    writeFileSync(join(root, 'conf/httpd.conf'), read(root, 'conf/httpd.conf').replace('"@"', `"${root}"`));
    const before = snapshot(root);
    symlinkSync(join(root, 'nowhere'), join(root, 'conf.d/dangling.conf'));
    const r = await runCli(['.'], root);
    expect(r.code).toBe(2);
    expectOneLineErrors(r.stderr);
    expect(read(root, 'conf/httpd.conf')).toContain('MaxRequestWorkers 9');
    expect(read(root, 'conf.d/good.conf')).toBe('MaxRequestWorkers 1\n');
    expect(read(root, 'other/good.conf')).toBe('MaxRequestWorkers 2\n');
    for (const p of ['conf.d/bin.conf', 'conf.d/open.conf']) expect(readFileSync(join(root, p))).toEqual(before.get(p)!.bytes);
  });
});
