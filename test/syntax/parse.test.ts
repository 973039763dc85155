import { type Directive, type Node, parse, print, type Section, type Unparsed, walk } from '../../src/syntax/index.js';

const only = <T extends Node>(src: string, i = 0): T => parse(src).children.filter((n) => n.kind !== 'blank')[i] as T;

describe('directives and arguments', () => {
  test('bare, double- and single-quoted arguments with escapes (ap_getword_conf)', () => {
    const d = only<Directive>('Header set X "a \\"b\\" c" \'it\\\'s\' back\\\\slash C:\\dir\n');
    expect(d.name).toBe('Header');
    expect(d.values).toEqual(['set', 'X', 'a "b" c', "it's", 'back\\slash', 'C:\\dir']);
    expect(d.args.map((a) => a.raw)).toEqual(['set', 'X', '"a \\"b\\" c"', "'it\\'s'", 'back\\\\slash', 'C:\\dir']);
  });

  test('a quote inside a bare word does not start a string', () => {
    expect(only<Directive>('LogFormat foo"bar baz"\n').values).toEqual(['foo"bar', 'baz"']);
  });

  test('an unterminated quote runs to the end of the line', () => {
    expect(only<Directive>('ServerName "www.example.com\n').values).toEqual(['www.example.com']);
  });

  test('a trailing # comment after a directive is arguments, as Apache reads it', () => {
    const d = only<Directive>('ServerName dashboard.example.com # UPDATE THIS\n');
    expect(d.values).toEqual(['dashboard.example.com', '#', 'UPDATE', 'THIS']);
  });

  test('template placeholders and variables are ordinary argument text', () => {
    const d = only<Directive>('Listen @PORT@ ${APACHE_PORT} %var%\n');
    expect(d.values).toEqual(['@PORT@', '${APACHE_PORT}', '%var%']);
  });

  test('Include with a glob character class', () => {
    expect(only<Directive>('Include conf.d/[^.#]*\n').values).toEqual(['conf.d/[^.#]*']);
  });

  test('directive names keep their case; is() compares without it', () => {
    const d = only<Directive>('maxclients 150\n');
    expect(d.name).toBe('maxclients');
    expect(d.is('MaxClients')).toBe(true);
    expect(d.key).toBe('maxclients');
  });

  test('line numbers and indentation', () => {
    const doc = parse('# a\n\n\tOrder deny,allow\n');
    const d = doc.children[2] as Directive;
    expect(d.line).toBe(3);
    expect(d.indent).toBe('\t');
  });
});

describe('continuation lines', () => {
  test('a trailing backslash joins the next line into one directive', () => {
    const src = 'RewriteCond %{HTTP_HOST} \\\n    ^example\\.com$ [NC]\nNext on\n';
    const doc = parse(src);
    const d = doc.children[0] as Directive;
    expect(d.values).toEqual(['%{HTTP_HOST}', '^example\\.com$', '[NC]']);
    expect((doc.children[1] as Directive).line).toBe(3);
    expect(print(doc)).toBe(src);
  });

  test('a quoted argument spanning lines', () => {
    const d = only<Directive>('LogFormat "%h %l \\\n%u %t" combined\n');
    expect(d.values).toEqual(['%h %l %u %t', 'combined']);
  });

  test('a comment that ends in a backslash swallows the next line (as in Apache)', () => {
    const doc = parse('# note \\\nListen 80\nListen 81\n');
    expect(doc.children.map((n) => n.kind)).toEqual(['comment', 'directive']);
    expect((doc.children[1] as Directive).values).toEqual(['81']);
  });

  test('section arguments spanning lines', () => {
    const s = only<Section>('<VirtualHost 10.0.0.1:80 \\\n  10.0.0.2:80>\nServerName a\n</VirtualHost>\n');
    expect(s.kind).toBe('section');
    expect(s.values).toEqual(['10.0.0.1:80', '10.0.0.2:80']);
    expect(s.children.length).toBe(1);
  });

  test('CRLF continuation', () => {
    const d = only<Directive>('Options Indexes \\\r\n FollowSymLinks\r\n');
    expect(d.values).toEqual(['Indexes', 'FollowSymLinks']);
    expect(d.eol).toBe('\r\n');
  });

  test('a backslash on the last line without a line ending is not a continuation', () => {
    const doc = parse('Foo bar\\');
    expect((doc.children[0] as Directive).values).toEqual(['bar\\']);
  });
});

describe('comments', () => {
  test('# starts a comment only as the first non-blank character', () => {
    const doc = parse('  # indented comment\nAllow from foo#bar\n');
    expect(doc.children[0].kind).toBe('comment');
    expect((doc.children[1] as Directive).values).toEqual(['from', 'foo#bar']);
  });
});

describe('sections', () => {
  test('nesting, any case, and a space before >', () => {
    const doc = parse('<IfModule mod_dir.c >\n  <directory "/var/www">\n    Options None\n  </DIRECTORY >\n</ifModule>\n');
    expect(doc.diagnostics).toEqual([]);
    const outer = doc.children[0] as Section;
    expect(outer.name).toBe('IfModule');
    expect(outer.values).toEqual(['mod_dir.c']);
    const inner = outer.children[0] as Section;
    expect(inner.is('Directory')).toBe(true);
    expect(inner.values).toEqual(['/var/www']);
    expect(inner.children[0].kind).toBe('directive');
    expect(inner.closeLine).toBe(4);
  });

  test('a section with no arguments and one with a negated argument', () => {
    const doc = parse('<Perl>\n</Perl>\n<IfDefine  !SSL >\nListen 80\n</IfDefine>\n');
    expect(doc.diagnostics).toEqual([]);
    expect((doc.children[1] as Section).values).toEqual(['!SSL']);
    expect((doc.children[0] as Section).values).toEqual([]);
  });

  test('<Perl> bodies are kept verbatim, not read as directives', () => {
    const src = '<Perl>\nmy $x = <<EOF;\n</Location>\nEOF\n$Location{"/"} = { Order => "deny,allow" };\n</Perl>\n';
    const doc = parse(src);
    expect(doc.diagnostics).toEqual([]);
    const perl = doc.children[0] as Section;
    expect(perl.children.map((n) => (n as Unparsed).reason)).toEqual(['verbatim', 'verbatim', 'verbatim', 'verbatim']);
    expect(print(doc)).toBe(src);
  });

  test("a '<' not followed by a name is an ordinary directive line", () => {
    const doc = parse('<= weird\n');
    expect(doc.children[0].kind).toBe('directive');
  });
});

describe('text that cannot be placed', () => {
  test('an unclosed section becomes Unparsed, its children move up, and it is reported', () => {
    const src = '<Directory /a>\n  Options None\n';
    const doc = parse(src);
    expect(doc.children.map((n) => n.kind)).toEqual(['unparsed', 'directive']);
    expect(doc.diagnostics).toEqual([{ line: 1, column: 1, severity: 'error', message: '<Directory> opened on line 1 is never closed' }]);
    expect(print(doc)).toBe(src);
  });

  test('a stray close tag', () => {
    const doc = parse('Listen 80\n  </Directory>\n');
    expect(doc.children[1].kind).toBe('unparsed');
    expect(doc.diagnostics[0]).toMatchObject({ line: 2, column: 3, severity: 'error' });
    expect(doc.diagnostics[0].message).toContain('</Directory> without a matching <Directory>');
  });

  test('a mismatched close tag closes the outer section and reports the inner one', () => {
    const src = '<IfModule a>\n<Directory /x>\nOptions None\n</IfModule>\nListen 1\n';
    const doc = parse(src);
    expect(doc.diagnostics[0]).toMatchObject({ line: 2, severity: 'error' });
    expect(doc.diagnostics[0].message).toContain('closed by </IfModule> on line 4 first');
    const ifm = doc.children[0] as Section;
    expect(ifm.children.map((n) => n.kind)).toEqual(['unparsed', 'directive']);
    expect(doc.children[1].kind).toBe('directive');
    expect(print(doc)).toBe(src);
  });

  test('a close tag naming no open section, inside another section', () => {
    const doc = parse('<Location />\n</Directory>\n</Location>\n');
    expect(doc.diagnostics[0].message).toContain('</Directory> does not close the open <Location> (line 1)');
    expect((doc.children[0] as Section).children[0].kind).toBe('unparsed');
  });

  test("an open tag missing its closing '>'", () => {
    const doc = parse('<Directory /x\nOptions None\n</Directory>\n');
    expect(doc.diagnostics).toEqual([{ line: 1, column: 1, severity: 'error', message: "<Directory> directive missing closing '>'" }]);
  });
});

describe('byte-level details survive', () => {
  const cases: Record<string, string> = {
    crlf: 'Listen 80\r\n<Directory />\r\n  Order deny,allow\r\n</Directory>\r\n',
    mixed: 'A 1\r\nB 2\nC 3\r\n',
    bom: '\xef\xbb\xbfListen 80\n',
    noFinalNewline: 'Listen 80\nListen 81',
    tabsAndTrailingSpaces: '\t<Directory />  \t\n\t\tOrder  deny,allow   \n\t</Directory>\t\n',
    latin1: '# Caf\xe9 r\xe9seau\nServerAdmin m\xe9@example.com\n',
    invalidUtf8: 'ServerName \xc3\x28\xff\xfe\n',
    loneCr: 'A 1\rB 2\n',
    junk: '\x01\x02\x7f<\x80>\n\n\\\n\\',
    onlyNewlines: '\n\n\n',
    empty: '',
  };
  for (const [name, src] of Object.entries(cases)) {
    test(name, () => {
      const doc = parse(src);
      expect(print(doc)).toBe(src);
      doc.modified = true; // force the node-by-node path too
      expect(print(doc)).toBe(src);
    });
  }

  test('the BOM is not part of the first directive', () => {
    const doc = parse('\xef\xbb\xbfListen 80\n');
    expect((doc.children[0] as Directive).name).toBe('Listen');
  });

  test('walk() reaches every node without recursion', () => {
    const depth = 20000;
    const src = '<IfModule x>\n'.repeat(depth) + 'Listen 1\n' + '</IfModule>\n'.repeat(depth);
    const doc = parse(src);
    let n = 0;
    for (const _ of walk(doc)) n++;
    expect(n).toBe(depth + 1);
    doc.modified = true;
    expect(print(doc)).toBe(src);
  });
});
