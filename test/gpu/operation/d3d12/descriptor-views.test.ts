/**
 * Reads through descriptors (shaders/prelude/descriptor-views.wgsl) of committed, placed and reserved
 * resources, against a CPU model of the texels and bytes: Texture2D SRVs (Load; SampleLevel with
 * samplers from a SAMPLER heap and with static samplers, point and bilinear filtering at positions
 * whose weights are exact in f32, WRAP / CLAMP / MIRROR / BORDER addressing; Gather of each
 * component; a component mapping), Texture2DArray SRVs of an array texture with packed mips (a
 * range of slices; a most detailed mip), typed buffer SRVs (R8G8B8A8_UNORM, R32G32_FLOAT, with a
 * first element), raw (ByteAddress) and structured SRVs, CBVs in a table, NULL descriptors (read 0),
 * and out-of-view reads (0). The reserved resources keep tiles NULL (the second tile of the texture
 * and of the buffer, the last slice of the array): what lies there reads 0.
 * Then faults: placed textures whose heap is evicted and an evicted committed buffer (read-absent,
 * naming the resource and heap; the read gives 0, and the data is back once resident), and
 * released placed and reserved resources (descriptor-released). descriptor-faults.test.ts covers the
 * other descriptor faults (uninitialized, mismatch, unbound register, a released committed buffer).
 *
 * One emulated device for the file: each job list goes through four pipelines (load, sample, gather,
 * buffers), compiled once for the file, since their compilation is most of its time on SwiftShader.
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
  type VersionedRootSignatureDesc,
} from '../../../../src/index.js';
import { flush, readBuffer, runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import {
  bufferView,
  compilePasses,
  copyTextureIn,
  createRigDevice,
  defaultBuffer,
  descriptorAt,
  f32Bits,
  fileSetupTest,
  filledBuffer,
  gpuDescriptorAt,
  hex,
  JOBS_PARAMETER,
  jobShaderStart,
  type Kind,
  KINDS,
  kindResources as createKindResources,
  mapTiles,
  RESULTS_PARAMETER,
  srvCbvTable,
  structuredReads,
  transitions,
} from '../../../shared/descriptor-rig.js';

// ---- The data and the CPU model ------------------------------------------------------------------

/** The texture: 128 × 64 R32G32B32A32_FLOAT, two 64 × 64 tiles side by side. */
const W = 128;
const H = 64;
/** Texel (x, y): small integers, so bilinear sums with weights of quarters are exact in f32. */
const texel = (x: number, y: number): number[] => [x + W * y, x, y, 7];
/** The buffer: two tiles of words, each the f32 bits of (i / 2 - 1000): finite and distinct. */
const BUFFER_BYTES = 2 * TILE;
const bufferWords = Uint32Array.from({ length: BUFFER_BYTES / 4 }, (_, i) => f32Bits(i / 2 - 1000));

/** Whether a byte or texel of the kind's resource is backed: a reserved resource's second tile is NULL. */
const bufferMapped = (kind: Kind, byte: number): boolean => kind !== 'reserved' || byte < TILE;
const texelMapped = (kind: Kind, x: number): boolean => kind !== 'reserved' || x < 64;

/**
 * The array texture: 32² R8G8B8A8_UNORM, 3 slices of 2 mips, all in packed mip tails (a tile per
 * slice; a reserved one needs tiled resources tier 4); reserved: slice 2's tail NULL. Loads
 * through it are packed back to bytes (exact).
 */
const ARRAY_SIZE = 32;
const ARRAY_SLICES = 3;
const ARRAY_MIPS = 2;
const arrayTexel = (slice: number, mip: number, x: number, y: number): number[] =>
  [x * 7 + slice, y * 5 + mip * 100, slice * 50 + mip, 255 - x].map((b) => b & 0xff);
const arrayTexelWord = (kind: Kind, slice: number, mip: number, x: number, y: number): number =>
  kind === 'reserved' && slice === 2
    ? 0
    : arrayTexel(slice, mip, x, y).reduce((word, b, i) => word | (b << (8 * i)), 0) >>> 0;

const modelTexel = (kind: Kind, x: number, y: number): number[] => (texelMapped(kind, x) ? texel(x, y) : [0, 0, 0, 0]);
const modelWord = (kind: Kind, byte: number): number =>
  bufferMapped(kind, byte) ? (bufferWords[byte / 4] as number) : 0;

/** D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING(2, 0, 5, 4): (b, r, 1, 0). */
const MAPPING = 2 | (0 << 3) | (5 << 6) | (4 << 9) | 0x1000;
const mapped = (value: number[]): number[] => [value[2] as number, value[0] as number, 1, 0];

type Address = 'WRAP' | 'CLAMP' | 'MIRROR' | 'BORDER';
interface ModelSampler {
  linear: boolean;
  address: Address;
  border: number[];
}
/** s0, s1: the SAMPLER heap's; s2, s3: static samplers. */
const SAMPLERS: ModelSampler[] = [
  { linear: false, address: 'WRAP', border: [0, 0, 0, 0] },
  { linear: true, address: 'CLAMP', border: [0, 0, 0, 0] },
  { linear: false, address: 'MIRROR', border: [0, 0, 0, 0] },
  { linear: true, address: 'BORDER', border: [1, 1, 1, 1] },
];

function addressTexel(c: number, n: number, mode: Address): number {
  switch (mode) {
    case 'WRAP':
      return ((c % n) + n) % n;
    case 'MIRROR': {
      const p = ((c % (2 * n)) + 2 * n) % (2 * n);
      return p < n ? p : 2 * n - 1 - p;
    }
    case 'BORDER':
      return c >= 0 && c < n ? c : -1;
    default:
      return Math.min(Math.max(c, 0), n - 1);
  }
}

function tap(kind: Kind, sampler: ModelSampler, x: number, y: number): number[] {
  const ax = addressTexel(x, W, sampler.address);
  const ay = addressTexel(y, H, sampler.address);
  return ax < 0 || ay < 0 ? sampler.border : modelTexel(kind, ax, ay);
}

/** SampleLevel at mip 0, as the prelude filters (d3d12_filter_mip), in f32. */
function modelSample(kind: Kind, sampler: ModelSampler, u: number, v: number): number[] {
  if (!sampler.linear) return tap(kind, sampler, Math.floor(u * W), Math.floor(v * H));
  const px = u * W - 0.5;
  const py = v * H - 0.5;
  const [bx, by] = [Math.floor(px), Math.floor(py)];
  const [fx, fy] = [px - bx, py - by];
  const sum = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    const [ox, oy] = [i & 1, i >> 1];
    const weight = Math.fround((ox ? fx : 1 - fx) * (oy ? fy : 1 - fy));
    tap(kind, sampler, bx + ox, by + oy).forEach((c, j) => (sum[j] = Math.fround((sum[j] as number) + weight * c)));
  }
  return sum;
}

/** Gather: the 2 × 2 footprint's `component`, in D3D's order (0, 1), (1, 1), (1, 0), (0, 0). */
function modelGather(kind: Kind, sampler: ModelSampler, u: number, v: number, component: number, map: boolean) {
  const bx = Math.floor(u * W - 0.5);
  const by = Math.floor(v * H - 0.5);
  return [
    [0, 1],
    [1, 1],
    [1, 0],
    [0, 0],
  ].map(([ox, oy]) => {
    const value = tap(kind, sampler, bx + (ox as number), by + (oy as number));
    return (map ? mapped(value) : value)[component] as number;
  });
}

// ---- Jobs: one read each, 16 bytes in and 16 bytes out ---------------------------------------------

/** Registers of the table (root parameter 2): t0-t7, then b0-b1. */
const T = {
  texture: 0,
  mapped: 1,
  rgba8: 2,
  rg32f: 3,
  raw: 4,
  structured: 5,
  nullTexture: 6,
  nullBuffer: 7,
  /** Texture2DArray SRVs of the array texture: slices 1-2, both mips; and mip 1 of every slice. */
  slices12: 8,
  mip1: 9,
};
const SRVS = 10;
const B = { cbv: 0, nullCbv: 1 };
const OP = { load: 0, sample: 1, gather: 2, typed: 3, raw: 4, structured: 5, cbv: 6, none: 255 } as const;
type Pass = 'load' | 'sample' | 'gather' | 'buffers';

interface Job {
  pass: Pass;
  label: string;
  words: [number, number, number, number];
  /** The expected 4 words for a resource kind. */
  expect: (kind: Kind) => number[];
}

const floatWords = (values: number[]): number[] => values.map(f32Bits);
/** op | sampler (or a load's slice) << 8 | component (or a load's mip) << 16 | pack << 24. */
const jobWord = (op: number, sampler = 0, component = 0, pack = 0): number =>
  op | (sampler << 8) | (component << 16) | (pack << 24);

function textureJobs(): Job[] {
  const jobs: Job[] = [];
  const loads: [number, number, number][] = [
    [T.texture, 0, 0],
    [T.texture, 5, 3],
    [T.texture, 63, 63],
    [T.texture, 64, 0],
    [T.texture, 127, 63],
    [T.texture, 100, 20],
    [T.texture, 128, 0],
    [T.texture, -1, 5],
    [T.texture, 0, 64],
    [T.mapped, 5, 3],
    [T.mapped, 70, 10],
    [T.nullTexture, 5, 3],
  ];
  // Texture2DArray loads: slice and mip of the view, packed back to bytes.
  const arrayLoads: [number, number, number, number, number][] = [
    [T.slices12, 3, 4, 0, 0],
    [T.slices12, 31, 31, 0, 0],
    [T.slices12, 31, 30, 1, 0],
    [T.slices12, 15, 15, 0, 1],
    [T.slices12, 2, 9, 1, 1],
    [T.slices12, 16, 0, 0, 1],
    [T.slices12, 0, 0, 2, 0],
    [T.slices12, 0, 0, 0, 2],
    [T.mip1, 5, 5, 0, 0],
    [T.mip1, 15, 0, 1, 0],
    [T.mip1, 1, 2, 2, 0],
    [T.mip1, 1, 2, 0, 1],
    [T.mip1, 16, 16, 0, 0],
  ];
  for (const [register, x, y, slice, mip] of arrayLoads) {
    const [firstSlice, slices, firstMip, mips] = register === T.slices12 ? [1, 2, 0, 2] : [0, 3, 1, 1];
    const size = ARRAY_SIZE >> (firstMip + mip);
    const inside = slice < slices && mip < mips && x < size && y < size;
    jobs.push({
      pass: 'load',
      label: `t${register}.Load(${x}, ${y}, slice ${slice}, mip ${mip}), packed`,
      words: [jobWord(OP.load, slice, mip, 1), register, x, y],
      expect: (kind) => [inside ? arrayTexelWord(kind, firstSlice + slice, firstMip + mip, x, y) : 0, 0, 0, 0],
    });
  }
  for (const [register, x, y] of loads) {
    const inside = x >= 0 && y >= 0 && x < W && y < H;
    jobs.push({
      pass: 'load',
      label: `t${register}.Load(${x}, ${y})`,
      words: [jobWord(OP.load), register, x >>> 0, y >>> 0],
      expect: (kind) => {
        // Out of bounds and a NULL view: 0 in every component. A NULL tile (Tier 2): the texel
        // decodes as 0 in every component of the format, and the view's component mapping applies.
        if (!inside || register === T.nullTexture) return [0, 0, 0, 0];
        const value = texelMapped(kind, x) ? modelTexel(kind, x, y) : [0, 0, 0, 0];
        return floatWords(register === T.mapped ? mapped(value) : value);
      },
    });
  }
  // Texel coordinates of uv (exact in f32: W and H are powers of two).
  const samples: [number, number, number, number][] = [
    [T.texture, 0, 5.75, 3.25],
    [T.texture, 0, W + 7.5, 2.5],
    [T.texture, 0, -0.5, -0.5],
    [T.texture, 0, 100.5, 40.5],
    [T.texture, 1, 10.75, 21],
    [T.texture, 1, 64, 32.5],
    [T.texture, 1, 0, 0],
    [T.texture, 1, W, H],
    [T.texture, 1, 63.25, 10.5],
    [T.texture, 2, -2.5, 1.5],
    [T.texture, 2, 130.5, 62.5],
    [T.texture, 3, 0, 0],
    [T.texture, 3, 64, 32],
    [T.texture, 3, W, 10.5],
    [T.mapped, 1, 10.75, 21],
    [T.nullTexture, 0, 5.5, 3.5],
  ];
  for (const [register, s, x, y] of samples) {
    const [u, v] = [x / W, y / H];
    jobs.push({
      pass: 'sample',
      label: `t${register}.SampleLevel(s${s}, (${x}, ${y}) / size, 0)`,
      words: [jobWord(OP.sample, s), register, f32Bits(u), f32Bits(v)],
      expect: (kind) => {
        if (register === T.nullTexture) return [0, 0, 0, 0];
        const value = modelSample(kind, SAMPLERS[s] as ModelSampler, u, v);
        return floatWords(register === T.mapped ? mapped(value) : value);
      },
    });
  }
  const gathers: [number, number, number, number, number][] = [
    [T.texture, 0, 0, 10, 20],
    [T.texture, 0, 1, 10, 20],
    [T.texture, 0, 2, 10, 20],
    [T.texture, 0, 3, 10, 20],
    [T.texture, 0, 0, 0, 0],
    [T.texture, 1, 0, 64, 32],
    [T.texture, 1, 1, W, H],
    [T.texture, 2, 0, 0.5, 63.5],
    [T.texture, 3, 0, 0, 0],
    [T.texture, 3, 2, 64, 1],
    [T.mapped, 0, 0, 70, 20],
    [T.nullTexture, 0, 0, 10, 20],
  ];
  for (const [register, s, component, x, y] of gathers) {
    const [u, v] = [x / W, y / H];
    jobs.push({
      pass: 'gather',
      label: `t${register}.Gather(s${s}, (${x}, ${y}) / size) component ${component}`,
      words: [jobWord(OP.gather, s, component), register, f32Bits(u), f32Bits(v)],
      expect: (kind) =>
        register === T.nullTexture
          ? [0, 0, 0, 0]
          : floatWords(modelGather(kind, SAMPLERS[s] as ModelSampler, u, v, component, register === T.mapped)),
    });
  }
  return jobs;
}

/** The buffer views' first bytes and element counts (as created in `writeViews`). */
const RGBA8_FIRST = 3;
const RGBA8_COUNT = BUFFER_BYTES / 4 - RGBA8_FIRST;
const RG32F_FIRST = 1;
const RG32F_COUNT = BUFFER_BYTES / 8 - RG32F_FIRST;
const RAW_FIRST = 8;
const RAW_COUNT = BUFFER_BYTES / 4 - RAW_FIRST;
const STRUCT_STRIDE = 12;
const STRUCT_FIRST = 2;
const STRUCT_COUNT = Math.floor((BUFFER_BYTES - STRUCT_FIRST * STRUCT_STRIDE) / STRUCT_STRIDE);
const CBV_OFFSET = TILE - 256;
const CBV_SIZE = 512;

function bufferJobs(): Job[] {
  const jobs: Job[] = [];
  for (const index of [0, 1, 100, 16380, 16381, RGBA8_COUNT - 1, RGBA8_COUNT]) {
    jobs.push({
      pass: 'buffers',
      label: `t${T.rgba8} (R8G8B8A8_UNORM)[${index}], packed back to bytes`,
      words: [jobWord(OP.typed, 0, 0, 1), T.rgba8, index, 0],
      expect: (kind) => [index < RGBA8_COUNT ? modelWord(kind, 4 * (RGBA8_FIRST + index)) : 0, 0, 0, 0],
    });
  }
  for (const index of [0, 8190, 8191, RG32F_COUNT - 1, RG32F_COUNT]) {
    jobs.push({
      pass: 'buffers',
      label: `t${T.rg32f} (R32G32_FLOAT)[${index}]`,
      words: [jobWord(OP.typed), T.rg32f, index, 0],
      expect: (kind) => {
        if (index >= RG32F_COUNT) return [0, 0, 0, 0];
        const byte = 8 * (RG32F_FIRST + index);
        return [modelWord(kind, byte), modelWord(kind, byte + 4), 0, f32Bits(1)];
      },
    });
  }
  const rawSize = RAW_COUNT * 4;
  for (const offset of [0, 16, TILE - 48, TILE - 40, TILE - 32, rawSize - 16, rawSize - 12, rawSize]) {
    jobs.push({
      pass: 'buffers',
      label: `t${T.raw} (raw).Load4(${offset})`,
      words: [jobWord(OP.raw), T.raw, offset, 0],
      expect: (kind) =>
        offset + 16 > rawSize ? [0, 0, 0, 0] : [0, 4, 8, 12].map((w) => modelWord(kind, RAW_FIRST * 4 + offset + w)),
    });
  }
  for (const [index, member] of structuredReads(STRUCT_FIRST, STRUCT_STRIDE, STRUCT_COUNT)) {
    jobs.push({
      pass: 'buffers',
      label: `t${T.structured} (stride 12)[${index}] at byte ${member}`,
      words: [jobWord(OP.structured), T.structured, index, member],
      expect: (kind) => [
        index < STRUCT_COUNT && member < STRUCT_STRIDE
          ? modelWord(kind, STRUCT_STRIDE * (STRUCT_FIRST + index) + member)
          : 0,
        0,
        0,
        0,
      ],
    });
  }
  for (const offset of [0, 240, 256, 496, 512]) {
    jobs.push({
      pass: 'buffers',
      label: `b${B.cbv} (CBV of ${CBV_SIZE} bytes at ${CBV_OFFSET}) register ${offset / 16}`,
      words: [jobWord(OP.cbv), B.cbv, offset, 0],
      expect: (kind) =>
        offset >= CBV_SIZE ? [0, 0, 0, 0] : [0, 4, 8, 12].map((w) => modelWord(kind, CBV_OFFSET + offset + w)),
    });
  }
  jobs.push(
    {
      pass: 'buffers',
      label: `b${B.nullCbv} (NULL CBV) register 0`,
      words: [jobWord(OP.cbv), B.nullCbv, 0, 0],
      expect: () => [0, 0, 0, 0],
    },
    {
      pass: 'buffers',
      label: `t${T.nullBuffer} (NULL typed SRV)[0]`,
      words: [jobWord(OP.typed), T.nullBuffer, 0, 0],
      expect: () => [0, 0, 0, 0],
    },
    {
      pass: 'buffers',
      label: `t${T.nullBuffer} (NULL typed SRV) as raw, Load4(0)`,
      words: [jobWord(OP.raw), T.nullBuffer, 0, 0],
      expect: () => [0, 0, 0, 0],
    },
  );
  return jobs;
}

const JOBS = [...textureJobs(), ...bufferJobs()];
const PASSES: readonly Pass[] = ['load', 'sample', 'gather', 'buffers'];

// ---- Shaders ----------------------------------------------------------------------------------------

const BODIES: Record<Pass, string> = {
  load: `let value = d3d12_texture_array_load(d3d12_texture2d(d3d12_t(job.y, 0u)), bitcast<vec2i>(job.zw), (job.x >> 8u) & 0xffu, (job.x >> 16u) & 0xffu);
  out = select(bitcast<vec4u>(value), vec4u(pack4x8unorm(value), 0u, 0u, 0u), (job.x >> 24u) == 1u);`,
  sample: `let smp = d3d12_sampler(d3d12_s((job.x >> 8u) & 0xffu, 0u));
  out = bitcast<vec4u>(d3d12_texture_sample_level(d3d12_texture2d(d3d12_t(job.y, 0u)), smp, bitcast<vec2f>(job.zw), 0.0));`,
  gather: `let smp = d3d12_sampler(d3d12_s((job.x >> 8u) & 0xffu, 0u));
  out = bitcast<vec4u>(d3d12_texture_gather(d3d12_texture2d(d3d12_t(job.y, 0u)), smp, bitcast<vec2f>(job.zw), (job.x >> 16u) & 0xffu));`,
  buffers: `if (op == ${OP.cbv}u) {
    out = d3d12_cbuffer_load4(d3d12_cbuffer(d3d12_b(job.y, 0u)), job.z);
  } else {
    let view = d3d12_buffer(d3d12_t(job.y, 0u));
    switch (op) {
      case ${OP.typed}u: {
        let value = d3d12_buffer_load(view, job.z);
        out = select(bitcast<vec4u>(value), vec4u(pack4x8unorm(value), 0u, 0u, 0u), (job.x >> 24u) == 1u);
      }
      case ${OP.raw}u: { out = d3d12_buffer_load_word4(view, job.z); }
      default: { out = vec4u(d3d12_buffer_load_structured(view, job.z, job.w), 0u, 0u, 0u); }
    }
  }`,
};

/** Job i from the root SRV (t0, space 1), its result to the root UAV (u0, space 1). */
const shader = (pass: Pass): string => `${jobShaderStart(OP.none)}
  var out = vec4u(0u);
  ${BODIES[pass]}
  d3d12_buffer_store_word4(d3d12_rw_buffer(d3d12_u(0u, 1u)), id.x * 16u, out);
}`;

// ---- The file's device, resources and descriptors ---------------------------------------------------

/** Descriptors per table: t0-t9, b0-b1. */
const TABLE = SRVS + 2;
/** Tables: one per kind, then one for the fault tests. */
const FAULT_TABLE = KINDS.length;

interface Setup {
  d3d: Device;
  queue: CommandQueue;
  rootSignature: RootSignature;
  pipelines: Record<Pass, PipelineState>;
  /** The jobs of each pass, padded to whole workgroups, in a DEFAULT buffer. */
  jobs: Record<Pass, { resource: Resource; count: number; jobs: Job[] }>;
  heap: DescriptorHeap;
  samplers: DescriptorHeap;
  out: Resource;
  handle(table: number, register: number): CpuDescriptorHandle;
}

const textureDesc = (layout: 'UNKNOWN' | '64KB_UNDEFINED_SWIZZLE'): ResourceDesc => ({
  dimension: 'TEXTURE2D',
  width: W,
  height: H,
  format: 'R32G32B32A32_FLOAT',
  layout,
});
const BUFFER_DESC: ResourceDesc = { dimension: 'BUFFER', width: BUFFER_BYTES };
const arrayDesc = (layout: 'UNKNOWN' | '64KB_UNDEFINED_SWIZZLE'): ResourceDesc => ({
  dimension: 'TEXTURE2D',
  width: ARRAY_SIZE,
  height: ARRAY_SIZE,
  depthOrArraySize: ARRAY_SLICES,
  mipLevels: ARRAY_MIPS,
  format: 'R8G8B8A8_UNORM',
  layout,
});

/** The array texture's subresources (slice-major, as D3D12 numbers them), rows packed. */
function arraySubresources(): Uint8Array[] {
  return Array.from({ length: ARRAY_SLICES * ARRAY_MIPS }, (_, sub) => {
    const [mip, slice] = [sub % ARRAY_MIPS, Math.floor(sub / ARRAY_MIPS)];
    const size = ARRAY_SIZE >> mip;
    const bytes = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) bytes.set(arrayTexel(slice, mip, x, y), (y * size + x) * 4);
    return bytes;
  });
}

/** The texture's texels, rows packed. */
function texels(): Uint8Array {
  const floats = new Float32Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) floats.set(texel(x, y), (y * W + x) * 4);
  return new Uint8Array(floats.buffer);
}

interface KindResources {
  texture: Resource;
  array: Resource;
  buffer: Resource;
  heap?: Heap;
}

/**
 * The textures and the buffer of `kind`, filled. Placed: in one heap, tile 0 unused. Reserved: the
 * texture's first tile, the buffer's first tile and the array's slices 0 and 1 mapped, at heap tiles
 * 2, 1, 3 and 4.
 */
async function kindResources(d3d: Device, queue: CommandQueue, kind: Kind): Promise<KindResources> {
  const layout = kind === 'reserved' ? '64KB_UNDEFINED_SWIZZLE' : 'UNKNOWN';
  const { resources, heap } = createKindResources(
    d3d,
    kind,
    {
      texture: { name: 'texture', desc: textureDesc(layout), placedAt: 3 * TILE },
      array: { name: 'array texture', desc: arrayDesc(layout), placedAt: 5 * TILE },
      buffer: { name: 'buffer', desc: BUFFER_DESC, placedAt: TILE },
    },
    { placed: 5 * TILE + d3d.getResourceAllocationInfo(arrayDesc('UNKNOWN')).sizeInBytes, reserved: 5 * TILE },
  );
  const { texture, array, buffer } = resources;
  if (kind === 'reserved') {
    mapTiles(queue, texture, heap as Heap, [{ subresource: 0, heapTile: 2 }]);
    mapTiles(queue, buffer, heap as Heap, [{ subresource: 0, heapTile: 1 }]);
    // Each slice's mips are one packed tail: slices 0 and 1 (subresources 0 and 2) mapped, slice 2 NULL.
    mapTiles(queue, array, heap as Heap, [
      { subresource: 0, heapTile: 3 },
      { subresource: ARRAY_MIPS, heapTile: 4 },
    ]);
  }
  await runList(d3d, queue, (list) => {
    copyTextureIn(d3d, list, texture, [texels()]);
    copyTextureIn(d3d, list, array, arraySubresources());
    list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, new Uint8Array(bufferWords.buffer)), 0, BUFFER_BYTES);
    list.resourceBarrier(transitions([texture, array, buffer], 'COPY_DEST', 'NON_PIXEL_SHADER_RESOURCE'));
  });
  return heap ? { ...resources, heap } : resources;
}

/** Table `table`'s views of `texture` and `buffer` (each may be null: its views are left out). */
function writeViews(setup: Setup, table: number, resources: Partial<KindResources>): void {
  const { d3d } = setup;
  const { texture, array, buffer } = resources;
  const at = (register: number): CpuDescriptorHandle => setup.handle(table, register);
  if (array) {
    const format = 'R8G8B8A8_UNORM';
    const viewDimension = 'TEXTURE2DARRAY';
    d3d.createShaderResourceView(
      array,
      { format, viewDimension, texture2DArray: { firstArraySlice: 1, arraySize: 2 } },
      at(T.slices12),
    );
    d3d.createShaderResourceView(
      array,
      { format, viewDimension, texture2DArray: { mostDetailedMip: 1, mipLevels: 1 } },
      at(T.mip1),
    );
  }
  if (texture) {
    d3d.createShaderResourceView(texture, null, at(T.texture));
    d3d.createShaderResourceView(
      texture,
      { format: 'R32G32B32A32_FLOAT', viewDimension: 'TEXTURE2D', shader4ComponentMapping: MAPPING },
      at(T.mapped),
    );
  }
  if (buffer) {
    d3d.createShaderResourceView(buffer, bufferView('R8G8B8A8_UNORM', RGBA8_FIRST, RGBA8_COUNT), at(T.rgba8));
    d3d.createShaderResourceView(buffer, bufferView('R32G32_FLOAT', RG32F_FIRST, RG32F_COUNT), at(T.rg32f));
    d3d.createShaderResourceView(buffer, bufferView('R32_TYPELESS', RAW_FIRST, RAW_COUNT, { flags: 'RAW' }), at(T.raw));
    d3d.createShaderResourceView(
      buffer,
      bufferView('UNKNOWN', STRUCT_FIRST, STRUCT_COUNT, { structureByteStride: STRUCT_STRIDE }),
      at(T.structured),
    );
    d3d.createConstantBufferView(
      { bufferLocation: buffer.getGPUVirtualAddress() + BigInt(CBV_OFFSET), sizeInBytes: CBV_SIZE },
      at(SRVS + B.cbv),
    );
  }
  d3d.createShaderResourceView(null, { format: 'R32G32B32A32_FLOAT', viewDimension: 'TEXTURE2D' }, at(T.nullTexture));
  d3d.createShaderResourceView(
    null,
    { format: 'R32_FLOAT', viewDimension: 'BUFFER', buffer: { firstElement: 0, numElements: 16 } },
    at(T.nullBuffer),
  );
  d3d.createConstantBufferView(null, at(SRVS + B.nullCbv));
}

/** Root parameters 0 and 1: the jobs (t0, space 1) and the results (u0, space 1); 2 and 3: the tables. */
const ROOT_DESC: VersionedRootSignatureDesc = {
  version: '1_1',
  desc_1_1: {
    parameters: [
      JOBS_PARAMETER,
      RESULTS_PARAMETER,
      srvCbvTable(SRVS, 2),
      {
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: { descriptorRanges: [{ rangeType: 'SAMPLER', numDescriptors: 2, baseShaderRegister: 0 }] },
      },
    ],
    staticSamplers: [
      { filter: 'MIN_MAG_MIP_POINT', addressU: 'MIRROR', addressV: 'MIRROR', addressW: 'MIRROR', shaderRegister: 2 },
      {
        filter: 'MIN_MAG_LINEAR_MIP_POINT',
        addressU: 'BORDER',
        addressV: 'BORDER',
        addressW: 'BORDER',
        borderColor: 'OPAQUE_WHITE',
        shaderRegister: 3,
      },
    ],
  },
};

async function createSetup(gpuDevice: GPUDevice): Promise<Setup> {
  // Tier 4: a reserved texture array with packed mips (the array texture).
  const { d3d, queue } = await createRigDevice(gpuDevice, 4);
  const rootSignature = d3d.createRootSignature(0, ROOT_DESC);
  const pipelines = await compilePasses(d3d, rootSignature, PASSES, shader);
  const jobs = {} as Setup['jobs'];
  for (const pass of PASSES) {
    const own = JOBS.filter((job) => job.pass === pass);
    const count = Math.ceil(own.length / 64) * 64;
    const words = new Uint32Array(count * 4).fill(OP.none);
    own.forEach((job, i) => words.set(job.words, i * 4));
    const resource = await filledBuffer(d3d, queue, new Uint8Array(words.buffer), 'NON_PIXEL_SHADER_RESOURCE');
    jobs[pass] = { resource, count, jobs: own };
  }
  const heap = d3d.createDescriptorHeap({
    type: 'CBV_SRV_UAV',
    numDescriptors: TABLE * (KINDS.length + 1),
    flags: 'SHADER_VISIBLE',
  });
  heap.setName('views');
  const samplers = d3d.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 2, flags: 'SHADER_VISIBLE' });
  d3d.createSampler(
    { filter: 'MIN_MAG_MIP_POINT', addressU: 'WRAP', addressV: 'WRAP', addressW: 'WRAP' },
    descriptorAt(d3d, samplers, 0),
  );
  d3d.createSampler(
    { filter: 'MIN_MAG_MIP_LINEAR', addressU: 'CLAMP', addressV: 'CLAMP', addressW: 'CLAMP' },
    descriptorAt(d3d, samplers, 1),
  );
  const out = defaultBuffer(d3d, TILE, 'UNORDERED_ACCESS', ['ALLOW_UNORDERED_ACCESS']);
  return {
    d3d,
    queue,
    rootSignature,
    pipelines,
    jobs,
    heap,
    samplers,
    out,
    handle: (table, register) => descriptorAt(d3d, heap, table * TABLE + register),
  };
}

/** Runs the passes' jobs through table `table`; returns each job's 4 words, by pass. */
async function run(setup: Setup, table: number, passes: readonly Pass[] = PASSES): Promise<Record<Pass, number[][]>> {
  const { d3d, queue, heap, samplers, rootSignature, out } = setup;
  const base = (pass: Pass): number => PASSES.indexOf(pass) * 128 * 16;
  await runList(d3d, queue, (list) => {
    list.setComputeRootSignature(rootSignature);
    list.setDescriptorHeaps([heap, samplers]);
    list.setComputeRootDescriptorTable(2, gpuDescriptorAt(d3d, heap, table * TABLE));
    list.setComputeRootDescriptorTable(3, samplers.getGPUDescriptorHandleForHeapStart());
    for (const pass of passes) {
      list.setPipelineState(setup.pipelines[pass]);
      list.setComputeRootShaderResourceView(0, setup.jobs[pass].resource.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress() + BigInt(base(pass)));
      list.dispatch(setup.jobs[pass].count / 64);
    }
  });
  const words = new Uint32Array((await readBuffer(d3d, queue, out, 0, PASSES.length * 128 * 16)).buffer);
  const results = {} as Record<Pass, number[][]>;
  for (const pass of PASSES)
    results[pass] = setup.jobs[pass].jobs.map((_, i) =>
      Array.from(words.subarray(base(pass) / 4 + i * 4, base(pass) / 4 + i * 4 + 4)),
    );
  return results;
}

/** The file's emulated device, resources and compiled pipelines, made once. */
const test = fileSetupTest(createSetup);

for (const [table, kind] of KINDS.entries()) {
  test(`${kind} resources: SRVs (Load, SampleLevel, Gather; typed, raw, structured buffers), CBVs and NULL descriptors read as the model says`, async (setup) => {
    writeViews(setup, table, await kindResources(setup.d3d, setup.queue, kind));
    const results = await run(setup, table);
    for (const pass of PASSES) {
      const jobs = setup.jobs[pass].jobs;
      expect(jobs.map((job, i) => `${job.label}: ${hex(results[pass][i] as number[])}`)).toEqual(
        jobs.map((job) => `${job.label}: ${hex(job.expect(kind))}`),
      );
    }
    expect(await setup.d3d.readFaults()).toEqual([]);
  });
}

test('an evicted heap faults where its resources are read through SRVs, naming resource and heap; reads give 0 until it is resident again', async (setup) => {
  const { d3d, queue } = setup;
  const { texture, array, heap } = await kindResources(d3d, queue, 'placed');
  const committed = await kindResources(d3d, queue, 'committed');
  writeViews(setup, FAULT_TABLE, { texture, array, buffer: committed.buffer });
  heap?.setName('evicted heap');
  d3d.evict([heap as Heap, committed.buffer]);
  const evicted = await run(setup, FAULT_TABLE, ['load', 'buffers']);
  const loadAt = setup.jobs.load.jobs.findIndex((job) => job.label === 't0.Load(5, 3)');
  const rawAt = setup.jobs.buffers.jobs.findIndex((job) => job.label === 't4 (raw).Load4(16)');
  expect(evicted.load[loadAt]).toEqual([0, 0, 0, 0]);
  expect(evicted.buffers[rawAt]).toEqual([0, 0, 0, 0]);
  const faults = await d3d.readFaults();
  const seen = new Map(faults.map((f) => [`${f.kind} ${f.resource?.label} ${f.heap?.state}`, f]));
  expect([...seen.keys()].sort()).toEqual(
    [
      `read-absent ${texture.label} evicted`,
      `read-absent ${array.label} evicted`,
      `read-absent ${committed.buffer.label} evicted`,
    ].sort(),
  );
  expect(seen.get(`read-absent ${texture.label} evicted`)?.heap?.id).toBe(heap?.id);
  expect(seen.get(`read-absent ${texture.label} evicted`)?.message).toContain("'evicted heap'");
  expect(seen.get(`read-absent ${committed.buffer.label} evicted`)?.resource?.kind).toBe('committed');

  d3d.makeResident([heap as Heap, committed.buffer]);
  const resident = await run(setup, FAULT_TABLE, ['load', 'buffers']);
  expect(hex(resident.load[loadAt] as number[])).toBe(hex(floatWords(texel(5, 3))));
  expect(hex(resident.buffers[rawAt] as number[])).toBe(
    hex([0, 4, 8, 12].map((w) => bufferWords[(RAW_FIRST * 4 + 16 + w) / 4] as number)),
  );
  expect(await d3d.readFaults()).toEqual([]);
});

test('SRVs of released placed and reserved resources report descriptor-released at their descriptors and read 0', async (setup) => {
  const { d3d, queue } = setup;
  const { texture, array } = await kindResources(d3d, queue, 'placed');
  const { buffer } = await kindResources(d3d, queue, 'reserved');
  writeViews(setup, FAULT_TABLE, { texture, array, buffer });
  const bufferAddress = buffer.getGPUVirtualAddress();
  texture.release();
  buffer.release();
  await flush(d3d, queue);
  const results = await run(setup, FAULT_TABLE, ['load', 'buffers']);
  const loadAt = setup.jobs.load.jobs.findIndex((job) => job.label === 't0.Load(5, 3)');
  const rawAt = setup.jobs.buffers.jobs.findIndex((job) => job.label === 't4 (raw).Load4(16)');
  expect(results.load[loadAt]).toEqual([0, 0, 0, 0]);
  expect(results.buffers[rawAt]).toEqual([0, 0, 0, 0]);
  const faults = await d3d.readFaults();
  // Views are checked against their resource; a CBV is only an address (as in D3D12), so its reads
  // of the freed range are reads of an address no resource owns.
  const released = faults.filter((f) => f.kind === 'descriptor-released');
  const unowned = faults.filter((f) => f.kind !== 'descriptor-released');
  expect(new Set(unowned.map((f) => f.kind))).toEqual(new Set(['read-unowned']));
  for (const fault of unowned) {
    const offset = BigInt(fault.address) - bufferAddress;
    expect(offset >= CBV_OFFSET && offset < CBV_OFFSET + CBV_SIZE, fault.address).toBe(true);
  }
  const holds = new Map(released.map((f) => [f.descriptor?.index, f.descriptor?.holds]));
  const index = (register: number): number => FAULT_TABLE * TABLE + register;
  for (const register of [T.texture, T.mapped])
    expect(holds.get(index(register))).toBe(`SRV of ${texture.label} (released)`);
  for (const register of [T.rgba8, T.rg32f, T.raw, T.structured])
    expect(holds.get(index(register))).toBe(`SRV of ${buffer.label} (released)`);
  expect([...holds.keys()].sort()).toHaveLength(6);
  expect(faults.find((f) => f.descriptor?.index === index(T.texture))?.message).toContain(
    `descriptor ${index(T.texture)} of ${setup.heap.label}`,
  );
});
