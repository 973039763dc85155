import { shownBy22 } from '../src/model/loglevel.js';
import type { Directive } from '../src/syntax/index.js';
import type { Transform, TransformContext } from './types.js';
import { logLevelLine, serverLevel22, setModuleLogLevel } from './lib/loglevel.js';
import { candidates } from './lib/select.js';
import { replaceArgs } from './lib/edit.js';

// CharsetOptions and ExtFilterOptions lost DebugLevel=N in 2.4 ("Invalid … option"). In 2.2
// each message was written at APLOG_DEBUG when N reached its threshold; 2.4 writes the same
// messages at fixed levels. Thresholds and levels, from the sources:
//   mod_charset_lite: DBGLVL_PMC 2 (misconfiguration: debug, one of them only under
//     trace1), DBGLVL_FLOW 4 (request flow: trace3), DBGLVL_GORY 9 (details: trace6).
//   mod_ext_filter: DBGLVL_SHOWOPTIONS 1 (filter and options: trace1), DBGLVL_GORY 9
//     (child I/O: trace5/trace6).
const MODULES: Record<string, { module: string; levels: Array<[number, string]> }> = {
  charsetoptions: { module: 'charset_lite', levels: [[9, 'trace6'], [4, 'trace3'], [2, 'trace1']] },
  extfilteroptions: { module: 'ext_filter', levels: [[9, 'trace6'], [1, 'trace1']] },
};

/** C atoi(). */
function atoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? parseInt(m[1], 10) : 0;
}

/** The 2.4 level showing what DebugLevel=n showed in 2.2, or null when it showed nothing. */
export function traceLevelFor(directiveKey: string, n: number): string | null {
  for (const [min, level] of MODULES[directiveKey].levels) if (n >= min) return level;
  return null;
}

export const debuglevelOptions: Transform = {
  id: 'debuglevel-options',
  title: 'DebugLevel=N dropped from CharsetOptions / ExtFilterOptions; LogLevel charset_lite:… / ext_filter:… instead',
  kind: 'rewrite',
  reach: 'tree', // merges into the scope's last LogLevel, which may be in another file
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_charset_lite.html#charsetoptions',
  run(ctx) {
    for (const d of candidates(ctx, Object.keys(MODULES))) {
      const debug = d.args.filter((a) => /^debuglevel=/i.test(a.value));
      if (debug.length === 0) continue;
      convert(ctx, d, debug.map((a) => a.value));
    }
  },
};

function convert(ctx: TransformContext, d: Directive, debug: string[]): void {
  const { module } = MODULES[d.key];
  const n = atoi(debug[debug.length - 1].slice('debuglevel='.length)); // the last one wins
  const rest = d.args.filter((a) => !/^debuglevel=/i.test(a.value));
  const was = `${d.name} ${debug.join(' ')}`;
  const level = traceLevelFor(d.key, n);
  const logLevel = serverLevel22(ctx, d);
  const drop = (why: string): void => {
    if (rest.length === 0) d.remove();
    else replaceArgs(d, rest);
    ctx.report({ node: d, severity: 'change', message: `${debug.join(' ')} removed from ${d.name}: 2.4 refuses it, and ${why}` });
  };
  if (level === null) return drop(`DebugLevel=${n} logged nothing in 2.2`);
  if (logLevel !== undefined && !shownBy22('debug', logLevel)) {
    return drop(`2.2 wrote these messages at debug, below this server's LogLevel ${logLevel}, so nothing reached the log`);
  }
  if (ctx.file.role === 'htaccess') {
    drop('LogLevel, which replaces it, is not allowed in .htaccess');
    ctx.report({ node: d, severity: 'manual', message: `to see what ${was} showed, add "LogLevel ${module}:${level}" to the <Directory> for this folder in the server configuration` });
    return;
  }
  if (rest.length > 0) replaceArgs(d, rest);
  const o = setModuleLogLevel(ctx, d, module, level, rest.length === 0);
  if (o.kind === 'htaccess') return; // handled above
  const into = o.kind === 'merged' ? ` (added to ${logLevelLine(ctx, o.file, o.into)})` : '';
  ctx.report({ node: d, severity: 'change', message: `${was} → LogLevel ${module}:${level}${into}: 2.4 writes the messages DebugLevel=${n} showed at ${level}` });
  if (o.kind === 'added') {
    for (const r of o.resetBy) {
      ctx.report({ node: d, severity: 'manual', message: `${logLevelLine(ctx, r.file, r.directive)} is read after this line and its plain level resets module levels: add ${module}:${level} to it` });
    }
  }
}
