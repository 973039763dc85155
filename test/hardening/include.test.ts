// Include and IncludeOptional as Apache reads them, and never beyond the paths given.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBytes, runCli, useTempTrees } from '../helpers/tree.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');

const { tree } = useTempTrees();
/** A tree whose httpd.conf starts with `ServerRoot "<root>"`. */
const server = (files: Record<string, string | Buffer>): string => {
  const r = tree(files);
  const main = join(r, 'httpd.conf');
  writeFileSync(main, `ServerRoot "${r}"\n` + readFileSync(main, 'latin1'), 'latin1');
  return r;
};
const read = readBytes;
const jsonRun = async (root: string, args: string[] = []) => {
  const r = await runCli(['-n', '--format', 'json', ...args, 'httpd.conf'], root);
  return { code: r.code, stderr: r.stderr, json: JSON.parse(r.stdout.toString('utf8')) as { files: Array<{ path: string; role: string }>; findings: Array<{ transform: string; file: string; line: number; severity: string; message: string }> } };
};

/** Records every path the run reads, opens or lists. */
async function touchedPaths<T>(fn: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
  const paths: string[] = [];
  const spies = (['readFileSync', 'openSync', 'readdirSync', 'opendirSync'] as const).map((name) => {
    const real = fs[name] as (...a: unknown[]) => unknown;
    return jest.spyOn(fs, name).mockImplementation(((...a: unknown[]) => {
      paths.push(String(a[0]));
      return real(...a);
    }) as never);
  });
  try {
    return { result: await fn(), paths };
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
}

describe('cycles and nesting', () => {
  test('A includes B includes A, and a file that includes itself through a wildcard', async () => {
    const root = server({ 'httpd.conf': 'Include a.conf\n', 'a.conf': 'Include b.conf\nMaxClients 1\n', 'b.conf': 'Include a.conf\nInclude *.conf\n' });
    const r = await runCli(['httpd.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('b.conf:1: Include a.conf includes a.conf, which is already being read (Include cycle); not followed');
    expect(r.stderr).toContain('b.conf:2: Include *.conf includes a.conf, which is already being read (Include cycle); not followed');
    expect(r.stderr).toContain('b.conf:2: Include *.conf includes b.conf, which is already being read (Include cycle); not followed');
    expect(read(root, 'a.conf')).toBe('Include b.conf\nMaxRequestWorkers 1\n');
  });

  test('Include files nested deeper than Apache allows (128) stop with an error', async () => {
    const files: Record<string, string> = { 'httpd.conf': 'Include f0.conf\n' };
    for (let i = 0; i < 200; i++) files[`f${i}.conf`] = `Include f${i + 1}.conf\nMaxClients ${i}\n`;
    files['f200.conf'] = 'MaxClients 200\n';
    const root = server(files);
    const r = await runCli(['httpd.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('f127.conf:1: Include f128.conf: Include files nest deeper than 128 levels, which Apache refuses ("Exceeded maximum include depth"); not followed\n');
    expect(read(root, 'f127.conf')).toBe('Include f128.conf\nMaxRequestWorkers 127\n');
    expect(read(root, 'f128.conf')).toBe('Include f129.conf\nMaxClients 128\n');
  });
});

describe('wildcards', () => {
  test('thousands of matches: all read once, in byte order, quickly', async () => {
    const files: Record<string, string> = { 'httpd.conf': 'Include vhosts/*.conf\n' };
    const names: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const name = `${i % 2 === 0 ? 'V' : 'v'}host${i}.conf`; // upper case sorts first in byte order
      names.push(name);
      files[`vhosts/${name}`] = `<VirtualHost *:80>\nServerName h${i}\nMaxClients ${i}\n</VirtualHost>\n`;
    }
    const root = server(files);
    const t0 = Date.now();
    const { json, code } = await jsonRun(root);
    expect(Date.now() - t0).toBeLessThan(60_000); // ~1 s measured
    expect(code).toBe(1);
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(json.files.slice(1).map((f) => f.path)).toEqual(sorted.map((n) => `vhosts/${n}`));
    expect(json.files.slice(1).every((f) => f.role === 'included')).toBe(true);
  });

  test('IncludeOptional of a missing path or an empty wildcard is silent; Include of a missing path warns', async () => {
    const root = server({ 'httpd.conf': 'IncludeOptional nope.conf\nIncludeOptional none/*.conf\nInclude missing.conf\nMaxClients 1\n' });
    const { json, code } = await jsonRun(root);
    expect(code).toBe(1);
    // The engine's own Include findings (transforms report other things about this file).
    expect(json.findings.filter((f) => f.transform === 'include')).toEqual([
      expect.objectContaining({ line: 4, severity: 'warning', message: `Include missing.conf: ${root}/missing.conf does not exist` }),
    ]);
  });
});

describe('Include of a folder', () => {
  test('reads every file below it, dot files and subfolders too, in byte order', async () => {
    const root = server({
      'httpd.conf': 'Include conf.d\n',
      'conf.d/b.conf': 'MaxClients 2\n',
      'conf.d/A-upper': 'MaxClients 1\n',
      'conf.d/.hidden': 'MaxClients 0\n',
      'conf.d/sub/z.txt': 'MaxClients 4\n',
      'conf.d/c~': 'MaxClients 3\n',
    });
    const { json } = await jsonRun(root);
    expect(json.files.map((f) => f.path)).toEqual(['httpd.conf', 'conf.d/.hidden', 'conf.d/A-upper', 'conf.d/b.conf', 'conf.d/c~', 'conf.d/sub/z.txt']);
  });

  test('a temp file a killed run left behind is named, not read as configuration', async () => {
    const root = server({ 'httpd.conf': 'Include conf.d\n', 'conf.d/a.conf': 'MaxClients 1\n', 'conf.d/.a.conf.httpd24-codemod-4242-0badf00d.tmp': 'MaxReq' });
    const { json } = await jsonRun(root);
    expect(json.files.map((f) => f.path)).toEqual(['httpd.conf', 'conf.d/a.conf']);
    expect(json.findings).toContainEqual(expect.objectContaining({ line: 2, severity: 'warning', message: 'Include conf.d: conf.d/.a.conf.httpd24-codemod-4242-0badf00d.tmp is a temp file left by a run of httpd24-codemod that was killed; Apache reads it where a whole folder is included: remove it' }));
  });

  test('a symbolic link loop inside is an error, not a hang', async () => {
    const root = server({ 'httpd.conf': 'Include conf.d\n', 'conf.d/sub/a.conf': 'MaxClients 1\n' });
    symlinkSync('..', join(root, 'conf.d/sub/up'));
    const r = await runCli(['httpd.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('httpd.conf:2: Include conf.d: folder conf.d/sub/up leads back into conf.d (a symbolic link loop); Apache refuses to start on it; not followed further\n');
    expect(read(root, 'conf.d/sub/a.conf')).toBe('MaxRequestWorkers 1\n');
  });

  test('folders nested deeper than 128 levels stop with an error', async () => {
    const root = server({ 'httpd.conf': 'Include d\n' });
    const deep = join(root, 'd', ...Array.from({ length: 130 }, () => 'x'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'a.conf'), 'MaxClients 1\n');
    const r = await runCli(['httpd.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^httpd\.conf:2: Include d: folder d(\/x){128} is nested more than 128 levels deep, which Apache refuses; not followed further\n$/);
  });

  test('a binary or unreadable entry is an error (Apache would fail on it too); the rest is read', async () => {
    const root = server({ 'httpd.conf': 'Include conf.d\n', 'conf.d/a.conf': 'MaxClients 1\n', 'conf.d/logo.png': Buffer.from([0x89, 0x50, 0, 0]) });
    symlinkSync(join(root, 'nowhere'), join(root, 'conf.d/dangling'));
    const r = await runCli(['httpd.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('conf.d/logo.png: binary file (NUL bytes), not a configuration file; left alone\n');
    expect(r.out).toContain('httpd.conf:2: warning include: Include conf.d: conf.d/dangling is a dangling symbolic link; Apache cannot read it');
    expect(read(root, 'conf.d/a.conf')).toBe('MaxRequestWorkers 1\n');
  });
});

describe('never beyond the paths given', () => {
  test('Include /etc/shadow, Include /, Include /etc/*: reported, and nothing outside is read or listed', async () => {
    const root = server({ 'httpd.conf': 'Include /etc/shadow\nInclude /\nInclude /etc/*\nIncludeOptional /etc/apache2/*.conf\nInclude ../../etc/passwd\nMaxClients 1\n' });
    const { result, paths } = await touchedPaths(() => jsonRun(root));
    const messages = result.json.findings.map((f) => `${f.line}: ${f.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      '2: Include /etc/shadow reaches /etc/shadow, outside the paths given; not followed (give its folder or --server-root)',
      '3: Include / reaches /, outside the paths given; not followed (give its folder or --server-root)',
      '4: Include /etc/* reaches /etc/*, outside the paths given; not followed (give its folder or --server-root)',
      '5: IncludeOptional /etc/apache2/*.conf reaches /etc/apache2/*.conf, outside the paths given; not followed (give its folder or --server-root)',
      '6: Include ../../etc/passwd reaches /etc/passwd, outside the paths given; not followed (give its folder or --server-root)',
    ]));
    expect(paths).toContain(join(root, 'httpd.conf')); // the spy sees the reads
    const outside = paths.filter((p) => !p.startsWith(root) && !p.endsWith('package.json'));
    expect(outside).toEqual([]);
  });

  test('a symbolic link inside the tree that points outside is not followed', async () => {
    const secret = tree({ 'secret.conf': 'MaxClients 1\n' });
    const root = server({ 'httpd.conf': 'Include conf.d/*.conf\nInclude linked\n', 'conf.d/ok.conf': 'MaxClients 2\n' });
    symlinkSync(join(secret, 'secret.conf'), join(root, 'conf.d/evil.conf'));
    symlinkSync(secret, join(root, 'linked'));
    const { result, paths } = await touchedPaths(() => jsonRun(root));
    expect(result.json.findings.map((f) => f.message)).toEqual(expect.arrayContaining([
      `Include conf.d/*.conf reaches ${secret}/secret.conf, outside the paths given; not followed (give its folder or --server-root)`,
      `Include linked reaches ${secret}, outside the paths given; not followed (give its folder or --server-root)`,
    ]));
    expect(paths.filter((p) => p.startsWith(secret))).toEqual([]);
    expect(result.json.files.map((f) => f.path)).toEqual(['httpd.conf', 'conf.d/ok.conf']);
  });

  test('many matches outside give one finding', async () => {
    const outside = tree(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`o${i}.conf`, 'X 1\n'])));
    const root = server({ 'httpd.conf': 'Include inside/*.conf\n', 'inside/own.conf': 'MaxClients 1\n' });
    for (let i = 0; i < 50; i++) symlinkSync(join(outside, `o${i}.conf`), join(root, `inside/l${i}.conf`));
    const { json } = await jsonRun(root);
    const about = json.findings.filter((f) => f.message.includes('outside the paths given'));
    expect(about).toHaveLength(1);
    expect(about[0].message).toMatch(/reaches .*o0\.conf and 49 more, outside the paths given/);
  });
});
