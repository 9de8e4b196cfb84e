// Runs a texture-data scenario of test/shared in the page (texel stores, texture clears against the
// CPU layout model) and returns its checks.
import type { TiledResourcesTier } from '../../../src/index.js';
import type { Check } from '../../../src/validate/index.js';
import { texelStores } from '../../shared/texel-stores.js';
import { textureClears } from '../../shared/texture-clears.js';

export default async function textureDataPage(
  device: GPUDevice,
  args: { scenario: 'texelStores' | 'textureClears'; tier?: TiledResourcesTier },
): Promise<Check[]> {
  return args.scenario === 'texelStores' ? texelStores(device, args.tier ?? 2) : textureClears(device);
}
