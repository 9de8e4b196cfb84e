/**
 * UAV clears of textures against the CPU model of the emulator's layout (texelByteOffset,
 * src/memory/texel-layout.ts), byte for byte, run by the gpu and browser projects alike: every way the
 * clear kernel places texels (one per invocation for texels of 4, 8 and 16 bytes; a word's worth
 * for 1- and 2-byte texels in standard tiles, and in packed mips whose rows share words), partial,
 * overlapping, clipped and empty rectangles, array slices with packed mips (Tier 4), 1D arrays, a
 * committed texture, and Texture3D views (D3D12_TEX3D_UAV: a mip's depth slices [firstWSlice, +
 * wSize), -1 for all; rectangles per depth slice) across 3D tile boundaries, into packed 3D mips
 * whose rows and depth slices share words, and over NULL tiles (writes dropped). The expected element
 * bytes are written out here (from D3D12's conversion rules and vkd3d-proton's tests of native
 * drivers), not computed by the code under test.
 */
import { createDevice, type Device, type Rect, type Resource, type ResourceDesc } from '../../src/index.js';
import {
  check,
  pattern,
  readBuffer,
  readTiles,
  runList,
  TILE,
  uploadBuffer,
  writeTiles,
  type Check,
} from '../../src/validate/index.js';
import { formatInfo } from '../../src/memory/formats.js';
import { mipSize } from '../../src/memory/tiling.js';
import { texelByteOffset } from '../../src/memory/texel-layout.js';

interface Clear {
  mip: number;
  /** Array slices; for a 3D texture, depth slices of the mip (firstWSlice, wSize: -1 for all). */
  firstSlice: number;
  slices: number;
  /** null: the whole mip. */
  rects: Rect[] | null;
}

interface Case {
  name: string;
  desc: ResourceDesc;
  kind: 'Uint' | 'Float';
  values: [number, number, number, number];
  /** One element's bytes, as D3D12 writes them. */
  element: number[];
  clears: Clear[];
  /** Reserved cases: tiles left NULL (their writes dropped, read back as 0 at Tier 4). */
  nullTiles?: { x: number; y: number; z: number; subresource: number }[];
}

const texture2D = (format: string, width: number, height: number, slices: number, mipLevels: number): ResourceDesc => ({
  dimension: 'TEXTURE2D',
  width,
  height,
  depthOrArraySize: slices,
  mipLevels,
  format,
  layout: '64KB_UNDEFINED_SWIZZLE',
  flags: ['ALLOW_UNORDERED_ACCESS'],
});
const texture3D = (format: string, width: number, height: number, depth: number, mipLevels: number): ResourceDesc => ({
  dimension: 'TEXTURE3D',
  width,
  height,
  depthOrArraySize: depth,
  mipLevels,
  format,
  layout: '64KB_UNDEFINED_SWIZZLE',
  flags: ['ALLOW_UNORDERED_ACCESS'],
});

/** 300² × 2 slices, 9 mips: mip 0 in standard tiles (its last tiles partly used), mip 1 (150²) packed for 1-byte texels and standard for 16-byte ones, rows of odd pitch in the tail. */
const CLEARS_300: Clear[] = [
  {
    mip: 0,
    firstSlice: 0,
    slices: 2,
    rects: [
      { left: 3, top: 5, right: 290, bottom: 299 },
      { left: 250, top: 0, right: 400, bottom: 20 },
      { left: 10, top: 10, right: 5, bottom: 20 },
    ],
  },
  {
    mip: 1,
    firstSlice: 1,
    slices: 1,
    rects: [
      { left: 1, top: 1, right: 149, bottom: 148 },
      { left: -5, top: 140, right: 3, bottom: 1000 },
    ],
  },
  { mip: 3, firstSlice: 0, slices: 1, rects: null },
  { mip: 8, firstSlice: 0, slices: 2, rects: null },
];

export const TEXTURE_CLEAR_CASES: Case[] = [
  {
    name: 'R8_UINT (Uint: the low 8 bits)',
    desc: texture2D('R8_UINT', 300, 300, 2, 9),
    kind: 'Uint',
    values: [0x1ab, 7, 7, 7],
    element: [0xab],
    clears: CLEARS_300,
  },
  {
    name: 'R8G8_UNORM (Float: 0.5 is 0x80, 1 is 0xff)',
    desc: texture2D('R8G8_UNORM', 300, 300, 2, 9),
    kind: 'Float',
    values: [0.5, 1, 0, 0],
    element: [0x80, 0xff],
    clears: CLEARS_300,
  },
  // 0.50000762951 (0x3f000080) is 0x8000 as UNORM16 (vkd3d-proton's test).
  {
    name: 'R16_UNORM (Float)',
    desc: texture2D('R16_UNORM', 300, 300, 2, 9),
    kind: 'Float',
    values: [0.50000762951, 0, 0, 0],
    element: [0x00, 0x80],
    clears: CLEARS_300,
  },
  {
    name: 'R8G8B8A8_SNORM (Float: -1, 1, 0.5, -0.5)',
    desc: texture2D('R8G8B8A8_SNORM', 300, 300, 2, 9),
    kind: 'Float',
    values: [-1, 1, 0.5, -0.5],
    element: [0x81, 0x7f, 0x40, 0xc0],
    clears: CLEARS_300,
  },
  {
    name: 'R16G16B16A16_FLOAT (Float: 0.5, 1, -2, 65504)',
    desc: texture2D('R16G16B16A16_FLOAT', 300, 300, 2, 9),
    kind: 'Float',
    values: [0.5, 1, -2, 65504],
    element: [0x00, 0x38, 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b],
    clears: CLEARS_300,
  },
  {
    name: 'R32G32B32A32_UINT (Uint)',
    desc: texture2D('R32G32B32A32_UINT', 300, 300, 2, 9),
    kind: 'Uint',
    values: [1, 2, 0xffffffff, -2],
    element: [1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff],
    clears: CLEARS_300,
  },
  {
    // 64×32×32 tiles: mip 0 is 2×3×2 tiles (tile 7, x 64-99 y 0-31 z 32-39, NULL); mips 1-3 packed
    // (Tier 2+: 50 < 64), rows of 50 bytes and depth slices of 1750: words span rows and slices.
    name: 'TEXTURE3D R8_UINT (Uint; W slices, rectangles across 3D tiles, a NULL tile, packed 3D mips)',
    desc: texture3D('R8_UINT', 100, 70, 40, 4),
    kind: 'Uint',
    values: [0x3c5, 0, 0, 0],
    element: [0xc5],
    clears: [
      {
        mip: 0,
        firstSlice: 5,
        slices: 30,
        rects: [
          { left: 3, top: 5, right: 90, bottom: 69 },
          { left: 60, top: -4, right: 200, bottom: 10 },
        ],
      },
      { mip: 1, firstSlice: 3, slices: -1, rects: [{ left: 1, top: 1, right: 49, bottom: 34 }] },
      { mip: 2, firstSlice: 0, slices: -1, rects: null },
      { mip: 3, firstSlice: 2, slices: 1, rects: null },
    ],
    nullTiles: [{ x: 1, y: 0, z: 1, subresource: 0 }],
  },
  {
    // 32×32×32 tiles: mip 0 is 3×2×2 tiles, a word's worth of texels per invocation; mip 1 (33×21×18)
    // packed, depth slices of 1386 bytes (not whole words).
    name: 'TEXTURE3D R16_UNORM (Float; W slices, packed 3D mip)',
    desc: texture3D('R16_UNORM', 66, 42, 36, 2),
    kind: 'Float',
    values: [0.50000762951, 0, 0, 0],
    element: [0x00, 0x80],
    clears: [
      { mip: 0, firstSlice: 31, slices: 2, rects: [{ left: 1, top: 30, right: 65, bottom: 34 }] },
      { mip: 0, firstSlice: 0, slices: 1, rects: null },
      { mip: 1, firstSlice: 1, slices: 16, rects: [{ left: 0, top: 3, right: 31, bottom: 21 }] },
    ],
  },
  {
    // 32×16×16 tiles: mip 0 is 2×3×2 tiles; mip 1 (20×20×10) packed.
    name: 'TEXTURE3D R16G16B16A16_FLOAT (Float; W slices, packed 3D mip)',
    desc: texture3D('R16G16B16A16_FLOAT', 40, 40, 20, 2),
    kind: 'Float',
    values: [0.5, 1, -2, 65504],
    element: [0x00, 0x38, 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b],
    clears: [
      {
        mip: 0,
        firstSlice: 1,
        slices: 18,
        rects: [
          { left: 30, top: 10, right: 34, bottom: 40 },
          { left: 0, top: 0, right: 5, bottom: 5 },
        ],
      },
      { mip: 1, firstSlice: 0, slices: -1, rects: [{ left: 2, top: 2, right: 19, bottom: 20 }] },
    ],
    nullTiles: [{ x: 0, y: 2, z: 1, subresource: 0 }],
  },
];

/** 1D textures cannot be reserved: these are placed in a heap and read back through a buffer placed over the same memory. */
export const PLACED_CLEAR_CASES: Case[] = [
  {
    name: 'TEXTURE1D R32_UINT array (mip 0 one tile of 16384 texels, mips 1 and 2 packed)',
    desc: {
      dimension: 'TEXTURE1D',
      width: 16384,
      depthOrArraySize: 2,
      mipLevels: 3,
      format: 'R32_UINT',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    },
    kind: 'Uint',
    values: [0xdeadbeef, 0, 0, 0],
    element: [0xef, 0xbe, 0xad, 0xde],
    clears: [
      { mip: 0, firstSlice: 1, slices: 1, rects: [{ left: 100, top: 0, right: 16000, bottom: 1 }] },
      { mip: 1, firstSlice: 0, slices: 2, rects: [{ left: 3, top: -2, right: 8191, bottom: 5 }] },
      { mip: 2, firstSlice: 0, slices: 1, rects: null },
    ],
  },
  {
    name: 'TEXTURE1D R8_UINT array (packed, odd width)',
    desc: {
      dimension: 'TEXTURE1D',
      width: 999,
      depthOrArraySize: 2,
      mipLevels: 4,
      format: 'R8_UINT',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    },
    kind: 'Uint',
    values: [0x5a, 0, 0, 0],
    element: [0x5a],
    clears: [
      { mip: 0, firstSlice: 0, slices: 2, rects: [{ left: 1, top: 0, right: 998, bottom: 1 }] },
      {
        mip: 2,
        firstSlice: 1,
        slices: 1,
        rects: [
          { left: 5, top: 0, right: 6, bottom: 1 },
          { left: 200, top: 0, right: 249, bottom: 1 },
        ],
      },
    ],
  },
  {
    // 32×32×16 tiles: mip 0 is 2×2×2 tiles; mip 1 (20×20×10) packed.
    name: 'TEXTURE3D R32_FLOAT (placed; Float; W slices)',
    desc: {
      dimension: 'TEXTURE3D',
      width: 40,
      height: 40,
      depthOrArraySize: 20,
      mipLevels: 2,
      format: 'R32_FLOAT',
      flags: ['ALLOW_UNORDERED_ACCESS'],
    },
    kind: 'Float',
    values: [-0.25, 9, 9, 9],
    element: [0x00, 0x00, 0x80, 0xbe],
    clears: [
      { mip: 0, firstSlice: 15, slices: -1, rects: [{ left: 31, top: 0, right: 33, bottom: 40 }] },
      { mip: 1, firstSlice: 4, slices: 3, rects: null },
    ],
  },
];

interface Texel {
  mip: number;
  slice: number;
  x: number;
  y: number;
  /** A 3D texture's depth slice (slice is then 0). */
  z: number;
}

/** Every texel a clear writes: the union of its rectangles clipped to the mip, in each of its slices (a 3D mip's depth slices). */
function clearedTexels(desc: ResourceDesc, clear: Clear): Texel[] {
  const width = mipSize(desc.width, clear.mip);
  const height = desc.dimension === 'TEXTURE1D' ? 1 : mipSize(desc.height ?? 1, clear.mip);
  const volume = desc.dimension === 'TEXTURE3D';
  const end =
    volume && clear.slices === -1 ? mipSize(desc.depthOrArraySize ?? 1, clear.mip) : clear.firstSlice + clear.slices;
  const inside = (x: number, y: number): boolean =>
    clear.rects === null || clear.rects.some((r) => x >= r.left && x < r.right && y >= r.top && y < r.bottom);
  const texels: Texel[] = [];
  for (let slice = clear.firstSlice; slice < end; slice++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++)
        if (inside(x, y))
          texels.push(volume ? { mip: clear.mip, slice: 0, x, y, z: slice } : { mip: clear.mip, slice, x, y, z: 0 });
    }
  }
  return texels;
}

function record(list: ReturnType<Device['createCommandList']>, resource: Resource, c: Case, clear: Clear): void {
  const view =
    c.desc.dimension === 'TEXTURE3D'
      ? { mipSlice: clear.mip, firstWSlice: clear.firstSlice, wSize: clear.slices }
      : { mipSlice: clear.mip, firstArraySlice: clear.firstSlice, arraySize: clear.slices };
  if (c.kind === 'Uint') list.clearUnorderedAccessViewUint(resource, c.values, clear.rects, view);
  else list.clearUnorderedAccessViewFloat(resource, c.values, clear.rects, view);
}

/** Clears a reserved texture of the case, fully mapped over a pattern, and compares every byte with the model. */
async function reservedCase(device: Device, c: Case, seed: number): Promise<Check> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const texture = device.createReservedResource(c.desc, 'COMMON');
  const tiles = device.getResourceTiling(texture).numTilesForEntireResource;
  const heap = device.createHeap({ sizeInBytes: tiles * TILE, properties: { type: 'DEFAULT' } });
  queue.updateTileMappings(texture, null, null, heap, null, null, null);
  const nullTiles = c.nullTiles ?? [];
  if (nullTiles.length > 0)
    queue.updateTileMappings(
      texture,
      nullTiles,
      null,
      null,
      nullTiles.map(() => 'NULL' as const),
      null,
      null,
    );
  const model = pattern(tiles * TILE, seed);
  await writeTiles(device, queue, texture, model);
  await runList(device, queue, (list) => {
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: texture, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } },
    ]);
    for (const clear of c.clears) record(list, texture, c, clear);
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: texture, stateBefore: 'UNORDERED_ACCESS', stateAfter: 'COMMON' } },
    ]);
  });
  const bytes = formatInfo(c.desc.format ?? '')?.bytesPerElement ?? 1;
  for (const clear of c.clears) {
    for (const t of clearedTexels(c.desc, clear))
      model.set(c.element, texelByteOffset(texture.layout, bytes, t.mip, t.slice, t.x, t.y, t.z));
  }
  // A NULL tile kept neither the pattern nor the clears' writes, and reads as 0 (Tier 4), by its index in GetResourceTiling's order.
  const tiling = device.getResourceTiling(texture, 0, c.desc.mipLevels ?? 1);
  for (const t of nullTiles) {
    const sub = tiling.subresourceTilings[t.subresource];
    if (!sub) throw new Error(`${c.name}: no subresource ${t.subresource}`);
    const tile = sub.startTileIndexInOverallResource + t.x + (t.y + t.z * sub.heightInTiles) * sub.widthInTiles;
    model.fill(0, tile * TILE, (tile + 1) * TILE);
  }
  const result = check(
    `${c.name}: every byte after the clears (partial, clipped, empty rects; slices; the packed tail${nullTiles.length > 0 ? '; NULL tiles' : ''})`,
    await readTiles(device, queue, texture, tiles),
    model,
  );
  texture.release();
  heap.release();
  return result;
}

/** Clears a texture placed at the start of a heap over a pattern (written through a buffer placed over it) and compares every byte with the model. */
async function placedCase(device: Device, c: Case, seed: number): Promise<Check> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const { sizeInBytes } = device.getResourceAllocationInfo(c.desc);
  const heap = device.createHeap({ sizeInBytes, properties: { type: 'DEFAULT' } });
  const texture = device.createPlacedResource(heap, 0, c.desc, 'UNORDERED_ACCESS');
  const alias = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: sizeInBytes }, 'COMMON');
  const model = pattern(sizeInBytes, seed);
  const upload = uploadBuffer(device, model);
  await runList(device, queue, (list) => list.copyBufferRegion(alias, 0, upload, 0, sizeInBytes));
  await runList(device, queue, (list) => {
    list.resourceBarrier([{ type: 'ALIASING', aliasing: { resourceBefore: alias, resourceAfter: texture } }]);
    for (const clear of c.clears) record(list, texture, c, clear);
    list.resourceBarrier([{ type: 'ALIASING', aliasing: { resourceBefore: texture, resourceAfter: alias } }]);
  });
  const bytes = formatInfo(c.desc.format ?? '')?.bytesPerElement ?? 1;
  for (const clear of c.clears) {
    for (const t of clearedTexels(c.desc, clear))
      model.set(c.element, texelByteOffset(texture.layout, bytes, t.mip, t.slice, t.x, t.y, t.z));
  }
  const result = check(
    `${c.name}: every byte after the clears (read through an aliasing buffer)`,
    await readBuffer(device, queue, alias, 0, sizeInBytes),
    model,
  );
  for (const r of [texture, alias, upload, heap]) r.release();
  return result;
}

/** A committed texture cleared in two rectangles, copied (copyResource) into a reserved twin and read back tile by tile. */
async function committedCase(device: Device): Promise<Check> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const desc = texture2D('R8G8B8A8_UINT', 200, 100, 1, 3);
  const texture = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { ...desc, layout: 'UNKNOWN' },
    'UNORDERED_ACCESS',
  );
  const twin = device.createReservedResource(desc, 'COMMON');
  const tiles = device.getResourceTiling(twin).numTilesForEntireResource;
  const heap = device.createHeap({ sizeInBytes: tiles * TILE, properties: { type: 'DEFAULT' } });
  queue.updateTileMappings(twin, null, null, heap, null, null, null);
  const clear: Clear = { mip: 0, firstSlice: 0, slices: 1, rects: [{ left: 0, top: 0, right: 200, bottom: 100 }] };
  const part: Clear = { mip: 1, firstSlice: 0, slices: 1, rects: [{ left: 7, top: 3, right: 60, bottom: 49 }] };
  await runList(device, queue, (list) => {
    list.clearUnorderedAccessViewUint(texture, [1, 2, 3, 4], clear.rects, { mipSlice: 0 });
    list.clearUnorderedAccessViewUint(texture, [0x11, 0x22, 0x33, 0x44], null, { mipSlice: 1 });
    list.clearUnorderedAccessViewUint(texture, [0x1ff, 0x2ee, 0x3dd, 0x4cc], part.rects, { mipSlice: 1 });
    list.clearUnorderedAccessViewUint(texture, [9, 9, 9, 9], null, { mipSlice: 2 });
    list.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: texture, stateBefore: 'UNORDERED_ACCESS', stateAfter: 'COPY_SOURCE' },
      },
    ]);
    list.copyResource(twin, texture);
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: twin, stateBefore: 'COPY_DEST', stateAfter: 'COMMON' } },
    ]);
  });
  // Only the texels of the three mips are compared: padding in the tail holds whatever the memory held.
  const actual = await readTiles(device, queue, twin, tiles);
  const got: number[] = [];
  const expected: number[] = [];
  const mip1 = { ...part, rects: null };
  for (const [clearOf, element] of [
    [clear, [1, 2, 3, 4]],
    [mip1, [0x11, 0x22, 0x33, 0x44]],
    [{ ...mip1, mip: 2 }, [9, 9, 9, 9]],
  ] as const) {
    for (const t of clearedTexels(desc, clearOf)) {
      const at = texelByteOffset(twin.layout, 4, t.mip, t.slice, t.x, t.y);
      const inPart = t.mip === 1 && t.x >= 7 && t.x < 60 && t.y >= 3 && t.y < 49;
      got.push(...actual.subarray(at, at + 4));
      expected.push(...(inPart ? [0xff, 0xee, 0xdd, 0xcc] : element));
    }
  }
  const result = check(
    'a committed texture: mips 0-2 cleared, a rectangle of mip 1 again (copyResource into a reserved twin)',
    Uint8Array.from(got),
    Uint8Array.from(expected),
  );
  for (const r of [texture, twin, heap]) r.release();
  return result;
}

export async function textureClears(gpuDevice: GPUDevice): Promise<Check[]> {
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: 4,
    localMemoryBytes: 48 << 20,
    nonLocalMemoryBytes: 24 << 20,
  });
  try {
    const checks: Check[] = [];
    for (const [i, c] of TEXTURE_CLEAR_CASES.entries()) checks.push(await reservedCase(device, c, 60 + i));
    for (const [i, c] of PLACED_CLEAR_CASES.entries()) checks.push(await placedCase(device, c, 80 + i));
    checks.push(await committedCase(device));
    return checks;
  } finally {
    device.destroy();
  }
}
