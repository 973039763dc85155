// Is a section's content read by httpd 2.4? <IfModule> against the modules the converted
// server will load, <IfVersion> against 2.4.x. What cannot be decided (a module a 2.4 build
// may compile in, <IfDefine>, a regex version test) counts as read: callers that use this
// to decide what a server needs must err towards needing it.

import { moduleId, moduleIn24 } from '../../src/model/modules.js';
import type { Section } from '../../src/syntax/index.js';

/** Modules some 2.4 builds compile in (Debian's `apache2 -l`, and upstream's fixed core). */
export const MAYBE_BUILTIN_24 = new Set(['core_module', 'http_module', 'so_module', 'log_config_module', 'logio_module', 'version_module', 'unixd_module', 'watchdog_module']);


export interface ModuleState {
  /** Modules the converted server loads with LoadModule. */
  loaded: ReadonlySet<string>;
  /** False when the server's LoadModule lines are not known (a fragment): every <IfModule> may hold. */
  known: boolean;
}

/** 'yes' | 'no' | 'unknown' for one <IfModule> argument. */
export function ifModuleHolds(arg: string, state: ModuleState): 'yes' | 'no' | 'unknown' {
  const negated = arg.startsWith('!');
  const name = negated ? arg.slice(1) : arg;
  // A renamed module's references are renamed too (modules transform): judge the new name.
  const id = moduleIn24(moduleId(name));
  let present: boolean | null;
  // <IfModule> compares names case-sensitively (checked on 2.4): MOD_SSL.C never holds.
  if (id === '') present = false;
  else if (state.loaded.has(id)) present = name === name.toLowerCase();
  else if (!state.known || MAYBE_BUILTIN_24.has(id)) present = null;
  else present = false;
  if (present === null) return 'unknown';
  return present !== negated ? 'yes' : 'no';
}

/** False only when some section around the node is certainly skipped by 2.4. */
export function readBy24(sections: readonly Section[], state: ModuleState): boolean {
  for (const s of sections) {
    if (s.is('IfModule') && s.values.length > 0 && ifModuleHolds(s.values[0], state) === 'no') return false;
    if (s.is('IfVersion') && ifVersionHolds(s.values) === 'no') return false;
  }
  return true;
}

/**
 * mod_version's test against httpd 2.4.x: decided when it gives the same answer for 2.4.0
 * and any later 2.4 release.
 */
export function ifVersionHolds(values: readonly string[]): 'yes' | 'no' | 'unknown' {
  let op = '=';
  let ver = '';
  if (values.length >= 2) [op, ver] = values;
  else if (values.length === 1) ver = values[0];
  else return 'unknown';
  let negate = false;
  if (op.startsWith('!')) {
    negate = true;
    op = op.slice(1) || '=';
  }
  if (op === '~' || ver.startsWith('/')) return 'unknown';
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(ver);
  if (!m) return 'unknown';
  const want = [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
  const test = (have: number[]): boolean => {
    const c = have[0] - want[0] || have[1] - want[1] || have[2] - want[2];
    switch (op) {
      case '=': case '==': return c === 0;
      case '>': return c > 0;
      case '>=': return c >= 0;
      case '<': return c < 0;
      case '<=': return c <= 0;
      default: return false;
    }
  };
  // Missing parts are 0 (mod_version: ">= 2.3" means 2.3.0 and later); the server is 2.4.p.
  const lowHigh = [[2, 4, 0], [2, 4, 999]];
  const a = test(lowHigh[0]);
  const b = test(lowHigh[1]);
  if (a !== b) return 'unknown';
  return a !== negate ? 'yes' : 'no';
}
