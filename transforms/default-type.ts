import type { Transform } from './types.js';
import { candidates } from './lib/select.js';

// 2.4 ignores DefaultType (core.c set_default_type(): AH00117 unless the value is none/off).
// 2.2 gave files with no known type that Content-Type, and also used it as the handler name
// when no handler was set (httpd@2.2.34:server/config.c ap_invoke_handler()), which is how
// DefaultType application/x-httpd-php ran extension-less files through PHP.
const HANDLER_TYPE = /^(application\/x-httpd-|text\/x-server-parsed|httpd\/)/i;

export const defaultType: Transform = {
  id: 'default-type',
  title: 'Remove DefaultType (ignored by 2.4); report where files of unknown type change',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/core.html#defaulttype',
  run(ctx) {
    for (const d of candidates(ctx, ['defaulttype'])) {
      const v = d.values[0] ?? '';
      if (d.values.length !== 1 || v.includes('${')) {
        ctx.report({ node: d, severity: 'manual', message: `DefaultType ${d.values.join(' ')} is ignored by 2.4 and was not removed: check what type it gave files of unknown type` });
        continue;
      }
      d.remove();
      if (/^(none|off)$/i.test(v)) {
        ctx.report({ node: d, severity: 'change', message: `DefaultType ${v} removed: it has no effect in 2.4, which never sets a type for files of unknown type either` });
      } else if (/^text\/plain$/i.test(v)) {
        ctx.report({ node: d, severity: 'change', message: `DefaultType ${v} removed: 2.4 ignores it; files of unknown type are now sent without a Content-Type instead of text/plain` });
      } else {
        ctx.report({ node: d, severity: 'change', message: `DefaultType ${v} removed: 2.4 ignores it and sends files of unknown type without a Content-Type` });
        const handler = HANDLER_TYPE.test(v) ? `; 2.2 also ran them through the "${v}" handler: use SetHandler or AddHandler for that` : '';
        ctx.report({ node: d, severity: 'manual', message: `2.2 sent files of unknown type as ${v}: to keep that, add "AddType ${v} .ext" for their extensions, and "ForceType ${v}" inside <FilesMatch "^[^.]+$"> for files without one${handler}` });
      }
    }
  },
};
