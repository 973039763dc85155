// Every transform, in the order they run. Access control first (other transforms look at
// what it left), modules last (it loads what the converted configuration needs).
import { defaultType } from './default-type.js';
import { keepaliveValue } from './keepalive-value.js';
import { mpmRenames } from './mpm-renames.js';
import { mutex } from './mutex.js';
import { nameVirtualHost } from './name-virtual-host.js';
import { optionsMixed } from './options-mixed.js';
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
  // Filters.
];

export function transformById(id: string): Transform | undefined {
  return transforms.find((t) => t.id === id);
}
