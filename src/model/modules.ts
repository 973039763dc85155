// Module names. Apache refers to a module three ways: its identifier in LoadModule
// (`rewrite_module`), its source file in <IfModule> (`mod_rewrite.c`), and its shared
// object (`mod_rewrite.so`). We normalise all of them to the identifier.

import { type Container, type Directive, type Node, walk } from '../syntax/index.js';

/** Source-file names whose identifier does not follow `mod_X.c` → `X_module`. */
const SOURCE_TO_ID: Record<string, string> = {
  'core.c': 'core_module',
  'http_core.c': 'http_module',
  'prefork.c': 'mpm_prefork_module',
  'worker.c': 'mpm_worker_module',
  'event.c': 'mpm_event_module',
  'itk.c': 'mpm_itk_module',
  'peruser.c': 'mpm_peruser_module',
  'mpm_winnt.c': 'mpm_winnt_module',
  'mpm_netware.c': 'mpm_netware_module',
  'mpmt_os2.c': 'mpm_mpmt_os2_module',
  'beos.c': 'mpm_beos_module',
  'mod_php5.c': 'php5_module',
  'mod_php7.c': 'php7_module',
  'sapi_apache2.c': 'php5_module',
};

/** The module identifier for any of its names; '' for nothing recognisable. */
export function moduleId(name: string): string {
  const n = name.trim();
  const lower = n.toLowerCase();
  if (SOURCE_TO_ID[lower]) return SOURCE_TO_ID[lower];
  if (lower.endsWith('_module')) return lower;
  const m = /^(?:.*\/)?mod_(.+)\.(?:c|so)$/i.exec(n);
  if (m) return m[1].toLowerCase() + '_module';
  return lower;
}

/** The conventional shared-object file name for a module identifier. */
export function moduleFile(id: string): string {
  const base = id.replace(/_module$/, '');
  return `mod_${base}.so`;
}

/** The <IfModule> conditions around a node, innermost first: module id and negation. */
export function ifModuleConditions(node: Node): Array<{ id: string; negated: boolean; section: Node }> {
  const out: Array<{ id: string; negated: boolean; section: Node }> = [];
  let p = node.parent;
  while (p !== null && p.kind === 'section') {
    if (p.is('IfModule') && p.values.length > 0) {
      const v = p.values[0];
      const negated = v.startsWith('!');
      out.push({ id: moduleId(negated ? v.slice(1) : v), negated, section: p });
    }
    p = p.parent;
  }
  return out;
}

/** True when the node sits inside `<IfModule X>` for one of the given module ids (not negated). */
export function insideIfModule(node: Node, ids: readonly string[]): boolean {
  return ifModuleConditions(node).some((c) => !c.negated && ids.includes(c.id));
}

/** LoadModule directives of a container, in order. */
export function loadModules(c: Container): Array<{ directive: Directive; id: string; file: string }> {
  const out: Array<{ directive: Directive; id: string; file: string }> = [];
  for (const n of walk(c)) {
    if (n.kind === 'directive' && n.is('LoadModule') && n.values.length >= 1) {
      out.push({ directive: n, id: n.values[0].toLowerCase(), file: n.values[1] ?? '' });
    }
  }
  return out;
}

/** 2.2 modules that 2.4 does not have at all. */
export const REMOVED_IN_24: Readonly<Record<string, string>> = {
  authn_default_module: 'mod_authn_default is gone in 2.4 (mod_authn_core refuses unauthenticated requests itself)',
  authz_default_module: 'mod_authz_default is gone in 2.4 (mod_authz_core denies what no Require grants)',
  mem_cache_module: 'mod_mem_cache is gone in 2.4',
};

/** 2.2 modules that 2.4 has under another name (the modules transform renames every reference). */
export const RENAMED_IN_24: Readonly<Record<string, string>> = {
  disk_cache_module: 'cache_disk_module',
  authn_alias_module: 'authn_core_module',
};

/** The 2.4 identifier of a 2.2 module: renamed, or '' when 2.4 has no such module. */
export function moduleIn24(id: string): string {
  if (REMOVED_IN_24[id]) return '';
  return RENAMED_IN_24[id] ?? id;
}

export const MPM_IDS = ['mpm_prefork_module', 'mpm_worker_module', 'mpm_event_module', 'mpm_itk_module', 'mpm_peruser_module'];
