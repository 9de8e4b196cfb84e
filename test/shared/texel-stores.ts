/**
 * Texel stores (shaders/prelude/texture-stores.wgsl) against the CPU model of the emulator's layout
 * (texelByteOffset, src/memory/texel-layout.ts), run by the gpu and browser projects alike: for each
 * format the prelude decodes, a reserved texture (at Tier 4 an array of 3 slices with packed mips)
 * partly NULL is filled with a pattern, texels are stored with every form of the store
 * (shaders/validate_texel_stores.wgsl) at tile edges, in the packed mip tail, in array slices, on NULL
 * tiles and out of range, and the texture's bytes (copyTiles), each store's status and each texel
 * loaded back (d3d12_tex2d_array_load_bits) are compared with the model. Then a store to an evicted
 * heap must fault, naming the dispatch. (That NULL-tile texel stores are recorded as unmapped writes
 * is checked through the UAV clear kernel, whose stores are these: src/validate/scenarios/uav-clears.ts.)
 */
import {
  createDevice,
  type Device,
  type PipelineState,
  type Resource,
  type TiledResourcesTier,
} from '../../src/index.js';
import {
  check,
  dispatchOnce,
  readTiles,
  TILE,
  TIER1_NULL_READ,
  pattern,
  readBuffer,
  uploadBuffer,
  writeTiles,
  type Check,
} from '../../src/validate/index.js';
import { toUnorm } from '../../src/memory/clear-values.js';
import { formatInfo } from '../../src/memory/formats.js';
import { texelByteOffset } from '../../src/memory/texel-layout.js';
import STORES from '../../shaders/validate_texel_stores.wgsl?raw';
import { getTileMappingForTesting } from '../../src/testing/index.js';

/** The forms of the store (D3D12_TEST_STORE_* in the shader): those without a status report 0xffffffff. */
const FORMS = { arrayChecked: 0, checked: 1, array: 2, plain: 3, bits: 4 } as const;
type Form = keyof typeof FORMS;
const NO_STATUS = 0xffffffff;

interface Job {
  form: Form;
  mip: number;
  slice: number;
  x: number;
  y: number;
  value: [number, number, number, number];
}

export const TEXEL_STORE_FORMATS = [
  'R8G8B8A8_UNORM',
  'R8G8B8A8_UNORM_SRGB',
  'B8G8R8A8_UNORM',
  'R32_FLOAT',
  'R32G32B32A32_FLOAT',
] as const;

const f32Bits = (values: readonly number[]): Uint8Array => new Uint8Array(Float32Array.from(values).buffer);
const srgb = (c: number): number => (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);
const saturate = (c: number): number => Math.min(1, Math.max(0, c));

/** The bytes a store of `value` writes in `format` (the CPU side of d3d12_tex2d_encode). */
export function encodeTexel(format: string, job: Job): Uint8Array {
  const v = job.value;
  if (job.form === 'bits') return f32Bits(v).subarray(0, formatInfo(format)?.bytesPerElement ?? 4);
  switch (format) {
    case 'R8G8B8A8_UNORM':
      return Uint8Array.from(v, (c) => toUnorm(c, 8));
    case 'R8G8B8A8_UNORM_SRGB':
      return Uint8Array.from([srgb(saturate(v[0])), srgb(saturate(v[1])), srgb(saturate(v[2])), v[3]], (c) =>
        toUnorm(c, 8),
      );
    case 'B8G8R8A8_UNORM':
      return Uint8Array.from([v[2], v[1], v[0], v[3]], (c) => toUnorm(c, 8));
    case 'R32_FLOAT':
      return f32Bits([v[0]]);
    default:
      return f32Bits(v);
  }
}

/** Values whose 8-bit conversions sit far from a rounding boundary (sRGB's pow is not exact on GPUs). */
const VALUES: [number, number, number, number][] = [
  [0.5, 0.25, 1, 0],
  [2, -1, 0.2, 0.75],
  [0.125, 0.5, 0.25, 1],
  [1, 0, 0.5, 0.2],
];

/** The jobs for a texture of `slices` slices, mip 0 of 256², tiles of tw × th texels, `mips` mips. */
function jobsFor(tw: number, th: number, slices: number, mips: number): Job[] {
  const at: [Form, number, number, number, number][] = [
    // Tile edges of mip 0 (tile (1, 0) of slice 0 is NULL), its far corner, and mip 1.
    ['arrayChecked', 0, 0, tw - 1, th - 1],
    ['checked', 0, 0, tw, th - 1],
    ['arrayChecked', 0, 0, tw - 1, th],
    ['bits', 0, 0, tw, th],
    ['plain', 0, 0, 255, 255],
    ['array', 0, 0, 0, 0],
    ['arrayChecked', 1, 0, 127, 0],
    // The packed mip tail: mips 2 (64²) … the last (1×1).
    ['arrayChecked', 2, 0, 63, 5],
    ['checked', 3, 0, 31, 31],
    ['bits', 4, 0, 1, 15],
    ['arrayChecked', mips - 1, 0, 0, 0],
    // Out of range: a mip past the last, a slice past the last, x past the mip: dropped, status 0.
    ['arrayChecked', mips, 0, 0, 0],
    ['arrayChecked', 0, slices, 3, 3],
    ['arrayChecked', 2, 0, 64, 0],
  ];
  for (let slice = 1; slice < slices; slice++) {
    // Slice 2's tail is NULL.
    at.push(
      ['arrayChecked', 0, slice, 5, 6],
      ['bits', 1, slice, 64, 64],
      ['arrayChecked', 2, slice, 63, 5],
      ['arrayChecked', 5, slice, 7, 0],
    );
  }
  // Each form's jobs together: a dispatch per form writes its statuses at the jobs' own indices.
  return at
    .map(([form, mip, slice, x, y], i): Job => ({
      form,
      mip,
      slice,
      x,
      y,
      value: VALUES[i % VALUES.length] as Job['value'],
    }))
    .sort((a, b) => FORMS[a.form] - FORMS[b.form]);
}

interface StoreTexture {
  texture: Resource;
  heap: ReturnType<Device['createHeap']>;
  tiles: number;
}

/** A reserved 256² texture of `format`, 9 mips, every tile mapped but tile (1, 0) of mip 0 of slice 0 and (at 3 slices) slice 2's tail. */
function storeTexture(device: Device, format: string, slices: number): StoreTexture {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const texture = device.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: 256,
      height: 256,
      depthOrArraySize: slices,
      mipLevels: 9,
      format,
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    'COMMON',
  );
  const tiling = device.getResourceTiling(texture);
  const tiles = tiling.numTilesForEntireResource;
  const heap = device.createHeap({ sizeInBytes: tiles * TILE, properties: { type: 'DEFAULT' } });
  queue.updateTileMappings(texture, null, null, heap, null, null, null);
  queue.updateTileMappings(
    texture,
    [{ x: 1, y: 0, z: 0, subresource: 0 }],
    [{ numTiles: 1 }],
    null,
    ['NULL'],
    null,
    null,
  );
  if (slices > 2) {
    const packed = tiling.packedMipDesc;
    queue.updateTileMappings(
      texture,
      [{ x: 0, y: 0, z: 0, subresource: 2 * 9 + packed.numStandardMips }],
      [{ numTiles: packed.numTilesForPackedMips }],
      null,
      ['NULL'],
      null,
      null,
    );
  }
  return { texture, heap, tiles };
}

/** Jobs as the shader reads them: mip, slice, x, y, then the value's four f32. */
function jobBytes(jobs: readonly Job[]): Uint8Array {
  const data = new Uint8Array(jobs.length * 32);
  const view = new DataView(data.buffer);
  jobs.forEach((job, k) => {
    [job.mip, job.slice, job.x, job.y].forEach((word, w) => view.setUint32(k * 32 + w * 4, word, true));
    data.set(f32Bits(job.value), k * 32 + 16);
  });
  return data;
}

const nullTile = (tier: TiledResourcesTier): Uint8Array => {
  const tile = new Uint8Array(TILE);
  if (tier === 1) new Uint32Array(tile.buffer).fill(TIER1_NULL_READ);
  return tile;
};

async function storeFormat(
  device: Device,
  pso: PipelineState,
  tier: TiledResourcesTier,
  format: string,
  seed: number,
): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const slices = tier === 4 ? 3 : 1;
  const { texture, tiles } = storeTexture(device, format, slices);
  const bytes = formatInfo(format)?.bytesPerElement ?? 4;
  const layout = texture.layout;
  const initial = pattern(tiles * TILE, seed);
  await writeTiles(device, queue, texture, initial);
  // The model: what copyTiles reads now (NULL tiles as the tier says), then each store that lands.
  const model = initial.slice();
  const mapped = (tile: number): boolean => getTileMappingForTesting(texture, tile) !== null;
  for (let tile = 0; tile < tiles; tile++) if (!mapped(tile)) model.set(nullTile(tier), tile * TILE);

  const jobs = jobsFor(layout.tileShape.widthInTexels, layout.tileShape.heightInTexels, slices, 9);
  const descriptor = uploadBuffer(device, new Uint8Array(device.writeTextureDescriptor(texture).buffer));
  const out = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: jobs.length * 32 },
    'COMMON',
  );
  const inRange = (job: Job): boolean =>
    job.mip < 9 && job.slice < slices && job.x < Math.max(1, 256 >> job.mip) && job.y < Math.max(1, 256 >> job.mip);
  const offsetOf = (job: Job): number => texelByteOffset(layout, bytes, job.mip, job.slice, job.x, job.y);
  const expectedStatus = new Uint32Array(jobs.length);
  // One dispatch per form, over its jobs (consecutive; no two of them share a texel).
  for (const form of Object.keys(FORMS) as Form[]) {
    const first = jobs.findIndex((job) => job.form === form);
    const count = jobs.filter((job) => job.form === form).length;
    if (count === 0) continue;
    const upload = uploadBuffer(device, jobBytes(jobs.slice(first, first + count)));
    await dispatchOnce(
      device,
      queue,
      pso,
      [
        descriptor.getGPUVirtualAddress(),
        upload.getGPUVirtualAddress(),
        out.getGPUVirtualAddress() + BigInt(first * 32),
      ],
      [count, FORMS[form], 0],
      Math.ceil(count / 64),
    );
    upload.release();
  }
  jobs.forEach((job, i) => {
    const lands = inRange(job) && mapped(Math.floor(offsetOf(job) / TILE));
    if (lands) model.set(encodeTexel(format, job), offsetOf(job));
    expectedStatus[i] = job.form === 'array' || job.form === 'plain' ? NO_STATUS : lands ? 1 : 0;
  });
  const outWords = new Uint32Array((await readBuffer(device, queue, out, 0, jobs.length * 32)).buffer);
  const actualStatus = Uint32Array.from(jobs, (_, i) => outWords[i * 8] as number);

  // Each job's texel loaded back (as loads clamp the coordinates) against the model: status, then the bits.
  const clamped = jobs.map((job): Job => {
    const mip = Math.min(job.mip, 8);
    const size = Math.max(1, 256 >> mip);
    return {
      ...job,
      mip,
      slice: Math.min(job.slice, slices - 1),
      x: Math.min(job.x, size - 1),
      y: Math.min(job.y, size - 1),
    };
  });
  const expectedLoads = new Uint32Array(jobs.length * 5);
  clamped.forEach((job, i) => {
    const texel = new Uint8Array(16);
    texel.set(model.subarray(offsetOf(job), offsetOf(job) + bytes));
    expectedLoads.set([mapped(Math.floor(offsetOf(job) / TILE)) ? 1 : 0, ...new Uint32Array(texel.buffer)], i * 5);
  });
  const loadJobs = uploadBuffer(device, jobBytes(jobs));
  await dispatchOnce(
    device,
    queue,
    pso,
    [descriptor.getGPUVirtualAddress(), loadJobs.getGPUVirtualAddress(), out.getGPUVirtualAddress()],
    [jobs.length, 0, 1],
    Math.ceil(jobs.length / 64),
  );
  const loaded = new Uint32Array((await readBuffer(device, queue, out, 0, jobs.length * 32)).buffer);
  const actualLoads = Uint32Array.from(
    { length: jobs.length * 5 },
    (_, k) => loaded[Math.floor(k / 5) * 8 + [1, 4, 5, 6, 7][k % 5]!] as number,
  );

  const name = `tier ${tier}, ${format}`;
  const result = [
    check(
      `${name}: the texture's bytes (copyTiles) match the layout model after every store`,
      await readTiles(device, queue, texture, tiles),
      model,
    ),
    check(
      `${name}: each store's status (1 mapped, 0 dropped: NULL tile or out of range)`,
      new Uint8Array(actualStatus.buffer),
      new Uint8Array(expectedStatus.buffer),
    ),
    check(
      `${name}: each stored texel loads back (d3d12_tex2d_array_load_bits, clamped), with its status`,
      new Uint8Array(actualLoads.buffer),
      new Uint8Array(expectedLoads.buffer),
    ),
  ];
  for (const r of [descriptor, out, loadJobs, texture]) r.release();
  return result;
}

/** A store to a tile of an evicted heap faults: 'write-absent' at the texel's address, attributed to the dispatch, status 0. */
async function faultingStore(device: Device, pso: PipelineState): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const { texture, heap } = storeTexture(device, 'R32_FLOAT', 1);
  const descriptor = uploadBuffer(device, new Uint8Array(device.writeTextureDescriptor(texture).buffer));
  const out = device.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: 32 }, 'COMMON');
  // (5, 7) is in tile 0, mapped to the heap, which is then evicted.
  const job = uploadBuffer(
    device,
    jobBytes([{ form: 'arrayChecked', mip: 0, slice: 0, x: 5, y: 7, value: [1, 2, 3, 4] }]),
  );
  device.evict([heap]);
  await dispatchOnce(
    device,
    queue,
    pso,
    [descriptor.getGPUVirtualAddress(), job.getGPUVirtualAddress(), out.getGPUVirtualAddress()],
    [1, FORMS.arrayChecked, 0],
    1,
  );
  const faults = await device.readFaults();
  const address = `0x${(texture.getGPUVirtualAddress() + BigInt(texelByteOffset(texture.layout, 4, 0, 0, 5, 7))).toString(16)}`;
  const checks = [
    detail(
      'a store to an evicted heap faults: write-absent at the texel, attributed to the dispatch',
      faults.length === 1 &&
        faults[0]?.kind === 'write-absent' &&
        faults[0].address === address &&
        faults[0].command?.name === 'dispatch',
      JSON.stringify(faults),
    ),
    check(
      'the faulting store reports status 0',
      (await readBuffer(device, queue, out, 0, 4)).subarray(0, 4),
      new Uint8Array(4),
    ),
  ];
  for (const r of [descriptor, out, job, texture, heap]) r.release();
  return checks;
}

function detail(name: string, ok: boolean, what: string): Check {
  return ok ? { name, length: 0, firstDifference: -1 } : { name, length: 0, firstDifference: 0, detail: what };
}

/** The scenario at `tier` (1, 2: NULL semantics on one slice; 4: arrays of 3 slices with packed mips). */
export async function texelStores(gpuDevice: GPUDevice, tier: TiledResourcesTier): Promise<Check[]> {
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 48 << 20,
    nonLocalMemoryBytes: 24 << 20,
    onPageFault: 'report',
  });
  try {
    const checks: Check[] = [];
    const pso = await device.createComputePipelineState({ code: STORES, entryPoint: 'main' });
    for (const [i, format] of TEXEL_STORE_FORMATS.entries())
      checks.push(...(await storeFormat(device, pso, tier, format, 40 + i)));
    checks.push(...(await faultingStore(device, pso)));
    return checks;
  } finally {
    device.destroy();
  }
}
