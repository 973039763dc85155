import { ifVersionIn24, parseVersion, skippedBy24 } from '../../src/model/version.js';
import { levelRank, logModuleId, parseLogLevelArg, setsPlainLevel, shownBy22 } from '../../src/model/loglevel.js';
import { parse, type Section } from '../../src/syntax/index.js';

describe('<IfVersion> under 2.4', () => {
  test.each([
    [['<', '2.3.6'], 'no'],
    [['>=', '2.3.6'], 'yes'],
    [['>=', '2.4'], 'yes'],
    [['>=', '2.4.10'], 'unknown'],
    [['<', '2.4'], 'no'],
    [['<', '2.5'], 'yes'],
    [['<=', '2.4.0'], 'unknown'],
    [['<=', '2.2.34'], 'no'],
    [['>', '2.2'], 'yes'],
    [['>', '2.4.3'], 'unknown'],
    [['>', '2.5'], 'no'],
    [['2.2'], 'no'],
    [['=', '2.4.62'], 'unknown'],
    [['==', '3.0'], 'no'],
    [['!', '2.2'], 'yes'],
    [['!<', '2.3'], 'yes'],
    [['!>=', '2.3'], 'no'],
    [['~', '^2\\.2'], 'unknown'],
    [['=', '/^2\\.2/'], 'unknown'],
    [['>=', 'x'], 'unknown'],
  ])('%j is %s', (values, expected) => {
    expect(ifVersionIn24(values)).toBe(expected);
  });

  test('versions parse like mod_version: missing parts are 0', () => {
    expect(parseVersion('2.4')).toEqual([2, 4, 0]);
    expect(parseVersion('2')).toEqual([2, 0, 0]);
    expect(parseVersion('2.4.x')).toBeNull();
  });

  test('a node inside a 2.2-only block is skipped by 2.4', () => {
    const doc = parse('<IfModule mod_rewrite.c>\n<IfVersion < 2.3.6>\nRewriteLogLevel 9\n</IfVersion>\n<IfVersion >= 2.3.6>\nLogLevel rewrite:trace8\n</IfVersion>\n</IfModule>\n');
    const outer = doc.children[0] as Section;
    const [old, cur] = outer.children.filter((c): c is Section => c.kind === 'section');
    expect(skippedBy24([outer, old])).toBe(true);
    expect(skippedBy24([outer, cur])).toBe(false);
  });
});

describe('LogLevel arguments', () => {
  test('levels rank from emerg to trace8, any case', () => {
    expect(levelRank('warn')).toBe(4);
    expect(levelRank('DEBUG')).toBe(7);
    expect(levelRank('trace8')).toBe(15);
    expect(levelRank('trace9')).toBeUndefined();
  });

  test('module specifiers name one module however written', () => {
    expect(parseLogLevelArg('rewrite:trace3')).toEqual({ module: 'rewrite_module', level: 'trace3' });
    expect(parseLogLevelArg('mod_rewrite.c:trace3').module).toBe('rewrite_module');
    expect(parseLogLevelArg('rewrite_module:debug').module).toBe('rewrite_module');
    expect(parseLogLevelArg('warn')).toEqual({ module: null, level: 'warn' });
    expect(logModuleId('charset_lite')).toBe('charset_lite_module');
  });

  test('a plain level is what resets module levels', () => {
    expect(setsPlainLevel(['warn', 'rewrite:trace3'])).toBe(true);
    expect(setsPlainLevel(['rewrite:trace3'])).toBe(false);
  });

  test('2.2 wrote what the server level allowed, and notice always', () => {
    expect(shownBy22('debug', 'warn')).toBe(false);
    expect(shownBy22('debug', 'debug')).toBe(true);
    expect(shownBy22('notice', 'crit')).toBe(true);
    expect(shownBy22('error', 'warn')).toBe(true);
    expect(shownBy22('info', 'notice')).toBe(false);
  });
});
