import { accessFor } from '../src/authz/analyze.js';
import { directive, quoteArg, section } from '../src/syntax/index.js';
import type { Transform } from './types.js';

export const htaccessAllowOverride: Transform = {
  id: 'htaccess-allowoverride',
  title: 'AllowOverride for converted .htaccess files: AuthConfig for Require, and explicit where 2.2 relied on its default All',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/core.html#allowoverride',
  run(ctx) {
    const a = accessFor(ctx.tree, ctx.file);
    for (const n of a.notes) {
      if (n.transform === 'htaccess-allowoverride' && n.file === ctx.file) ctx.report({ node: n.node, line: n.line, severity: n.severity, message: n.message });
    }
    for (const e of a.overrides) {
      if (e.file !== ctx.file) continue;
      for (const h of e.htaccess) ctx.link(h);
      const names = e.htaccess.map((h) => h.display).join(', ');
      if (e.section) {
        if (!ctx.enabled(e.section)) continue;
        const existing = e.section.children.find((c) => c.kind === 'directive' && c.is('AllowOverride'));
        if (existing && existing.kind === 'directive') {
          existing.setArgs(e.values);
          ctx.report({ node: existing, severity: 'change', message: `AllowOverride ${e.values.join(' ')}: ${e.reason} (${names})` });
        } else {
          const d = directive('AllowOverride', ...e.values);
          const last = [...e.section.children].reverse().find((c) => c.kind === 'directive' && !/^(Order|Allow|Deny|Satisfy|Require)$/i.test(c.name));
          if (last) last.after(d);
          else e.section.prepend(d);
          ctx.report({ node: e.section, severity: 'change', message: `AllowOverride ${e.values.join(' ')} added: ${e.reason} (${names})` });
        }
      } else {
        // No <Directory> reaches the folder: add one at server level, after the last top-level <Directory>.
        const s = section('Directory', [quoteArg(e.path, '"')], [directive('AllowOverride', ...e.values)]);
        const dirs = ctx.doc.children.filter((c) => c.kind === 'section' && c.is('Directory'));
        const last = dirs[dirs.length - 1];
        if (last) last.after(s);
        else ctx.doc.append(s);
        ctx.report({ node: last, severity: 'change', message: `<Directory "${e.path}"> with AllowOverride ${e.values.join(' ')} added: ${e.reason} (${names})` });
      }
    }
  },
};
