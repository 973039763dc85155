// How bytes are carried.
//
// Apache reads its configuration as bytes; every character with meaning to it is ASCII.
// We therefore decode files as Latin-1 ("binary" strings): byte N becomes the UTF-16 code
// unit N, so every possible byte sequence (UTF-8, Latin-1, invalid UTF-8) maps one to one
// onto a string and back. The syntax layer, the model and the transforms all work on these
// strings; text is only converted to Unicode at the edges, for humans (messages, JSON).

/** File bytes to the internal byte string. */
export function decodeBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Internal byte string back to the exact file bytes. */
export function encodeBytes(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/**
 * A byte string for display: decoded as UTF-8 when it is valid UTF-8, else each byte
 * outside ASCII is shown as \xNN so nothing is silently replaced.
 */
export function displayText(text: string): string {
  // Fast path: pure ASCII needs no work.
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const bytes = encodeBytes(text);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return text.replace(/[\x80-\xff]/g, (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
  }
}

/** Unicode text (from a transform or a user) to the internal byte string, as UTF-8. */
export function fromUnicode(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** True when the bytes look binary: a NUL byte in the first 8 KiB (git's rule). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
