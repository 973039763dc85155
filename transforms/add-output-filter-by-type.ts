import { directives } from '../src/syntax/index.js';
import { applyPlan, planFor, serversOf } from './lib/modules.js';
import type { Transform } from './types.js';

const ID = 'add-output-filter-by-type';
const ONLY = new Set(['filter_module']);

// AddOutputFilterByType was core in 2.2 and is mod_filter's in 2.4. The LoadModule line is
// added through the same plan as `modules` (lib/modules.ts), restricted to mod_filter; when
// `modules` runs later it finds mod_filter loaded and adds nothing.
export const addOutputFilterByType: Transform = {
  id: ID,
  title: 'Load mod_filter where AddOutputFilterByType is used (it moved out of core)',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_filter.html#addoutputfilterbytype',
  run(ctx) {
    let known = false;
    for (const main of serversOf(ctx)) {
      const plan = planFor(ctx, main, ID, ONLY);
      if (!plan.known) continue;
      known = true;
      applyPlan(ctx, plan);
    }
    if (known) return;
    // No server with LoadModule lines reads this file: say so once.
    const first = [...directives(ctx.doc)].find((d) => d.is('AddOutputFilterByType'));
    if (first) ctx.report({ node: first, severity: 'warning', message: 'AddOutputFilterByType belongs to mod_filter in 2.4 (it was core in 2.2): make sure the server loads filter_module (this file has no LoadModule lines)' });
  },
};
