// Faults while writing: whatever fails, every file is either its old bytes or its new
// bytes, no temp file stays behind, the failure is reported and the run goes on.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apply, plan } from '../../src/engine/run.js';
import { mpmRenames } from '../../transforms/mpm-renames.js';
import type { Transform } from '../../transforms/types.js';
import { readBytes, runCli, useTempTrees } from '../helpers/tree.js';
import { asNobody, BIN, cannotDropPrivileges, cannotMountTmpfs, chownR, requireBuilt, run, testIf } from '../helpers/system.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');

const { tree, track } = useTempTrees();
const read = readBytes;

/** Every file below root, recursively, as relative paths. */
function listAll(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).map(String).sort();
}
const temps = (root: string): string[] => listAll(root).filter((p) => p.includes('.httpd24-codemod-'));

/** A transform that renames in one file and edits another through the tree: the two form one group. */
const pairTransform: Transform = {
  id: 'pair',
  title: 'edits a.conf and b.conf together',
  kind: 'rewrite',
  reach: 'tree',
  docs: '',
  run(ctx) {
    if (!ctx.file.path.endsWith('a.conf')) return;
    const b = ctx.tree.files.find((f) => f.path.endsWith('b.conf'))!;
    for (const f of [ctx.file, b]) {
      const d = f.doc.children.find((n) => n.kind === 'directive');
      if (d?.kind === 'directive' && d.is('MaxClients')) d.rename('MaxRequestWorkers');
    }
  },
};

describe('the file changed on disk after it was read', () => {
  test.each([
    ['same size, other bytes', (p: string) => writeFileSync(p, 'MaxClients 9\n')],
    ['another size', (p: string) => writeFileSync(p, 'MaxClients 1000\n')],
    ['deleted', (p: string) => rmSync(p)],
  ])('%s: not overwritten, reported, the other files written', async (_, change) => {
    const root = tree({ 'a.conf': 'MaxClients 1\n', 'x.conf': 'MaxClients 2\n' });
    const p = plan(['.'], { cwd: root, mode: 'replace', preserveDefaults: false, transforms: [mpmRenames] });
    change(join(root, 'a.conf'));
    const after = existsSync(join(root, 'a.conf')) ? read(root, 'a.conf') : null;
    const findings = await apply(p);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ transform: 'write', file: 'a.conf', severity: 'error' });
    expect(findings[0].message).toMatch(/^the file (changed on disk after it was read; not overwritten \(run again\)|can no longer be read \(.*\))$/);
    expect(existsSync(join(root, 'a.conf')) ? read(root, 'a.conf') : null).toBe(after);
    expect(read(root, 'x.conf')).toBe('MaxRequestWorkers 2\n');
    expect(temps(root)).toEqual([]);
  });

  test('the same bytes written again (only the mtime changed) is no conflict', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n' });
    const p = plan(['.'], { cwd: root, mode: 'replace', preserveDefaults: false, transforms: [mpmRenames] });
    writeFileSync(join(root, 'a.conf'), 'MaxClients 1\n');
    expect(await apply(p)).toEqual([]);
    expect(read(root, 'a.conf')).toBe('MaxRequestWorkers 1\n');
  });

  test('in a group of files edited together, one changed file keeps the whole group unwritten', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n', 'b.conf': 'MaxClients 2\n' });
    const p = plan(['.'], { cwd: root, mode: 'replace', preserveDefaults: false, transforms: [pairTransform] });
    expect(p.groups.filter((g) => g.length === 2)).toHaveLength(1);
    writeFileSync(join(root, 'b.conf'), 'MaxClients 3\n');
    const findings = await apply(p);
    expect(findings.map((f) => `${f.file}: ${f.message}`).sort()).toEqual([
      'a.conf: not written because b.conf could not be (the file changed on disk after it was read; not overwritten (run again))',
      'b.conf: the file changed on disk after it was read; not overwritten (run again)',
    ]);
    expect(read(root, 'a.conf')).toBe('MaxClients 1\n');
    expect(temps(root)).toEqual([]);
  });
});

describe('a write that fails (injected into fs: the engine code path is the production one)', () => {
  const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

  test('the temp file cannot be written: original intact, temp removed, next files written', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n', 'b.conf': 'MaxClients 2\n', 'c.conf': 'MaxClients 3\n' });
    const real = fs.writeSync;
    let calls = 0;
    const spy = jest.spyOn(fs, 'writeSync').mockImplementation(((...a: Parameters<typeof fs.writeSync>) => {
      if (++calls === 2) throw enospc(); // the second file's temp
      return (real as (...x: unknown[]) => number)(...a);
    }) as typeof fs.writeSync);
    let r;
    try {
      r = await runCli(['.'], root);
    } finally {
      spy.mockRestore();
    }
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('b.conf: cannot write in .: no space left on the device; file unchanged\n');
    expect([read(root, 'a.conf'), read(root, 'b.conf'), read(root, 'c.conf')]).toEqual(['MaxRequestWorkers 1\n', 'MaxClients 2\n', 'MaxRequestWorkers 3\n']);
    expect(temps(root)).toEqual([]);
    expect(r.out).toContain('3 files scanned, 2 changed');
  });

  test('the rename of the second file of a group fails: the first is put back, both reported', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n', 'b.conf': 'MaxClients 2\n' });
    const p = plan(['.'], { cwd: root, mode: 'replace', preserveDefaults: false, transforms: [pairTransform] });
    const real = fs.renameSync;
    const spy = jest.spyOn(fs, 'renameSync').mockImplementation(((from: string, to: string) => {
      if (String(to).endsWith('b.conf')) throw Object.assign(new Error('EIO'), { code: 'EIO' });
      real(from, to);
    }) as typeof fs.renameSync);
    let findings;
    try {
      findings = await apply(p);
    } finally {
      spy.mockRestore();
    }
    expect(findings.map((f) => `${f.file}: ${f.message}`).sort()).toEqual([
      'a.conf: not written because b.conf could not be (input/output error); file unchanged',
      'b.conf: cannot replace b.conf: input/output error; file unchanged',
    ]);
    expect([read(root, 'a.conf'), read(root, 'b.conf')]).toEqual(['MaxClients 1\n', 'MaxClients 2\n']);
    expect(temps(root)).toEqual([]);
  });
});

describe('--diff-file', () => {
  test('naming one of the files being converted is refused before anything is written', async () => {
    const root = tree({ 'conf/httpd.conf': 'MaxClients 1\n' });
    symlinkSync(join(root, 'conf/httpd.conf'), join(root, 'link.patch'));
    for (const name of ['conf/httpd.conf', 'link.patch']) {
      const r = await runCli(['--diff-file', name, 'conf'], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`httpd24-codemod: --diff-file ${name} is conf/httpd.conf, one of the configuration files being converted; choose another name (nothing was written)\n`);
      expect(read(root, 'conf/httpd.conf')).toBe('MaxClients 1\n');
    }
  });

  test('a patch that cannot be written is an error; the conversion itself stands', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n' });
    const r = await runCli(['--diff-file', 'no/such/folder/x.patch', 'a.conf'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('no/such/folder/x.patch: cannot write the patch: no such file or folder\n');
    expect(read(root, 'a.conf')).toBe('MaxRequestWorkers 1\n');
  });
});

describe('files that are more than one name', () => {
  test('a hard-linked file: converted under the name given, the other name keeps the old text, said so', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n' });
    fs.linkSync(join(root, 'a.conf'), join(root, 'other-name'));
    const r = await runCli(['a.conf'], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('a.conf: warning write: this file had 2 names (hard links); only this name holds the converted text, the others keep the old one');
    expect(read(root, 'a.conf')).toBe('MaxRequestWorkers 1\n');
    expect(read(root, 'other-name')).toBe('MaxClients 1\n');
  });
});

describe('--backup', () => {
  test('never overwrites: .orig, then .orig.1, .orig.2 …, each holding the bytes before that run', async () => {
    const root = tree({ 'x.conf': 'MaxClients 1\n', 'x.conf.orig': 'mine\n', 'x.conf.orig.1': 'mine too\n' });
    const r = await runCli(['--backup', '.orig', 'x.conf'], root);
    expect(r.code).toBe(0);
    expect(read(root, 'x.conf.orig')).toBe('mine\n');
    expect(read(root, 'x.conf.orig.1')).toBe('mine too\n');
    expect(read(root, 'x.conf.orig.2')).toBe('MaxClients 1\n');
    expect(r.out).toContain('x.conf: warning write: x.conf.orig already exists and is kept; the original is in x.conf.orig.2');
  });

  test('a backup name that is a dangling symbolic link is not written through', async () => {
    const root = tree({ 'x.conf': 'MaxClients 1\n' });
    const victim = join(root, 'victim');
    symlinkSync(victim, join(root, 'x.conf~'));
    const r = await runCli(['--backup', '~', 'x.conf'], root);
    expect(r.code).toBe(0);
    expect(existsSync(victim)).toBe(false);
    expect(read(root, 'x.conf~.1')).toBe('MaxClients 1\n');
  });

  test('a suffix with a slash is a path, so no backup lands in another folder', async () => {
    const root = tree({ 'conf/x.conf': 'MaxClients 1\n' });
    const r = await runCli(['--backup', './conf'], root);
    expect(r.code).toBe(0);
    expect(listAll(root)).toEqual(['conf', 'conf/x.conf', 'conf/x.conf.orig']);
  });
});

describe('real faults (the built command, as nobody or on a file system of its own)', () => {
  beforeAll(requireBuilt);

  /** A tree nobody can read and write, with `ro/` owned by root (nobody cannot create files there). */
  function nobodyTree(): string {
    const root = mkdtempSync(join(tmpdir(), 'h24-nobody-'));
    track(root);
    for (const [p, c] of Object.entries({ 'rw/a.conf': 'MaxClients 1\n', 'ro/b.conf': 'MaxClients 2\n', 'rw/secret.conf': 'MaxClients 3\n', 'rw/closed/c.conf': 'MaxClients 4\n' })) {
      mkdirSync(join(root, p, '..'), { recursive: true });
      writeFileSync(join(root, p), c);
    }
    chmodSync(root, 0o755);
    chownR(join(root, 'rw'), 65534);
    chmodSync(join(root, 'ro/b.conf'), 0o666); // writable file, read-only folder: the temp file cannot be created
    chmodSync(join(root, 'rw/secret.conf'), 0o000);
    chmodSync(join(root, 'rw/closed'), 0o000);
    return root;
  }

  testIf(cannotDropPrivileges(), 'as nobody: a read-only folder, an unreadable file and folder are reported; the rest is converted', async () => {
    const root = nobodyTree();
    const [cmd, args] = asNobody(['.']);
    const r = await run(cmd, args, { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'ro/b.conf: cannot write in ro: permission denied; file unchanged',
      'rw/closed: cannot read folder: permission denied',
      'rw/secret.conf: cannot read: permission denied',
    ]);
    expect(read(root, 'rw/a.conf')).toBe('MaxRequestWorkers 1\n');
    expect(read(root, 'ro/b.conf')).toBe('MaxClients 2\n');
    expect(temps(root)).toEqual([]);
  }, 60_000);

  /**
   * Runs the command in a private mount namespace, on a tmpfs of `size` (disk full) or a
   * read-only bind mount of the staged tree; the resulting files are copied out.
   */
  async function inNamespace(files: Record<string, string>, how: { tmpfs: string } | { readOnly: true }, cliArgs: string[]) {
    const stage = tree(files);
    const out = mkdtempSync(join(tmpdir(), 'h24-ns-out-'));
    track(out);
    const mnt = mkdtempSync(join(tmpdir(), 'h24-ns-mnt-'));
    track(mnt);
    const mountCmd = 'tmpfs' in how
      ? `mount -t tmpfs -o size=${how.tmpfs} tmpfs "$MNT" && cp -a "$STAGE"/. "$MNT"/`
      : 'cp -a "$STAGE"/. "$MNT"/ && mount --bind "$MNT" "$MNT" && mount -o remount,bind,ro "$MNT"';
    const script = `set -e; ${mountCmd}; cd "$MNT"; set +e; "$NODE" "$BIN" "$@" >"$OUT/stdout" 2>"$OUT/stderr"; echo $? >"$OUT/code"; mkdir "$OUT/after"; cp -a "$MNT"/. "$OUT/after"/`;
    const r = await run('env', [`MNT=${mnt}`, `STAGE=${stage}`, `OUT=${out}`, `NODE=${process.execPath}`, `BIN=${BIN}`, 'unshare', '-m', 'sh', '-c', script, 'sh', ...cliArgs], { cwd: stage });
    if (r.code !== 0) throw new Error(`namespace script failed: ${r.stderr}`);
    return {
      code: Number(readFileSync(join(out, 'code'), 'utf8')),
      stdout: readFileSync(join(out, 'stdout'), 'latin1'),
      stderr: readFileSync(join(out, 'stderr'), 'utf8'),
      after: join(out, 'after'),
    };
  }

  const big = 'MaxClients 1\n' + '# padding padding padding padding padding padding padding padding\n'.repeat(6000); // ~400 KB

  testIf(cannotMountTmpfs(), 'disk full: the file that does not fit is intact, no temp file, the others converted', async () => {
    const r = await inNamespace({ 'a.conf': 'MaxClients 1\n', 'b-big.conf': big, 'c.conf': 'MaxClients 3\n' }, { tmpfs: '600k' }, ['.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('b-big.conf: cannot write in .: no space left on the device; file unchanged\n');
    expect(read(r.after, 'b-big.conf')).toBe(big);
    expect(read(r.after, 'a.conf')).toBe('MaxRequestWorkers 1\n');
    expect(read(r.after, 'c.conf')).toBe('MaxRequestWorkers 3\n');
    expect(temps(r.after)).toEqual([]);
  }, 60_000);

  testIf(cannotMountTmpfs(), 'disk full while writing the backup: file unchanged, no temp or partial backup left', async () => {
    // Room for the new file's temp copy, not for the backup as well.
    const r = await inNamespace({ 'b-big.conf': big }, { tmpfs: '1000k' }, ['--backup', 'b-big.conf']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('b-big.conf: cannot back up or replace b-big.conf: no space left on the device; file unchanged\n');
    expect(read(r.after, 'b-big.conf')).toBe(big);
    expect(listAll(r.after)).toEqual(['b-big.conf']);
  }, 60_000);

  testIf(cannotMountTmpfs(), 'a read-only file system: reported, nothing changed', async () => {
    const r = await inNamespace({ 'a.conf': 'MaxClients 1\n' }, { readOnly: true }, ['.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('a.conf: cannot write in .: read-only file system; file unchanged\n');
    expect(listAll(r.after)).toEqual(['a.conf']);
    expect(read(r.after, 'a.conf')).toBe('MaxClients 1\n');
  }, 60_000);

  testIf(cannotMountTmpfs(), 'a file mounted on its own (EBUSY on rename, as in a container): reported with a hint, unchanged', async () => {
    const stage = tree({ 'conf/a.conf': 'MaxClients 1\n', 'host-a.conf': 'MaxClients 1\n', 'conf/b.conf': 'MaxClients 2\n' });
    const script = 'mount --bind host-a.conf conf/a.conf && "$NODE" "$BIN" conf; echo "exit=$?"';
    const r = await run('env', [`NODE=${process.execPath}`, `BIN=${BIN}`, 'unshare', '-m', 'sh', '-c', script], { cwd: stage });
    expect(r.stdout).toContain('exit=2');
    expect(r.stderr).toBe('conf/a.conf: cannot replace conf/a.conf: the file is busy (a file mounted on its own, as in a container? convert a copy); file unchanged\n');
    expect(read(stage, 'host-a.conf')).toBe('MaxClients 1\n');
    expect(read(stage, 'conf/b.conf')).toBe('MaxRequestWorkers 2\n');
    expect(temps(stage)).toEqual([]);
  }, 60_000);

  test('the command itself runs (guards the skips above from hiding a broken build)', async () => {
    const root = tree({ 'a.conf': 'MaxClients 1\n' });
    const r = await run(process.execPath, [BIN, 'a.conf'], { cwd: root });
    expect(r.code).toBe(0);
    expect(read(root, 'a.conf')).toBe('MaxRequestWorkers 1\n');
  });
});
