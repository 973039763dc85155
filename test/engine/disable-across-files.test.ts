// Inline disable comments protect a line from every transform, including one that edits it
// while running on another file (a transform that merges into a LogLevel of an included file).
import { join } from 'node:path';
import { plan } from '../../src/engine/run.js';
import { type Directive, directives } from '../../src/syntax/index.js';
import type { Transform } from '../../transforms/types.js';
import { makeTree, removeTree } from '../helpers/tree.js';

let root = '';
afterEach(() => root && removeTree(root));

function setup(): string {
  root = makeTree({
    'httpd.conf': 'Include other.conf\n',
    'other.conf': '# httpd24-codemod-disable-next-line probe\nLogLevel warn\nLogLevel info\n',
  });
  return root;
}

function logLevels(t: Parameters<Transform['run']>[0]): Directive[] {
  const other = t.tree.files.find((f) => f.path.endsWith('other.conf'))!;
  return [...directives(other.doc)].filter((d) => d.is('LogLevel'));
}

test('enabled() answers for the file the node belongs to', () => {
  const seen: boolean[] = [];
  const probe: Transform = {
    id: 'probe', title: 'probe', kind: 'advice', docs: 'x',
    run(ctx) {
      if (!ctx.file.path.endsWith('httpd.conf')) return;
      for (const d of logLevels(ctx)) seen.push(ctx.enabled(d));
    },
  };
  const r = setup();
  plan(['httpd.conf'], { cwd: r, mode: 'replace', preserveDefaults: false, transforms: [probe], serverRoot: r });
  expect(seen).toEqual([false, true]);
});

test('an edit across files to a protected line is refused and the file is left unchanged', () => {
  const probe: Transform = {
    id: 'probe', title: 'probe', kind: 'rewrite', docs: 'x', reach: 'tree',
    run(ctx) {
      if (!ctx.file.path.endsWith('httpd.conf')) return;
      for (const d of logLevels(ctx)) d.setArgs(['debug']);
    },
  };
  const r = setup();
  const p = plan(['httpd.conf'], { cwd: r, mode: 'replace', preserveDefaults: false, transforms: [probe], serverRoot: r });
  const errors = p.findings.filter((f) => f.severity === 'error');
  expect(errors.map((f) => f.file)).toContain('httpd.conf');
  expect(errors.some((f) => /protects/.test(f.message))).toBe(true);
  expect(p.files.find((o) => o.file.path === join(r, 'other.conf'))?.after).toBe('# httpd24-codemod-disable-next-line probe\nLogLevel warn\nLogLevel info\n');
});
