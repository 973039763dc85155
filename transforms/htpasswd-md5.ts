import { advice } from './lib/advice.js';

export const htpasswdMd5 = advice({
  id: 'htpasswd-md5',
  title: 'htpasswd writes MD5 ($apr1$) hashes by default in 2.4',
  docs: 'https://httpd.apache.org/docs/2.4/programs/htpasswd.html',
  once: true,
  names: ['authuserfile'],
  match: (n) => (n.kind === 'directive' && n.is('AuthUserFile')
    ? `2.4's htpasswd writes MD5 ($apr1$) hashes by default (2.2's wrote crypt() on Unix): existing entries in ${n.values[0] ?? 'the file'} keep working; scripts that add users for other software reading the file may need -d (crypt) or -B (bcrypt)`
    : null),
});
