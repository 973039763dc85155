import { advice } from './lib/advice.js';

// 2.2 (cache_storage.c) found an identifier anywhere in the query string or path
// parameters (strstr); 2.4 (cache_storage.c, cache_generate_key) strips a parameter only
// when its name equals an identifier.
export const cacheSessionIdentifiers = advice({
  id: 'cache-session-identifiers',
  title: 'CacheIgnoreURLSessionIdentifiers matches parameter names exactly in 2.4',
  docs: 'https://httpd.apache.org/docs/2.4/mod/mod_cache.html#cacheignoreurlsessionidentifiers',
  names: ['cacheignoreurlsessionidentifiers'],
  match: (n) => (n.kind === 'directive' && n.is('CacheIgnoreURLSessionIdentifiers')
    ? `2.4 strips a URL parameter only when its name is exactly one of ${n.values.join(', ')} (2.2 also cut parameters whose name only ended with one, e.g. sid in usid=): list every full parameter name the application uses`
    : null),
});
