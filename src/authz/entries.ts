// Allow/Deny entries as 2.2's mod_authz_host reads them (httpd@2.2.34
// modules/aaa/mod_authz_host.c allow_cmd(), with APR's apr_ipsubnet_create()), and how a
// client matches them. 2.4's `Require ip`/`Require host` parse and match the same way.

export type Entry =
  | { kind: 'all'; text: string }
  | { kind: 'env'; name: string; negated: boolean; text: string }
  | { kind: 'ip'; family: 4 | 6; net: bigint; mask: bigint; text: string }
  | { kind: 'host'; name: string; subdomainsOnly: boolean; text: string }
  /** A word 2.2 took as a host name that can never match (it holds '#'); 2.4 rejects it. */
  | { kind: 'never'; text: string }
  /** A word 2.2 refuses at start-up: the configuration never ran. */
  | { kind: 'invalid'; text: string; why: string };

const V4_BITS = 32n;
const V6_BITS = 128n;
const ones = (bits: bigint): bigint => (1n << bits) - 1n;

function parseV4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    v = (v << 8n) | BigInt(Number(p));
  }
  return v;
}

function parseV6(s: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return null;
  let head = s;
  let tail = '';
  const dbl = s.indexOf('::');
  if (dbl >= 0) {
    if (s.indexOf('::', dbl + 1) >= 0) return null;
    head = s.slice(0, dbl);
    tail = s.slice(dbl + 2);
  }
  const group = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (i === items.length - 1 && it.includes('.')) {
        const v4 = parseV4(it);
        if (v4 === null) return null;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(it)) return null;
        out.push(parseInt(it, 16));
      }
    }
    return out;
  };
  const h = group(head);
  const t = group(tail);
  if (!h || !t) return null;
  const missing = 8 - h.length - t.length;
  if ((dbl < 0 && missing !== 0) || (dbl >= 0 && missing < 1)) return null;
  const all = [...h, ...Array(dbl >= 0 ? missing : 0).fill(0), ...t];
  let v = 0n;
  for (const g of all) v = (v << 16n) | BigInt(g);
  return v;
}

/** apr's looks_like_ip(): contains ':' or only digits and dots. */
function looksLikeIp(s: string): boolean {
  return s.includes(':') || /^[\d.]+$/.test(s);
}

/** An address (no mask) as APR takes it: full IPv4, partial IPv4 (10, 10.1, 10.1.2, 10.), IPv6. */
function parseAddress(s: string, allowPartial: boolean): { family: 4 | 6; value: bigint; bits: bigint } | null {
  if (s.includes(':')) {
    const v = parseV6(s);
    if (v === null) return null;
    // apr rejects IPv4-mapped IPv6 addresses in rules.
    if (v >> 32n === 0xffffn) return null;
    return { family: 6, value: v, bits: V6_BITS };
  }
  const full = parseV4(s);
  if (full !== null) return { family: 4, value: full, bits: V4_BITS };
  if (!allowPartial) return null;
  const trimmed = s.endsWith('.') ? s.slice(0, -1) : s;
  const parts = trimmed.split('.');
  if (parts.length < 1 || parts.length > 3 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  let v = 0n;
  for (const p of parts) v = (v << 8n) | BigInt(Number(p));
  const bits = BigInt(parts.length * 8);
  return { family: 4, value: v << (V4_BITS - bits), bits };
}

/** Parses one word after `from`, as 2.2 does. */
export function parseEntry(word: string): Entry {
  const lower = word.toLowerCase();
  if (lower.startsWith('env=!')) return { kind: 'env', name: word.slice(5), negated: true, text: word };
  if (lower.startsWith('env=')) return { kind: 'env', name: word.slice(4), negated: false, text: word };
  if (lower === 'all') return { kind: 'all', text: word };
  const slash = word.indexOf('/');
  if (slash >= 0) {
    const ipPart = word.slice(0, slash);
    const maskPart = word.slice(slash + 1);
    if (!looksLikeIp(ipPart)) return { kind: 'invalid', text: word, why: 'An IP address was expected' };
    const a = parseAddress(ipPart, false);
    if (!a) return { kind: 'invalid', text: word, why: 'The specified IP address is invalid.' };
    let mask: bigint;
    const total = a.family === 4 ? V4_BITS : V6_BITS;
    if (/^\d+$/.test(maskPart)) {
      const bits = BigInt(Number(maskPart));
      if (bits < 1n || bits > total) return { kind: 'invalid', text: word, why: 'The specified network mask is invalid.' };
      mask = ones(total) ^ ones(total - bits);
    } else if (a.family === 4 && parseV4(maskPart) !== null) {
      mask = parseV4(maskPart)!;
      if (mask === 0n) return { kind: 'invalid', text: word, why: 'The specified network mask is invalid.' };
    } else {
      return { kind: 'invalid', text: word, why: 'The specified network mask is invalid.' };
    }
    return { kind: 'ip', family: a.family, net: a.value & mask, mask, text: word };
  }
  if (looksLikeIp(word)) {
    const a = parseAddress(word, true);
    if (!a) return { kind: 'invalid', text: word, why: 'The specified IP address is invalid.' };
    const total = a.family === 4 ? V4_BITS : V6_BITS;
    const mask = ones(total) ^ ones(total - a.bits);
    return { kind: 'ip', family: a.family, net: a.value & mask, mask, text: word };
  }
  if (word.includes('#')) return { kind: 'never', text: word };
  const subdomainsOnly = word.startsWith('.');
  return { kind: 'host', name: (subdomainsOnly ? word.slice(1) : word).toLowerCase(), subdomainsOnly, text: word };
}

/** A canonical key: entries with the same key match the same clients. */
export function entryKey(e: Entry): string {
  switch (e.kind) {
    case 'all': return 'all';
    case 'env': return `env:${e.negated ? '!' : ''}${e.name}`;
    case 'ip': return `ip${e.family}:${e.net.toString(16)}/${e.mask.toString(16)}`;
    case 'host': return `host:${e.subdomainsOnly ? '.' : ''}${e.name}`;
    case 'never': return `never:${e.text}`;
    case 'invalid': return `invalid:${e.text}`;
  }
}

/** What an entry can be matched against. */
export interface Client {
  family: 4 | 6;
  addr: bigint;
  /** The double-reverse-checked host name, or null when the lookup fails. */
  host: string | null;
  env: ReadonlySet<string>;
}

export function matches(e: Entry, c: Client): boolean {
  switch (e.kind) {
    case 'all': return true;
    case 'env': return c.env.has(e.name) !== e.negated;
    case 'ip': return c.family === e.family && (c.addr & e.mask) === e.net;
    case 'host': {
      if (c.host === null) return false;
      const h = c.host.toLowerCase();
      if (h.endsWith('.' + e.name)) return true;
      return !e.subdomainsOnly && h === e.name;
    }
    case 'never':
    case 'invalid':
      return false;
  }
}

export function formatAddress(family: 4 | 6, v: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((v >> s) & 0xffffn).toString(16));
  return groups.join(':');
}

/**
 * Client addresses that tell every given IP entry apart: for CIDR blocks (intervals), each
 * region between block boundaries holds a boundary or a boundary ± 1, so those points
 * (plus one address outside every block) reach every combination that exists.
 */
export function representativeAddresses(entries: readonly Entry[]): Array<{ family: 4 | 6; addr: bigint }> {
  const out = new Map<string, { family: 4 | 6; addr: bigint }>();
  const add = (family: 4 | 6, addr: bigint): void => {
    const max = family === 4 ? ones(V4_BITS) : ones(V6_BITS);
    if (addr < 0n || addr > max) return;
    out.set(`${family}:${addr}`, { family, addr });
  };
  for (const e of entries) {
    if (e.kind !== 'ip') continue;
    const total = e.family === 4 ? V4_BITS : V6_BITS;
    const hostBits = ~e.mask & ones(total);
    const lo = e.net;
    const hi = e.net | hostBits;
    for (const a of [lo, hi, lo - 1n, hi + 1n, lo + 1n, hi - 1n]) add(e.family, a);
  }
  // Loopback addresses clients really use, and one address outside everything.
  add(4, 0x7f000001n);
  add(4, 0xc0000201n); // 192.0.2.1 (TEST-NET-1)
  add(6, 1n);
  add(6, 0x20010db8n << 96n | 0x1234n);
  return [...out.values()];
}

/** Host names that tell every given host entry apart, plus "no name". */
export function representativeHosts(entries: readonly Entry[]): Array<string | null> {
  const out = new Set<string | null>([null, 'unmatched.invalid']);
  for (const e of entries) {
    if (e.kind !== 'host') continue;
    out.add(e.name);
    out.add('sub.' + e.name);
    out.add('x' + e.name);
  }
  return [...out];
}
