// Applying the access-control analysis's plans: shared by the transforms that each own one
// reason a section needs rewriting (access-control, require-multi-provider, authz-dbm-group,
// auth-without-require). The analysis (src/authz/analyze.ts) decides; this edits and reports.

import { ACCESS_MODULES, accessFor, describeScope, type Facet, type ScopePlan } from '../../src/authz/analyze.js';
import { summarize, toNodes } from '../../src/authz/translate.js';
import { moduleId } from '../../src/model/modules.js';
import { comment, type Container, type Directive, directive, type Node, section, type Section, walk, wrap } from '../../src/syntax/index.js';
import type { TransformContext } from '../types.js';

/** Sections Apache refuses in .htaccess ("not allowed here"), in 2.2 as in 2.4. */
const NOT_IN_HTACCESS = new Set(['directory', 'directorymatch', 'location', 'locationmatch', 'virtualhost', 'proxy', 'proxymatch']);

/** Applies this file's plans of one facet, and reports the analysis's notes for that transform. */
export function runFacet(ctx: TransformContext, facet: Facet): void {
  if (facet === 'access-control' && ctx.file.role === 'htaccess') reportMisplacedSections(ctx);
  const a = accessFor(ctx.tree, ctx.file);
  for (const f of a.linked) ctx.link(f);
  for (const n of a.notes) {
    if (n.transform === facet && n.file === ctx.file) ctx.report({ node: n.node, line: n.line, severity: n.severity, message: n.message });
  }
  for (const p of a.plans) {
    if (p.scope.file !== ctx.file || p.action !== 'convert' || !p.tree || p.facet !== facet) continue;
    const blocked = [...p.remove, ...(p.scope.section ? [p.scope.section] : [])].find((n) => !ctx.enabled(n));
    if (blocked) {
      ctx.report({ node: p.scope.section ?? undefined, line: p.scope.section ? undefined : 1, severity: 'manual', message: `${describeScope(p.scope)} is not converted: line ${blocked.line} is marked httpd24-codemod-disable; its 2.2 access directives stay (mod_access_compat)` });
      continue;
    }
    apply(ctx, p);
  }
}

// Such a section makes every request under the folder fail with 500, so what it says never
// applied; the analysis does not read it, and saying nothing would hide a broken folder.
function reportMisplacedSections(ctx: TransformContext): void {
  const misplaced = (n: Node | Container | null): boolean => n !== null && n.kind === 'section' && NOT_IN_HTACCESS.has(n.key);
  for (const n of walk(ctx.doc)) {
    if (n.kind !== 'section' || !misplaced(n)) continue;
    let up = n.parent;
    while (up && up.kind === 'section' && !misplaced(up)) up = up.parent;
    if (misplaced(up)) continue; // named with the section around it
    ctx.report({ node: n, severity: 'warning', message: `<${n.name}> is not allowed in .htaccess: where Apache reads this file it answers 500 for every request to this folder (2.2 did too), so its lines never applied; they are not converted: move them to the server configuration or delete the section` });
  }
}

/** The container the scope's directives live in: its section, or the .htaccess document. */
function containerOf(p: ScopePlan, ctx: TransformContext): Container {
  return p.scope.section ?? ctx.doc;
}

function apply(ctx: TransformContext, p: ScopePlan): void {
  const box = containerOf(p, ctx);
  const removed = new Set<Node>(p.remove);
  const added: Node[] = [...(p.authMerging ? [directive('AuthMerging', p.authMerging)] : []), ...toNodes(p.tree!)];
  // Where the old rules stood: the first removed Require line (where readers look for it),
  // else the first removed line, lifted out of <Limit>/<LimitExcept>.
  let anchor: Node | null = null;
  for (const n of walk(box)) {
    if (!removed.has(n)) continue;
    if (n.kind === 'directive' && n.is('Require')) {
      anchor = n;
      break;
    }
    anchor ??= n;
  }
  while (anchor && anchor.parent && anchor.parent !== box && anchor.parent.kind === 'section' && isWrapper(anchor.parent)) anchor = anchor.parent;
  if (ctx.options.mode === 'dual') {
    applyDual(box, removed, added);
  } else {
    // Comments inside <Limit> sections that only held access rules go before the new rules.
    const emptied = [...walk(box)].filter((n): n is Section => n.kind === 'section' && isWrapper(n) && n.children.every((c) => removed.has(c) || c.kind === 'comment' || c.kind === 'blank'));
    const notes = emptied.flatMap((l) => l.children.filter((c) => c.kind === 'comment').map((c) => comment(c.kind === 'comment' ? c.text.replace(/^ /, '') : '')));
    if (anchor) anchor.before(...notes, ...added);
    else insertAfterAuth(box, [...notes, ...added]);
    for (const n of removed) if (n.parent) n.remove();
    for (const l of emptied) l.remove();
  }
  ctx.report({ node: p.scope.section ?? undefined, line: p.scope.section ? undefined : 1, severity: 'change', message: changeMessage(p) });
}

/** `<Directory /x>: Order deny,allow; Deny from all → Require all denied`, and what it inherits. */
export function changeMessage(p: ScopePlan): string {
  const old = p.remove.filter((n): n is Directive => n.kind === 'directive').map((d) => [d.name, ...d.values].join(' '));
  const shown = old.join('; ');
  const before = old.length === 0 ? 'AuthType with no Require in effect (2.4 answers 500, 2.2 served it)' : shown.length <= 90 ? shown : `${old.length} access lines`;
  let msg = `${describeScope(p.scope)}: ${before} → ${summarize(p.tree!)}`;
  if (p.authMerging === 'And') msg += ' with "AuthMerging And" (2.4 keeps the rules this section inherits and adds these, as 2.2 did)';
  if (p.authMerging === 'Off') msg += ' with "AuthMerging Off" (2.4\'s default, spelled out: 2.2 decided here without the server\'s rules, and so does 2.4)';
  const parts: string[] = [];
  const inh = p.inherits ?? {};
  if (inh.host) parts.push(`host rules of ${describeScope(inh.host, true)}`);
  if (inh.satisfy) parts.push(`Satisfy of ${describeScope(inh.satisfy, true)}`);
  if (inh.require) parts.push(`Require of ${describeScope(inh.require, true)}`);
  if (parts.length > 0 && old.length > 0) msg += `; spells out the ${parts.join(' and ')}, which 2.2 kept apart but a 2.4 Require here would replace`;
  if (p.facet === 'authz-dbm-group') msg += '; the groups come from AuthDBMGroupFile, which 2.4 reads for dbm-group (its "group" reads AuthGroupFile)';
  if (p.effective && p.effective.ignored.length > 0) {
    const mods = p.effective.decidedBy.map((m) => 'mod_' + m.replace(/_module$/, '')).join(' then ');
    msg += `; 2.2 ignored ${p.effective.ignored.map((l) => `"Require ${[l.keyword, ...l.args].join(' ')}"`).join(', ')}: ${mods}, loaded earlier, decided alone`;
  }
  return msg;
}

/**
 * Sections that only scope access lines: <Limit>, <LimitExcept>, and <IfModule> on a module
 * whose directives only restrict. The new rules go outside them; emptied ones are removed.
 */
function isWrapper(s: Section): boolean {
  return s.is('Limit') || s.is('LimitExcept') || (s.is('IfModule') && ACCESS_MODULES.has(moduleId((s.values[0] ?? '').replace(/^!/, ''))) && !(s.values[0] ?? '').startsWith('!'));
}

/** With nothing to replace (an AuthType alone), the rules go after the auth settings. */
function insertAfterAuth(box: Container, added: Node[]): void {
  const auth = box.children.filter((n) => n.kind === 'directive' && /^auth/i.test(n.name));
  const last = auth[auth.length - 1];
  if (last) last.after(...added);
  else if (box.kind === 'section') box.append(...added);
  else box.append(...added);
}

/** --mode dual: keep the 2.2 lines under <IfModule !mod_authz_core.c>, add the 2.4 ones under <IfModule mod_authz_core.c>. */
function applyDual(box: Container, removed: Set<Node>, added: Node[]): void {
  // Old lines, lifted out of the <Limit>s (and access-module <IfModule>s) that only scope them.
  const lift = (n: Node): Node => {
    let x: Node = n;
    while (x.parent && x.parent !== box && x.parent.kind === 'section' && isWrapper(x.parent)) x = x.parent;
    return x;
  };
  const units = new Set([...removed].map(lift));
  // Runs of adjacent old lines (comments between them included) in each container.
  const runs: Node[][] = [];
  const seen = new Set<Container>();
  for (const u of units) {
    const c = u.parent;
    if (!c || seen.has(c)) continue;
    seen.add(c);
    let run: Node[] = [];
    for (const x of c.children) {
      if (units.has(x)) run.push(x);
      else if ((x.kind === 'comment' || x.kind === 'blank') && run.length > 0) run.push(x);
      else if (run.length > 0) {
        runs.push(trimTrivia(run));
        run = [];
      }
    }
    if (run.length > 0) runs.push(trimTrivia(run));
  }
  const block = section('IfModule', ['mod_authz_core.c'], added);
  // The 2.4 block goes just before the first run, so no run is split.
  const first = runs.find((r) => r.length > 0)?.[0];
  if (first) first.before(block);
  else insertAfterAuth(box, [block]);
  for (const r of runs) if (r.length > 0) wrap(r, 'IfModule', ['!mod_authz_core.c']);
}

function trimTrivia(run: Node[]): Node[] {
  let end = run.length;
  while (end > 0 && (run[end - 1].kind === 'comment' || run[end - 1].kind === 'blank')) end--;
  return run.slice(0, end);
}
