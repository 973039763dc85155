// Inline control comments:
//   # httpd24-codemod-disable-next-line [ids]   the next directive or section (a section with all it holds)
//   # httpd24-codemod-disable [ids]             everything after it ...
//   # httpd24-codemod-enable [ids]              ... up to here
// Ids are separated by commas or spaces; none means every transform.

import { type Document, type Node, walk } from '../syntax/index.js';

const MARK = /^\s*httpd24-codemod-(disable-next-line|disable|enable)\b(.*)$/;
const ALL = '*';

export class DisabledNodes {
  private readonly byNode = new Map<Node, Set<string>>();

  constructor(doc: Document) {
    const region = new Set<string>(); // ids disabled by an open disable ... enable region
    let nextLine: Set<string> | null = null;
    for (const n of walk(doc)) {
      if (n.kind === 'comment') {
        const m = MARK.exec(n.text);
        if (!m) continue;
        const ids = m[2].split(/[\s,]+/).filter(Boolean);
        const set = ids.length > 0 ? ids : [ALL];
        if (m[1] === 'disable-next-line') nextLine = new Set(set);
        else if (m[1] === 'disable') for (const id of set) region.add(id);
        else if (ids.length === 0) region.clear();
        else for (const id of ids) region.delete(id);
        continue;
      }
      if (n.kind === 'blank') continue;
      const here = new Set(region);
      if (nextLine) {
        for (const id of nextLine) here.add(id);
        nextLine = null;
      }
      if (here.size > 0) this.byNode.set(n, here);
    }
  }

  get empty(): boolean {
    return this.byNode.size === 0;
  }

  /** True when the node, or a section around it, is disabled for the transform. */
  disabled(node: Node, id: string): boolean {
    if (this.byNode.size === 0) return false;
    let n: Node | null = node;
    while (n !== null) {
      const ids = this.byNode.get(n);
      if (ids && (ids.has(ALL) || ids.has(id))) return true;
      const p: Node['parent'] = n.parent;
      n = p !== null && p.kind === 'section' ? p : null;
    }
    return false;
  }

  /** Freezes (or thaws) every node disabled for the transform, so edits to them throw. */
  freeze(id: string, on: boolean): void {
    for (const [n, ids] of this.byNode) {
      if (!(ids.has(ALL) || ids.has(id))) continue;
      n.frozen = on;
      if (n.kind === 'section') for (const c of walk(n)) c.frozen = on;
    }
  }
}
