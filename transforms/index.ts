// Every transform, in the order they run. Access control first (other transforms look at
// what it left), modules last (it loads what the converted configuration needs).
import { accessControl } from './access-control.js';
import { htaccessAllowOverride } from './htaccess-allowoverride.js';
import { autoindexXhtml } from './autoindex-xhtml.js';
import { cacheEnable } from './cache-enable.js';
import { cacheSessionIdentifiers } from './cache-session-identifiers.js';
import { davLockdb } from './dav-lockdb.js';
import { deflateNoGrow } from './deflate-no-grow.js';
import { htpasswdMd5 } from './htpasswd-md5.js';
import { ldapTrustedClientCert } from './ldap-trusted-client-cert.js';
import { proxyScgiPathinfo } from './proxy-scgi-pathinfo.js';
import { reqtimeoutDefaults } from './reqtimeout-defaults.js';
import { ssiLegacyExpr } from './ssi-legacy-expr.js';
import { substituteLineLimit } from './substitute-line-limit.js';
import { addOutputFilterByType } from './add-output-filter-by-type.js';
import { authnAlias } from './authn-alias.js';
import { changedDefaults } from './changed-defaults.js';
import { modules } from './modules.js';
import { mpmRenames } from './mpm-renames.js';
import { sslCrlCheck } from './ssl-crl-check.js';
import { sslDnFormat } from './ssl-dn-format.js';
import { sslProtocol } from './ssl-protocol.js';
import { sslProxyPeerChecks } from './ssl-proxy-peer-checks.js';
import { sslSessionCache } from './ssl-session-cache.js';
import type { Transform } from './types.js';

export const transforms: readonly Transform[] = [
  // First: access control, which the other transforms see converted.
  accessControl,
  htaccessAllowOverride,
  authnAlias,
  mpmRenames,
  addOutputFilterByType,
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
