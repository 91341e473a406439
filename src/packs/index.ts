import type { PackId } from '../types.js';
import { corePack } from './core.js';
import { sep1913Pack } from './sep-1913.js';
import type { Pack } from './types.js';

/** Every pack, in the order they run. */
export const PACKS: readonly Pack[] = [corePack, sep1913Pack];

export function packById(id: PackId): Pack | undefined {
  return PACKS.find((p) => p.id === id);
}
