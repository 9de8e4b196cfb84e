/**
 * The descriptor types of the public API (the shared layer: imports nothing from the project): D3D12's structs with camelCase fields, enum values as the
 * D3D12 suffixes ('DEFAULT', 'REUSE_SINGLE_TILE'), flags as arrays of names. Fields whose D3D12
 * value is the obvious default may be left out (see each type).
 */
// ---- Tiling (what GetResourceTiling reports; computed in src/memory/tiling.ts) ---------------

export type ResourceDimension = 'BUFFER' | 'TEXTURE1D' | 'TEXTURE2D' | 'TEXTURE3D';
export type TiledResourcesTier = 1 | 2 | 3 | 4;

/** D3D12_TILE_SHAPE, in texels. */
export interface TileShape {
  widthInTexels: number;
  heightInTexels: number;
  depthInTexels: number;
}

/** D3D12_SUBRESOURCE_TILING. */
export interface SubresourceTiling {
  widthInTiles: number;
  heightInTiles: number;
  depthInTiles: number;
  startTileIndexInOverallResource: number;
}

/** D3D12_PACKED_MIP_INFO. */
export interface PackedMipInfo {
  numStandardMips: number;
  numPackedMips: number;
  numTilesForPackedMips: number;
  startTileIndexInOverallResource: number;
}

/** D3D12_TILE_RANGE_FLAGS, by name. */
export type TileRangeFlag = 'NONE' | 'NULL' | 'SKIP' | 'REUSE_SINGLE_TILE';

export type ResourceHeapTier = 1 | 2;

// ---- Heaps ---------------------------------------------------------------------------------

export const HEAP_TYPES = ['DEFAULT', 'UPLOAD', 'READBACK', 'CUSTOM'] as const;
export type HeapType = (typeof HEAP_TYPES)[number];

export const CPU_PAGE_PROPERTIES = ['UNKNOWN', 'NOT_AVAILABLE', 'WRITE_COMBINE', 'WRITE_BACK'] as const;
export type CpuPageProperty = (typeof CPU_PAGE_PROPERTIES)[number];

export const MEMORY_POOLS = ['UNKNOWN', 'L0', 'L1'] as const;
export type MemoryPool = (typeof MEMORY_POOLS)[number];

/** D3D12_HEAP_PROPERTIES. Page property and pool are UNKNOWN (omit them) except for CUSTOM heaps. */
export interface HeapProperties {
  type: HeapType;
  cpuPageProperty?: CpuPageProperty;
  memoryPoolPreference?: MemoryPool;
  /** A single-adapter device: 0 or 1. */
  creationNodeMask?: number;
  visibleNodeMask?: number;
}

/**
 * D3D12_HEAP_FLAGS, by name. The ALLOW_* names are D3D12's combinations of DENY_* bits:
 *   ALLOW_ALL_BUFFERS_AND_TEXTURES = none (resource heap tier 2 only)
 *   ALLOW_ONLY_BUFFERS             = DENY_RT_DS_TEXTURES | DENY_NON_RT_DS_TEXTURES
 *   ALLOW_ONLY_NON_RT_DS_TEXTURES  = DENY_BUFFERS | DENY_RT_DS_TEXTURES
 *   ALLOW_ONLY_RT_DS_TEXTURES      = DENY_BUFFERS | DENY_NON_RT_DS_TEXTURES
 * Honoured: the DENY/ALLOW categories, CREATE_NOT_RESIDENT (the heap starts evicted),
 * CREATE_NOT_ZEROED (its memory is not cleared), ALLOW_SHADER_ATOMICS (atomics always work).
 * Refused with E_INVALIDARG, since the emulator cannot honour them: SHARED, SHARED_CROSS_ADAPTER,
 * ALLOW_DISPLAY, HARDWARE_PROTECTED, ALLOW_WRITE_WATCH, TOOLS_USE_MANUAL_WRITE_TRACKING.
 */
export const HEAP_FLAG_BITS = {
  NONE: 0x0,
  SHARED: 0x1,
  DENY_BUFFERS: 0x4,
  ALLOW_DISPLAY: 0x8,
  SHARED_CROSS_ADAPTER: 0x20,
  DENY_RT_DS_TEXTURES: 0x40,
  DENY_NON_RT_DS_TEXTURES: 0x80,
  HARDWARE_PROTECTED: 0x100,
  ALLOW_WRITE_WATCH: 0x200,
  ALLOW_SHADER_ATOMICS: 0x400,
  CREATE_NOT_RESIDENT: 0x800,
  CREATE_NOT_ZEROED: 0x1000,
  TOOLS_USE_MANUAL_WRITE_TRACKING: 0x2000,
  ALLOW_ALL_BUFFERS_AND_TEXTURES: 0x0,
  ALLOW_ONLY_BUFFERS: 0xc0,
  ALLOW_ONLY_NON_RT_DS_TEXTURES: 0x44,
  ALLOW_ONLY_RT_DS_TEXTURES: 0x84,
} as const;
export type HeapFlag = keyof typeof HEAP_FLAG_BITS;
export const HEAP_FLAGS = Object.keys(HEAP_FLAG_BITS) as HeapFlag[];

/** D3D12_HEAP_DESC. Alignment 0 means 64 KiB; 4 MiB is D3D12's MSAA heap alignment. */
export interface HeapDesc {
  sizeInBytes: number;
  properties: HeapProperties;
  alignment?: number;
  flags?: HeapFlag[];
}

/** Which of the two emulated memory segments backs a heap (DXGI_MEMORY_SEGMENT_GROUP). */
export type MemorySegment = 'LOCAL' | 'NON_LOCAL';

// ---- Resources -----------------------------------------------------------------------------

export const RESOURCE_DIMENSIONS = ['BUFFER', 'TEXTURE1D', 'TEXTURE2D', 'TEXTURE3D'] as const;

export const TEXTURE_LAYOUTS = ['UNKNOWN', 'ROW_MAJOR', '64KB_UNDEFINED_SWIZZLE', '64KB_STANDARD_SWIZZLE'] as const;
export type TextureLayout = (typeof TEXTURE_LAYOUTS)[number];

/**
 * D3D12_RESOURCE_FLAGS, by name. Refused (not emulated): ALLOW_CROSS_ADAPTER,
 * VIDEO_DECODE_REFERENCE_ONLY, VIDEO_ENCODE_REFERENCE_ONLY, RAYTRACING_ACCELERATION_STRUCTURE.
 */
export const RESOURCE_FLAGS = [
  'NONE',
  'ALLOW_RENDER_TARGET',
  'ALLOW_DEPTH_STENCIL',
  'ALLOW_UNORDERED_ACCESS',
  'DENY_SHADER_RESOURCE',
  'ALLOW_CROSS_ADAPTER',
  'ALLOW_SIMULTANEOUS_ACCESS',
  'VIDEO_DECODE_REFERENCE_ONLY',
  'VIDEO_ENCODE_REFERENCE_ONLY',
  'RAYTRACING_ACCELERATION_STRUCTURE',
] as const;
export type ResourceFlag = (typeof RESOURCE_FLAGS)[number];

export interface SampleDesc {
  count: number;
  quality: number;
}

/**
 * D3D12_RESOURCE_DESC. Defaults: alignment 0, height / depthOrArraySize / mipLevels 1 (mipLevels 0
 * means the full chain), format 'UNKNOWN' for buffers, sampleDesc {1, 0}, layout 'ROW_MAJOR' for
 * buffers and 'UNKNOWN' for textures, flags none.
 */
export interface ResourceDesc {
  dimension: ResourceDimension;
  alignment?: number;
  width: number;
  height?: number;
  depthOrArraySize?: number;
  mipLevels?: number;
  /** The DXGI_FORMAT_ suffix, e.g. 'R8G8B8A8_UNORM'. */
  format?: string;
  sampleDesc?: SampleDesc;
  layout?: TextureLayout;
  flags?: ResourceFlag[];
}

/** A ResourceDesc with every default filled in (what getDesc returns). */
export interface FullResourceDesc {
  dimension: ResourceDimension;
  alignment: number;
  width: number;
  height: number;
  depthOrArraySize: number;
  mipLevels: number;
  format: string;
  sampleDesc: SampleDesc;
  layout: TextureLayout;
  flags: ResourceFlag[];
}

/** D3D12_RESOURCE_STATES: a name, or several read states ORed together as an array. */
export const RESOURCE_STATE_BITS = {
  COMMON: 0x0,
  PRESENT: 0x0,
  VERTEX_AND_CONSTANT_BUFFER: 0x1,
  INDEX_BUFFER: 0x2,
  RENDER_TARGET: 0x4,
  UNORDERED_ACCESS: 0x8,
  DEPTH_WRITE: 0x10,
  DEPTH_READ: 0x20,
  NON_PIXEL_SHADER_RESOURCE: 0x40,
  PIXEL_SHADER_RESOURCE: 0x80,
  ALL_SHADER_RESOURCE: 0xc0,
  STREAM_OUT: 0x100,
  INDIRECT_ARGUMENT: 0x200,
  PREDICATION: 0x200,
  COPY_DEST: 0x400,
  COPY_SOURCE: 0x800,
  RESOLVE_DEST: 0x1000,
  RESOLVE_SOURCE: 0x2000,
  GENERIC_READ: 0xac3,
} as const;
export type ResourceState = keyof typeof RESOURCE_STATE_BITS;
export const RESOURCE_STATES = Object.keys(RESOURCE_STATE_BITS) as ResourceState[];
export type ResourceStates = ResourceState | ResourceState[];

/** D3D12_CLEAR_VALUE: a color for render targets, depth and stencil for depth-stencil targets. */
export interface ClearValue {
  format: string;
  color?: [number, number, number, number];
  depthStencil?: { depth: number; stencil: number };
}

/** D3D12_RESOURCE_ALLOCATION_INFO. */
export interface ResourceAllocationInfo {
  sizeInBytes: number;
  alignment: number;
}

// ---- Tiles ---------------------------------------------------------------------------------

/** D3D12_TILED_RESOURCE_COORDINATE: a tile in a subresource (x only, as a tile index, in a mip tail). */
export interface TiledResourceCoordinate {
  x: number;
  y: number;
  z: number;
  subresource: number;
}

/** D3D12_TILE_REGION_SIZE. Without useBox, numTiles run x, y, z and spill into later subresources. */
export interface TileRegionSize {
  numTiles: number;
  useBox?: boolean;
  width?: number;
  height?: number;
  depth?: number;
}

export const TILE_RANGE_FLAGS: readonly TileRangeFlag[] = ['NONE', 'NULL', 'SKIP', 'REUSE_SINGLE_TILE'];

export const TILE_MAPPING_FLAGS = ['NONE', 'NO_HAZARD'] as const;
export type TileMappingFlag = (typeof TILE_MAPPING_FLAGS)[number];

/** What getResourceTiling returns (D3D12's out-parameters, as one object). */
export interface ResourceTiling {
  numTilesForEntireResource: number;
  packedMipDesc: PackedMipInfo;
  standardTileShapeForNonPackedMips: TileShape;
  subresourceTilings: SubresourceTiling[];
}

// ---- Device --------------------------------------------------------------------------------

export interface DeviceOptions {
  /**
   * The WebGPU device whose memory backs the emulator. Left out: one from navigator.gpu where the
   * browser has it. null: no GPU memory (a CPU-only device: object model, tiling, tile mappings).
   */
  gpuDevice?: GPUDevice | null;
  /**
   * Bytes of the LOCAL pool (video memory); default 256 MiB. Both pools are ranges of one storage
   * buffer, so LOCAL + NON_LOCAL is at most the adapter's largest storage binding (and buffer); a
   * default shrinks to fit beside an asked size.
   */
  localMemoryBytes?: number;
  /** Bytes of the NON_LOCAL pool (system memory: UPLOAD, READBACK, CUSTOM L0 heaps); default 64 MiB (with LOCAL's, within one buffer's limits). */
  nonLocalMemoryBytes?: number;
  /** 1 to 4; default 3. */
  tiledResourcesTier?: TiledResourcesTier;
  /** 1 or 2; default 2. */
  resourceHeapTier?: ResourceHeapTier;
  /**
   * GPU-side validation in shaders. true (the default): fault logging ({ faults: true }); false:
   * none. As an object (see GpuValidationOptions): faults, and the unmapped-access report
   * (Device.readUnmappedAccesses).
   */
  gpuValidation?: boolean | GpuValidationOptions;
  /** The residency budget of the LOCAL segment (DXGI's budget); default (and at most) the pool. */
  localMemoryBudget?: number;
  /** The residency budget of the NON_LOCAL segment; default (and at most) the pool. */
  nonLocalMemoryBudget?: number;
  /**
   * Bytes of GPU memory for the texture cache, a multiple of 64 KiB; default 64 MiB (1,024 tiles),
   * and 0 on an adapter that runs shaders on the CPU (SwiftShader: it runs both the cache's path and
   * memory's for every read); 0 turns it off. Shaders' reads of R8G8B8A8_UNORM and B8G8R8A8_UNORM textures are served from
   * copies of their tiles in a real texture, filtered by the texture units (docs/texture-cache.md);
   * heap memory stays the truth, and every write drops the copies it makes stale. The cache is
   * allocated when the first pipeline that reads textures is created, outside both pools and their
   * budgets (as a driver's own allocations are). At most what maxTextureArrayLayers layers of 16 MiB hold.
   */
  textureCacheBytes?: number;
  /**
   * Bytes of texture mirrors, a multiple of 64 KiB; default 256 MiB, 0 on a CPU adapter (as
   * textureCacheBytes); 0 turns them off. An R8G8B8A8_UNORM or B8G8R8A8_UNORM texture whose
   * descriptor is written (writeTextureDescriptor) gets a real texture of its standard mips, filled
   * tile by tile from memory; compute reads through a root descriptor holding that descriptor are
   * then one hardware read where their tiles are current (docs/texture-cache.md). Every write, remap
   * and eviction drops the tiles it makes stale. Outside both pools and their budgets.
   */
  textureMirrorBytes?: number;
  /**
   * What a GPU page fault (an access to memory no resource owns, or to a heap that is not resident)
   * does: 'remove-device' (default) puts the device in the removed state, as D3D12 does, with the
   * fault report; 'report' only reports it (readFaults).
   */
  onPageFault?: 'remove-device' | 'report';
  /**
   * What an Evict that takes a heap's residency count to 0 does with its memory. 'immediate' (the
   * default, for validation: every eviction really pages): copies the bytes out to CPU memory and
   * frees the pages. 'lazy', as Windows' video memory manager does (the D3D12 Residency Starter
   * Library's README: the heap "is only marked for eviction", and a MakeResident of a heap nothing
   * took is "a no-op"): the heap is evicted for the GPU (any access faults) and for the budget, but
   * its pages keep its bytes until an allocation short of free pages takes them (oldest eviction
   * first, as few heaps as needed); a MakeResident before then copies nothing.
   */
  eviction?: EvictionMode;
}

/** createDevice's `eviction` option. */
export type EvictionMode = 'immediate' | 'lazy';

export const COMMAND_LIST_TYPES = ['DIRECT', 'COMPUTE', 'COPY'] as const;
export type CommandListType = (typeof COMMAND_LIST_TYPES)[number];

export interface CommandQueueDesc {
  type: CommandListType;
  priority?: 'NORMAL' | 'HIGH' | 'GLOBAL_REALTIME';
  flags?: ('NONE' | 'DISABLE_GPU_TIMEOUT')[];
  nodeMask?: number;
}

/** D3D12_VIEWPORT. Depth is kept for the shape of the call; there are no depth targets. */
export interface Viewport {
  topLeftX: number;
  topLeftY: number;
  width: number;
  height: number;
  minDepth?: number;
  maxDepth?: number;
}

/** D3D12_RECT (left, top, right, bottom), in pixels. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

// ---- Texture copies (GetCopyableFootprints, CopyTextureRegion, DiscardResource) -------------------

/** D3D12_SUBRESOURCE_FOOTPRINT: a subresource's elements in a buffer, rows `rowPitch` bytes apart (a multiple of 256). */
export interface SubresourceFootprint {
  format: string;
  width: number;
  height: number;
  depth: number;
  rowPitch: number;
}

/** D3D12_PLACED_SUBRESOURCE_FOOTPRINT: a footprint at a byte offset of a buffer (a multiple of 512 for a copy). */
export interface PlacedSubresourceFootprint {
  offset: number;
  footprint: SubresourceFootprint;
}

/** What getCopyableFootprints returns (GetCopyableFootprints' out-parameters, as one object). */
export interface CopyableFootprints {
  layouts: PlacedSubresourceFootprint[];
  numRows: number[];
  rowSizeInBytes: number[];
  /** The bytes from layouts[0].offset to the end of the last subresource (baseOffset not included, as in D3D12). */
  totalBytes: number;
}

/** D3D12_BOX: texels [left, right) × [top, bottom) × [front, back) (bytes, for a buffer). */
export interface Box {
  left: number;
  top: number;
  front: number;
  right: number;
  bottom: number;
  back: number;
}

/** D3D12_DISCARD_REGION: rectangles (none: whole subresources) of subresources [firstSubresource, + numSubresources). */
export interface DiscardRegion {
  rects?: Rect[] | null;
  firstSubresource: number;
  numSubresources: number;
}

/**
 * The part of a D3D12_UNORDERED_ACCESS_VIEW_DESC that ClearUnorderedAccessViewUint / Float need to
 * know what they clear (no descriptor heaps here: the view is given with the call). Buffers: a raw
 * view (flags 'RAW', format R32_TYPELESS; the default), a typed view (a format) or a structured one
 * (structureByteStride), over elements [firstElement, firstElement + numElements) (default: all).
 * Textures (1D, 2D and their arrays): mip `mipSlice` of slices [firstArraySlice, firstArraySlice +
 * arraySize) (default: mip 0 of every slice), read as `format` (default: the resource's; required
 * for a TYPELESS resource, and of its family). 3D textures (D3D12_TEX3D_UAV): depth slices
 * [firstWSlice, firstWSlice + wSize) of mip `mipSlice`, wSize -1 meaning every slice from
 * firstWSlice on (default: every depth slice of mip 0).
 */
export interface UavClearView {
  format?: string;
  mipSlice?: number;
  firstArraySlice?: number;
  arraySize?: number;
  firstWSlice?: number;
  wSize?: number;
  firstElement?: number;
  numElements?: number;
  structureByteStride?: number;
  flags?: 'NONE' | 'RAW';
}

// ---- GPU-side validation of tile mappings (an emulator addition) ----------------------------------

/**
 * Where one page of a resource points, as the CPU expects it or as the GPU's page table has it:
 * a heap's memory (the heap and the page inside it), a heap without memory now (evicted, or
 * released; the GPU's entry names only the heap), a NULL tile, no resource at all, or (found only)
 * a resident entry at a physical page that no heap holds.
 */
export type TileTarget =
  | { kind: 'heap'; heapId: number; heapTile: number }
  | { kind: 'evicted'; heapId: number; heapTile?: number; released?: boolean }
  | { kind: 'null' }
  | { kind: 'unowned' }
  | { kind: 'unknown'; entry: number };

/** One page whose GPU page-table entry is not what the CPU authority says. */
export interface TileMappingMismatch {
  resourceId: number;
  /** The resource's label (its name if set, else `kind resource #id`). */
  resource: string;
  /** The page's index in the resource's address range (for a reserved resource: its tile index). */
  page: number;
  /** The tile as D3D12 addresses it (packed tiles: the first packed mip, x counting through the tail). */
  tile: TiledResourceCoordinate;
  expected: TileTarget;
  found: TileTarget;
}

/** What Device.validateTileMappings found: plain data, safe to JSON.stringify. */
export interface TileMappingValidation {
  /** Resources checked, and pages (page-table entries) compared. */
  resources: number;
  pages: number;
  /** Mismatches found, all counted; up to MAX_DESCRIBED_MISMATCHES (1024) described, sorted by resource and page (which ones, when more differ, follows the GPU's order). */
  mismatchCount: number;
  mismatches: TileMappingMismatch[];
}

// ---- Unmapped-access report (gpuValidation.unmappedAccess; an emulator addition) -------------------

/** createDevice's `gpuValidation` as an object; every field may be left out. */
export interface GpuValidationOptions {
  /** Fault logging (accesses to memory no resource owns, or to heaps that are not resident); default true. */
  faults?: boolean;
  /**
   * Record every GPU access, read or write, to a NULL tile of a reserved resource (which Tier 2
   * hides: reads give 0, writes are dropped), for Device.readUnmappedAccesses; default false.
   */
  unmappedAccess?: boolean;
  /** Records kept between two readUnmappedAccesses calls (the rest are counted): 1 to 65536, default 256. */
  maxUnmappedAccessRecords?: number;
}

/** A tile of a reserved resource touched while it was NULL. */
export interface UnmappedTile {
  /** The tile's index in the resource (GetResourceTiling's order). */
  tile: number;
  subresource: number;
  x: number;
  y: number;
  z: number;
}

/** Per reserved resource: every tile touched while NULL, once each, in tile order. */
export interface UnmappedAccessResource {
  resourceId: number;
  /** The resource's label (its name if set). */
  resource: string;
  tiles: UnmappedTile[];
  /** The same tiles as a bitmap of u32 words: bit t % 32 of word t / 32 is tile t. */
  tileBitmap: number[];
}

/** One recorded access to a NULL tile. */
export interface UnmappedAccess {
  resourceId: number;
  resource: string;
  subresource: number;
  tile: TiledResourceCoordinate;
  tileIndex: number;
  commandList: { id: number; label: string };
  /** The command's index in its list (every recorded call counts) and the call that recorded it. */
  command: { index: number; name: string };
  access: 'read' | 'write';
}

/** What Device.readUnmappedAccesses returns: plain data, safe to JSON.stringify. */
export interface UnmappedAccessReport {
  /** Resources with tiles touched while NULL, by resource id. */
  resources: UnmappedAccessResource[];
  /** The first maxUnmappedAccessRecords accesses, in the order the GPU recorded them. */
  accesses: UnmappedAccess[];
  /** Accesses recorded, including those past maxUnmappedAccessRecords. */
  accessCount: number;
  /** accessCount - accesses.length: accesses counted but not described. */
  lost: number;
}
