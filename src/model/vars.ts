// ${NAME} substitution as Apache does it while reading the configuration (2.2: from the
// environment; 2.4: from Define, then the environment). We substitute what --define and
// Define directives tell us and report what stays unresolved; we never read the
// environment of the machine we run on, which is not the server's.

export interface Substituted {
  text: string;
  /** Names that had no value: the text still holds `${NAME}` for them. */
  unresolved: string[];
}

const VAR = /\$\{([A-Za-z0-9_.:-]+)\}/g;

export function substitute(text: string, defines: ReadonlyMap<string, string>): Substituted {
  if (!text.includes('${')) return { text, unresolved: [] };
  const unresolved: string[] = [];
  const out = text.replace(VAR, (whole, name: string) => {
    const v = defines.get(name);
    if (v === undefined) {
      unresolved.push(name);
      return whole;
    }
    return v;
  });
  return { text: out, unresolved };
}
