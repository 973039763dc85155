// Method masks from <Limit>/<LimitExcept>. Method names are case-sensitive; HEAD is the
// same method number as GET (httpd server/core.c ap_limit_section()).

export interface MethodMask {
  /** true: every method except `methods`; false: exactly `methods`. */
  readonly except: boolean;
  readonly methods: ReadonlySet<string>;
}

export const ALL_METHODS: MethodMask = { except: true, methods: new Set() };

export function methodKey(m: string): string {
  return m === 'HEAD' ? 'GET' : m;
}

export function limitMask(names: readonly string[], except: boolean): MethodMask {
  return { except, methods: new Set(names.map(methodKey)) };
}

export function inMask(mask: MethodMask, method: string): boolean {
  return mask.methods.has(methodKey(method)) !== mask.except;
}

export function intersect(a: MethodMask, b: MethodMask): MethodMask {
  if (!a.except && !b.except) return { except: false, methods: new Set([...a.methods].filter((m) => b.methods.has(m))) };
  if (a.except && b.except) return { except: true, methods: new Set([...a.methods, ...b.methods]) };
  const [only, exc] = a.except ? [b, a] : [a, b];
  return { except: false, methods: new Set([...only.methods].filter((m) => !exc.methods.has(m))) };
}

export function isAll(m: MethodMask): boolean {
  return m.except && m.methods.size === 0;
}

export function maskKey(m: MethodMask): string {
  return (m.except ? '-' : '+') + [...m.methods].sort().join(',');
}

/** A method not named anywhere: stands for every method the configuration does not name. */
export const OTHER_METHOD = '~OTHER';
