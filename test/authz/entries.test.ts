import { type Client, entryKey, matches, parseEntry, representativeAddresses } from '../../src/authz/entries.js';

const v4 = (s: string): Client => ({ family: 4, addr: BigInt(s.split('.').reduce((a, o) => a * 256 + Number(o), 0)), host: null, env: new Set() });

describe('2.2 Allow/Deny entries (mod_authz_host + apr_ipsubnet_create)', () => {
  test.each([
    ['all', 'all'],
    ['ALL', 'all'],
    ['env=foo', 'env'],
    ['ENV=!foo', 'env'],
    ['10.1', 'ip'],
    ['10.1.', 'ip'],
    ['192.168.0.0/16', 'ip'],
    ['10.0.0.0/255.0.0.0', 'ip'],
    ['::1', 'ip'],
    ['2001:db8::/32', 'ip'],
    ['example.org', 'host'],
    ['.example.org', 'host'],
    ['#comment', 'never'],
    ['10.1/16', 'invalid'],
    ['1.2.3.4.5', 'invalid'],
    ['::ffff:1.2.3.4', 'invalid'],
    ['0.0.0.0/0', 'invalid'],
    ['10.0.0.0/40', 'invalid'],
    ['foo/24', 'invalid'],
  ])('%s is %s', (word, kind) => {
    expect(parseEntry(word).kind).toBe(kind);
  });

  test('partial addresses mean /8, /16, /24; host bits beyond the mask are cleared', () => {
    expect(matches(parseEntry('10.1'), v4('10.1.200.3'))).toBe(true);
    expect(matches(parseEntry('10.1'), v4('10.2.0.1'))).toBe(false);
    expect(matches(parseEntry('127.0.0.3/31'), v4('127.0.0.2'))).toBe(true);
    expect(matches(parseEntry('127.0.0.3/31'), v4('127.0.0.4'))).toBe(false);
    expect(matches(parseEntry('127.0.0.4/255.255.255.252'), v4('127.0.0.7'))).toBe(true);
    expect(entryKey(parseEntry('10.1')) === entryKey(parseEntry('10.1.0.0/16'))).toBe(true);
  });

  test('host names: whole-label suffix, a leading dot excludes the apex, case-insensitive', () => {
    const h = (host: string | null): Client => ({ ...v4('127.0.0.1'), host });
    expect(matches(parseEntry('example.org'), h('build2.Example.ORG'))).toBe(true);
    expect(matches(parseEntry('example.org'), h('example.org'))).toBe(true);
    expect(matches(parseEntry('example.org'), h('badexample.org'))).toBe(false);
    expect(matches(parseEntry('.example.org'), h('example.org'))).toBe(false);
    expect(matches(parseEntry('example.org'), h(null))).toBe(false);
  });

  test('env=!VAR matches when the variable is absent', () => {
    const c = { ...v4('10.0.0.1'), env: new Set(['a']) };
    expect(matches(parseEntry('env=a'), c)).toBe(true);
    expect(matches(parseEntry('env=!a'), c)).toBe(false);
    expect(matches(parseEntry('env=!b'), c)).toBe(true);
  });

  test('IPv4 rules never match an IPv6 client and the reverse', () => {
    expect(matches(parseEntry('::1'), v4('0.0.0.1'))).toBe(false);
    expect(matches(parseEntry('0.0.0.1'), { family: 6, addr: 1n, host: null, env: new Set() })).toBe(false);
  });

  test('representative addresses reach every region between nested and adjacent blocks', () => {
    const entries = ['10.0.0.0/24', '10.0.0.0/26', '10.0.0.192/26'].map(parseEntry);
    const reps = representativeAddresses(entries);
    const region = (a: { family: 4 | 6; addr: bigint }): string => entries.map((e) => (matches(e, { ...a, host: null, env: new Set() }) ? 1 : 0)).join('');
    // Inside both /26 blocks, between them (only the /24) and outside.
    expect(new Set(reps.map(region))).toEqual(new Set(['110', '101', '100', '000']));
  });
});
