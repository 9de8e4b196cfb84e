/**
 * Stores through unordered access views (shaders/prelude/descriptor-stores.wgsl) into committed,
 * placed and reserved resources, against a CPU model of the bytes: RWByteAddressBuffer Store and
 * Store4 (aligned, straddling a tile), RWStructuredBuffer members, RWBuffer with format conversion
 * (R8G8B8A8_UNORM with saturation, R8_UNORM merged into its word) and RWBuffer<uint4>
 * (R32G32B32A32_UINT), RWTexture2DArray (all slices, and a view from slice 1) and RWTexture2D of a
 * mip in the packed tail. Stores outside a view, and through NULL descriptors, are dropped and leave
 * the bytes around them as they were; the reserved resources keep tiles NULL (a buffer's second
 * tile, a texture's second slice and packed mip tail), where stores are dropped and reads give 0.
 * Every resource is filled with a pattern first and read back whole (copyBufferRegion,
 * copyTextureRegion). Then faults: stores into a placed buffer and texture whose heap is evicted
 * fault naming resource and heap and change nothing, and a UAV of a released reserved buffer
 * reports descriptor-released.
 */
import { expect } from 'vitest';
import {
  type CommandQueue,
  type CpuDescriptorHandle,
  type DescriptorHeap,
  type Device,
  type Heap,
  type PipelineState,
  type Resource,
  type ResourceDesc,
  type RootSignature,
} from '../../../../src/index.js';
import { flush, readBuffer, runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import {
  bufferView,
  compilePasses,
  copyTextureIn,
  createRigDevice,
  descriptorAt,
  f32Bits,
  fileSetupTest,
  filledBuffer,
  gpuDescriptorAt,
  JOBS_PARAMETER,
  jobShaderStart,
  type Kind,
  KINDS,
  kindResources,
  mapTiles,
  transitions,
} from '../../../shared/descriptor-rig.js';

// ---- Resources ---------------------------------------------------------------------------------------

/** The buffer: two tiles; reserved: the second NULL. */
const BUFFER_BYTES = 2 * TILE;
const BUFFER_DESC: ResourceDesc = { dimension: 'BUFFER', width: BUFFER_BYTES, flags: ['ALLOW_UNORDERED_ACCESS'] };
/** The array texture: 128² R8G8B8A8_UNORM, 2 slices of one tile each; reserved: slice 1 NULL. */
const ARRAY = 128;
/** The float texture: 64² R32G32B32A32_FLOAT and its 32² mip (the packed tail); reserved: the tail NULL. */
const FLOAT = 64;

interface Subresource {
  width: number;
  height: number;
  texelBytes: number;
}
const ARRAY_SUBRESOURCES: Subresource[] = [0, 1].map(() => ({ width: ARRAY, height: ARRAY, texelBytes: 4 }));
const FLOAT_SUBRESOURCES: Subresource[] = [FLOAT, FLOAT / 2].map((n) => ({ width: n, height: n, texelBytes: 16 }));

const textureDesc = (kind: Kind, which: 'array' | 'float'): ResourceDesc => ({
  dimension: 'TEXTURE2D',
  width: which === 'array' ? ARRAY : FLOAT,
  height: which === 'array' ? ARRAY : FLOAT,
  depthOrArraySize: which === 'array' ? 2 : 1,
  mipLevels: which === 'array' ? 1 : 2,
  format: which === 'array' ? 'R8G8B8A8_UNORM' : 'R32G32B32A32_FLOAT',
  layout: kind === 'reserved' ? '64KB_UNDEFINED_SWIZZLE' : 'UNKNOWN',
  flags: ['ALLOW_UNORDERED_ACCESS'],
});

/** The fill: byte i of a buffer or subresource (distinct words, so a store at the wrong place shows). */
const fill = (bytes: number, seed: number): Uint8Array =>
  Uint8Array.from({ length: bytes }, (_, i) => (i * 7 + (i >> 8) * 13 + seed) & 0xff);
const subresourceBytes = (s: Subresource): number => s.width * s.height * s.texelBytes;

// ---- Jobs ------------------------------------------------------------------------------------------

/** The table's registers (root parameter 1). */
const U = {
  raw: 0,
  structured: 1,
  rgba8: 2,
  uint4: 3,
  r8: 4,
  array: 5,
  slice1: 6,
  mip1: 7,
  mip0: 8,
  nullBuffer: 9,
  nullTexture: 10,
};
const TABLE = 11;
const OP = { word: 0, word4: 1, structured: 2, typed: 3, uint: 4, texture: 5, none: 255 } as const;

/** The buffer views' first elements and counts (as created in `writeViews`). */
const RAW_FIRST = 4;
const RAW_COUNT = BUFFER_BYTES / 4 - RAW_FIRST;
const STRUCT_STRIDE = 12;
const STRUCT_FIRST = 1;
const STRUCT_COUNT = Math.floor((BUFFER_BYTES - STRUCT_STRIDE) / STRUCT_STRIDE);
const RGBA8_FIRST = 2;
const RGBA8_COUNT = BUFFER_BYTES / 4 - RGBA8_FIRST;
const UINT4_FIRST = 3;
const UINT4_COUNT = BUFFER_BYTES / 16 - UINT4_FIRST;
const R8_COUNT = BUFFER_BYTES;

/** What a job does to the model: bytes at a byte offset of the buffer, or of a texture subresource. */
interface Write {
  target: 'buffer' | 'array' | 'float';
  subresource: number;
  offset: number;
  bytes: Uint8Array;
}

interface Job {
  pass: 'buffers' | 'textures';
  label: string;
  /** op | slice << 8, register, a, b; then the value's four words. */
  words: number[];
  writes: Write[];
}

const wordBytes = (...words: number[]): Uint8Array => new Uint8Array(Uint32Array.from(words).buffer);
const unorm8 = (c: number): number => Math.floor(Math.min(Math.max(c, 0), 1) * 255 + 0.5);

function bufferJobs(): Job[] {
  const jobs: Job[] = [];
  const rawSize = RAW_COUNT * 4;
  const buffer = (offset: number, bytes: Uint8Array): Write[] => [{ target: 'buffer', subresource: 0, offset, bytes }];
  // Jobs of one dispatch run in any order: no two touch the same word. Near the tile boundary
  // (byte 65536) each view has words of its own; only the raw view writes the buffer's last bytes.
  let value = 0x51000000;
  for (const offset of [0, 4, TILE - 32, TILE + 8, rawSize]) {
    value++;
    jobs.push({
      pass: 'buffers',
      label: `u${U.raw}.Store(${offset})`,
      words: [OP.word, U.raw, offset, 0, value, 0, 0, 0],
      writes: offset + 4 <= rawSize ? buffer(RAW_FIRST * 4 + offset, wordBytes(value)) : [],
    });
  }
  for (const offset of [32, TILE - 24, rawSize - 16, rawSize - 8]) {
    const words = [1, 2, 3, 4].map((w) => 0x52000000 + offset + w);
    jobs.push({
      pass: 'buffers',
      label: `u${U.raw}.Store4(${offset})`,
      words: [OP.word4, U.raw, offset, 0, ...words],
      writes: offset + 16 <= rawSize ? buffer(RAW_FIRST * 4 + offset, wordBytes(...words)) : [],
    });
  }
  const structured: [number, number][] = [
    [700, 0],
    [700, 4],
    [700, 8],
    [5458, 4],
    [5461, 8],
    [STRUCT_COUNT, 0],
    [701, 12],
  ];
  for (const [index, member] of structured) {
    const word = 0x53000000 + index * 16 + member;
    jobs.push({
      pass: 'buffers',
      label: `u${U.structured}[${index}] at byte ${member}`,
      words: [OP.structured, U.structured, index, member, word, 0, 0, 0],
      writes:
        index < STRUCT_COUNT && member < STRUCT_STRIDE
          ? buffer(STRUCT_STRIDE * (STRUCT_FIRST + index) + member, wordBytes(word))
          : [],
    });
  }
  const colors: [number, number[]][] = [
    [2000, [10 / 255, 20 / 255, 1, 0]],
    [2001, [2, -1, 0.2, 0.6]],
    [2002, [0.5, 0, 0, 0]],
    [16374, [1 / 255, 0, 0, 1]],
    [16390, [0, 1, 0, 1]],
    [RGBA8_COUNT, [1, 1, 1, 1]],
  ];
  for (const [index, color] of colors) {
    jobs.push({
      pass: 'buffers',
      label: `u${U.rgba8} (R8G8B8A8_UNORM)[${index}] = (${color.join(', ')})`,
      words: [OP.typed, U.rgba8, index, 0, ...color.map(f32Bits)],
      writes: index < RGBA8_COUNT ? buffer(4 * (RGBA8_FIRST + index), Uint8Array.from(color, unorm8)) : [],
    });
  }
  for (const index of [1000, 4090, 4096, UINT4_COUNT]) {
    const words = [0, 1, 2, 3].map((c) => (0xf0000000 | (index << 4) | c) >>> 0);
    jobs.push({
      pass: 'buffers',
      label: `u${U.uint4} (R32G32B32A32_UINT)[${index}]`,
      words: [OP.uint, U.uint4, index, 0, ...words],
      writes: index < UINT4_COUNT ? buffer(16 * (UINT4_FIRST + index), wordBytes(...words)) : [],
    });
  }
  for (const [index, level] of [
    [20001, 77],
    [20006, 200],
    [20011, 1],
    [20016, 0],
    [TILE + 70, 99],
    [R8_COUNT, 5],
  ] as const) {
    jobs.push({
      pass: 'buffers',
      label: `u${U.r8} (R8_UNORM)[${index}] = ${level}/255`,
      words: [OP.typed, U.r8, index, 0, f32Bits(level / 255), 0, 0, 0],
      writes: index < R8_COUNT ? buffer(index, Uint8Array.of(level)) : [],
    });
  }
  jobs.push(
    {
      pass: 'buffers',
      label: `u${U.nullBuffer} (NULL).Store(0)`,
      words: [OP.word, U.nullBuffer, 0, 0, 0xdeadbeef, 0, 0, 0],
      writes: [],
    },
    {
      pass: 'buffers',
      label: `u${U.nullBuffer} (NULL).Store4(16)`,
      words: [OP.word4, U.nullBuffer, 16, 0, 1, 2, 3, 4],
      writes: [],
    },
  );
  return jobs;
}

function textureJobs(): Job[] {
  const jobs: Job[] = [];
  const texel = (
    register: number,
    target: 'array' | 'float',
    x: number,
    y: number,
    slice: number,
    color: number[],
    at: { subresource: number; width: number; height: number } | undefined,
  ): Job => {
    const bytes = target === 'array' ? Uint8Array.from(color, unorm8) : new Uint8Array(Float32Array.from(color).buffer);
    const inside = at !== undefined && x >= 0 && y >= 0 && x < at.width && y < at.height;
    return {
      pass: 'textures',
      label: `u${register}[${x}, ${y}, slice ${slice}] = (${color.join(', ')})`,
      words: [OP.texture | (slice << 8), register, x >>> 0, y >>> 0, ...color.map(f32Bits)],
      writes:
        inside && at ? [{ target, subresource: at.subresource, offset: (y * at.width + x) * bytes.length, bytes }] : [],
    };
  };
  const slice = (n: number) => ({ subresource: n, width: ARRAY, height: ARRAY });
  const c = (...bytes: number[]): number[] => bytes.map((b) => b / 255);
  jobs.push(
    texel(U.array, 'array', 3, 4, 0, c(1, 2, 3, 4), slice(0)),
    texel(U.array, 'array', 127, 127, 0, c(250, 0, 128, 255), slice(0)),
    texel(U.array, 'array', 5, 6, 1, c(9, 8, 7, 6), slice(1)),
    texel(U.array, 'array', 127, 0, 1, [2, -1, 0.2, 0.6], slice(1)),
    texel(U.array, 'array', 128, 0, 0, c(1, 1, 1, 1), undefined),
    texel(U.array, 'array', -1, 0, 0, c(1, 1, 1, 1), undefined),
    texel(U.array, 'array', 0, 0, 2, c(1, 1, 1, 1), undefined),
    texel(U.slice1, 'array', 7, 8, 0, c(60, 70, 80, 90), slice(1)),
    texel(U.slice1, 'array', 9, 9, 1, c(1, 1, 1, 1), undefined),
    texel(U.mip1, 'float', 0, 0, 0, [1.5, -2, 1e6, 0.125], { subresource: 1, width: 32, height: 32 }),
    texel(U.mip1, 'float', 31, 31, 0, [-0, 3, 4, 5], { subresource: 1, width: 32, height: 32 }),
    texel(U.mip1, 'float', 32, 0, 0, [1, 1, 1, 1], undefined),
    texel(U.mip0, 'float', 63, 0, 0, [7, 8, 9, 10], { subresource: 0, width: 64, height: 64 }),
    texel(U.mip0, 'float', 10, 20, 0, [0.5, 0.25, -0.75, 1], { subresource: 0, width: 64, height: 64 }),
    texel(U.nullTexture, 'array', 1, 1, 0, c(1, 1, 1, 1), undefined),
  );
  return jobs;
}

const JOBS = { buffers: bufferJobs(), textures: textureJobs() };
type Pass = keyof typeof JOBS;
const PASSES: readonly Pass[] = ['buffers', 'textures'];

const BODIES: Record<Pass, string> = {
  buffers: `let view = d3d12_rw_buffer(d3d12_u(job.y, 0u));
  switch (op) {
    case ${OP.word}u: { d3d12_buffer_store_word(view, job.z, value.x); }
    case ${OP.word4}u: { d3d12_buffer_store_word4(view, job.z, value); }
    case ${OP.structured}u: { d3d12_buffer_store_structured(view, job.z, job.w, value.x); }
    case ${OP.typed}u: { d3d12_buffer_store(view, job.z, bitcast<vec4f>(value)); }
    default: { d3d12_buffer_store_uint(view, job.z, value); }
  }`,
  textures: `d3d12_texture_array_store(d3d12_rw_texture2d(d3d12_u(job.y, 0u)), bitcast<vec2i>(job.zw), job.x >> 8u, bitcast<vec4f>(value));`,
};

/** Job i (32 bytes: what to store where, then the value) from the root SRV (t0, space 1). */
const shader = (pass: Pass): string => `${jobShaderStart(OP.none, 32)}
  let value = d3d12_buffer_load_word4(jobs, id.x * 32u + 16u);
  ${BODIES[pass]}
}`;

// ---- The file's device -----------------------------------------------------------------------------

interface Targets {
  buffer: Resource;
  array: Resource;
  float: Resource;
  heap?: Heap;
}

interface Setup {
  d3d: Device;
  queue: CommandQueue;
  rootSignature: RootSignature;
  pipelines: Record<Pass, PipelineState>;
  jobs: Record<Pass, { resource: Resource; count: number }>;
  heap: DescriptorHeap;
  handle(table: number, register: number): CpuDescriptorHandle;
}

async function createSetup(gpuDevice: GPUDevice): Promise<Setup> {
  const { d3d, queue } = await createRigDevice(gpuDevice);
  const rootSignature = d3d.createRootSignature(0, {
    version: '1_1',
    desc_1_1: {
      parameters: [
        JOBS_PARAMETER,
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: { descriptorRanges: [{ rangeType: 'UAV', numDescriptors: TABLE, baseShaderRegister: 0 }] },
        },
      ],
    },
  });
  const pipelines = await compilePasses(d3d, rootSignature, PASSES, shader);
  const jobs = {} as Setup['jobs'];
  for (const pass of PASSES) {
    const count = Math.ceil(JOBS[pass].length / 64) * 64;
    const words = new Uint32Array(count * 8).fill(OP.none);
    JOBS[pass].forEach((job, i) => words.set(job.words, i * 8));
    const resource = await filledBuffer(d3d, queue, new Uint8Array(words.buffer), 'NON_PIXEL_SHADER_RESOURCE');
    jobs[pass] = { resource, count };
  }
  const heap = d3d.createDescriptorHeap({
    type: 'CBV_SRV_UAV',
    numDescriptors: TABLE * (KINDS.length + 2),
    flags: 'SHADER_VISIBLE',
  });
  heap.setName('uavs');
  return {
    d3d,
    queue,
    rootSignature,
    pipelines,
    jobs,
    heap,
    handle: (table, register) => descriptorAt(d3d, heap, table * TABLE + register),
  };
}

const BUFFER_FILL = fill(BUFFER_BYTES, 1);
const ARRAY_FILL = ARRAY_SUBRESOURCES.map((s, i) => fill(subresourceBytes(s), 2 + i));
const FLOAT_FILL = FLOAT_SUBRESOURCES.map((s, i) => fill(subresourceBytes(s), 4 + i));

/** Whether a byte of a target is backed (reserved: the buffer's first tile, the array's slice 0, the float texture's mip 0). */
function mapped(kind: Kind, target: Write['target'], subresource: number, offset: number): boolean {
  if (kind !== 'reserved') return true;
  return target === 'buffer' ? offset < TILE : subresource === 0;
}

/** Resources of `kind`, filled, in UNORDERED_ACCESS. */
async function createTargets(d3d: Device, queue: CommandQueue, kind: Kind): Promise<Targets> {
  // Placed: tiles 0-1 the buffer, 2-3 the array texture, 5-6 the float texture (tile 4 unused).
  const { resources, heap } = kindResources(
    d3d,
    kind,
    {
      buffer: { name: 'buffer', desc: BUFFER_DESC, placedAt: 0 },
      array: { name: 'array texture', desc: textureDesc(kind, 'array'), placedAt: 2 * TILE },
      float: { name: 'float texture', desc: textureDesc(kind, 'float'), placedAt: 5 * TILE },
    },
    { placed: 7 * TILE, reserved: 4 * TILE },
  );
  const targets: Targets = heap ? { ...resources, heap } : resources;
  if (kind === 'reserved') {
    // The first tile of each, at heap tiles 3, 1 and 2 (tile 0 unused).
    mapTiles(queue, targets.buffer, heap as Heap, [{ subresource: 0, heapTile: 3 }]);
    mapTiles(queue, targets.array, heap as Heap, [{ subresource: 0, heapTile: 1 }]);
    mapTiles(queue, targets.float, heap as Heap, [{ subresource: 0, heapTile: 2 }]);
  }
  await runList(d3d, queue, (list) => {
    list.copyBufferRegion(targets.buffer, 0, uploadBuffer(d3d, BUFFER_FILL), 0, BUFFER_BYTES);
    copyTextureIn(d3d, list, targets.array, ARRAY_FILL);
    copyTextureIn(d3d, list, targets.float, FLOAT_FILL);
    list.resourceBarrier(transitions([targets.buffer, targets.array, targets.float], 'COPY_DEST', 'UNORDERED_ACCESS'));
  });
  return targets;
}

function writeViews(setup: Setup, table: number, targets: Targets): void {
  const { d3d } = setup;
  const at = (register: number): CpuDescriptorHandle => setup.handle(table, register);
  const { buffer, array, float } = targets;
  const view = bufferView;
  d3d.createUnorderedAccessView(buffer, null, view('R32_TYPELESS', RAW_FIRST, RAW_COUNT, { flags: 'RAW' }), at(U.raw));
  d3d.createUnorderedAccessView(
    buffer,
    null,
    view('UNKNOWN', STRUCT_FIRST, STRUCT_COUNT, { structureByteStride: STRUCT_STRIDE }),
    at(U.structured),
  );
  d3d.createUnorderedAccessView(buffer, null, view('R8G8B8A8_UNORM', RGBA8_FIRST, RGBA8_COUNT), at(U.rgba8));
  d3d.createUnorderedAccessView(buffer, null, view('R32G32B32A32_UINT', UINT4_FIRST, UINT4_COUNT), at(U.uint4));
  d3d.createUnorderedAccessView(buffer, null, view('R8_UNORM', 0, R8_COUNT), at(U.r8));
  d3d.createUnorderedAccessView(
    array,
    null,
    { format: 'R8G8B8A8_UNORM', viewDimension: 'TEXTURE2DARRAY' },
    at(U.array),
  );
  d3d.createUnorderedAccessView(
    array,
    null,
    { format: 'R8G8B8A8_UNORM', viewDimension: 'TEXTURE2DARRAY', texture2DArray: { firstArraySlice: 1, arraySize: 1 } },
    at(U.slice1),
  );
  d3d.createUnorderedAccessView(
    float,
    null,
    { format: 'R32G32B32A32_FLOAT', viewDimension: 'TEXTURE2D', texture2D: { mipSlice: 1 } },
    at(U.mip1),
  );
  d3d.createUnorderedAccessView(float, null, { format: 'R32G32B32A32_FLOAT', viewDimension: 'TEXTURE2D' }, at(U.mip0));
  d3d.createUnorderedAccessView(null, null, view('R32_TYPELESS', 0, 64, { flags: 'RAW' }), at(U.nullBuffer));
  d3d.createUnorderedAccessView(
    null,
    null,
    { format: 'R8G8B8A8_UNORM', viewDimension: 'TEXTURE2D' },
    at(U.nullTexture),
  );
}

async function runJobs(setup: Setup, table: number): Promise<void> {
  const { d3d, queue, heap, rootSignature } = setup;
  await runList(d3d, queue, (list) => {
    list.setComputeRootSignature(rootSignature);
    list.setDescriptorHeaps([heap]);
    list.setComputeRootDescriptorTable(1, gpuDescriptorAt(d3d, heap, table * TABLE));
    for (const pass of PASSES) {
      list.setPipelineState(setup.pipelines[pass]);
      list.setComputeRootShaderResourceView(0, setup.jobs[pass].resource.getGPUVirtualAddress());
      list.dispatch(setup.jobs[pass].count / 64);
    }
  });
}

/** Every subresource of `texture` read back, rows packed. */
async function readTexture(d3d: Device, queue: CommandQueue, texture: Resource, subresources: Subresource[]) {
  const footprints = d3d.getCopyableFootprints(texture.getDesc(), 0, subresources.length, 0);
  const readback = d3d.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: footprints.totalBytes },
    'COPY_DEST',
  );
  await runList(d3d, queue, (list) => {
    list.resourceBarrier(transitions([texture], 'UNORDERED_ACCESS', 'COPY_SOURCE'));
    subresources.forEach((_, i) =>
      list.copyTextureRegion(
        {
          resource: readback,
          type: 'PLACED_FOOTPRINT',
          placedFootprint: footprints.layouts[i] as (typeof footprints.layouts)[number],
        },
        0,
        0,
        0,
        { resource: texture, type: 'SUBRESOURCE_INDEX', subresourceIndex: i },
      ),
    );
    list.resourceBarrier(transitions([texture], 'COPY_SOURCE', 'UNORDERED_ACCESS'));
  });
  const bytes = readback.map();
  const result = subresources.map((s, i) => {
    const layout = footprints.layouts[i] as (typeof footprints.layouts)[number];
    const row = s.width * s.texelBytes;
    const packed = new Uint8Array(row * s.height);
    for (let y = 0; y < s.height; y++)
      packed.set(
        bytes.subarray(
          layout.offset + y * layout.footprint.rowPitch,
          layout.offset + y * layout.footprint.rowPitch + row,
        ),
        y * row,
      );
    return packed;
  });
  readback.unmap();
  readback.release();
  return result;
}

/** The model: the fills, NULL bytes 0, then every job's writes that land on backed bytes. */
function model(kind: Kind, jobs: readonly Job[]): Record<Write['target'], Uint8Array[]> {
  const masked = (target: Write['target'], subresource: number, bytes: Uint8Array): Uint8Array =>
    bytes.map((b, i) => (mapped(kind, target, subresource, i) ? b : 0));
  const state = {
    buffer: [masked('buffer', 0, BUFFER_FILL)],
    array: ARRAY_FILL.map((bytes, i) => masked('array', i, bytes)),
    float: FLOAT_FILL.map((bytes, i) => masked('float', i, bytes)),
  };
  for (const job of jobs)
    for (const write of job.writes)
      write.bytes.forEach((b, i) => {
        if (mapped(kind, write.target, write.subresource, write.offset + i))
          (state[write.target][write.subresource] as Uint8Array)[write.offset + i] = b;
      });
  return state;
}

/** Differences as lines naming the word: at most 20. */
function differences(name: string, got: Uint8Array, want: Uint8Array): string[] {
  const lines: string[] = [];
  const g = new Uint32Array(got.buffer, got.byteOffset, got.length / 4);
  const w = new Uint32Array(want.buffer, want.byteOffset, want.length / 4);
  for (let i = 0; i < w.length && lines.length < 20; i++)
    if (g[i] !== w[i]) lines.push(`${name} byte ${i * 4}: got ${g[i]?.toString(16)}, want ${w[i]?.toString(16)}`);
  return lines;
}

/** The differences of every target's every subresource. */
function allDifferences(got: Record<Write['target'], Uint8Array[]>, want: Record<Write['target'], Uint8Array[]>) {
  return (['buffer', 'array', 'float'] as const).flatMap((target) =>
    want[target].flatMap((bytes, i) => differences(`${target} subresource ${i}`, got[target][i] as Uint8Array, bytes)),
  );
}

async function readTargets(d3d: Device, queue: CommandQueue, targets: Targets) {
  return {
    buffer: [await readBuffer(d3d, queue, targets.buffer, 0, BUFFER_BYTES, 'UNORDERED_ACCESS' as never)],
    array: await readTexture(d3d, queue, targets.array, ARRAY_SUBRESOURCES),
    float: await readTexture(d3d, queue, targets.float, FLOAT_SUBRESOURCES),
  };
}

/** The file's emulated device and compiled pipelines, made once. */
const test = fileSetupTest(createSetup);

for (const [table, kind] of KINDS.entries()) {
  test(`${kind} resources: buffer and texture UAV stores land as the model says; out-of-view, NULL-descriptor${kind === 'reserved' ? ' and NULL-tile' : ''} stores are dropped`, async (setup) => {
    const { d3d, queue } = setup;
    const targets = await createTargets(d3d, queue, kind);
    writeViews(setup, table, targets);
    await runJobs(setup, table);
    const got = await readTargets(d3d, queue, targets);
    expect(allDifferences(got, model(kind, [...JOBS.buffers, ...JOBS.textures]))).toEqual([]);
    expect(await d3d.readFaults()).toEqual([]);
  });
}

test('stores into resources whose heap is evicted fault naming resource and heap, and change nothing; a UAV of a released resource reports descriptor-released', async (setup) => {
  const { d3d, queue } = setup;
  const placed = await createTargets(d3d, queue, 'placed');
  const table = KINDS.length;
  writeViews(setup, table, placed);
  const heap = placed.heap as Heap;
  heap.setName('evicted heap');
  d3d.evict([heap]);
  await runJobs(setup, table);
  const faults = await d3d.readFaults();
  const seen = new Set(faults.map((f) => `${f.kind} ${f.resource?.label} ${f.heap?.id} ${f.heap?.state}`));
  expect([...seen].sort()).toEqual(
    [placed.buffer, placed.array, placed.float].map((r) => `write-absent ${r.label} ${heap.id} evicted`).sort(),
  );
  d3d.makeResident([heap]);
  expect(allDifferences(await readTargets(d3d, queue, placed), model('placed', []))).toEqual([]);

  const reserved = await createTargets(d3d, queue, 'reserved');
  writeViews(setup, table + 1, reserved);
  reserved.buffer.release();
  await flush(d3d, queue);
  await runJobs(setup, table + 1);
  const released = await d3d.readFaults();
  const holds = new Map(released.map((f) => [f.descriptor?.index, `${f.kind}: ${f.descriptor?.holds}`]));
  for (const register of [U.raw, U.structured, U.rgba8, U.uint4, U.r8])
    expect(holds.get((table + 1) * TABLE + register)).toBe(
      `descriptor-released: UAV of ${reserved.buffer.label} (released)`,
    );
  expect(holds.size).toBe(5);
});
