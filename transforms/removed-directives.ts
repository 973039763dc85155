import { directive, directives, quoteArg } from '../src/syntax/index.js';
import type { Transform } from './types.js';

// 2.2 directives that 2.4 does not have and no other transform handles (semantics.md §7.2):
// httpd 2.4 refuses to start on them ("Invalid command").
export const removedDirectives: Transform = {
  id: 'removed-directives',
  title: 'CookieLog, Win32DisableAcceptEx, MaxRequestsPerThread, SSIAccessEnable: 2.2 directives 2.4 does not have',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#run-time',
  run(ctx) {
    for (const d of [...directives(ctx.doc)]) {
      if (!ctx.enabled(d)) continue;
      switch (d.key) {
        case 'cookielog': {
          // mod_log_config 2.2 set_cookie_log(): a CustomLog with this fixed format.
          if (d.values.length !== 1) break;
          const from = `${d.name} ${d.args[0].raw}`;
          d.rename('CustomLog').setArgs([d.args[0], quoteArg('%{Cookie}n "%r" %t')]);
          ctx.report({ node: d, severity: 'change', message: `${from} → CustomLog with the format CookieLog used ("%{Cookie}n \\"%r\\" %t"): 2.4 has no CookieLog` });
          break;
        }
        case 'win32disableacceptex': {
          // Its 2.4 replacement: no accept filter on the Windows MPM's listeners.
          const on = !/^off$/i.test(d.values[0] ?? 'on');
          if (on) d.after(directive('AcceptFilter', 'https', 'none')).replaceWith(directive('AcceptFilter', 'http', 'none'));
          else d.remove();
          ctx.report({ node: d, line: d.line, severity: 'change', message: on ? 'Win32DisableAcceptEx → AcceptFilter http none and AcceptFilter https none (its 2.4 replacement on Windows)' : 'Win32DisableAcceptEx Off removed: it was the default; 2.4 has no such directive' });
          break;
        }
        case 'maxrequestsperthread':
          d.remove();
          ctx.report({ node: d, line: d.line, severity: 'change', message: 'MaxRequestsPerThread removed: it belonged to the BeOS MPM, which 2.4 no longer has' });
          break;
        case 'ssiaccessenable':
          ctx.report({ node: d, severity: 'manual', message: 'SSIAccessEnable does not exist in 2.4 (it refuses to start on it): 2.4 allows the -A access test in SSI #if expressions without it; remove the line, and check pages that relied on -A being off' });
          break;
      }
    }
  },
};
