import type { Transform } from './types.js';
import { candidates } from './lib/select.js';
import { replaceArgs } from './lib/edit.js';

// 2.2 set_keep_alive() (httpd@2.2.34:modules/http/http_core.c) took any word: "off" in any
// case or exactly "0" meant Off, anything else On. 2.4 makes it a flag: On or Off only.
export const keepaliveValue: Transform = {
  id: 'keepalive-value',
  title: 'KeepAlive takes only On or Off: 0 → Off, any other word → On, as 2.2 read them',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/core.html#keepalive',
  run(ctx) {
    for (const d of candidates(ctx, ['keepalive'])) {
      if (d.values.length !== 1) continue; // 2.2 refused these too
      const v = d.values[0];
      if (/^(on|off)$/i.test(v)) continue;
      if (v.includes('${')) {
        ctx.report({ node: d, severity: 'manual', message: `KeepAlive ${v}: 2.4 accepts only On or Off; make sure the variable holds one of them (2.2 read "0" and "off" as Off, anything else as On)` });
        continue;
      }
      const to = v === '0' ? 'Off' : 'On';
      replaceArgs(d, [to]);
      ctx.report({ node: d, severity: 'change', message: `KeepAlive ${v} → ${to}: 2.4 accepts only On or Off, and 2.2 read "${v}" as ${to} (only "off" and "0" turned keep-alive off)` });
    }
  },
};
