// LogLevel as 2.4 reads it (httpd@2.4.62:server/core.c set_loglevel(), server/log.c
// ap_parse_log_level()): a plain level sets the level of the scope and resets every
// per-module level set before it; `module:level` sets one module's level. 2.2 took one
// plain level (emerg … debug).

import { moduleId } from './modules.js';

export const LOG_LEVELS = ['emerg', 'alert', 'crit', 'error', 'warn', 'notice', 'info', 'debug', 'trace1', 'trace2', 'trace3', 'trace4', 'trace5', 'trace6', 'trace7', 'trace8'] as const;

/** Rank of a level keyword (emerg = 0 … trace8 = 15), case-insensitive; undefined when it is not one. */
export function levelRank(level: string): number | undefined {
  const i = (LOG_LEVELS as readonly string[]).indexOf(level.toLowerCase());
  return i < 0 ? undefined : i;
}

export interface LogLevelArg {
  /** The module identifier (`rewrite_module`), or null for a plain level. */
  module: string | null;
  level: string;
}

/** One LogLevel argument: `level` or `module:level` (split at the last colon, as Apache does). */
export function parseLogLevelArg(arg: string): LogLevelArg {
  const i = arg.lastIndexOf(':');
  if (i < 0) return { module: null, level: arg };
  return { module: logModuleId(arg.slice(0, i)), level: arg.slice(i + 1) };
}

/** The module a LogLevel specifier names: `rewrite`, `mod_rewrite.c` and `rewrite_module` are one module. */
export function logModuleId(name: string): string {
  const id = moduleId(name);
  return id.endsWith('_module') ? id : id + '_module';
}

/** Does this LogLevel line set a plain level (and so reset the per-module levels before it)? */
export function setsPlainLevel(values: readonly string[]): boolean {
  return values.some((v) => parseLogLevelArg(v).module === null);
}

/**
 * Did 2.2 write a message of `level` to the error log of a server at `serverLevel`? It wrote
 * what the level allowed, and notice messages always (httpd@2.2.34:server/log.c
 * log_error_core(): "unless it is a startup/shutdown notice"; an ErrorLog to syslog
 * applied the level to notice too, which we do not tell apart).
 */
export function shownBy22(level: string, serverLevel: string): boolean {
  const m = levelRank(level);
  const s = levelRank(serverLevel);
  if (m === undefined || s === undefined) return true;
  return m === levelRank('notice') || m <= s;
}
