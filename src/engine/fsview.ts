// The file-system calls the loader makes, remembered: the verification pass loads the tree a
// second time (with the converted text laid over it), and asking the disk again for every
// folder listing, link and status of a tree of 20,000 files cost as much as converting it.
// The second load so sees the tree exactly as the first did.

import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';

type Result<T> = { ok: true; value: T } | { ok: false; error: unknown };

function attempt<T>(f: () => T): Result<T> {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    return { ok: false, error };
  }
}

function unwrap<T>(r: Result<T>): T {
  if (r.ok) return r.value;
  throw r.error;
}

/** realpath(3) in one call; Node's JavaScript realpath (one lstat per path component) only to report a failure the way it always has. */
function realpath(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return realpathSync(p);
  }
}

export class FsView {
  private readonly real = new Map<string, Result<string>>();
  private readonly stats = new Map<string, Result<Stats>>();
  private readonly lstats = new Map<string, Result<Stats>>();
  private readonly lists = new Map<string, Result<Dirent[]>>();

  private static get<T>(m: Map<string, Result<T>>, p: string, f: () => T): T {
    let r = m.get(p);
    if (r === undefined) {
      r = attempt(f);
      m.set(p, r);
    }
    return unwrap(r);
  }

  realpath(p: string): string {
    return FsView.get(this.real, p, () => realpath(p));
  }

  stat(p: string): Stats {
    return FsView.get(this.stats, p, () => statSync(p));
  }

  lstat(p: string): Stats {
    return FsView.get(this.lstats, p, () => lstatSync(p));
  }

  /** A folder's entries with their types (from the listing; lstat where the file system gives none). */
  readdir(p: string): Dirent[] {
    return FsView.get(this.lists, p, () => readdirSync(p, { withFileTypes: true }));
  }

  /** A folder's entry names. */
  names(p: string): string[] {
    return this.readdir(p).map((d) => d.name);
  }
}
