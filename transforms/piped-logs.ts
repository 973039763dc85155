import type { Arg } from '../src/syntax/index.js';
import type { Transform } from './types.js';
import { candidates } from './lib/select.js';
import { replaceArgs } from './lib/edit.js';

// Piped logs (httpd@2.2.34:server/log.c, httpd@2.4.62:server/log.c log_child() and
// ap_open_piped_log()). Both versions split the command with apr_tokenize_to_argv().
// 2.2 "|cmd": joined again and run by /bin/sh -c (APR_SHELLCMD_ENV); "||cmd" run directly.
// 2.4 "|cmd" and "||cmd": run directly (APR_PROGRAM_ENV: execv(), no shell, no PATH search,
// working directory ServerRoot); "|$cmd": through the shell. So 2.4's "|$cmd" is exactly
// 2.2's "|cmd", and a 2.2 command keeps working without it only when no shell is needed.

/** Directives whose first argument may be a piped program (ap_open_piped_log or log_child). */
const PIPED = ['errorlog', 'customlog', 'transferlog', 'forensiclog'];

/**
 * Why a command needs the shell, or null when running it directly gives the same result:
 * shell operators and quoting, expansions, globs, an environment assignment, or a program
 * name without a slash (the shell finds it through PATH; 2.4 would look in ServerRoot).
 */
export function shellNeeds(cmd: string): string | null {
  const words = cmd.trim().split(/[ \t]+/);
  const first = words[0] ?? '';
  if (first === '') return null;
  const checks: Array<[RegExp, string]> = [
    [/\|/, 'a pipe'],
    [/[<>]/, 'a redirection'],
    [/[;&]/, 'a command separator (; or &)'],
    [/[`$]/, 'a shell expansion ($ or `)'],
    [/["'\\]/, 'shell quoting'],
    [/[*?[\]]/, 'a glob'],
    [/[(){}]/, 'a subshell or group'],
    [/(^|\s)[#~!]/, 'a comment, ~ or !'],
    [/[\r\n]/, 'a line break'],
  ];
  for (const [re, why] of checks) if (re.test(cmd)) return why;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) return 'an environment assignment';
  if (!first.includes('/')) return `"${first}" found through PATH`;
  return null;
}

export const pipedLogs: Transform = {
  id: 'piped-logs',
  title: 'Piped logs that need a shell: "|cmd" → "|$cmd" (2.2 ran them through /bin/sh, 2.4 does not)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/logs.html#piped',
  run(ctx) {
    for (const d of candidates(ctx, PIPED)) {
      const target = d.args[0];
      if (!target) continue;
      const v = target.value;
      if (!v.startsWith('|') || v.startsWith('||') || v.startsWith('|$')) continue;
      const why = shellNeeds(v.slice(1));
      if (why === null) continue;
      // Insert "$" after the pipe in the argument as written, so quoting and escapes stay.
      const at = target.raw.indexOf('|') + 1;
      const dollar = v[1] === '{' ? '$ ' : '$'; // "|${" would read as a ${VAR} reference
      const next: Arg = { raw: target.raw.slice(0, at) + dollar + target.raw.slice(at), value: '|' + dollar + v.slice(1), quote: target.quote };
      replaceArgs(d, [next, ...d.args.slice(1)]);
      ctx.report({ node: d, severity: 'change', message: `${d.name} "|…" → "|$…": 2.2 ran piped log commands through /bin/sh, 2.4 runs them directly, and this one needs the shell (${why})` });
    }
  },
};
