// <IfVersion> as a 2.4 server reads it (mod_version, httpd@2.4.62:modules/metadata/mod_version.c):
// configurations written for both versions keep their 2.2-only lines in blocks such as
// <IfVersion < 2.3.6>, which a 2.4 server skips, so they need no conversion.

import type { Section } from '../syntax/index.js';
import type { Tristate } from './server.js';

/** `major[.minor[.patch]]`, missing parts 0 (mod_version's compare_version()); null if not a version. */
export function parseVersion(text: string): [number, number, number] | null {
  const m = /^(\d+)(?:\.(\d+)(?:\.(\d+))?)?$/.exec(text.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

/**
 * Does `<IfVersion args>` hold for every 2.4 release ('yes'), for none ('no'), or does it
 * depend on the release ('unknown')? Regex forms (`~ re`, `= /re/`) are 'unknown'.
 */
export function ifVersionIn24(values: readonly string[]): Tristate {
  if (values.length === 0) return 'unknown';
  let op = values.length >= 2 ? values[0] : '=';
  const ver = values.length >= 2 ? values[1] : values[0];
  let negated = false;
  if (op.startsWith('!')) {
    negated = true;
    op = op.slice(1) || '=';
  }
  if (op === '~' || ver.startsWith('/')) return 'unknown';
  const v = parseVersion(ver);
  if (!v) return 'unknown';
  // 2.4 releases are 2.4.0 and up, below 2.5.0.
  const below = v[0] < 2 || (v[0] === 2 && v[1] < 4); // v < 2.4.0
  const above = v[0] > 2 || (v[0] === 2 && v[1] > 4); // v > every 2.4.x
  const is240 = v[0] === 2 && v[1] === 4 && v[2] === 0;
  let r: Tristate;
  switch (op) {
    case '=':
    case '==':
      r = below || above ? 'no' : 'unknown';
      break;
    case '<':
      r = above ? 'yes' : below || is240 ? 'no' : 'unknown';
      break;
    case '<=':
      r = above ? 'yes' : below ? 'no' : 'unknown';
      break;
    case '>':
      r = below ? 'yes' : above ? 'no' : 'unknown';
      break;
    case '>=':
      r = below || is240 ? 'yes' : above ? 'no' : 'unknown';
      break;
    default:
      return 'unknown';
  }
  if (negated && r !== 'unknown') r = r === 'yes' ? 'no' : 'yes';
  return r;
}

/** True when one of the sections is an <IfVersion> that no 2.4 release enters. */
export function skippedBy24(sections: readonly Section[]): boolean {
  return sections.some((s) => s.is('IfVersion') && ifVersionIn24(s.values) === 'no');
}
