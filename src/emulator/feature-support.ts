/**
 * CheckFeatureSupport's data: the D3D12_FEATURE_DATA_* structures the emulator answers, filled from
 * the device's settings. Everything the emulator does not have (standard swizzle, cross-adapter
 * row-major textures, cross-node sharing, UMA) is answered as absent, as a discrete GPU would.
 */
import type { ResourceHeapTier, TiledResourcesTier } from '../api/types.js';
import { preludeConstant } from '../gpu/prelude.js';

/** MaxGPUVirtualAddressBitsPerResource and ...PerProcess: the whole emulated space (the prelude's D3D12_VA_BITS). */
export const VIRTUAL_ADDRESS_BITS = preludeConstant('D3D12_VA_BITS');

export interface FeatureDataOptions {
  tiledResourcesTier: TiledResourcesTier;
  resourceHeapTier: ResourceHeapTier;
  maxGPUVirtualAddressBitsPerResource: number;
  standardSwizzle64KBSupported: false;
  crossAdapterRowMajorTextureSupported: false;
  crossNodeSharingTier: 'NOT_SUPPORTED';
}

export interface FeatureDataGpuVirtualAddressSupport {
  maxGPUVirtualAddressBitsPerResource: number;
  maxGPUVirtualAddressBitsPerProcess: number;
}

export interface FeatureDataArchitecture {
  nodeIndex: number;
  tileBasedRenderer: false;
  uma: false;
  cacheCoherentUMA: false;
}

/** D3D12_FEATURE_DATA_ROOT_SIGNATURE: the highest root signature version (both are emulated). */
export interface FeatureDataRootSignature {
  highestVersion: '1_1';
}

export interface FeatureData {
  OPTIONS: FeatureDataOptions;
  GPU_VIRTUAL_ADDRESS_SUPPORT: FeatureDataGpuVirtualAddressSupport;
  ARCHITECTURE: FeatureDataArchitecture;
  ROOT_SIGNATURE: FeatureDataRootSignature;
}

/** Every feature's data for a device of these tiers (a fresh object per call: callers may change it). */
export function featureData(tiers: {
  tiledResourcesTier: TiledResourcesTier;
  resourceHeapTier: ResourceHeapTier;
}): FeatureData {
  return {
    OPTIONS: {
      tiledResourcesTier: tiers.tiledResourcesTier,
      resourceHeapTier: tiers.resourceHeapTier,
      maxGPUVirtualAddressBitsPerResource: VIRTUAL_ADDRESS_BITS,
      standardSwizzle64KBSupported: false,
      crossAdapterRowMajorTextureSupported: false,
      crossNodeSharingTier: 'NOT_SUPPORTED',
    },
    GPU_VIRTUAL_ADDRESS_SUPPORT: {
      maxGPUVirtualAddressBitsPerResource: VIRTUAL_ADDRESS_BITS,
      maxGPUVirtualAddressBitsPerProcess: VIRTUAL_ADDRESS_BITS,
    },
    ARCHITECTURE: { nodeIndex: 0, tileBasedRenderer: false, uma: false, cacheCoherentUMA: false },
    ROOT_SIGNATURE: { highestVersion: '1_1' },
  };
}
