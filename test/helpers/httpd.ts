// A real Apache httpd 2.4 for the tests: find it, config-test a tree, start a server on a
// free loopback port (its own ServerRoot, PidFile and logs; never port 80, never the
// system's apache2 config or service), send requests from chosen loopback addresses, stop
// only the process started here. The authz-case runner (../shared/authz-cases/README.md,
// "How to run a case") is built from these parts; other suites can use them alone.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { configTest, type ConfigTestResult, findHttpd, type HttpdBinary } from '../../src/engine/verify.js';
import { runCli } from './tree.js';

// ---------------------------------------------------------------------------------------
// The binary, and what to do without one

let found: { httpd: HttpdBinary | null; why: string } | undefined;

/** Debian's apache2 (or any httpd 2.4 on PATH; HTTPD24_BIN picks one), or null with the reason. */
export function httpd24(): { httpd: HttpdBinary | null; why: string } {
  if (!found) {
    const r = findHttpd(process.env.HTTPD24_BIN || undefined);
    found = r.httpd ? { httpd: r.httpd, why: '' } : { httpd: null, why: r.problem };
  }
  return found;
}

/** True when the CI variable says we are in CI, where real-server tests must not skip. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * describe() for suites that need a real httpd 2.4: skips with a clear message when none is
 * installed, except in CI (CI=true), where a missing httpd fails the suite instead.
 */
export function describeWithHttpd(what: string, fn: (httpd: HttpdBinary) => void): void {
  const { httpd, why } = httpd24();
  if (httpd) {
    describe(what, () => fn(httpd));
    return;
  }
  if (inCi()) {
    describe(what, () => {
      test('an httpd 2.4 binary is installed (CI must run the real-server tests, not skip them)', () => {
        throw new Error(`real-server tests cannot run in CI: ${why}. .ci/run installs Debian's apache2; check that step.`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.warn(`[skip] ${what}: ${why}`);
  describe.skip(`${what} (skipped: ${why})`, () => fn(null as unknown as HttpdBinary));
}

// ---------------------------------------------------------------------------------------
// Loopback, ports, name service

/** ::1 is configured (the IPv6 cases need it). */
export function hasIpv6Loopback(): boolean {
  try {
    return readFileSync('/proc/net/if_inet6', 'utf8').split('\n').some((l) => /^0{31}1\s/.test(l));
  } catch {
    return false;
  }
}

let unshareOk: boolean | undefined;
/** `unshare -m` works here (root on Linux): private /etc/hosts for host-name rules. */
export function canUnshare(): boolean {
  if (unshareOk === undefined) {
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'true'], { stdio: 'ignore', timeout: 10_000 });
    unshareOk = r.status === 0;
  }
  return unshareOk;
}

const handedOut = new Set<number>();

function listenOnce(host: string, port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen({ host, port, exclusive: true }, () => {
      const got = (s.address() as { port: number }).port;
      s.close(() => resolve(got));
    });
  });
}

/** A TCP port free on 127.0.0.1 (and on ::1 when asked), never one this process gave out before. */
export async function freePort(ipv6 = false): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = await listenOnce('127.0.0.1', 0);
    if (port === null || port === 80 || handedOut.has(port)) continue;
    if (ipv6 && (await listenOnce('::1', port)) === null) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error('no free TCP port on the loopback interface');
}

export interface NameService {
  /** address → names; the default is localhost on 127.0.0.1 and ::1. */
  hosts?: Record<string, string[]>;
}

/**
 * A launcher that runs a command in a private mount namespace where /etc/hosts,
 * /etc/nsswitch.conf (`hosts: files`) and /etc/host.conf (`multi on`) are this run's own
 * files, kept in `dir`. The system's files are never modified.
 */
export function privateNameService(dir: string, ns: NameService = {}): string[] {
  const hosts = ns.hosts ?? { '127.0.0.1': ['localhost'], '::1': ['localhost', 'ip6-localhost', 'ip6-loopback'] };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'hosts'), Object.entries(hosts).map(([a, names]) => `${a} ${names.join(' ')}\n`).join(''));
  writeFileSync(join(dir, 'nsswitch.conf'), 'hosts: files\n');
  writeFileSync(join(dir, 'host.conf'), 'multi on\n');
  const mounts = [['hosts', '/etc/hosts'], ['nsswitch.conf', '/etc/nsswitch.conf'], ['host.conf', '/etc/host.conf']]
    .filter(([, target]) => existsSync(target))
    .map(([f, target]) => `mount --bind ${shellQuote(join(dir, f))} ${target}`);
  return ['unshare', '-m', '--propagation', 'private', 'sh', '-c', `${mounts.join(' && ')} && exec "$@"`, 'sh'];
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

// ---------------------------------------------------------------------------------------
// A running server

export interface StartOptions {
  /** Ports to wait for: 127.0.0.1:port, and [::1]:port when ipv6. */
  port: number;
  ipv6?: boolean;
  launcher?: readonly string[];
  /** Where the error log is, to say why a server did not come up. */
  errorLog?: string;
  readyTimeoutMs?: number;
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class HttpdServer {
  private exited: Promise<number | null>;
  private done = false;

  private constructor(readonly child: ChildProcess, readonly output: { text: string }) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => {
      this.done = true;
      resolve(code);
    }));
  }

  /** `httpd -DFOREGROUND -f conf` in its own process group; resolves when its ports accept connections. */
  static async start(httpd: HttpdBinary, conf: string, opts: StartOptions): Promise<HttpdServer> {
    const argv = [...(opts.launcher ?? []), httpd.path, '-DFOREGROUND', '-f', conf];
    const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { text: '' };
    child.stdout!.on('data', (b: Buffer) => (output.text += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (output.text += b.toString()));
    const server = new HttpdServer(child, output);
    const deadline = Date.now() + (opts.readyTimeoutMs ?? 15_000);
    const hosts = opts.ipv6 ? ['127.0.0.1', '::1'] : ['127.0.0.1'];
    while (Date.now() < deadline) {
      if (server.done) break;
      const ok = await Promise.all(hosts.map((h) => canConnect(h, opts.port)));
      if (ok.every(Boolean)) return server;
      await sleep(20);
    }
    await server.stop();
    const log = opts.errorLog && existsSync(opts.errorLog) ? readFileSync(opts.errorLog, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
    throw new Error(`httpd did not come up on port ${opts.port}: ${(output.text.trim() || log || 'no output').slice(0, 500)}`);
  }

  /** SIGTERM to the server; SIGKILL to its process group if it is still there after a few seconds. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.done || this.child.pid === undefined) return;
    const pid = this.child.pid;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), graceMs).unref());
    if ((await Promise.race([this.exited, timer])) === 'late') {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
      await this.exited;
    }
    // Children (prefork workers) leave with their parent; make sure none lingers.
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* the group is empty */
    }
  }
}

// ---------------------------------------------------------------------------------------
// The client

export interface HttpRequest {
  port: number;
  method: string;
  path: string;
  /** Local source address: 127.0.0.N or ::1 (the server is reached over the same family). */
  client: string;
  host?: string;
  /** Basic auth. */
  user?: { user: string; password: string };
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

/** One request on its own connection; the status, or null when no response came. */
export function sendRequest(r: HttpRequest): Promise<number | null> {
  return new Promise((resolve) => {
    const v6 = r.client.includes(':');
    const headers: Record<string, string> = { Host: r.host ?? 'localhost', Connection: 'close', ...(r.headers ?? {}) };
    if (r.user) headers.Authorization = 'Basic ' + Buffer.from(`${r.user.user}:${r.user.password}`, 'utf8').toString('base64');
    if (r.body !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['Content-Length'] = String(Buffer.byteLength(r.body));
    }
    let settled = false;
    const finish = (s: number | null): void => {
      if (!settled) {
        settled = true;
        resolve(s);
      }
    };
    const req = request({ host: v6 ? '::1' : '127.0.0.1', port: r.port, localAddress: r.client, method: r.method, path: r.path, headers, agent: false, setHost: false, timeout: r.timeoutMs ?? 10_000 }, (res) => {
      res.resume();
      res.once('end', () => finish(res.statusCode ?? null));
      res.once('error', () => finish(res.statusCode ?? null));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => finish(null));
    req.end(r.body);
  });
}

/** Runs `fn` over items with at most `limit` at a time, keeping the order of results. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// ---------------------------------------------------------------------------------------
// Server trees

/** A fresh temporary folder others (the server's User) can read. */
export function tempRoot(prefix = 'h24-httpd-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** Copies a tree: folders 0755, files 0644, symlinks as symlinks. */
export function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  chmodSync(to, 0o755);
  for (const name of readdirSync(from)) {
    const a = join(from, name);
    const b = join(to, name);
    const st = lstatSync(a);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(a), b);
    else if (st.isDirectory()) copyTree(a, b);
    else {
      copyFileSync(a, b);
      chmodSync(b, 0o644);
    }
  }
}

/** Every regular file under root (symlinks not followed). */
export function filesUnder(root: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(root, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(p);
    }
  };
  walk(root);
  return out;
}

/** Replaces placeholders in every file without a NUL byte. */
export function substitutePlaceholders(root: string, values: Record<string, string>): void {
  for (const f of filesUnder(root)) {
    const bytes = readFileSync(f);
    if (bytes.includes(0)) continue;
    let text = bytes.toString('latin1');
    const before = text;
    for (const [k, v] of Object.entries(values)) text = text.split(k).join(v);
    if (text !== before) writeFileSync(f, Buffer.from(text, 'latin1'));
  }
}

export { configTest, type ConfigTestResult };

// ---------------------------------------------------------------------------------------
// The authz cases (../shared/authz-cases)

export interface CaseRequest {
  method: string;
  path: string;
  client: string;
  cred: string;
  headers: Record<string, string>;
  host?: string;
  status: number;
  /**
   * Own cases only: what 2.4 answers after the conversion where no conversion can give 2.2's
   * status (the converter names the section deciding it as manual, "fix it by hand"). The
   * converted tree is judged against this status instead.
   */
  status24?: number;
}

export interface CaseSpec {
  credentials: Record<string, { user: string; password: string }>;
  hosts?: Record<string, string[]>;
  requests: CaseRequest[];
  /** Own cases only: the access sections the conversion must keep in 2.2 form ("file:line"). */
  kept22?: string[];
}

export function readCase(dir: string): CaseSpec {
  return JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as CaseSpec;
}

export function caseNeeds(spec: CaseSpec): { ipv6: boolean; hosts: boolean } {
  return { ipv6: spec.requests.some((r) => r.client.includes(':')), hosts: spec.hosts !== undefined };
}

/** Refused: 401, 403, 5xx or no response. Everything else got past access control. */
export const refused = (s: number | null): boolean => s === null || s === 401 || s === 403 || s >= 500;

export interface RequestOutcome {
  request: CaseRequest;
  got: number | null;
  class: 'same' | 'widened' | 'narrowed' | 'differs';
}

export interface CaseResult {
  name: string;
  requests: number;
  widened: RequestOutcome[];
  narrowed: RequestOutcome[];
  /** Same side of access control, other status (401 ↔ 403, 200 ↔ 404...). */
  differs: RequestOutcome[];
  configtest: { ok: boolean; output: string };
  converter?: { code: number; manual: number; errors: string[]; keptAccess: string[] };
  ms: number;
}

export interface RunCaseOptions {
  /** Run httpd24-codemod on the tree first (step 5); off to judge a hand-converted tree. */
  convert?: boolean;
  /** Requests in flight at once. */
  concurrency?: number;
  keep?: boolean;
}

const MPM_LINE = /^\s*LoadModule\s+mpm_\w+_module/m;

/** Step 6: load mpm_prefork first when no file of the tree (outside htdocs/, logs/) loads an MPM. */
export function normaliseMpm(root: string): boolean {
  const files = filesUnder(root, (rel) => rel === 'htdocs' || rel === 'logs' || rel === 'modules');
  const loads = files.some((f) => {
    const b = readFileSync(f);
    return !b.includes(0) && MPM_LINE.test(b.toString('latin1'));
  });
  if (loads) return false;
  const conf = join(root, 'conf', 'httpd.conf');
  const text = readFileSync(conf, 'latin1');
  writeFileSync(conf, Buffer.from(`LoadModule mpm_prefork_module "${root}/modules/mod_mpm_prefork.so"\n` + text, 'latin1'));
  return true;
}

/** Debian's module folder (the case trees load `modules/mod_X.so`). */
export function modulesDirOf(httpd: HttpdBinary): string {
  return httpd.modulesDir ?? '/usr/lib/apache2/modules';
}

/** Runs one case by README's steps 1–11 and compares every status with the 2.2 recording. */
export async function runAuthzCase(httpd: HttpdBinary, caseDir: string, opts: RunCaseOptions = {}): Promise<CaseResult> {
  const started = Date.now();
  const name = caseDir.split('/').pop()!;
  const spec = readCase(caseDir);
  const needs = caseNeeds(spec);
  for (let attempt = 0; ; attempt++) {
    const port = await freePort(needs.ipv6);
    const T = tempRoot('h24-case-');
    try {
      copyTree(join(caseDir, 'root'), T);
      substitutePlaceholders(T, { '@ROOT@': T, '@PORT@': String(port) });
      symlinkSync(modulesDirOf(httpd), join(T, 'modules'));
      let converter: CaseResult['converter'];
      if (opts.convert !== false) {
        const r = await runCli(['--format', 'json', T], T);
        const report = JSON.parse(r.stdout.toString('utf8')) as { findings: Array<{ severity: string; transform: string; file: string; line: number; message: string }> };
        converter = {
          code: r.code,
          manual: report.findings.filter((f) => f.severity === 'manual').length,
          errors: report.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line}: ${f.message}`),
          keptAccess: report.findings.filter((f) => f.severity === 'manual' && f.transform === 'access-control').map((f) => `${relative(T, resolve(T, f.file))}:${f.line}`),
        };
      }
      normaliseMpm(T);
      const launcher = canUnshare() ? privateNameService(join(T, '..', `${T.split('/').pop()}-etc`), { hosts: spec.hosts }) : [];
      const conf = join(T, 'conf', 'httpd.conf');
      const test = configTest(httpd, conf, { launcher });
      const base = { name, requests: spec.requests.length, converter, widened: [], narrowed: [], differs: [] };
      if (!test.ok) {
        return { ...base, configtest: { ok: false, output: test.output.trim() }, ms: Date.now() - started };
      }
      let server: HttpdServer;
      try {
        server = await HttpdServer.start(httpd, conf, { port, ipv6: needs.ipv6, launcher, errorLog: join(T, 'logs', 'error_log') });
      } catch (e) {
        // Another process took the port between the check and the start: once more.
        if (attempt < 2 && /Address already in use|could not bind/i.test((e as Error).message)) continue;
        throw e;
      }
      let got: Array<number | null>;
      try {
        got = await pool(spec.requests, opts.concurrency ?? 6, (q) => sendRequest({
          port,
          method: q.method,
          path: q.path,
          client: q.client,
          host: q.host,
          user: q.cred === 'none' ? undefined : spec.credentials[q.cred],
          headers: q.headers,
          body: q.method === 'POST' || q.method === 'PUT' ? 'judge=1' : undefined,
        }));
      } finally {
        await server.stop();
      }
      const outcomes: RequestOutcome[] = spec.requests.map((q, i) => {
        const g = got[i];
        const want = q.status24 ?? q.status;
        const cls = refused(want) && !refused(g) ? 'widened' : !refused(want) && refused(g) ? 'narrowed' : g === want ? 'same' : 'differs';
        return { request: q, got: g, class: cls };
      });
      return {
        ...base,
        widened: outcomes.filter((o) => o.class === 'widened'),
        narrowed: outcomes.filter((o) => o.class === 'narrowed'),
        differs: outcomes.filter((o) => o.class === 'differs'),
        configtest: { ok: true, output: test.output.trim() },
        ms: Date.now() - started,
      };
    } finally {
      if (!opts.keep) {
        rmSync(T, { recursive: true, force: true });
        rmSync(`${T}-etc`, { recursive: true, force: true });
      }
    }
  }
}

/** One request as a short line: `GET /x from 127.0.0.2 as alice (Host h): 2.2 403, 2.4 200`. */
export function describeOutcome(o: RequestOutcome): string {
  const q = o.request;
  const extra = [q.cred !== 'none' ? `as ${q.cred}` : '', q.host ? `Host ${q.host}` : '', Object.keys(q.headers).length ? JSON.stringify(q.headers) : ''].filter(Boolean).join(' ');
  return `${q.method} ${q.path} from ${q.client}${extra ? ' ' + extra : ''}: 2.2 ${q.status}${q.status24 !== undefined ? ` (expected on 2.4: ${q.status24})` : ''}, 2.4 ${o.got ?? 'no response'}`;
}

/** The per-case table the suites print. */
export function caseTable(results: readonly CaseResult[]): string {
  const rows = [['case', 'requests', 'widened', 'narrowed', 'differs', 'configtest', 'manual', 'ms']];
  for (const r of results) {
    rows.push([r.name, String(r.requests), String(r.widened.length), String(r.narrowed.length), String(r.differs.length), r.configtest.ok ? 'ok' : 'failed', r.converter ? String(r.converter.manual) : '-', String(r.ms)]);
  }
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  ')).join('\n');
}
