// The npm package: `npm pack` ships only what users need, and the packed tarball runs with
// npx from an empty folder. The pack runs in a scratch copy of the project, so it builds
// from a clean dist/ (prepack removes it) and never touches this checkout's dist/.
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transforms } from '../transforms/index.js';

const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

/** npm's own variables point back at this project; the child must not see them. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

function run(cmd: string, args: string[], opts: ExecFileSyncOptions): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv(), ...opts }) as string;
}

const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage']);

describe('npm package', () => {
  let scratch: string;
  let tarball: string;
  let files: string[];

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'h24-pack-'));
    const copy = join(scratch, 'project');
    cpSync(ROOT, copy, { recursive: true, filter: (src) => !(src !== ROOT && SKIP.has(src.slice(ROOT.length + 1).split(/[\\/]/)[0])) });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const out = join(scratch, 'out');
    mkdirSync(out);
    const report = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out], { cwd: copy })) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(out, report[0].filename);
    files = report[0].files.map((f) => f.path).sort();
  }, 120_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('holds the compiled tool, its docs and the package papers, and nothing else', () => {
    const allowed = /^(bin\/[^/]+\.js|dist\/(src|transforms)\/.+\.js|docs\/.+|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files.filter((f) => /(^|\/)(test|__testfixtures__|scripts)\/|\.ts$|\.map$/.test(f))).toEqual([]);
    const needed = [
      ...Object.values(pkg.bin).map((b) => b.replace(/^\.\//, '')),
      'dist/src/cli/main.js',
      'dist/transforms/index.js',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
      'docs/cli.md',
      'docs/migration-guide.md',
      ...transforms.map((t) => `docs/transforms/${t.id}.md`),
    ];
    expect(needed.filter((f) => !files.includes(f))).toEqual([]);
  });

  test('runs with npx from an empty folder: --help, --version, --explain and a dry run', () => {
    const empty = mkdtempSync(join(scratch, 'empty-'));
    // `npx <file>` would run the file itself; --package installs it and runs its bin.
    const npx = (...args: string[]): string => run('npx', ['--yes', '--package', tarball, 'httpd24-codemod', ...args], { cwd: empty });

    expect(npx('--help')).toMatch(/^Usage: httpd24-codemod \[options\] \[path\.\.\.\]/);
    expect(npx('--version').trim()).toBe(pkg.version);
    expect(npx('--explain', transforms[0].id)).toBe(readFileSync(join(ROOT, 'docs', 'transforms', `${transforms[0].id}.md`), 'utf8'));

    writeFileSync(join(empty, 'mpm.conf'), '<IfModule prefork.c>\n    MaxClients 150\n</IfModule>\n');
    let dry: { status?: number; stdout?: string } = {};
    try {
      npx('--dry-run', 'mpm.conf');
    } catch (e) {
      dry = e as { status: number; stdout: string };
    }
    expect(dry.status).toBe(1); // changes are due
    expect(dry.stdout).toContain('+    MaxRequestWorkers 150');
    expect(readFileSync(join(empty, 'mpm.conf'), 'utf8')).toContain('MaxClients 150');
  }, 180_000);
});
