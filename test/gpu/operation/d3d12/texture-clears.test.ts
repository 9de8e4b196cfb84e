/**
 * UAV clears of textures, byte for byte against the CPU layout model (the shared scenario
 * test/shared/texture-clears.ts) on Node.js + Dawn: 1-, 2-, 4-, 8- and 16-byte texels, standard
 * tiles and packed tails, partial, clipped and empty rectangles, arrays, 1D, a committed texture,
 * Texture3D views (depth slices, 3D tiles, packed 3D mips, NULL tiles).
 */
import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import { textureClears } from '../../../shared/texture-clears.js';

describe('UAV clears of textures match the CPU layout model (Node.js + Dawn)', () => {
  gpuTest(
    'every texel size, standard tiles and packed tails, rectangles, slices, 1D, committed, Texture3D views',
    async ({ device }) => {
      expectChecks(await textureClears(device));
    },
  );
});
