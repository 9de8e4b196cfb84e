/**
 * The scenes the index page lists, in the order a newcomer should open them: paging first, then
 * growth, then residency, then the ports of Microsoft's samples (binding as D3D12 code writes it),
 * then the validation page (src/validate/'s suite on this GPU), then the
 * benchmark page (bench/suite/'s figures on this GPU). Each is a
 * folder under demo/ with index.html, main.ts, meta.ts and its WGSL (the two pages that run suites have none)
 * (vite.config.ts finds the folders by their meta.ts; a unit test keeps the two lists equal).
 */
import { meta as bench } from './bench/meta.js';
import type { SceneMeta } from './common/scene-meta.js';
import { meta as d3d12Residency } from './d3d12-residency/meta.js';
import { meta as growableBuffer } from './growable-buffer/meta.js';
import { meta as reservedResources } from './reserved-resources/meta.js';
import { meta as residencyPressure } from './residency-pressure/meta.js';
import { meta as validation } from './validation/meta.js';
import { meta as virtualTexture } from './virtual-texture/meta.js';

export const SCENES: readonly SceneMeta[] = [
  virtualTexture,
  growableBuffer,
  residencyPressure,
  reservedResources,
  d3d12Residency,
  validation,
  bench,
];
