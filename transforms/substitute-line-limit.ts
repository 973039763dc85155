import { advice } from './lib/advice.js';

export const substituteLineLimit = advice({
  id: 'substitute-line-limit',
  title: 'mod_substitute refuses lines over 1 MB in 2.4',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_substitute.html#substitutemaxlinelength',
  once: true,
  names: ['substitute'],
  match: (n) => (n.kind === 'directive' && n.is('Substitute')
    ? '2.4 limits a line mod_substitute works on to 1 MB (2.2 had no limit): a response with a longer line fails; raise SubstituteMaxLineLength (2.4.11+) if the content has such lines'
    : null),
});
