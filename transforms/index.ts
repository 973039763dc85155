// Every transform, in the order they run. Access control first (other transforms look at
// what it left), modules last (it loads what the converted configuration needs).
import { addOutputFilterByType } from './add-output-filter-by-type.js';
import { authnAlias } from './authn-alias.js';
import { modules } from './modules.js';
import { mpmRenames } from './mpm-renames.js';
import { sslCrlCheck } from './ssl-crl-check.js';
import { sslDnFormat } from './ssl-dn-format.js';
import { sslProtocol } from './ssl-protocol.js';
import { sslProxyPeerChecks } from './ssl-proxy-peer-checks.js';
import { sslSessionCache } from './ssl-session-cache.js';
import type { Transform } from './types.js';

export const transforms: readonly Transform[] = [
  authnAlias,
  mpmRenames,
  addOutputFilterByType,
  sslProtocol,
  sslSessionCache,
  sslCrlCheck,
  sslProxyPeerChecks,
  sslDnFormat,
  // Last: loads what the converted configuration needs.
  modules,
];

export function transformById(id: string): Transform | undefined {
  return transforms.find((t) => t.id === id);
}
