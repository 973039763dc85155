// Every transform, in the order they run. Access control first (other transforms look at
// what it left), modules last (it loads what the converted configuration needs).
import { accessControl } from './access-control.js';
import { accessMixedScopes } from './access-mixed-scopes.js';
import { addOutputFilterByType } from './add-output-filter-by-type.js';
import { authnAlias } from './authn-alias.js';
import { authoritativeDirectives } from './authoritative-directives.js';
import { authWithoutRequire } from './auth-without-require.js';
import { authzDbmGroup } from './authz-dbm-group.js';
import { autoindexXhtml } from './autoindex-xhtml.js';
import { cacheEnable } from './cache-enable.js';
import { cacheSessionIdentifiers } from './cache-session-identifiers.js';
import { changedDefaults } from './changed-defaults.js';
import { davLockdb } from './dav-lockdb.js';
import { debuglevelOptions } from './debuglevel-options.js';
import { defaultType } from './default-type.js';
import { deflateNoGrow } from './deflate-no-grow.js';
import { dumpioLoglevel } from './dumpio-loglevel.js';
import { filterProvider } from './filter-provider.js';
import { htaccessAllowOverride } from './htaccess-allowoverride.js';
import { htpasswdMd5 } from './htpasswd-md5.js';
import { keepaliveValue } from './keepalive-value.js';
import { ldapTrustedClientCert } from './ldap-trusted-client-cert.js';
import { modules } from './modules.js';
import { mpmRenames } from './mpm-renames.js';
import { mutex } from './mutex.js';
import { nameVirtualHost } from './name-virtual-host.js';
import { optionsMixed } from './options-mixed.js';
import { pipedLogs } from './piped-logs.js';
import { proxyScgiPathinfo } from './proxy-scgi-pathinfo.js';
import { removedDirectives } from './removed-directives.js';
import { reqtimeoutDefaults } from './reqtimeout-defaults.js';
import { requireMultiProvider } from './require-multi-provider.js';
import { rewriteLog } from './rewrite-log.js';
import { ssiLegacyExpr } from './ssi-legacy-expr.js';
import { sslCrlCheck } from './ssl-crl-check.js';
import { sslDnFormat } from './ssl-dn-format.js';
import { sslProtocol } from './ssl-protocol.js';
import { sslProxyPeerChecks } from './ssl-proxy-peer-checks.js';
import { sslSessionCache } from './ssl-session-cache.js';
import { substituteLineLimit } from './substitute-line-limit.js';
import type { Transform } from './types.js';

export const transforms: readonly Transform[] = [
  // First: access control, which the other transforms see converted.
  accessControl,
  requireMultiProvider,
  authzDbmGroup,
  authWithoutRequire,
  authoritativeDirectives,
  htaccessAllowOverride,
  accessMixedScopes,
  authnAlias,
  // Server and MPM directives.
  mpmRenames,
  nameVirtualHost,
  defaultType,
  keepaliveValue,
  mutex,
  optionsMixed,
  removedDirectives,
  // Logging: the three that move a level into LogLevel share transforms/lib/loglevel.ts.
  rewriteLog,
  dumpioLoglevel,
  debuglevelOptions,
  pipedLogs,
  // Filters.
  filterProvider,
  addOutputFilterByType,
  // SSL.
  sslProtocol,
  sslSessionCache,
  sslCrlCheck,
  sslProxyPeerChecks,
  sslDnFormat,
  // Modules with changed behaviour.
  cacheSessionIdentifiers,
  cacheEnable,
  ldapTrustedClientCert,
  davLockdb,
  ssiLegacyExpr,
  proxyScgiPathinfo,
  substituteLineLimit,
  reqtimeoutDefaults,
  deflateNoGrow,
  autoindexXhtml,
  htpasswdMd5,
  changedDefaults,
  // Last: loads what the converted configuration needs.
  modules,
];

export function transformById(id: string): Transform | undefined {
  return transforms.find((t) => t.id === id);
}
