import { advice } from './lib/advice.js';

export const deflateNoGrow = advice({
  id: 'deflate-no-grow',
  title: 'mod_deflate skips compression when it would not make the response smaller',
  docs: 'https://httpd.apache.org/docs/2.4/upgrading.html#misc',
  once: true,
  names: ['addoutputfilterbytype', 'addoutputfilter', 'setoutputfilter'],
  match: (n) => (n.kind === 'directive' && /^(addoutputfilterbytype|addoutputfilter|setoutputfilter)$/i.test(n.name) && n.values.some((v) => v.split(';').some((f) => f.toUpperCase() === 'DEFLATE'))
    ? '2.4\'s mod_deflate sends a response uncompressed (no Content-Encoding: gzip) when compression would make it bigger; clients and tests that expect every response compressed must allow for it'
    : null),
});
