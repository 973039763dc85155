import { advice } from './lib/advice.js';

export const davLockdb = advice({
  id: 'dav-lockdb',
  title: 'mod_dav_fs: the DavLockDB format changed; delete the old lock database',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#misc',
  names: ['davlockdb'],
  match: (n) => (n.kind === 'directive' && n.is('DavLockDB')
    ? `the DavLockDB format changed in 2.4: stop 2.2, delete the old lock database (${n.values[0] ?? 'the file'} and its .dir/.pag files) before 2.4 starts; locks held at the switch are lost`
    : null),
});
