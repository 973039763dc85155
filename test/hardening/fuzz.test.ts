// Fuzzing: mutated corpus files (byte flips, truncation, duplicated, dropped and swapped
// lines, random section tags and directives, line-ending damage) go through parse → every
// registered transform → print → re-parse. For each case:
//   - no exception escapes;
//   - a file that parses still parses after the transforms;
//   - a second run changes nothing;
//   - every line of a node the transforms left alone (same bytes, same order) is still in
//     the output, checked against an independent diff (jsdiff) of input and output;
//   - the engine's own diff of the change is exact.
// A smaller number of cases runs through the whole CLI on disk (a main config including a
// fragment, and an .htaccess): nothing escapes, errors are one line, and a second run
// (--check) finds nothing left to change.
//
// CI runs FUZZ_RUNS (default 20,000) cases; `npm run fuzz` runs many more. FUZZ_SEED
// replays a failing run (fast-check prints the seed and the shrunk case).
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { structuredPatch } from 'diff';
import { hunks } from '../../src/engine/diff.js';
import { runOnDocument } from '../../src/engine/memory.js';
import { decodeBytes, type Document, type Node, parse, print, printChunks, type Section, walk } from '../../src/syntax/index.js';
import { transforms } from '../../transforms/index.js';
import type { Transform } from '../../transforms/types.js';
import { corpusEntries } from '../helpers/shared.js';
import { applyHunks } from '../helpers/patch.js';
import { makeTree, removeTree, runCli } from '../helpers/tree.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000);
const ENGINE_RUNS = Number(process.env.FUZZ_ENGINE_RUNS ?? Math.max(100, Math.round(RUNS / 50)));
// CI replays one fixed seed, so a red run is reproducible; elsewhere each run explores anew.
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : process.env.CI ? 20261121 : undefined;

// ---------------------------------------------------------------------------------------
// Seeds: the shared corpus when it is there, the project's examples and a few snippets of
// what the transforms look for, always (so the test never runs on nothing).

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesBelow(p));
    else if (n.endsWith('.conf') || n === '.htaccess') out.push(p);
  }
  return out;
}

const SNIPPETS = [
  '<Directory /var/www>\n    Options Indexes FollowSymLinks\n    AllowOverride None\n    Order allow,deny\n    Allow from all\n</Directory>\n',
  '<Location /admin>\n  Order deny,allow\n  Deny from all\n  Allow from 10.0.0.0/8 .example.org\n  AuthType Basic\n  AuthName "admin"\n  AuthUserFile /etc/htpasswd\n  Require valid-user\n  Satisfy any\n</Location>\n',
  'NameVirtualHost *:80\n<VirtualHost *:80>\n    ServerName a.example\n    <IfModule prefork.c>\n        MaxClients 150\n        MaxRequestsPerChild 0\n    </IfModule>\n</VirtualHost>\n',
  '<Files ~ "\\.(htpasswd|ini)$">\r\n\tOrder Allow,Deny\r\n\tDeny from all\r\n</Files>\r\n<Limit GET POST>\r\n\tOrder deny,allow\r\n\tAllow from env=let_in\r\n</Limit>\r\n',
];

const seeds: string[] = [];
const corpus = corpusEntries();
if (corpus) for (const e of corpus) seeds.push(decodeBytes(readFileSync(e.path)));
else console.warn('[fuzz] ../shared/corpus not found: fuzzing the examples and built-in snippets only');
for (const p of filesBelow(join(__dirname, '../../examples'))) seeds.push(decodeBytes(readFileSync(p)));
seeds.push(...SNIPPETS);

// ---------------------------------------------------------------------------------------
// Mutations, applied line-wise or byte-wise to a seed.

const TAGS = ['<Directory "/srv/a b">', '</Directory>', '<IfModule !mod_authz_core.c>', '</IfModule>', '<Limit GET>', '</Limit>', '<LimitExcept POST>', '</LimitExcept>',
  '<VirtualHost *:80>', '</VirtualHost>', '<Files x>', '</Files>', '<Location />', '</location >', '<IfDefine !X>', '</IfDefine>', '<Perl>', '</Perl>', '<IfVersion >= 2.4>', '</IfVersion>', '<', '</>', '<Directory>'];
const LINES = ['Order allow,deny', 'Order Deny,Allow', 'Allow from all', 'Deny from all', 'Allow from 192.168.0.0/16', 'Deny from env=bad', 'Satisfy Any', 'Satisfy all',
  'Require valid-user', 'Require user a b', 'Require group g', 'AuthType Basic', 'AuthName "x y"', 'AuthUserFile /etc/p', 'AuthzLDAPAuthoritative off', 'MaxClients 5',
  'MaxRequestsPerChild 9', 'NameVirtualHost *:80', 'Options Indexes -FollowSymLinks', 'Options +Includes', 'AllowOverride All', 'LoadModule foo_module modules/mod_foo.so',
  'Include conf.d/*.conf', 'Define X 1', 'ServerName ${X}', 'SSLMutex default', 'LockFile /var/lock/x', 'DefaultType text/plain', 'EnableSendfile on', 'FileETag INode MTime Size',
  '# httpd24-codemod-disable-next-line', '# httpd24-codemod-disable', '# httpd24-codemod-enable', 'RewriteEngine On', 'RewriteRule ^(.*)$ /x [L]', '', '  \t', '\\'];

type Mutation =
  | { op: 'flip'; at: number; byte: number }
  | { op: 'truncate'; at: number }
  | { op: 'dup'; at: number; len: number }
  | { op: 'drop'; at: number }
  | { op: 'swap'; at: number; to: number }
  | { op: 'tag' | 'line'; at: number; text: string }
  | { op: 'eol'; at: number; kind: 'crlf' | 'none' | 'backslash' | 'cr' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('dup' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('tag' as const), at: fc.nat(), text: fc.constantFrom(...TAGS) }),
  fc.record({ op: fc.constant('line' as const), at: fc.nat(), text: fc.constantFrom(...LINES) }),
  fc.record({ op: fc.constant('eol' as const), at: fc.nat(), kind: fc.constantFrom('crlf' as const, 'none' as const, 'backslash' as const, 'cr' as const) }),
);

function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function mutate(text: string, m: Mutation): string {
  if (m.op === 'flip') {
    if (text.length === 0) return text;
    const at = m.at % text.length;
    return text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ m.byte) + text.slice(at + 1);
  }
  if (m.op === 'truncate') return text.slice(0, m.at % (text.length + 1));
  const lines = splitLines(text);
  const at = m.at % (lines.length + 1);
  switch (m.op) {
    case 'dup':
      lines.splice(at, 0, ...lines.slice(at, at + m.len));
      break;
    case 'drop':
      lines.splice(at, 1);
      break;
    case 'swap': {
      if (lines.length < 2) break;
      const a = at % lines.length;
      const b = m.to % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      break;
    }
    case 'tag':
    case 'line':
      lines.splice(at, 0, m.text + '\n');
      break;
    case 'eol': {
      if (lines.length === 0) break;
      const k = at % lines.length;
      const body = lines[k].replace(/\r?\n$/, '');
      lines[k] = m.kind === 'crlf' ? body + '\r\n' : m.kind === 'none' ? body : m.kind === 'cr' ? body + '\r' : body + ' \\\n';
      break;
    }
  }
  return lines.join('');
}

// ---------------------------------------------------------------------------------------
// The checks.

interface Options { name: string; mode: 'replace' | 'dual'; preserveDefaults: boolean }

function lineCount(s: string): number {
  return splitLines(s).length;
}

/**
 * Original lines (1-based) of the nodes left alone: still attached, same bytes, and not
 * moved (a node printed out of its original order is an edit). A node left alone that the
 * output lacks stays in the set: losing it is exactly what this check is for.
 */
function untouchedLines(doc: Document, before: ReadonlyMap<Node, { raw?: string; closeRaw?: string }>): Set<number> {
  const keyOf = (node: Node, close: boolean): string => `${close ? (node as Section).closeLine : node.line}:${close ? 'c' : 'o'}`;
  const alone = new Map<string, { line: number; lines: number }>();
  for (const [node, was] of before) {
    if (node.root() !== doc) continue;
    if (node.raw !== undefined && node.raw === was.raw) alone.set(keyOf(node, false), { line: node.line, lines: lineCount(node.raw) });
    if (node.kind === 'section' && node.closeRaw !== undefined && node.closeRaw === was.closeRaw) alone.set(keyOf(node, true), { line: node.closeLine, lines: lineCount(node.closeRaw) });
  }
  // In output order, the longest run in increasing original order; the rest moved.
  const printed: string[] = [];
  printChunks(doc, (_text, node, close) => {
    if (node !== null && before.has(node) && alone.has(keyOf(node, close))) printed.push(keyOf(node, close));
  });
  const lineOf = (k: string): number => alone.get(k)!.line;
  const tails: number[] = [];
  const prev = new Array<number>(printed.length).fill(-1);
  printed.forEach((k, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lineOf(printed[tails[mid]]) < lineOf(k)) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  });
  const inOrder = new Set<string>();
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) inOrder.add(printed[i]);
  for (const k of printed) if (!inOrder.has(k)) alone.delete(k);
  const out = new Set<number>();
  for (const u of alone.values()) for (let l = u.line; l < u.line + u.lines; l++) out.add(l);
  return out;
}

/**
 * Lines a plain diff removes that belong to nodes the transforms left alone. A diff may pair
 * identical lines either way (a comment kept and its twin re-indented), so a removed line
 * only counts when the output holds fewer copies of it than the untouched nodes do.
 */
function removedUntouched(text: string, out: string, untouched: Set<number>): string[] {
  const inLines = splitLines(text).map((l) => l.replace(/\n$/, ''));
  const need = new Map<string, number>();
  for (const l of untouched) if (l >= 1 && l <= inLines.length) need.set(inLines[l - 1], (need.get(inLines[l - 1]) ?? 0) + 1);
  const have = new Map<string, number>();
  for (const l of splitLines(out).map((x) => x.replace(/\n$/, ''))) have.set(l, (have.get(l) ?? 0) + 1);
  const bad: string[] = [];
  for (const h of structuredPatch('a', 'b', text, out, '', '', { context: 0 }).hunks) {
    const added = new Set(h.lines.filter((l) => l[0] === '+').map((l) => l.slice(1)));
    let line = h.oldStart;
    for (const l of h.lines) {
      if (l[0] === '\\') continue;
      if (l[0] === '-') {
        // A diff may pair an unchanged line with an identical added one: no change of bytes.
        const t = l.slice(1);
        // The file's last line, without a line ending, gains one when something follows it
        // (after a space when it ends in a backslash, so that it does not continue).
        const gainedEol = line === inLines.length && !text.endsWith('\n') && (added.has(t + '\r') || added.has(t) || (/\\\r?$/.test(t) && (added.has(t + ' ') || added.has(t + ' \r'))));
        if (untouched.has(line) && !added.has(t) && !gainedEol && (have.get(t) ?? 0) < (need.get(t) ?? 0)) bad.push(`line ${line}: ${JSON.stringify(t)}`);
        line++;
      } else if (l[0] === ' ') line++;
    }
  }
  return bad;
}

function checkText(text: string, o: Options, list: readonly Transform[] = transforms): void {
  const doc = parse(text);
  if (doc.hasErrors()) {
    // The engine leaves such a file alone; it must still print back byte for byte.
    doc.modified = true;
    expect(print(doc)).toBe(text);
    return;
  }
  const before = new Map<Node, { raw?: string; closeRaw?: string }>();
  for (const n of walk(doc)) before.set(n, { raw: n.raw, closeRaw: n.kind === 'section' ? n.closeRaw : undefined });

  const first = runOnDocument(doc, list, o);
  const out = first.output;
  const lines = lineCount(text);
  for (const f of first.findings) {
    expect(f.message).not.toMatch(/[\r\n]/);
    expect(f.line).toBeGreaterThanOrEqual(0);
    expect(f.line).toBeLessThanOrEqual(Math.max(lines, 1));
  }
  if (out === text) return;

  const again = parse(out);
  expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(runOnDocument(again, list, o).output).toBe(out);
  expect(removedUntouched(text, out, untouchedLines(doc, before))).toEqual([]);
  expect(applyHunks(text, hunks(text, out, 3, doc))).toBe(out);
}

const caseArb = fc.record({
  seed: fc.nat({ max: seeds.length - 1 }),
  name: fc.constantFrom('httpd.conf', 'site.conf', '.htaccess'),
  mode: fc.constantFrom('replace' as const, 'dual' as const),
  preserveDefaults: fc.boolean(),
  mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
});

/** Transforms that break each rule once, to show the checks can fail. */
const rogue = (id: string, run: Transform['run']): Transform => ({ id, title: id, kind: 'rewrite', docs: '', run });
const firstDirective = (doc: Document) => [...walk(doc)].find((n) => n.kind === 'directive');

describe('the checks catch what they are meant to', () => {
  const text = 'KeepAlive On\nMaxClients 1\nServerName a\n';
  const o: Options = { name: 'httpd.conf', mode: 'replace', preserveDefaults: false };
  test('a transform that throws', () => {
    expect(() => checkText(text, o, [rogue('throws', () => { throw new TypeError('x is undefined'); })])).toThrow('x is undefined');
  });
  test('a transform that is not idempotent', () => {
    expect(() => checkText(text, o, [rogue('grows', (ctx) => { ctx.doc.append(firstDirective(ctx.doc)!.kind === 'directive' ? parse('X 1\n').children[0] : parse('').children[0]); })])).toThrow();
  });
  test('lines of a node nobody edited go missing (a node dropped behind the edit API)', () => {
    expect(() => checkText(text, o, [rogue('drops', (ctx) => {
      const keep = ctx.doc.children.find((n) => n.kind === 'directive' && n.is('KeepAlive'));
      if (!keep) return;
      ctx.doc.children.splice(ctx.doc.children.indexOf(keep), 1); // no remove(): the node still thinks it is attached
      const max = ctx.doc.children.find((n) => n.kind === 'directive' && n.is('MaxClients'));
      if (max?.kind === 'directive') max.rename('MaxRequestWorkers');
    })])).toThrow(/KeepAlive On/);
  });
  test('output that no longer parses', () => {
    expect(() => checkText(text, o, [rogue('breaks', (ctx) => { ctx.doc.append(parse('<Directory /x>\n').children[0]); })])).toThrow();
  });
});

describe('fuzz', () => {
  test('the seeds themselves pass every check', () => {
    expect(seeds.length).toBeGreaterThan(SNIPPETS.length);
    for (const s of seeds) for (const name of ['httpd.conf', '.htaccess']) checkText(s, { name, mode: 'replace', preserveDefaults: false });
  });

  // FUZZ_CASE='<counterexample JSON>' replays one case; FUZZ_DUMP=file writes its text.
  (process.env.FUZZ_CASE ? test : test.skip)('replay FUZZ_CASE', () => {
    const c = JSON.parse(process.env.FUZZ_CASE!) as Options & { seed: number; mutations: Mutation[] };
    const text = c.mutations.reduce(mutate, seeds[c.seed]);
    if (process.env.FUZZ_DUMP) writeFileSync(process.env.FUZZ_DUMP, Buffer.from(text, 'latin1'));
    checkText(text, { name: c.name, mode: c.mode, preserveDefaults: c.preserveDefaults });
  });

  test(`${RUNS} mutated files through parse → all ${transforms.length} transforms → print → re-parse`, () => {
    const t0 = Date.now();
    fc.assert(
      fc.property(caseArb, (c) => {
        const text = c.mutations.reduce(mutate, seeds[c.seed]);
        checkText(text, { name: c.name, mode: c.mode, preserveDefaults: c.preserveDefaults });
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`[fuzz] ${RUNS} in-memory cases over ${seeds.length} seeds and ${transforms.length} transforms in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);

  test(`${ENGINE_RUNS} mutated trees through the whole command, written, then checked again`, async () => {
    const t0 = Date.now();
    await fc.assert(
      fc.asyncProperty(caseArb, caseArb, caseArb, async (a, b, h) => {
        const text = (c: typeof a): string => c.mutations.reduce(mutate, seeds[c.seed]);
        const root = makeTree({
          'conf/httpd.conf': `ServerRoot "@ROOT@"\nInclude conf.d/*.conf\n` + text(a),
          'conf.d/site.conf': text(b),
          'htdocs/.htaccess': text(h),
        });
        try {
          const main = join(root, 'conf/httpd.conf');
          const { writeFileSync } = await import('node:fs');
          writeFileSync(main, readFileSync(main, 'latin1').replace('@ROOT@', root), 'latin1');
          const first = await runCli(['-q', '.'], root);
          expect([0, 1, 2]).toContain(first.code);
          for (const l of first.stderr.split('\n').filter(Boolean)) expect(l).toMatch(/^[^\s:][^:]*(:\d+)?: \S/);
          expect(first.stderr).not.toMatch(/internal error| failed: /);
          const second = await runCli(['--check', '.'], root);
          expect(second.out).not.toContain('would change:');
        } finally {
          removeTree(root);
        }
      }),
      { numRuns: ENGINE_RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`[fuzz] ${ENGINE_RUNS} whole-command cases in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 600_000);
});
