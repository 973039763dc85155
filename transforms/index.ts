// Every transform, in the order they run. Access control first (other transforms look at
// what it left), modules last (it loads what the converted configuration needs).
import { debuglevelOptions } from './debuglevel-options.js';
import { defaultType } from './default-type.js';
import { dumpioLoglevel } from './dumpio-loglevel.js';
import { filterProvider } from './filter-provider.js';
import { keepaliveValue } from './keepalive-value.js';
import { mpmRenames } from './mpm-renames.js';
import { mutex } from './mutex.js';
import { nameVirtualHost } from './name-virtual-host.js';
import { optionsMixed } from './options-mixed.js';
import { pipedLogs } from './piped-logs.js';
import { rewriteLog } from './rewrite-log.js';
import type { Transform } from './types.js';

export const transforms: readonly Transform[] = [
  // Server and MPM directives.
  mpmRenames,
  nameVirtualHost,
  defaultType,
  keepaliveValue,
  mutex,
  optionsMixed,
  // Logging: the three that move a level into LogLevel share transforms/lib/loglevel.ts.
  rewriteLog,
  dumpioLoglevel,
  debuglevelOptions,
  pipedLogs,
  // Filters.
  filterProvider,
];

export function transformById(id: string): Transform | undefined {
  return transforms.find((t) => t.id === id);
}
