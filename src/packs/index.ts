import type { PackId } from '../types.js';
import { actionMetadataPack } from './action-metadata.js';
import { corePack } from './core.js';
import { metaHintsPack } from './meta-hints.js';
import { riskMetadataPack } from './risk-metadata.js';
import { sep1913Pack } from './sep-1913.js';
import { trustAnnotationsPack } from './trust-annotations.js';
import type { Pack } from './types.js';
import { webmcpSensitivePack } from './webmcp-sensitive.js';

/** Every pack, in the order they run (and the order of PACK_IDS). */
export const PACKS: readonly Pack[] = [
  corePack,
  sep1913Pack,
  actionMetadataPack,
  trustAnnotationsPack,
  riskMetadataPack,
  webmcpSensitivePack,
  metaHintsPack,
];

export function packById(id: PackId): Pack | undefined {
  return PACKS.find((p) => p.id === id);
}
