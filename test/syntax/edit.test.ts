import { blank, comment, type Directive, directive, mentions, namesIn, parse, print, replaceRun, type Section, section, wrap } from '../../src/syntax/index.js';

const dir = (doc: ReturnType<typeof parse>, name: string): Directive => {
  for (const n of walkAll(doc.children)) if (n.kind === 'directive' && n.is(name)) return n;
  throw new Error('no ' + name);
};
function* walkAll(list: ReturnType<typeof parse>['children']): Generator<ReturnType<typeof parse>['children'][number]> {
  for (const n of list) {
    yield n;
    if (n.kind === 'section') yield* walkAll(n.children);
  }
}

describe('rename', () => {
  test('keeps indentation, spacing after the name, arguments and the line ending', () => {
    const doc = parse('<IfModule prefork.c>\n\tMaxClients          150\r\n</IfModule>\n');
    dir(doc, 'maxclients').rename('MaxRequestWorkers');
    expect(print(doc)).toBe('<IfModule prefork.c>\n\tMaxRequestWorkers          150\r\n</IfModule>\n');
  });

  test('renaming a section renames its close tag', () => {
    const doc = parse('<IfModule mod_authn_alias.c>\n  X 1\n</IfModule>\n');
    const s = doc.children[0] as Section;
    s.setArgs(['mod_authn_core.c']);
    expect(print(doc)).toBe('<IfModule mod_authn_core.c>\n  X 1\n</IfModule>\n');
    s.rename('IfDefine');
    expect(print(doc)).toBe('<IfDefine mod_authn_core.c>\n  X 1\n</IfDefine>\n');
  });

  test('only the edited line changes', () => {
    const src = '# head\nKeepAlive  0   \nTimeout 300\n';
    const doc = parse(src);
    dir(doc, 'KeepAlive').setArgs(['Off']);
    expect(print(doc)).toBe('# head\nKeepAlive  Off\nTimeout 300\n');
  });
});

describe('setArgs', () => {
  test('quotes values that need it, keeps raw arguments as given', () => {
    const doc = parse('ErrorLog logs/x\n');
    const d = dir(doc, 'ErrorLog');
    d.setArgs(['|$/usr/bin/rotatelogs /var/log/x 86400']);
    expect(print(doc)).toBe('ErrorLog "|$/usr/bin/rotatelogs /var/log/x 86400"\n');
    d.setArgs([d.args[0], { raw: "'x'", value: 'x', quote: "'" }]);
    expect(print(doc)).toBe('ErrorLog "|$/usr/bin/rotatelogs /var/log/x 86400" \'x\'\n');
  });

  test('a continued directive is re-rendered on one line', () => {
    const doc = parse('Options Indexes \\\n  FollowSymLinks\nListen 80\n');
    dir(doc, 'Options').setArgs(['FollowSymLinks']);
    expect(print(doc)).toBe('Options FollowSymLinks\nListen 80\n');
  });
});

describe('remove', () => {
  test('removes the line with its ending, comments around it stay', () => {
    const doc = parse('# Use name-based virtual hosting.\nNameVirtualHost *:80\n\nListen 80\n');
    dir(doc, 'NameVirtualHost').remove();
    expect(print(doc)).toBe('# Use name-based virtual hosting.\n\nListen 80\n');
  });

  test('removes a continued directive entirely', () => {
    const doc = parse('A 1\nLockFile \\\n  /var/lock\nB 2\n');
    dir(doc, 'LockFile').remove();
    expect(print(doc)).toBe('A 1\nB 2\n');
  });
});

describe('insert', () => {
  test('after a sibling takes its indentation and line ending', () => {
    const doc = parse('<Directory />\r\n\tOptions None\r\n</Directory>\r\n');
    dir(doc, 'Options').after(directive('Require', 'all', 'denied'));
    expect(print(doc)).toBe('<Directory />\r\n\tOptions None\r\n\tRequire all denied\r\n</Directory>\r\n');
  });

  test('before a sibling', () => {
    const doc = parse('<Directory />\n    Options None\n</Directory>\n');
    dir(doc, 'Options').before(directive('AllowOverride', 'None'));
    expect(print(doc)).toBe('<Directory />\n    AllowOverride None\n    Options None\n</Directory>\n');
  });

  test('inside an empty section uses the parent indentation plus the file indent unit', () => {
    const doc = parse('<Directory /a>\n  Options None\n</Directory>\n  <Location /b>\n  </Location>\n');
    const loc = doc.children[1] as Section;
    loc.append(directive('Require', 'all', 'granted'));
    expect(print(doc)).toBe('<Directory /a>\n  Options None\n</Directory>\n  <Location /b>\n    Require all granted\n  </Location>\n');
  });

  test('sections, comments and blank lines inside a section', () => {
    const doc = parse('<VirtualHost *:80>\n    ServerName a\n</VirtualHost>\n');
    const vh = doc.children[0] as Section;
    vh.append(blank(), comment('converted by httpd24-codemod'), section('RequireAll', [], [directive('Require', 'ip', '10.0.0.0/8'), directive('Require', 'not', 'ip', '10.1.0.0/16')]));
    expect(print(doc)).toBe(
      '<VirtualHost *:80>\n    ServerName a\n\n    # converted by httpd24-codemod\n    <RequireAll>\n        Require ip 10.0.0.0/8\n        Require not ip 10.1.0.0/16\n    </RequireAll>\n</VirtualHost>\n',
    );
  });

  test('prepend at document level', () => {
    const doc = parse('Listen 80\n');
    doc.prepend(directive('LoadModule', 'mpm_prefork_module', 'modules/mod_mpm_prefork.so'));
    expect(print(doc)).toBe('LoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nListen 80\n');
  });

  test('after the last line of a file without a final newline', () => {
    const doc = parse('Listen 80');
    doc.append(directive('Listen', '81'));
    expect(print(doc)).toBe('Listen 80\nListen 81\n');
  });

  test('a last line ending in a backslash (and a CR) does not swallow what is added after it', () => {
    // Apache continues a line on backslash, optional CR, LF: a space before the new line ending keeps the backslash an argument.
    for (const [text, want] of [['Deny from all \\', 'Deny from all \\ \n'], ['Deny from all \\\r', 'Deny from all \\\r \n']]) {
      const doc = parse(text);
      doc.append(directive('Listen', '81'));
      expect(print(doc)).toBe(want + 'Listen 81\n');
      const again = parse(print(doc));
      expect(again.children.filter((n) => n.kind === 'directive').map((n) => n.kind === 'directive' && [n.name, ...n.values].join(' '))).toEqual(['Deny from all \\', 'Listen 81']);
    }
  });

  test('CRLF files get CRLF lines', () => {
    const doc = parse('A 1\r\nB 2\r\n');
    doc.append(directive('C', '3'));
    expect(print(doc)).toBe('A 1\r\nB 2\r\nC 3\r\n');
  });

  test('tabs as the indent unit', () => {
    const doc = parse('<A>\n\tX 1\n</A>\n<B>\n</B>\n');
    (doc.children[1] as Section).append(directive('Y', '2'));
    expect(print(doc)).toBe('<A>\n\tX 1\n</A>\n<B>\n\tY 2\n</B>\n');
  });
});

describe('replaceRun', () => {
  test('replaces directives, keeps comments in the run', () => {
    const src = '<Directory /x>\n    Order deny,allow\n    # office only\n    Deny from all\n    Allow from 10.0.0.0/8\n    Options None\n</Directory>\n';
    const doc = parse(src);
    const s = doc.children[0] as Section;
    replaceRun(s.children.slice(0, 4), [directive('Require', 'ip', '10.0.0.0/8')]);
    expect(print(doc)).toBe('<Directory /x>\n    Require ip 10.0.0.0/8\n    # office only\n    Options None\n</Directory>\n');
  });

  test('rejects nodes that are not adjacent siblings', () => {
    const doc = parse('A 1\nB 2\nC 3\n');
    expect(() => replaceRun([doc.children[0], doc.children[2]], [])).toThrow('adjacent');
  });
});

describe('wrap', () => {
  test('wraps a run in a section and indents it one step', () => {
    const doc = parse('<Directory /x>\n  Order deny,allow\n  Deny from all\n  Options None\n</Directory>\n');
    const s = doc.children[0] as Section;
    wrap(s.children.slice(0, 2), 'IfModule', ['!mod_authz_core.c']);
    expect(print(doc)).toBe('<Directory /x>\n  <IfModule !mod_authz_core.c>\n    Order deny,allow\n    Deny from all\n  </IfModule>\n  Options None\n</Directory>\n');
  });

  test('wrapping nested sections indents everything inside', () => {
    const doc = parse('<Limit GET>\n  Deny from all\n</Limit>\n');
    wrap([doc.children[0]], 'IfModule', ['!mod_authz_core.c']);
    // The file indents by two spaces, so the wrap does too.
    expect(print(doc)).toBe('<IfModule !mod_authz_core.c>\n  <Limit GET>\n    Deny from all\n  </Limit>\n</IfModule>\n');
  });
});

describe('untouched documents', () => {
  test('print returns the source itself when nothing was edited', () => {
    const src = 'Listen 80\n';
    const doc = parse(src);
    expect(print(doc)).toBe(src);
    expect(doc.modified).toBe(false);
  });
});

describe('rename keeps the rest of the line', () => {
  test('continuation lines and spacing survive a rename', () => {
    const doc = parse('\tMAXREQUESTSPERCHILD \\\r\n\t\t4000\r\n');
    (doc.children[0] as Directive).rename('MaxConnectionsPerChild');
    expect(print(doc)).toBe('\tMaxConnectionsPerChild \\\r\n\t\t4000\r\n');
  });

  test('a section close tag written in another case is renamed too', () => {
    const doc = parse('<IfModule a>\nX 1\n</ifModule >\n');
    (doc.children[0] as Section).rename('IfDefine');
    expect(print(doc)).toBe('<IfDefine a>\nX 1\n</IfDefine >\n');
  });
});

// Transforms skip the files that name none of their directives: the names must follow every edit.
describe('namesIn', () => {
  test('follows renames, insertions and removals, in sections too', () => {
    const doc = parse('KeepAlive 0\n<Directory /x>\n  Order allow,deny\n</Directory>\n');
    expect([...namesIn(doc)].sort()).toEqual(['directory', 'keepalive', 'order']);
    expect(mentions(doc, ['allow', 'order'])).toBe(true);
    dir(doc, 'Order').rename('Require');
    expect(mentions(doc, ['order'])).toBe(false);
    expect(mentions(doc, ['require'])).toBe(true);
    (doc.children[1] as Section).append(directive('AuthMerging', 'And'));
    expect(mentions(doc, ['authmerging'])).toBe(true);
    dir(doc, 'KeepAlive').remove();
    expect(mentions(doc, ['keepalive'])).toBe(false);
    // A section built apart and inserted later brings its names with it.
    const s = section('IfModule', ['mod_ssl.c'], [directive('SSLProtocol', 'all')]);
    doc.append(s);
    expect(mentions(doc, ['sslprotocol', 'ifmodule'])).toBe(true);
  });

  test('a rename changes the lower-case key too', () => {
    const doc = parse('order allow,deny\n');
    const d = dir(doc, 'order');
    expect(d.key).toBe('order');
    d.rename('REQUIRE');
    expect(d.key).toBe('require');
    expect(d.is('Require')).toBe(true);
    expect(d.is('order')).toBe(false);
  });
});
