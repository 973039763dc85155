import { consistent, options24Error, optionBits, plainWords, readOptions22 } from '../src/model/options.js';
import type { Transform } from './types.js';
import { candidates } from './lib/select.js';
import { replaceArgs } from './lib/edit.js';

const ALL_SIGNED = ['Indexes', 'Includes', 'FollowSymLinks', 'ExecCGI'];

/** `canonical`, in the order the user wrote those options and with the user's spelling; None/All first. */
function inUserOrder(words: readonly string[], canonical: readonly string[]): string[] {
  const left = [...canonical];
  const out: string[] = [];
  for (const w of words) {
    const name = w.replace(/^[+-]/, '');
    const i = left.findIndex((c) => c.toLowerCase() === name.toLowerCase());
    if (i >= 0) {
      out.push(name);
      left.splice(i, 1);
    }
  }
  const all = [...out, ...left];
  const lead = all.filter((w) => /^(all|none)$/i.test(w));
  return [...lead, ...all.filter((w) => !/^(all|none)$/i.test(w))];
}

/** A signed list 2.4 accepts that does what 2.2 did with ±None / ±All in it. */
function signedWithoutNoneAll(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const name = w.slice(1).toLowerCase();
    if (name === 'none') continue; // adds or removes nothing
    if (name === 'all') out.push(...ALL_SIGNED.map((o) => w[0] + o));
    else out.push(w);
  }
  return out;
}

export const optionsMixed: Transform = {
  id: 'options-mixed',
  title: 'Options lines 2.4 refuses (+x mixed with plain words, ±None, ±All, None/All not first) → the list 2.2 meant',
  kind: 'rewrite',
  docs: 'https://httpd.apache.org/docs/2.4/mod/core.html#options',
  run(ctx) {
    for (const d of candidates(ctx, ['options'])) {
      const words = d.values;
      const err = options24Error(words);
      if (err === null || words.some((w) => optionBits(w) === undefined)) continue;
      const s = readOptions22(words);
      if (!s) continue;
      const before = words.join(' ');
      if (!s.explicit) {
        const signed = signedWithoutNoneAll(words);
        if (signed.length === 0) {
          d.remove();
          ctx.report({ node: d, severity: 'change', message: `Options ${before} removed: 2.4 refuses it (${err}) and in 2.2 it changed nothing` });
        } else {
          replaceArgs(d, signed);
          ctx.report({ node: d, severity: 'change', message: `Options ${before} → ${signed.join(' ')}: 2.4 refuses the original (${err}); this is what 2.2 added and removed` });
        }
        continue;
      }
      const after = inUserOrder(words, plainWords(s.opts));
      replaceArgs(d, after);
      ctx.report({ node: d, severity: 'change', message: `Options ${before} → ${after.join(' ')}: 2.4 refuses the original (${err}); 2.2 read it as this list (the first plain word resets what came before it)` });
      if (!consistent(s)) {
        // The words before the reset whose effect comes back in later sections.
        const back = (s.add & ~s.opts) | (s.remove & s.opts);
        const lost = s.beforeReset.filter((w) => ((optionBits(w) ?? 0) & back) !== 0).join(' ');
        ctx.report({ node: d, severity: 'manual', message: `2.2 dropped ${lost} from this section (the first plain word resets the list) but applied it again to every section merged after this one with no plain Options of its own (.htaccess, <Files>, <Location>); 2.4 cannot say both: decide whether ${lost.replace(/(^|\s)[+-]/g, '$1')} belongs in this list` });
      }
    }
  },
};
