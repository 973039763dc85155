// Stands a corpus file (../shared/corpus) up on this machine for httpd's config test: the
// file goes into a temporary root, build-time placeholders are filled, absolute paths of
// path-taking directives are moved under the root, and the files and folders httpd -t
// checks are created there as stubs. Only the environment is adjusted; what 2.4 makes of
// the directives themselves is left to the converter and to httpd.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { type CorpusEntry } from './shared.js';
import { parse, print, quoteArg, walk } from '../../src/syntax/index.js';
import { tempRoot } from './httpd.js';

/** Kinds that are server configuration (not .htaccess). */
export const SERVER_KINDS = new Set(['server', 'vhost', 'module-conf', 'ssl']);

/** Features that tie a file to a module Debian's apache2 does not ship. */
const FOREIGN = ['third-party-module', 'php_value'];

export interface PreparedFile {
  root: string;
  /** The file to convert and test, inside root. */
  file: string;
  /** --define NAME=VALUE for ${NAME} the distribution sets in its environment (Debian's envvars). */
  defines: string[];
  /** Where relative paths were materialized: give it as --server-root. */
  serverRoot: string;
}

export type Prepared = PreparedFile | { skip: string };

/** Why a server-level corpus file cannot stand alone here, or null. */
export function cannotStandAlone(e: CorpusEntry, text: string): string | null {
  if (!SERVER_KINDS.has(e.kind)) return `kind ${e.kind}: not server configuration`;
  const foreign = e.features.filter((f) => FOREIGN.includes(f));
  if (foreign.length > 0) return `needs a module Debian's apache2 does not ship (${foreign.join(', ')})`;
  const unknown = unknownPlaceholders(text);
  if (unknown.length > 0) return `template placeholders with no known value: ${unknown.slice(0, 4).join(' ')}`;
  return null;
}

// ---------------------------------------------------------------------------------------
// Placeholders of build systems (autoconf .in files, Gentoo's %%LOAD_MODULE%%)

const PORT = '8080';
const SSL_PORT = '8443';

function placeholderValue(token: string, root: string): string | null {
  const name = token.replace(/^[@%]+|[@%]+$/g, '');
  if (/^(ServerRoot|SERVERROOT)$/.test(name)) return root;
  if (/^(Port|PORT)$/.test(name)) return PORT;
  if (name === 'SSLPort') return SSL_PORT;
  if (name === 'LoadModule' || name === 'LOAD_MODULE') return '';
  const rel = /^rel_(\w+?)dir$/.exec(name);
  if (rel) return { logfile: 'logs', runtime: 'logs', sysconf: 'conf' }[rel[1]] ?? rel[1];
  const exp = /^exp_(\w+?)dir$/.exec(name);
  if (exp) return join(root, { logfile: 'logs', runtime: 'logs', sysconf: 'conf', htdocs: 'htdocs', cgi: 'cgi-bin', error: 'error' }[exp[1]] ?? exp[1]);
  if (/^\w*(dir|_ROOT)$/i.test(name)) return join(root, name.toLowerCase());
  if (/^\w*url$/i.test(name)) return '/' + name.toLowerCase();
  return null;
}

const PLACEHOLDER = /@@\w+@@|@[A-Za-z_]\w*@|%%\w+%%/g;

function unknownPlaceholders(text: string): string[] {
  const out = new Set<string>();
  for (const t of text.match(PLACEHOLDER) ?? []) if (placeholderValue(t, '/r') === null) out.add(t);
  // A template language of its own (%domain%, %home%, ...): more than one such name.
  const percent = new Set(text.match(/%[a-z_]+%/g) ?? []);
  if (percent.size > 1) for (const p of percent) out.add(p);
  return [...out];
}

// ---------------------------------------------------------------------------------------
// Paths

/** Directive (lower case) → index of its path argument, and what httpd -t needs there. */
const PATH_ARGS: Record<string, { index: number; need: 'dir' | 'file' | 'program' | 'parent' | 'include' | 'none' }> = {
  serverroot: { index: 0, need: 'dir' },
  documentroot: { index: 0, need: 'dir' },
  directory: { index: 0, need: 'none' },
  include: { index: 0, need: 'include' },
  includeoptional: { index: 0, need: 'none' },
  errorlog: { index: 0, need: 'parent' },
  customlog: { index: 0, need: 'parent' },
  transferlog: { index: 0, need: 'parent' },
  pidfile: { index: 0, need: 'parent' },
  lockfile: { index: 0, need: 'parent' },
  scoreboardfile: { index: 0, need: 'parent' },
  davlockdb: { index: 0, need: 'parent' },
  cacheroot: { index: 0, need: 'dir' },
  coredumpdirectory: { index: 0, need: 'dir' },
  typesconfig: { index: 0, need: 'file' },
  mimemagicfile: { index: 0, need: 'file' },
  authuserfile: { index: 0, need: 'file' },
  authgroupfile: { index: 0, need: 'file' },
  authdbmuserfile: { index: 0, need: 'file' },
  authdbmgroupfile: { index: 0, need: 'file' },
  sslcertificatefile: { index: 0, need: 'file' },
  sslcertificatekeyfile: { index: 0, need: 'file' },
  sslcertificatechainfile: { index: 0, need: 'file' },
  sslcacertificatefile: { index: 0, need: 'file' },
  sslcarevocationfile: { index: 0, need: 'file' },
  sslcacertificatepath: { index: 0, need: 'dir' },
  sslcarevocationpath: { index: 0, need: 'dir' },
  sslpassphrasedialog: { index: 0, need: 'program' },
  alias: { index: 1, need: 'none' },
  scriptalias: { index: 1, need: 'none' },
  aliasmatch: { index: 1, need: 'none' },
  scriptaliasmatch: { index: 1, need: 'none' },
};

function systemNames(file: string): Set<string> {
  try {
    return new Set(readFileSync(file, 'utf8').split('\n').map((l) => l.split(':')[0]).filter(Boolean));
  } catch {
    return new Set();
  }
}

/** A stub for what httpd -t checks: folders exist, files exist and are not empty, an Include matches. */
function materialize(path: string, need: string): void {
  if (need === 'dir') mkdirSync(path, { recursive: true });
  else if (need === 'parent') mkdirSync(dirname(path), { recursive: true });
  else if (need === 'file' || need === 'program') {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path)) writeFileSync(path, need === 'program' ? '#!/bin/sh\n' : '# stub for the config test\n', { mode: need === 'program' ? 0o755 : 0o644 });
  } else if (need === 'include') {
    if (/[*?[]/.test(path)) {
      // The first wildcard segment becomes a stub name, so the pattern matches one empty file.
      const parts = path.split('/');
      const i = parts.findIndex((p) => /[*?[]/.test(p));
      const stub = [...parts.slice(0, i), parts[i].replace(/\[[^\]]*\]/g, 'x').replace(/[*?]/g, 'stub'), ...parts.slice(i + 1)].join('/');
      if (i === parts.length - 1) {
        mkdirSync(dirname(stub), { recursive: true });
        if (!existsSync(stub)) writeFileSync(stub, '');
      } else {
        mkdirSync(stub, { recursive: true });
      }
    } else if (path.endsWith('/') || !basename(path).includes('.')) {
      mkdirSync(path, { recursive: true });
    } else {
      mkdirSync(dirname(path), { recursive: true });
      if (!existsSync(path)) writeFileSync(path, '');
    }
  }
}

/**
 * The corpus file in a fresh root, ready for `httpd24-codemod --verify`: main configs
 * (kind server) as conf/httpd.conf, other files as conf/<name>.conf.
 */
export function prepareCorpusFile(e: CorpusEntry): Prepared {
  const original = readFileSync(e.path).toString('latin1');
  const why = cannotStandAlone(e, original);
  if (why) return { skip: why };
  const root = tempRoot('h24-corpus-');
  let text = original.replace(PLACEHOLDER, (t) => placeholderValue(t, root) ?? t);

  const doc = parse(text);
  // ServerRoot as written decides where relative paths land; it moves under root too.
  let serverRoot = root;
  for (const n of walk(doc)) {
    const v = n.kind === 'directive' && n.is('ServerRoot') ? n.values[0] : undefined;
    if (v) serverRoot = !isAbsolute(v) ? root : v.startsWith(root) ? v : join(root, v);
  }
  const users = systemNames('/etc/passwd');
  const groups = systemNames('/etc/group');
  const vars = new Set<string>();
  // <IfDefine NAME> blocks are tested, not skipped: every NAME is defined (a `!NAME` block then drops out).
  const ifDefines = new Set<string>();
  for (const n of walk(doc)) {
    if (n.kind !== 'directive' && n.kind !== 'section') continue;
    if (n.kind === 'section' && n.is('IfDefine') && n.values[0] && !n.values[0].startsWith('!')) ifDefines.add(n.values[0]);
    for (const a of n.args) for (const m of a.value.matchAll(/\$\{(\w+)\}/g)) vars.add(m[1]);
    const key = n.name.toLowerCase();
    // A User or Group this machine lacks stops httpd -t; the server's own account stands in.
    if (n.kind === 'directive' && (key === 'user' || key === 'group') && n.values[0] && !n.values[0].includes('${')) {
      const known = key === 'user' ? users : groups;
      if (!known.has(n.values[0]) && !n.values[0].startsWith('#')) n.setArgs([quoteArg('daemon', n.args[0].quote === '"' ? '"' : '')]);
      continue;
    }
    const spec = PATH_ARGS[key];
    if (!spec || n.args.length <= spec.index) continue;
    // `exec:/path` (SSLPassPhraseDialog): the path follows the scheme.
    const [, scheme, value] = /^((?:exec|file):)?(.*)$/s.exec(n.args[spec.index].value)!;
    if (value.includes('${') || /^(\||syslog|\/dev\/|\/proc\/|builtin$)/.test(value) || (spec.need === 'program' && !scheme)) continue;
    let moved = value;
    if (isAbsolute(value) && !value.startsWith(root)) {
      moved = join(root, value) + (value.endsWith('/') && value.length > 1 ? '/' : '');
      const args = [...n.args];
      args[spec.index] = quoteArg((scheme ?? '') + moved, args[spec.index].quote === "'" ? "'" : args[spec.index].quote === '"' ? '"' : '');
      n.setArgs(args);
    }
    if (key !== 'serverroot') materialize(isAbsolute(moved) ? moved : join(serverRoot, moved), spec.need);
  }
  mkdirSync(serverRoot, { recursive: true });
  text = print(doc);

  // Debian's apache2.conf reads its paths from /etc/apache2/envvars.
  const debian: Record<string, string> = {
    APACHE_RUN_USER: 'www-data',
    APACHE_RUN_GROUP: 'www-data',
    APACHE_PID_FILE: join(root, 'run/apache2.pid'),
    APACHE_RUN_DIR: join(root, 'run'),
    APACHE_LOCK_DIR: join(root, 'lock'),
    APACHE_LOG_DIR: join(root, 'log'),
  };
  const defines: string[] = [...ifDefines];
  for (const v of vars) {
    if (!(v in debian)) continue;
    defines.push(`${v}=${debian[v]}`);
    if (v.endsWith('_DIR')) mkdirSync(debian[v], { recursive: true });
  }

  const name = e.kind === 'server' ? 'httpd.conf' : basename(e.file).replace(/[^\w.-]/g, '_').replace(/(\.conf)?$/, '.conf');
  const file = join(root, 'conf', name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, Buffer.from(text, 'latin1'));
  return { root, file, defines, serverRoot };
}
