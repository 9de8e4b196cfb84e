// The conformance scenarios by name (the browser test page runs them by name; runScenarios runs them all).
import { computeTiers } from './compute-tiers.js';
import { mapCoherence } from './map-coherence.js';
import { memorySemantics } from './memory-semantics.js';
import { reinterpretCopies } from './reinterpret-copies.js';
import { reservedBufferData } from './reserved-buffer-data.js';
import { reservedTextureData } from './reserved-texture-data.js';
import { residencyBasics } from './residency-basics.js';
import { textureCache, textureMirrors } from './texture-cache.js';
import { textureCopies } from './texture-copies.js';
import { textureCopyTiers } from './texture-copy-tiers.js';
import { uavClearBuffers } from './uav-clear-buffers.js';
import { uavClearTextures } from './uav-clear-textures.js';

export const SCENARIOS = {
  computeTiers,
  mapCoherence,
  memorySemantics,
  reinterpretCopies,
  reservedBufferData,
  reservedTextureData,
  residencyBasics,
  textureCache,
  textureMirrors,
  textureCopies,
  textureCopyTiers,
  uavClearBuffers,
  uavClearTextures,
} as const;

export type ScenarioName = keyof typeof SCENARIOS;
