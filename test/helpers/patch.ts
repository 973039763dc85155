// Applies hunks to a text (a strict `patch`): every context and removed line must match
// byte for byte, so a test can prove a diff is exact without git.
import type { Hunk } from '../../src/engine/diff.js';

const NO_EOL = '\\ No newline at end of file';

export function applyHunks(before: string, hunks: readonly Hunk[]): string {
  const lines = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: string[] = [];
  let at = 0; // next old line (0-based)
  for (const h of hunks) {
    const start = h.oldStart - 1;
    if (start < at) throw new Error(`hunk @@ -${h.oldStart} overlaps the one before`);
    while (at < start) out.push(lines[at++]);
    let oldSeen = 0;
    let newSeen = 0;
    for (let i = 0; i < h.lines.length; i++) {
      const l = h.lines[i];
      const noEol = h.lines[i + 1] === NO_EOL;
      if (l === NO_EOL) continue;
      const body = l.slice(1) + (noEol ? '' : '\n');
      if (l[0] === ' ' || l[0] === '-') {
        if (lines[at] !== body) throw new Error(`line ${at + 1}: expected ${JSON.stringify(body)}, found ${JSON.stringify(lines[at])}`);
        at++;
        oldSeen++;
        if (l[0] === ' ') {
          out.push(body);
          newSeen++;
        }
      } else if (l[0] === '+') {
        out.push(body);
        newSeen++;
      } else throw new Error(`bad hunk line ${JSON.stringify(l)}`);
    }
    if (oldSeen !== h.oldLines || newSeen !== h.newLines) throw new Error(`hunk @@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} counts ${oldSeen}/${newSeen}`);
    if (h.newStart - 1 !== out.length - newSeen) throw new Error(`hunk @@ +${h.newStart} starts at new line ${out.length - newSeen + 1}`);
  }
  while (at < lines.length) out.push(lines[at++]);
  return out.join('');
}
