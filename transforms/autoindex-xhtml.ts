import { advice } from './lib/advice.js';

export const autoindexXhtml = advice({
  id: 'autoindex-xhtml',
  title: 'mod_autoindex reads titles from .xhtml files too',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_autoindex.html#indexoptions',
  names: ['indexoptions'],
  match: (n) => (n.kind === 'directive' && n.is('IndexOptions') && n.values.some((v) => /^[+]?scanhtmltitles$/i.test(v))
    ? 'with ScanHTMLTitles, 2.4 also shows the <title> of .xhtml files in directory listings (2.2 ignored them)'
    : null),
});
