// Example strings for the patterns of <DirectoryMatch>, <FilesMatch>, <LocationMatch> and
// wildcard sections, so that the merge order is probed with requests those sections apply to.
// Best effort: an example is kept only if the pattern really matches it.

/** An instance of an fnmatch pattern. */
export function fnmatchExample(p: string): string {
  return p.replace(/\[!?\^?([^\]])[^\]]*\]/g, (m, c: string) => (m[1] === '!' || m[1] === '^' ? '~' : c)).replace(/\*/g, 'w').replace(/\?/g, 'q');
}

/** A string the regular expression matches, from a simple walk of its source; null when unsure. */
export function regexExample(re: RegExp): string | null {
  const src = re.source;
  let i = 0;
  const parseAlt = (): string | null => {
    const first = parseSeq();
    while (i < src.length && src[i] === '|') {
      i++;
      parseSeq();
    }
    return first;
  };
  const parseSeq = (): string | null => {
    let out = '';
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const atom = parseAtom();
      if (atom === null) return null;
      // Quantifier.
      const q = src[i];
      if (q === '?' || q === '*') {
        i++;
        if (src[i] === '?') i++;
        continue; // zero times
      }
      if (q === '+') {
        i++;
        if (src[i] === '?') i++;
        out += atom;
        continue;
      }
      if (q === '{') {
        const m = /^\{(\d+)(,\d*)?\}/.exec(src.slice(i));
        if (!m) return null;
        i += m[0].length;
        out += atom.repeat(Number(m[1]));
        continue;
      }
      out += atom;
    }
    return out;
  };
  const parseAtom = (): string | null => {
    const c = src[i++];
    switch (c) {
      case '^':
      case '$':
        return '';
      case '.':
        return 'x';
      case '(': {
        if (src[i] === '?') {
          if (src[i + 1] !== ':') return null;
          i += 2;
        }
        const inner = parseAlt();
        if (src[i] !== ')') return null;
        i++;
        return inner;
      }
      case '[': {
        let neg = false;
        if (src[i] === '^') {
          neg = true;
          i++;
        }
        const start = i;
        if (src[i] === ']') i++;
        while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1;
        const body = src.slice(start, i);
        i++;
        if (!neg) return body[0] === '\\' ? body[1] : body[0];
        for (const cand of ['x', 'a', '0', '_', '~']) if (!new RegExp('[' + body + ']').test(cand)) return cand;
        return null;
      }
      case '\\': {
        const e = src[i++];
        if (e === 'd') return '0';
        if (e === 'w') return 'x';
        if (e === 's') return ' ';
        if (/[a-zA-Z]/.test(e)) return null;
        return e;
      }
      default:
        return c;
    }
  };
  const ex = parseAlt();
  if (ex === null || i !== src.length) return null;
  return re.test(ex) ? ex : null;
}
