import { moduleId } from '../src/model/modules.js';
import type { ConfigFile } from '../src/model/tree.js';
import { skippedBy24 } from '../src/model/version.js';
import type { Section } from '../src/syntax/index.js';
import { type Container, type Directive, directive, wrap } from '../src/syntax/index.js';
import type { Transform, TransformContext } from './types.js';
import { candidates, liveContexts, readingOrder } from './lib/select.js';

// 2.2's lock directives → 2.4's Mutex (httpd@2.4.62:server/util_mutex.c ap_set_mutex(),
// ap_parse_mutex(); semantics.md §7.3). 2.4 takes `Mutex mechanism[:directory] name…`: the
// path is a directory (the lock file is <name>.<pid> in it), it must exist when the
// configuration is read, and a name whose module is not loaded is an error. A Mutex line
// without a directory keeps the directory an earlier line set for that name.

interface Plan {
  mech: string;
  dir?: string;
  type: 'mpm-accept' | 'rewrite-map' | 'ssl-cache' | 'ssl-stapling' | 'watchdog-callback';
}

type Reading = { plan: Plan } | { drop: string } | { refuse: string };

const ACCEPT_MECHS = ['default', 'flock', 'fcntl', 'sysvsem', 'posixsem', 'pthread'];

/** The directory of a 2.2 lock file path (ServerRoot-relative paths stay relative). */
export function lockDirectory(path: string): string {
  if (path.endsWith('/')) return path.replace(/\/+$/, '') || '/';
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '/' : path.slice(0, i);
}

/** SSLMutex / SSLStaplingMutex (2.2 ssl_cmd_SSLMutex()): `none|no|default|yes|sem|posixsem|sysvsem|pthread|fcntl:F|flock:F|file:F`. */
function readSslMutex(value: string, type: Plan['type']): Reading {
  const colon = value.indexOf(':');
  const meth = (colon < 0 ? value : value.slice(0, colon)).toLowerCase();
  const file = colon < 0 ? '' : value.slice(colon + 1);
  const as = colon < 0 ? value : value.slice(0, colon);
  if (meth === 'none' || meth === 'no') return { drop: `2.4 always locks the ${type} mutex and refuses "none" for it` };
  if (meth === 'default' || meth === 'yes') return { plan: { mech: as, dir: file ? lockDirectory(file) : undefined, type } };
  if (meth === 'fcntl' || meth === 'flock' || meth === 'file') {
    if (!file) return { refuse: `${value} without a file (2.2 refused it too)` };
    return { plan: { mech: as, dir: lockDirectory(file), type } };
  }
  // Semaphores and pthread mutexes are not files: 2.2 ignored a path (or used it as a
  // semaphore name APR ignores), and 2.4 would take it for a directory.
  if (['sem', 'posixsem', 'sysvsem', 'pthread'].includes(meth)) return { plan: { mech: as, type } };
  return { refuse: `unknown mechanism "${value}" (2.2 refused it too)` };
}

function read(d: Directive): Reading {
  const v = d.values[0] ?? '';
  if (d.values.length !== 1) return { refuse: 'it takes one argument' };
  switch (d.key) {
    case 'acceptmutex':
      return ACCEPT_MECHS.includes(v.toLowerCase()) ? { plan: { mech: v, type: 'mpm-accept' } } : { refuse: `unknown mechanism "${v}" (2.2 refused it too)` };
    case 'lockfile':
      return { plan: { mech: 'default', dir: lockDirectory(v), type: 'mpm-accept' } };
    case 'rewritelock':
      return { plan: { mech: 'default', dir: lockDirectory(v), type: 'rewrite-map' } };
    case 'sslmutex':
      return readSslMutex(v, 'ssl-cache');
    case 'sslstaplingmutex':
      return readSslMutex(v, 'ssl-stapling');
    default: // watchdogmutexpath: already a directory
      return { plan: { mech: 'default', dir: v, type: 'watchdog-callback' } };
  }
}

/** Only prefork and worker (and MPMs built on them) register mpm-accept; event refuses the name. */
const ACCEPT_MPMS = ['mpm_prefork_module', 'mpm_worker_module', 'mpm_itk_module', 'mpm_peruser_module'];

function underAcceptMpm(ctx: TransformContext, d: Directive): boolean {
  const contexts = liveContexts(ctx, d);
  const inside = (sections: readonly Section[]): boolean =>
    sections.some((s) => s.is('IfModule') && !(s.values[0] ?? '').startsWith('!') && ACCEPT_MPMS.includes(moduleId(s.values[0] ?? '')));
  return contexts.length > 0 && contexts.every((c) => inside(c.sections));
}

interface Line {
  sources: Array<{ d: Directive; plan: Plan }>;
  mech: string;
  dir?: string;
  types: string[];
  guard: boolean;
}

const argOf = (mech: string, dir?: string): string => (dir === undefined ? mech : `${mech}:${dir}`);

export const mutex: Transform = {
  id: 'mutex',
  title: 'AcceptMutex, LockFile, RewriteLock, SSLMutex, SSLStaplingMutex, WatchdogMutexPath → Mutex',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/core.html#mutex',
  run(ctx) {
    const byParent = new Map<Container, Array<{ d: Directive; plan: Plan }>>();
    const lateLockFiles: Array<{ lockFile: Directive; accept: { d: Directive; file: ConfigFile } }> = [];
    for (const d of candidates(ctx, ['acceptmutex', 'lockfile', 'rewritelock', 'sslmutex', 'sslstaplingmutex', 'watchdogmutexpath'])) {
      const r = read(d);
      if ('refuse' in r) {
        ctx.report({ node: d, severity: 'manual', message: `${d.name} ${d.values.join(' ')} not converted: ${r.refuse}; 2.4 configures locks with Mutex` });
      } else if ('drop' in r) {
        d.remove();
        ctx.report({ node: d, severity: 'change', message: `${d.name} ${d.values.join(' ')} removed: ${r.drop}, so the default mechanism is used` });
      } else {
        const accept = d.is('LockFile') ? acceptMutexBefore(ctx, d) : null;
        if (accept) lateLockFiles.push({ lockFile: d, accept });
        const list = byParent.get(d.parent!) ?? [];
        list.push({ d, plan: r.plan });
        byParent.set(d.parent!, list);
      }
    }

    for (const group of byParent.values()) {
      const lines: Line[] = [];
      // The accept mutex: its mechanism (AcceptMutex) and lock file (LockFile) make one line.
      const accept = group.filter((g) => g.plan.type === 'mpm-accept');
      if (accept.length > 0) {
        const mechs = accept.filter((g) => g.d.is('AcceptMutex'));
        const files = accept.filter((g) => g.d.is('LockFile'));
        lines.push({
          sources: accept,
          mech: mechs.length > 0 ? mechs[mechs.length - 1].plan.mech : 'default',
          dir: files.length > 0 ? files[files.length - 1].plan.dir : undefined,
          types: ['mpm-accept'],
          guard: !accept.every((g) => underAcceptMpm(ctx, g.d)),
        });
      }
      // Other names share a line when mechanism and directory agree.
      for (const g of group.filter((x) => x.plan.type !== 'mpm-accept')) {
        const same = lines.find((l) => !l.types.includes('mpm-accept') && l.mech.toLowerCase() === g.plan.mech.toLowerCase() && l.dir === g.plan.dir);
        if (same) {
          same.sources.push(g);
          if (!same.types.includes(g.plan.type)) same.types.push(g.plan.type);
        } else {
          lines.push({ sources: [g], mech: g.plan.mech, dir: g.plan.dir, types: [g.plan.type], guard: false });
        }
      }
      for (const line of lines) apply(ctx, line);
    }
    for (const { lockFile, accept } of lateLockFiles) {
      const where = accept.file === ctx.file ? `line ${accept.d.line}` : `${accept.file.display}:${accept.d.line}`;
      ctx.report({ node: lockFile, severity: 'manual', message: `AcceptMutex ${accept.d.values.join(' ')} (${where}) is read before this line, and each Mutex line sets the mechanism again: if that AcceptMutex applies here, write its mechanism instead of "default" in the line that replaced LockFile` });
    }
  },
};

function apply(ctx: TransformContext, line: Line): void {
  const anchor = line.sources[0].d;
  const m = directive('Mutex', argOf(line.mech, line.dir), ...line.types);
  const text = `Mutex ${m.args.map((a) => a.raw).join(' ')}`;
  for (const { d } of line.sources) {
    const what = d.is('LockFile') || d.is('RewriteLock')
      ? 'it takes the lock file\'s directory (the file is created there as <name>.<pid>)'
      : 'every lock is configured with Mutex in 2.4';
    const guard = line.guard ? ', inside <IfModule !mpm_event_module> because the event MPM has no accept mutex and refuses the name' : '';
    ctx.report({ node: d, severity: 'change', message: `${d.name} ${d.values.join(' ')} → ${text}${line.sources.length > 1 ? ' (one line for the ' + line.sources.map((s) => s.d.name).join(' and ') + ' here)' : ''}: ${what}${guard}` });
  }
  m.indent = anchor.indent;
  m.eol = anchor.eol;
  anchor.replaceWith(m);
  for (const { d } of line.sources.slice(1)) d.remove();
  if (line.guard) wrap([m], 'IfModule', ['!mpm_event_module']);
}

// A Mutex line sets the mechanism every time and the directory only when it names one, so
// the line made from a LockFile (default:dir) must not be read after one made from an
// AcceptMutex elsewhere (mechanism only): it would put the mechanism back to default.
function acceptMutexBefore(ctx: TransformContext, lockFile: Directive): { d: Directive; file: ConfigFile } | null {
  const contexts = liveContexts(ctx, lockFile);
  if (contexts.length !== 1 || !contexts[0].main) return null;
  let found: { d: Directive; file: ConfigFile } | null = null;
  for (const v of readingOrder(ctx, contexts[0].main)) {
    if (v.node === lockFile) return found;
    const n = v.node;
    if (n.kind === 'directive' && n.is('AcceptMutex') && !/^default$/i.test(n.values[0] ?? '') && n.parent !== lockFile.parent && !skippedBy24(v.sections)) found = { d: n, file: v.file };
  }
  return null;
}
