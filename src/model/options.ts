// The Options directive as 2.2 and 2.4 read one line of it.
//
// 2.2 (httpd@2.2.34:server/core.c set_options()): words are read left to right; a word
// with + or - adds or removes an option and also records it in opts_add/opts_remove; the
// FIRST word without a sign resets the section's options to None (earlier +/- words are
// dropped from the section's options but stay in opts_add/opts_remove); later plain words
// add. None and All may appear anywhere, signed or not. merge_core_dir_configs() then uses
// opts when a plain word was present, and for every later section merged on top with no
// plain Options of its own recomputes (opts & ~opts_remove) | opts_add.
//
// 2.4 (httpd@2.4.62:server/core.c set_options()) refuses a line that mixes signed and plain
// words ("Either all Options must start with + or -, or no Option may."), except signed
// words after a leading None or All; None and All must come first and may not be signed.

/** Option bits in 2.2's encoding (include/http_core.h). */
export const OPT = {
  NONE: 0,
  INDEXES: 1,
  INCLUDES: 2,
  SYM_LINKS: 4,
  EXECCGI: 8,
  UNSET: 16,
  INCNOEXEC: 32,
  SYM_OWNER: 64,
  MULTI: 128,
  ALL: 1 | 2 | 4 | 8,
} as const;

const WORDS: Record<string, number> = {
  indexes: OPT.INDEXES,
  includes: OPT.INCLUDES,
  includesnoexec: OPT.INCLUDES | OPT.INCNOEXEC,
  followsymlinks: OPT.SYM_LINKS,
  symlinksifownermatch: OPT.SYM_OWNER,
  execcgi: OPT.EXECCGI,
  multiviews: OPT.MULTI,
  runscripts: OPT.MULTI | OPT.EXECCGI,
  none: OPT.NONE,
  all: OPT.ALL,
};

export interface OptionsState22 {
  /** The section's options, when a plain word was present (else the line only adds/removes). */
  opts: number;
  add: number;
  remove: number;
  /** A plain (unsigned) word was present: the line sets the options instead of merging. */
  explicit: boolean;
  /** Signed words before the first plain word: dropped from `opts`, kept in add/remove. */
  beforeReset: string[];
}

function split(word: string): { sign: '' | '+' | '-'; name: string } {
  const c = word[0];
  return c === '+' || c === '-' ? { sign: c, name: word.slice(1) } : { sign: '', name: word };
}

/** The bits a word names, or undefined for a word neither version knows. */
export function optionBits(word: string): number | undefined {
  return WORDS[split(word).name.toLowerCase()];
}

/** 2.2's reading of one Options line; null when a word is unknown (2.2 refused the line too). */
export function readOptions22(words: readonly string[]): OptionsState22 | null {
  let opts: number = OPT.UNSET;
  let add = 0;
  let remove = 0;
  let first = true;
  const beforeReset: string[] = [];
  for (const w of words) {
    const { sign, name } = split(w);
    const opt = WORDS[name.toLowerCase()];
    if (opt === undefined) return null;
    if (sign === '') {
      if (first) {
        opts = OPT.NONE;
        first = false;
      }
    } else if (first) {
      beforeReset.push(w);
    }
    if (sign === '-') {
      remove |= opt;
      add &= ~opt;
      opts &= ~opt;
    } else if (sign === '+') {
      add |= opt;
      remove &= ~opt;
      opts |= opt;
    } else {
      opts |= opt;
    }
  }
  return { opts: opts & ~OPT.UNSET, add, remove, explicit: !first, beforeReset: first ? [] : beforeReset };
}

/** 2.4's error for this line, or null when 2.4 accepts it. */
export function options24Error(words: readonly string[]): string | null {
  let first = true;
  let merge = false;
  let allNone = false;
  for (const w of words) {
    const { sign, name } = split(w);
    const key = name.toLowerCase();
    if (WORDS[key] === undefined) return `Illegal option ${name}`;
    if (sign !== '') {
      if (!merge && !first && !allNone) return 'Either all Options must start with + or -, or no Option may.';
      merge = true;
    } else if (!first && merge) {
      return 'Either all Options must start with + or -, or no Option may.';
    }
    if (key === 'none' || key === 'all') {
      const cap = key === 'none' ? 'None' : 'All';
      if (!first) return key === 'none' ? "'Options None' must be the first Option given." : "'Options All' must be the first option given.";
      if (merge) return `You may not use 'Options +${cap}' or 'Options -${cap}'.`;
      allNone = true;
    }
    first = false;
  }
  return null;
}

/**
 * True when the line means the same for the section itself and for every section merged
 * after it: its opts_add/opts_remove agree with its options, so a plain list of the
 * options is equivalent everywhere (nothing dropped by the reset comes back later).
 */
export function consistent(s: OptionsState22): boolean {
  return (s.add & ~s.opts) === 0 && (s.remove & s.opts) === 0;
}

/** The plain words for a set of 2.2 option bits, in canonical order (`None` when empty). */
export function plainWords(bits: number): string[] {
  const withExec = (bits & OPT.INCLUDES) !== 0 && (bits & OPT.INCNOEXEC) === 0;
  if ((bits & OPT.ALL) === OPT.ALL && withExec) {
    return ['All', ...(bits & OPT.SYM_OWNER ? ['SymLinksIfOwnerMatch'] : []), ...(bits & OPT.MULTI ? ['MultiViews'] : [])];
  }
  const out: string[] = [];
  if (bits & OPT.INDEXES) out.push('Indexes');
  if (bits & OPT.INCLUDES) out.push(withExec ? 'Includes' : 'IncludesNOEXEC');
  if (bits & OPT.SYM_LINKS) out.push('FollowSymLinks');
  if (bits & OPT.SYM_OWNER) out.push('SymLinksIfOwnerMatch');
  if (bits & OPT.EXECCGI) out.push('ExecCGI');
  if (bits & OPT.MULTI) out.push('MultiViews');
  return out.length > 0 ? out : ['None'];
}
