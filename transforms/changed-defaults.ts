import { dirname } from 'node:path';
import { model, type Visit } from '../src/model/server.js';
import { blank, comment, directive, directives, type Node, type Section, section } from '../src/syntax/index.js';
import { coveringDirectories, serversOfHtaccess } from './lib/directories.js';
import { isServerMainConfig, settingsFor, vhostOf } from './lib/scope.js';
import type { Transform, TransformContext } from './types.js';

// Defaults that changed between 2.2 and 2.4 (semantics.md §7.6, checked in the sources:
// core.c create_core_dir_config/create_core_server_config, mod_ssl, http_core.c).
// Reported where the configuration relies on them; with --preserve-defaults the 2.2 value
// is written at server level instead.
interface ServerDefault {
  name: string;
  /** The 2.2 value to pin. */
  value: string[];
  message: string;
  /** Also counts as set when found in <Directory />. */
  perDir?: boolean;
}

const SERVER_DEFAULTS: ServerDefault[] = [
  { name: 'Timeout', value: ['300'], message: 'Timeout is not set: 2.2 waited 300 seconds (reads, writes, CGI output), 2.4 waits 60' },
  { name: 'Options', value: ['All'], perDir: true, message: 'no Options at server level or in <Directory />: 2.2 defaulted to All (Indexes, Includes, ExecCGI, FollowSymLinks), 2.4 to FollowSymLinks, so folders without their own Options lose listings, SSI and CGI' },
  { name: 'EnableSendfile', value: ['On'], perDir: true, message: 'EnableSendfile is not set: 2.2 used sendfile() by default, 2.4 does not (Off)' },
  { name: 'FileETag', value: ['INode', 'MTime', 'Size'], perDir: true, message: 'FileETag is not set: 2.2 built ETags from INode MTime Size, 2.4 from MTime Size, so every ETag changes once (caches revalidate)' },
  { name: 'LimitRequestBody', value: ['0'], perDir: true, message: 'LimitRequestBody is not set: 2.2 accepted request bodies of any size, 2.4.54+ refuses bodies over 1 GiB (413)' },
];

const PIN_COMMENT = '2.2 defaults kept by httpd24-codemod --preserve-defaults';

export const changedDefaults: Transform = {
  id: 'changed-defaults',
  title: 'Defaults that changed (AllowOverride, Options, EnableSendfile, FileETag, Timeout, LimitRequestBody, SSLProtocol): report, or pin the 2.2 value',
  kind: 'advice',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#run-time',
  run(ctx) {
    if (isServerMainConfig(ctx.file)) serverDefaults(ctx);
    if (ctx.file.role === 'htaccess') htaccessOverride(ctx);
    sslProtocolDefault(ctx);
  },
};

/** Main-server level: outside <VirtualHost> and any per-directory section. */
function atServerLevel(v: Visit): boolean {
  return v.sections.every((s) => s.is('IfModule') || s.is('IfDefine') || s.is('IfVersion'));
}

function isRootDirectory(s: Section): boolean {
  return s.is('Directory') && s.values.length === 1 && s.values[0] === '/';
}

function serverDefaults(ctx: TransformContext): void {
  const visits = [...model(ctx.tree).server(ctx.file).walk()];
  const pins: Node[] = [];
  // Files this server includes that were not read here may set what looks unset.
  const unread = visits.filter((v) => v.node.kind === 'directive' && (v.node.is('Include') || v.node.is('IncludeOptional')) && (ctx.tree.includes.get(v.node)?.targets.length ?? 0) === 0).length;
  const caveat = unread > 0 ? ` (unless a file that one of its ${unread} unread Include lines names sets it)` : '';
  for (const def of SERVER_DEFAULTS) {
    const set = visits.some((v) => v.node.kind === 'directive' && v.node.is(def.name)
      && (atServerLevel(v) || (def.perDir === true && v.sections.length > 0 && isRootDirectory(v.sections[v.sections.length - 1]) && atServerLevel({ ...v, sections: v.sections.slice(0, -1) }))));
    if (set) continue;
    if (ctx.options.preserveDefaults) {
      pins.push(directive(def.name, ...def.value));
      ctx.report({ line: 0, severity: 'change', message: `${def.name} ${def.value.join(' ')} added at server level (--preserve-defaults): ${def.message}` });
    } else {
      ctx.report({ line: 0, severity: 'warning', message: `${def.message}${caveat}; set it, or run with --preserve-defaults to keep ${def.name} ${def.value.join(' ')}` });
    }
  }
  // AllowOverride: 2.2 read .htaccess files with All wherever no AllowOverride applied.
  const roots = visits.filter((v) => v.node.kind === 'section' && isRootDirectory(v.node) && atServerLevel(v));
  const rootOverride = roots.some((v) => (v.node as Section).children.some((c) => c.kind === 'directive' && c.is('AllowOverride')));
  if (!rootOverride) {
    if (ctx.options.preserveDefaults) {
      const root = roots[0]?.node as Section | undefined;
      if (root && root.root() === ctx.doc) {
        root.append(directive('AllowOverride', 'All'));
        ctx.report({ node: root, severity: 'change', message: 'AllowOverride All added to <Directory /> (--preserve-defaults): 2.2 read .htaccess files with All where no AllowOverride applied' });
      } else if (!root) {
        pins.push(section('Directory', ['/'], [directive('AllowOverride', 'All')]));
        ctx.report({ line: 0, severity: 'change', message: '<Directory /> with AllowOverride All added (--preserve-defaults): 2.2 read .htaccess files with All where no AllowOverride applied' });
      }
    } else {
      ctx.report({ line: 0, severity: 'warning', message: `no AllowOverride in <Directory />${caveat}: 2.2 read .htaccess files with AllowOverride All where none applied; 2.4 answers 500 for any directive in them (AllowOverride is unset, not None, until set); set AllowOverride, or run with --preserve-defaults` });
    }
  }
  if (pins.length > 0) {
    const last = ctx.doc.children[ctx.doc.children.length - 1];
    ctx.doc.append(...(last && last.kind !== 'blank' ? [blank()] : []), comment(PIN_COMMENT), ...pins);
  }
}

/** An .htaccess file under no <Directory> that sets AllowOverride relied on 2.2's All. */
function htaccessOverride(ctx: TransformContext): void {
  const folder = dirname(ctx.file.path);
  for (const main of serversOfHtaccess(ctx.file, ctx.tree)) {
    const covering = coveringDirectories(main, folder, ctx.tree);
    const withOverride = covering.filter((c) => c.section.children.some((n) => n.kind === 'directive' && n.is('AllowOverride')));
    if (withOverride.length > 0) continue;
    const near = covering[covering.length - 1];
    const where = near ? ` (nearest: <Directory ${near.section.values.join(' ')}> at ${near.visit.file.display}:${near.section.line})` : '';
    ctx.report({ line: 0, severity: 'warning', message: `no AllowOverride applies to this folder${where}: 2.2 read this file with AllowOverride All, 2.4 answers 500 for any directive in it until AllowOverride is set${ctx.options.preserveDefaults ? '' : ' (--preserve-defaults pins All in <Directory />)'}` });
  }
}

/** SSLProtocol: 2.2's default `all` had SSLv3 (and SSLv2); 2.4's is `all -SSLv3` (2.4.17+). */
function sslProtocolDefault(ctx: TransformContext): void {
  for (const d of directives(ctx.doc)) {
    if (!d.is('SSLEngine') || (d.values[0] ?? '').toLowerCase() !== 'on') continue;
    if (settingsFor(ctx, vhostOf(ctx, d), ['SSLProtocol']).length > 0) continue;
    if (ctx.options.preserveDefaults && ctx.enabled(d)) {
      d.after(directive('SSLProtocol', 'all'));
      ctx.report({ node: d, severity: 'change', message: 'SSLProtocol all added (--preserve-defaults): 2.2\'s default was all (with SSLv3), 2.4\'s is all -SSLv3; `all` enables SSLv3 again only where OpenSSL still has it' });
    } else {
      ctx.report({ node: d, severity: 'warning', message: 'SSLProtocol is not set: 2.2\'s default was all (SSLv3 included), 2.4\'s is all -SSLv3, so SSLv3-only clients cannot connect; set SSLProtocol to choose' });
    }
  }
}
