// Writing files back: atomically (a temp file in the same folder, fsync, rename), keeping
// mode and owner, at the symlink's target (callers pass real paths), and only when the
// file on disk is still the one we read.

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fchownSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SourceInfo } from './load.js';

/** Temp files being written right now, removed if the process is interrupted. */
export const pendingTempFiles = new Set<string>();

export function removePendingTempFiles(): void {
  for (const t of pendingTempFiles) {
    try {
      unlinkSync(t);
    } catch {
      /* already gone */
    }
  }
  pendingTempFiles.clear();
}

/** Why the file cannot be overwritten now, or null when it is still as we read it. */
export function changedOnDisk(path: string, info: SourceInfo): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return `the file can no longer be read (${(e as Error).message})`;
  }
  if (bytes.length !== info.size || createHash('sha256').update(bytes).digest('hex') !== info.sha256) {
    return 'the file changed on disk after it was read; not overwritten (run again)';
  }
  return null;
}

function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.httpd24-codemod-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** A temp file of ours (see tempName): only a killed run (SIGKILL, power loss) leaves one. */
export function isTempName(name: string): boolean {
  return /^\..+\.httpd24-codemod-\d+-[0-9a-f]{8}\.tmp$/.test(name);
}

/** Writes bytes to a new temp file beside `path` with the original's mode and owner; returns its name. */
export function writeTemp(path: string, bytes: Uint8Array, info: Pick<SourceInfo, 'mode' | 'uid' | 'gid'>): string {
  const tmp = tempName(path);
  pendingTempFiles.add(tmp);
  let fd = -1;
  try {
    fd = openSync(tmp, 'wx', info.mode & 0o7777);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    try {
      fchownSync(fd, info.uid, info.gid);
    } catch {
      /* not allowed to give the file away: it keeps our owner */
    }
    fchmodSync(fd, info.mode & 0o7777);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    return tmp;
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    pendingTempFiles.delete(tmp);
    throw e;
  }
}

/** Moves a finished temp file over the target (atomic on one file system). */
export function commitTemp(tmp: string, path: string): void {
  try {
    renameSync(tmp, path);
  } finally {
    pendingTempFiles.delete(tmp);
  }
  try {
    const dfd = openSync(dirname(path), 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    /* best effort: some file systems cannot fsync a folder */
  }
}

export function discardTemp(tmp: string): void {
  try {
    unlinkSync(tmp);
  } catch {
    /* gone */
  }
  pendingTempFiles.delete(tmp);
}

/**
 * Keeps the original bytes beside the file as `path + suffix`. An existing backup is never
 * overwritten: the next free name (`.1`, `.2`, …) is used. Returns the backup's name.
 */
export function writeBackup(path: string, original: Uint8Array, info: SourceInfo, suffix: string): string {
  const tmp = writeTemp(path, original, info);
  try {
    for (let n = 0; n < 1000; n++) {
      const name = path + suffix + (n === 0 ? '' : '.' + n);
      try {
        linkSync(tmp, name); // fails if the name exists: no silent overwrite
        return name;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    throw new Error(`no free backup name for ${path}${suffix}`);
  } finally {
    discardTemp(tmp);
  }
}
