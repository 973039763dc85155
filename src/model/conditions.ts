// <IfModule>, <IfDefine> and <IfVersion>: whether their content applies, for the 2.2 server
// the configuration was written for or the 2.4 server it is converted for. Unknown stays
// unknown (a module a 2.2 build may have compiled in, a name not given with --define).

import type { Section } from '../syntax/index.js';
import { moduleId, moduleIn24 } from './modules.js';
import type { Tristate } from './server.js';

export interface ConditionEnv {
  version: '2.2' | '2.4';
  hasModule(id: string): Tristate;
  defined(name: string): Tristate;
}

/** Modules that exist only in 2.4: never loaded in a 2.2 server, always in the converted one. */
const ONLY_24 = new Set(['authz_core_module', 'authn_core_module', 'access_compat_module', 'unixd_module', 'socache_shmcb_module', 'slotmem_shm_module']);

/** Apache 2.0 names that no 2.2 or 2.4 server has (2.2 renamed them), so <IfModule> on them is false. */
const ONLY_20 = new Set(['access_module', 'auth_module', 'auth_anon_module', 'auth_dbm_module', 'auth_ldap_module']);

/** The module state for a view, given the 2.2 server's state. */
export function viewModules(version: '2.2' | '2.4', has22: (id: string) => Tristate): (name: string) => Tristate {
  return (name) => {
    const id = moduleId(name);
    if (ONLY_20.has(id)) return 'no';
    if (ONLY_24.has(id)) return version === '2.2' ? 'no' : id === 'access_compat_module' ? 'unknown' : 'yes';
    // In 2.4 a removed module is absent; a renamed one is there when its 2.2 name was.
    if (moduleIn24(id) === '') {
      if (version === '2.4') return 'no';
      // This tool removes their LoadModule lines, so in its own output "not loaded" may
      // mean "was loaded": treat it as unknown, or a second run would judge differently.
      const t = has22(id);
      return t === 'no' ? 'unknown' : t;
    }
    return has22(id);
  };
}

const not = (t: Tristate): Tristate => (t === 'yes' ? 'no' : t === 'no' ? 'yes' : 'unknown');

export function and(a: Tristate, b: Tristate): Tristate {
  if (a === 'no' || b === 'no') return 'no';
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return 'yes';
}

/** Whether a conditional section's content applies; 'yes' for any other section. */
export function evalCondition(s: Section, env: ConditionEnv): Tristate {
  const args = s.values;
  if (s.is('IfModule')) {
    const a = args[0] ?? '';
    return a.startsWith('!') ? not(env.hasModule(a.slice(1))) : env.hasModule(a);
  }
  if (s.is('IfDefine')) {
    const a = args[0] ?? '';
    return a.startsWith('!') ? not(env.defined(a.slice(1))) : env.defined(a);
  }
  if (s.is('IfVersion')) return ifVersion(args, env.version);
  return 'yes';
}

/** All conditions around a node must hold. */
export function conditionsHold(sections: readonly Section[], env: ConditionEnv): Tristate {
  let t: Tristate = 'yes';
  for (const s of sections) t = and(t, evalCondition(s, env));
  return t;
}

function ifVersion(args: string[], version: '2.2' | '2.4'): Tristate {
  let op = '=';
  let v = args[0] ?? '';
  let negate = false;
  if (args.length >= 2) {
    op = args[0];
    v = args[1];
  }
  if (op.startsWith('!')) {
    negate = true;
    op = op.slice(1) || '=';
  }
  // We know 2.2.34 exactly; of the 2.4 server only major and minor.
  const have = version === '2.2' ? [2, 2, 34] : [2, 4, -1];
  let r: Tristate;
  if (op === '~' || (v.startsWith('/') && v.endsWith('/'))) {
    const re = v.startsWith('/') ? v.slice(1, -1) : v;
    const tests = version === '2.2' ? ['2.2.34'] : ['2.4.0', '2.4.62'];
    const hits = tests.map((t) => new RegExp(re).test(t));
    r = hits.every(Boolean) ? 'yes' : hits.some(Boolean) ? 'unknown' : 'no';
  } else {
    const want = v.split('.').map((x) => Number(x));
    let cmp = 0;
    let unknown = false;
    for (let i = 0; i < Math.max(want.length, 2) && cmp === 0; i++) {
      if (i >= want.length) break;
      if (have[i] < 0) {
        unknown = true;
        break;
      }
      cmp = Math.sign(have[i] - want[i]);
    }
    const decide = (c: number): boolean => (op === '=' || op === '==' ? c === 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '<' ? c < 0 : op === '<=' ? c <= 0 : false);
    if (unknown && cmp === 0) r = 'unknown';
    else r = decide(cmp) ? 'yes' : 'no';
  }
  return negate ? not(r) : r;
}
