// docs/recipes/open-pull-request.sh, run as a user would: in a git repository holding the
// example server, with a local bare repository as origin and a stand-in for the GitHub CLI.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshot } from './helpers/tree.js';

const ROOT = join(__dirname, '..');
const SCRIPT = join(ROOT, 'docs', 'recipes', 'open-pull-request.sh');
const BIN = join(ROOT, 'bin', 'httpd24-codemod.js');

describe('open-pull-request.sh', () => {
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
  const script = (cwd: string): string => execFileSync('bash', [SCRIPT, 'etc/httpd'], { cwd, env, encoding: 'utf8' });
  /** In place; exit code 1 only means manual findings remain. */
  const convert = (cwd: string): void => {
    try {
      execFileSync('node', [BIN, 'etc/httpd'], { cwd, env, stdio: 'ignore' });
    } catch (e) {
      if ((e as { status?: number }).status !== 1) throw e;
    }
  };

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: ROOT });
  }, 120_000);

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'h24-pr-'));
    mkdirSync(join(tmp, 'bin'));
    // The GitHub CLI stand-in records its arguments and the description it was given.
    writeFileSync(join(tmp, 'bin', 'gh'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${tmp}/gh.args"\nwhile [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "${tmp}/gh.body"; shift; done\necho https://github.example/pr/1\n`);
    chmodSync(join(tmp, 'bin', 'gh'), 0o755);
    env = {
      ...process.env,
      PATH: `${join(tmp, 'bin')}:${process.env.PATH}`,
      HTTPD24_CODEMOD: `node ${BIN}`,
      GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_CONFIG_GLOBAL: '/dev/null', NO_COLOR: '1',
    };
    git(tmp, 'init', '-q', '--bare', 'origin.git');
    git(tmp, 'init', '-q', '-b', 'main', 'repo');
    const repo = join(tmp, 'repo');
    cpSync(join(ROOT, 'examples', 'httpd'), join(repo, 'etc', 'httpd'), { recursive: true });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', '2.2 configuration');
    git(repo, 'remote', 'add', 'origin', join(tmp, 'origin.git'));
  });

  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  test('pushes a branch holding exactly the in-place conversion and opens a pull request listing the findings', () => {
    const repo = join(tmp, 'repo');
    const out = script(repo);
    expect(out).toContain('https://github.example/pr/1');

    const branch = git(repo, 'branch', '--show-current').trim();
    expect(branch).toMatch(/^httpd24-codemod\/\d{8}-\d{6}$/);
    expect(git(join(tmp, 'origin.git'), 'branch', '--list', branch).trim()).toBe(branch);
    expect(git(repo, 'status', '--porcelain')).toBe('');

    // The committed tree equals what the tool writes in place on a copy.
    const expected = join(tmp, 'expected');
    cpSync(join(ROOT, 'examples', 'httpd'), join(expected, 'etc', 'httpd'), { recursive: true });
    convert(expected);
    const strip = (m: Map<string, { bytes: Buffer }>): Map<string, Buffer> => new Map([...m].map(([k, v]) => [k, v.bytes]));
    const committed = strip(snapshot(join(repo, 'etc', 'httpd')));
    expect(committed).toEqual(strip(snapshot(join(expected, 'etc', 'httpd'))));
    expect(committed).not.toEqual(strip(snapshot(join(ROOT, 'examples', 'httpd'))));

    const args = readFileSync(join(tmp, 'gh.args'), 'utf8').split('\n');
    expect(args.slice(0, 2)).toEqual(['pr', 'create']);
    expect(args).toContain(branch);
    const body = readFileSync(join(tmp, 'gh.body'), 'utf8');
    const summary = git(repo, 'log', '-1', '--format=%b').trim();
    expect(summary).toMatch(/^\d+ files scanned, \d+ would change, /);
    expect(body).toContain(`**${summary}**`);
    expect(body).toMatch(/etc\/httpd\/\S+:\d+: change /);
    expect(body).not.toContain('would change: ');
  });

  test('says so and creates nothing when nothing needs converting', () => {
    const repo = join(tmp, 'repo');
    convert(repo);
    git(repo, 'commit', '-q', '-am', 'converted by hand');
    expect(script(repo).trim()).toBe('nothing to convert');
    expect(git(repo, 'branch', '--show-current').trim()).toBe('main');
    expect(existsSync(join(tmp, 'gh.args'))).toBe(false);
  });
});
