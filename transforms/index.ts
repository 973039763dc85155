// Every transform, in the order they run. Access control first (other transforms look at
// what it left), modules last (it loads what the converted configuration needs).
import { accessControl } from './access-control.js';
import { htaccessAllowOverride } from './htaccess-allowoverride.js';
import { mpmRenames } from './mpm-renames.js';
import type { Transform } from './types.js';

export const transforms: readonly Transform[] = [accessControl, htaccessAllowOverride, mpmRenames];

export function transformById(id: string): Transform | undefined {
  return transforms.find((t) => t.id === id);
}
