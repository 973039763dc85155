import { consistent, OPT, options24Error, plainWords, readOptions22 } from '../../src/model/options.js';

const w = (s: string): string[] => s.split(' ');

describe('2.2 reading of one Options line (set_options)', () => {
  test('the first plain word resets the options; signed words before it stay in add/remove only', () => {
    const s = readOptions22(w('+FollowSymLinks Indexes'))!;
    expect(s.opts).toBe(OPT.INDEXES);
    expect(s.add).toBe(OPT.SYM_LINKS);
    expect(s.explicit).toBe(true);
    expect(s.beforeReset).toEqual(['+FollowSymLinks']);
    expect(consistent(s)).toBe(false);
  });

  test('signed words after the first plain word act on the list', () => {
    const s = readOptions22(w('Indexes +FollowSymLinks -Indexes'))!;
    expect(s.opts).toBe(OPT.SYM_LINKS);
    expect(consistent(s)).toBe(true);
  });

  test('None not first adds nothing; All not first adds All', () => {
    expect(readOptions22(w('Indexes None'))!.opts).toBe(OPT.INDEXES);
    expect(readOptions22(w('MultiViews All'))!.opts).toBe(OPT.ALL | OPT.MULTI);
  });

  test('only signed words: no reset, the line merges', () => {
    const s = readOptions22(w('+All -Indexes'))!;
    expect(s.explicit).toBe(false);
    expect(s.add).toBe(OPT.ALL & ~OPT.INDEXES);
    expect(s.remove).toBe(OPT.INDEXES);
  });

  test('a removal before the reset comes back later: inconsistent', () => {
    expect(consistent(readOptions22(w('-Indexes Indexes'))!)).toBe(false);
    expect(consistent(readOptions22(w('-Indexes FollowSymLinks'))!)).toBe(true);
  });

  test('unknown words make the line invalid in 2.2 too', () => {
    expect(readOptions22(w('Indexes Bogus'))).toBeNull();
  });
});

describe('2.4 validation (set_options)', () => {
  test.each([
    ['Indexes FollowSymLinks', null],
    ['+Indexes -ExecCGI', null],
    ['None +Indexes', null],
    ['All -ExecCGI', null],
    ['Indexes +FollowSymLinks', 'Either all Options must start with + or -, or no Option may.'],
    ['+Indexes FollowSymLinks', 'Either all Options must start with + or -, or no Option may.'],
    ['Indexes None', "'Options None' must be the first Option given."],
    ['Indexes All', "'Options All' must be the first option given."],
    ['+None', "You may not use 'Options +None' or 'Options -None'."],
    ['-All', "You may not use 'Options +All' or 'Options -All'."],
  ])('%s', (line, err) => {
    expect(options24Error(w(line))).toBe(err);
  });
});

describe('plain words for option bits', () => {
  test('All only when it means the same (Includes with exec)', () => {
    expect(plainWords(OPT.ALL)).toEqual(['All']);
    expect(plainWords(OPT.ALL | OPT.INCNOEXEC)).toEqual(['Indexes', 'IncludesNOEXEC', 'FollowSymLinks', 'ExecCGI']);
    expect(plainWords(OPT.ALL | OPT.MULTI)).toEqual(['All', 'MultiViews']);
    expect(plainWords(0)).toEqual(['None']);
  });
});
