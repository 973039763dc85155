// System errors in a few plain words: a finding names the file, so the message needs
// neither Node's syscall name nor a temp file's path.

export function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT': return 'no such file or folder';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ELOOP': return 'too many levels of symbolic links';
    case 'EISDIR': return 'is a folder';
    case 'ENOTDIR': return 'a part of the path is not a folder';
    case 'ENOSPC': return 'no space left on the device';
    case 'EDQUOT': return 'disk quota exceeded';
    case 'EROFS': return 'read-only file system';
    case 'EIO': return 'input/output error';
    case 'EMFILE': case 'ENFILE': return 'too many open files';
    case 'ETXTBSY': case 'EBUSY': return 'the file is busy';
    default: return err?.message ?? String(e);
  }
}
