// A transform edits the file it runs on unless it declares reach 'tree'. The engine holds it to
// that, and the idempotence check runs such transforms only on the files the first pass changed.
import { join } from 'node:path';
import { plan } from '../../src/engine/run.js';
import { directive, directives } from '../../src/syntax/index.js';
import type { Transform, TransformContext } from '../../transforms/types.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let root = '';
afterEach(() => root && removeTree(root));

const TREE = { 'httpd.conf': 'Include other.conf\nListen 80\n', 'other.conf': 'LogLevel warn\n' };
const other = (ctx: TransformContext) => ctx.tree.files.find((f) => f.path.endsWith('other.conf'))!;
const run = (t: Transform) => plan(['httpd.conf'], { cwd: root, serverRoot: root, mode: 'replace', preserveDefaults: false, transforms: [t] });
const outcome = (p: ReturnType<typeof plan>, name: string) => p.files.find((o) => o.file.path === join(root, name))!;
const transform = (id: string, run: Transform['run'], reach?: 'tree'): Transform => ({ id, title: id, kind: 'rewrite', docs: 'x', reach, run });

test('an edit to another file by a transform that does not declare reach is an error, and both files stay as they were', () => {
  root = makeTree(TREE);
  const stray = transform('stray', (ctx) => {
    if (!ctx.file.path.endsWith('httpd.conf')) return;
    [...directives(other(ctx).doc)][0].setArgs(['info']);
    [...directives(ctx.doc)][1].setArgs(['81']);
  });
  const p = run(stray);
  expect(p.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}: ${f.message}`)).toEqual([
    "httpd.conf: stray failed: it edited other.conf while running on this file, without declaring reach 'tree'; file left unchanged",
    'other.conf: not changed because httpd.conf, whose conversion it depends on, could not be converted',
  ]);
  expect(outcome(p, 'httpd.conf').status).toBe('failed');
  expect(outcome(p, 'other.conf').after).toBe('LogLevel warn\n');
  expect(outcome(p, 'other.conf').status).toBe('failed');
});

test('with reach "tree" the same edit is allowed', () => {
  root = makeTree(TREE);
  const merge = transform('merge', (ctx) => {
    if (!ctx.file.path.endsWith('httpd.conf')) return;
    const d = [...directives(other(ctx).doc)][0];
    if (d.values[0] === 'warn') d.setArgs(['info']);
  }, 'tree');
  const p = run(merge);
  expect(p.findings.filter((f) => f.severity === 'error')).toEqual([]);
  expect(outcome(p, 'other.conf').after).toBe('LogLevel info\n');
});

test('the idempotence check still runs a reach "tree" transform on files the first pass left unchanged', () => {
  root = makeTree(TREE);
  // Running on httpd.conf (which it never changes), it adds a line to other.conf every time.
  const grows = transform('grows', (ctx) => {
    if (ctx.file.path.endsWith('httpd.conf')) other(ctx).doc.append(directive('LogLevel', 'info'));
  }, 'tree');
  const p = run(grows);
  expect(outcome(p, 'httpd.conf').status).toBe('unchanged');
  expect(outcome(p, 'other.conf').status).toBe('failed');
  expect(p.findings.map((f) => f.message)).toContainEqual(expect.stringMatching(/a second run would change the converted file again \(grows\)/));
});

test('the idempotence check runs other transforms only on the files the first pass changed', () => {
  root = makeTree(TREE);
  const seen: string[] = [];
  const renames = transform('renames', (ctx) => {
    seen.push(ctx.file.path.endsWith('httpd.conf') ? 'httpd.conf' : 'other.conf');
    for (const d of directives(ctx.doc)) if (d.is('Listen') && d.values[0] === '80') d.setArgs(['81']);
  });
  const p = run(renames);
  expect(outcome(p, 'httpd.conf').after).toBe('Include other.conf\nListen 81\n');
  // The first pass sees both files; the check only the converted one.
  expect(seen).toEqual(['httpd.conf', 'other.conf', 'httpd.conf']);
});
