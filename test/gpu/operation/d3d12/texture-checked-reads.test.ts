/**
 * The checked texture reads (shaders/prelude/descriptor-views.wgsl: d3d12_texture_load_uint_checked,
 * d3d12_texture_load_sint_checked, d3d12_texture_gather_checked, d3d12_texture_sample_grad_checked,
 * d3d12_texture_sample_cmp_level_zero_checked; descriptor-views-fragment.wgsl:
 * d3d12_texture_sample_checked, _sample_bias_checked, d3d12_texture_array_sample_checked,
 * _array_sample_bias_checked) over committed, placed and reserved textures: every job's value and
 * status against a CPU model of the texels and of which tile each lies on. Three 128 × 64
 * textures of 16-byte texels (two 64 × 64 tiles side by side: R32G32B32A32_FLOAT, _UINT, _SINT); the
 * reserved ones keep their second tile NULL, so reads there give 0 (Tier 2) with status 0 and reads
 * whose footprint straddles the tiles give the data with status 0. Loads inside and outside the view
 * (0, status 0), Gather with CLAMP and BORDER samplers (a BORDER texel reads no memory: mapped),
 * SampleGrad whose derivatives pick the minification (point) or magnification (linear) filter,
 * SampleCmpLevelZero with point and linear comparison samplers (a NULL tile's texel is compared
 * as 0, so a negative reference passes it: value 1, status 0), and NULL descriptors (0, status 0).
 * Then the same jobs with the placed textures' heap evicted (read-absent faults; 0, status 0; the
 * data and status 1 back once resident), and a draw whose pixel shader calls the four fragment-stage
 * forms over the reserved texture and a NULL descriptor.
 *
 * The shaders start each status at a sentinel (0xdead), so a path that leaves it unset shows.
 */
import { expect } from 'vitest';
import type * as d3d12 from '../../../../src/index.js';
import { readBuffer, runList, TILE } from '../../../shared/d3d12-helpers.js';
import * as rig from '../../../shared/descriptor-rig.js';
import { backBufferRtv, textureSwapChain } from '../../../shared/texture-swap-chain.js';

// ---- The data and the CPU model ------------------------------------------------------------------

/** Each texture: 128 × 64 texels of 16 bytes, two 64 × 64 tiles side by side. */
const W = 128;
const H = 64;
/** The float texture's texel (x, y): small integers, so bilinear sums with weights of quarters are exact in f32. */
const floatTexel = (x: number, y: number): number[] => [x + W * y, x, y, 7];
/** The uint texture's texel, as words: high bits set, so a decode that drops them shows. */
const uintTexel = (x: number, y: number): number[] =>
  [x + W * y + 0x80000000, x ^ 0xdead0000, y | 0x10000, 0xffffffff - x].map((w) => w >>> 0);
/** The sint texture's texel: negative values. */
const sintTexel = (x: number, y: number): number[] => [-(x + W * y) - 1, x - 64, -y, 5];

/** What the textures' memory is when the jobs run: resident (a reserved texture's second tile NULL), or its heap evicted. */
type Condition = 'resident' | 'heap evicted';

/** Whether texel column x reads its data (else 0, status 0). */
const backed = (kind: rig.Kind, condition: Condition, x: number): boolean =>
  condition === 'resident' && (kind !== 'reserved' || x < 64);

interface Result {
  value: number[];
  status: number;
}
const ZERO: Result = { value: [0, 0, 0, 0], status: 0 };
const floatWords = (values: number[]): number[] => values.map(rig.f32Bits);

type Address = 'CLAMP' | 'BORDER';
type Comparison = 'LESS' | 'GREATER_EQUAL';
interface ModelSampler {
  minLinear: boolean;
  magLinear: boolean;
  address: Address;
  comparison?: Comparison;
}
/** s0-s4: static samplers (border: OPAQUE_WHITE). */
const SAMPLERS: ModelSampler[] = [
  { minLinear: false, magLinear: false, address: 'CLAMP' },
  { minLinear: false, magLinear: true, address: 'CLAMP' },
  { minLinear: true, magLinear: true, address: 'BORDER' },
  { minLinear: true, magLinear: true, address: 'CLAMP', comparison: 'LESS' },
  { minLinear: false, magLinear: false, address: 'CLAMP', comparison: 'GREATER_EQUAL' },
];
const STATIC_SAMPLERS: d3d12.StaticSamplerDesc[] = (
  [
    { filter: 'MIN_MAG_MIP_POINT', shaderRegister: 0 },
    { filter: 'MIN_POINT_MAG_LINEAR_MIP_POINT', shaderRegister: 1 },
    { filter: 'MIN_MAG_LINEAR_MIP_POINT', borderColor: 'OPAQUE_WHITE', shaderRegister: 2 },
    { filter: 'COMPARISON_MIN_MAG_LINEAR_MIP_POINT', comparisonFunc: 'LESS', shaderRegister: 3 },
    { filter: 'COMPARISON_MIN_MAG_MIP_POINT', comparisonFunc: 'GREATER_EQUAL', shaderRegister: 4 },
  ] satisfies d3d12.StaticSamplerDesc[]
).map((sampler, i): d3d12.StaticSamplerDesc => {
  const address = (SAMPLERS[i] as ModelSampler).address;
  return { ...sampler, addressU: address, addressV: address, addressW: address };
});

function addressTexel(c: number, n: number, mode: Address): number {
  return mode === 'BORDER' ? (c >= 0 && c < n ? c : -1) : Math.min(Math.max(c, 0), n - 1);
}

/** One filter tap of the float texture: its value (a comparison's 1 or 0) and whether it read mapped memory. */
function tap(kind: rig.Kind, condition: Condition, sampler: ModelSampler, x: number, y: number, reference = 0) {
  const ax = addressTexel(x, W, sampler.address);
  const ay = addressTexel(y, H, sampler.address);
  const border = ax < 0 || ay < 0;
  const mapped = border || backed(kind, condition, ax);
  let value = border ? [1, 1, 1, 1] : mapped ? floatTexel(ax, ay) : [0, 0, 0, 0];
  if (sampler.comparison) {
    const red = value[0] as number;
    const pass = sampler.comparison === 'LESS' ? reference < red : reference >= red;
    value = [0, 0, 0, 0].fill(pass ? 1 : 0);
  }
  return { value, mapped };
}

/** Mip 0 of the float texture filtered at uv as the prelude does (d3d12_filter_mip), in f32; status: every tap mapped. */
function modelFilter(
  kind: rig.Kind,
  condition: Condition,
  sampler: ModelSampler,
  u: number,
  v: number,
  linear: boolean,
  reference = 0,
): Result {
  if (!linear) {
    const { value, mapped } = tap(kind, condition, sampler, Math.floor(u * W), Math.floor(v * H), reference);
    return { value: floatWords(value), status: mapped ? 1 : 0 };
  }
  const px = u * W - 0.5;
  const py = v * H - 0.5;
  const [bx, by] = [Math.floor(px), Math.floor(py)];
  const [fx, fy] = [px - bx, py - by];
  const sum = [0, 0, 0, 0];
  let status = 1;
  for (let i = 0; i < 4; i++) {
    const [ox, oy] = [i & 1, i >> 1];
    const weight = Math.fround((ox ? fx : 1 - fx) * (oy ? fy : 1 - fy));
    const { value, mapped } = tap(kind, condition, sampler, bx + ox, by + oy, reference);
    value.forEach((c, j) => (sum[j] = Math.fround((sum[j] as number) + weight * c)));
    if (!mapped) status = 0;
  }
  return { value: floatWords(sum), status };
}

/** Gather: the 2 × 2 footprint's `component`, in D3D's order (0, 1), (1, 1), (1, 0), (0, 0); status: all four mapped. */
function modelGather(
  kind: rig.Kind,
  condition: Condition,
  sampler: ModelSampler,
  u: number,
  v: number,
  component: number,
) {
  const bx = Math.floor(u * W - 0.5);
  const by = Math.floor(v * H - 0.5);
  let status = 1;
  const value = [
    [0, 1],
    [1, 1],
    [1, 0],
    [0, 0],
  ].map(([ox, oy]) => {
    const t = tap(kind, condition, sampler, bx + (ox as number), by + (oy as number));
    if (!t.mapped) status = 0;
    return t.value[component] as number;
  });
  return { value: floatWords(value), status };
}

// ---- Jobs: 32 bytes in, 32 bytes out ---------------------------------------------------------------

/** Registers of the table: the three textures, then a NULL descriptor of each format. */
const T = { float: 0, uint: 1, sint: 2, nullFloat: 3, nullUint: 4, nullSint: 5 };
const SRVS = 6;
const FORMATS = ['R32G32B32A32_FLOAT', 'R32G32B32A32_UINT', 'R32G32B32A32_SINT'] as const;
const OP = { loadUint: 1, loadSint: 2, gather: 3, grad: 4, cmp: 5, none: 255 } as const;
type Pass = 'load' | 'gather' | 'grad' | 'cmp';
const PASSES: readonly Pass[] = ['load', 'gather', 'grad', 'cmp'];

interface Job {
  pass: Pass;
  label: string;
  words: number[];
  expect: (kind: rig.Kind, condition: Condition) => Result;
}

/** op | sampler << 8 | component << 16. */
const jobWord = (op: number, sampler = 0, component = 0): number => op | (sampler << 8) | (component << 16);

function jobs(): Job[] {
  const all: Job[] = [];
  // Loads: (x, y, slice, mip); the views have one slice and one mip.
  const loads: [number, number, number, number][] = [
    [0, 0, 0, 0],
    [5, 3, 0, 0],
    [63, 63, 0, 0],
    [64, 0, 0, 0],
    [127, 63, 0, 0],
    [100, 20, 0, 0],
    [128, 0, 0, 0],
    [-1, 5, 0, 0],
    [0, 64, 0, 0],
    [5, 3, 1, 0],
    [5, 3, 0, 1],
  ];
  for (const [op, register, nullRegister, data] of [
    [OP.loadUint, T.uint, T.nullUint, uintTexel],
    [OP.loadSint, T.sint, T.nullSint, sintTexel],
  ] as const) {
    const name = op === OP.loadUint ? 'Texture2D<uint4>' : 'Texture2D<int4>';
    for (const [x, y, slice, mip] of loads) {
      const inside = x >= 0 && y >= 0 && x < W && y < H && slice === 0 && mip === 0;
      all.push({
        pass: 'load',
        label: `t${register} (${name}).Load(${x}, ${y}, slice ${slice}, mip ${mip})`,
        words: [jobWord(op), register, x >>> 0, y >>> 0, slice, mip, 0, 0],
        expect: (kind, condition) => {
          if (!inside) return ZERO;
          const mapped = backed(kind, condition, x);
          return { value: mapped ? data(x, y).map((w) => w >>> 0) : [0, 0, 0, 0], status: mapped ? 1 : 0 };
        },
      });
    }
    all.push({
      pass: 'load',
      label: `t${nullRegister} (NULL ${name}).Load(5, 3)`,
      words: [jobWord(op), nullRegister, 5, 3, 0, 0, 0, 0],
      expect: () => ZERO,
    });
  }
  // Gathers: sampler, component and the texel coordinates of uv (exact in f32: W and H are powers of two).
  const gathers: [number, number, number, number][] = [
    [0, 0, 10, 20],
    [0, 1, 10, 20],
    [0, 2, 10, 20],
    [0, 3, 10, 20],
    [0, 0, 0, 0],
    [0, 0, 62, 10],
    [0, 0, 64, 32],
    [0, 1, 63.5, 10],
    [0, 1, 100.5, 40.5],
    [2, 0, 0, 0],
    [2, 0, W, H],
    [2, 2, 64, 1],
    [2, 0, 100.5, 40.5],
  ];
  for (const [s, component, x, y] of gathers) {
    const [u, v] = [x / W, y / H];
    all.push({
      pass: 'gather',
      label: `t${T.float}.Gather(s${s}, (${x}, ${y}) / size) component ${component}`,
      words: [jobWord(OP.gather, s, component), T.float, rig.f32Bits(u), rig.f32Bits(v), 0, 0, 0, 0],
      expect: (kind, condition) => modelGather(kind, condition, SAMPLERS[s] as ModelSampler, u, v, component),
    });
  }
  all.push({
    pass: 'gather',
    label: `t${T.nullFloat} (NULL).Gather(s0, (10, 20) / size)`,
    words: [jobWord(OP.gather), T.nullFloat, rig.f32Bits(10 / W), rig.f32Bits(20 / H), 0, 0, 0, 0],
    expect: () => ZERO,
  });
  // SampleGrad: derivatives of `texels` texels per pixel: 2 (LOD 1: the minification filter) or 0.5
  // (LOD -1: magnification); the one mip is read either way.
  const grads: [number, number, number, number][] = [
    [1, 10.75, 21, 0.5],
    [1, 10.75, 21, 2],
    [1, 64, 32.5, 0.5],
    [1, 63.25, 10.5, 2],
    [1, 63.75, 10.5, 0.5],
    [1, 64.5, 10.5, 2],
    [1, 100.5, 40.5, 0.5],
    [2, 0, 0, 0.5],
    [2, W, 10.5, 0.5],
  ];
  const gradJob = (register: number, s: number, x: number, y: number, texels: number): number[] => [
    jobWord(OP.grad, s),
    register,
    rig.f32Bits(x / W),
    rig.f32Bits(y / H),
    rig.f32Bits(texels / W),
    0,
    0,
    rig.f32Bits(texels / H),
  ];
  for (const [s, x, y, texels] of grads) {
    const sampler = SAMPLERS[s] as ModelSampler;
    all.push({
      pass: 'grad',
      label: `t${T.float}.SampleGrad(s${s}, (${x}, ${y}) / size, ${texels} texels per pixel)`,
      words: gradJob(T.float, s, x, y, texels),
      expect: (kind, condition) =>
        modelFilter(kind, condition, sampler, x / W, y / H, texels > 1 ? sampler.minLinear : sampler.magLinear),
    });
  }
  all.push({
    pass: 'grad',
    label: `t${T.nullFloat} (NULL).SampleGrad(s1, (10.75, 21) / size)`,
    words: gradJob(T.nullFloat, 1, 10.75, 21, 0.5),
    expect: () => ZERO,
  });
  // SampleCmpLevelZero: sampler, texel coordinates, reference (red at (x, y) is x + 128 y).
  const compares: [number, number, number, number][] = [
    [3, 10.75, 21, 2570.5],
    [3, 10.75, 21, -1],
    [3, 64, 32.5, 4000],
    [3, 64, 32.5, -1],
    [3, 100.5, 40.5, -1],
    [3, 100.5, 40.5, 5000],
    [4, 5.5, 3.5, 389],
    [4, 5.5, 3.5, 388],
    [4, 70.5, 3.5, 0],
  ];
  for (const [s, x, y, reference] of compares) {
    const sampler = SAMPLERS[s] as ModelSampler;
    all.push({
      pass: 'cmp',
      label: `t${T.float}.SampleCmpLevelZero(s${s}, (${x}, ${y}) / size, ${reference})`,
      words: [jobWord(OP.cmp, s), T.float, rig.f32Bits(x / W), rig.f32Bits(y / H), rig.f32Bits(reference), 0, 0, 0],
      expect: (kind, condition) => {
        const { value, status } = modelFilter(kind, condition, sampler, x / W, y / H, sampler.magLinear, reference);
        return { value: [value[0] as number, 0, 0, 0], status };
      },
    });
  }
  all.push({
    pass: 'cmp',
    label: `t${T.nullFloat} (NULL).SampleCmpLevelZero(s3, (10.75, 21) / size, -1)`,
    words: [jobWord(OP.cmp, 3), T.nullFloat, rig.f32Bits(10.75 / W), rig.f32Bits(21 / H), rig.f32Bits(-1), 0, 0, 0],
    expect: () => ZERO,
  });
  return all;
}

const JOBS = jobs();
/** Jobs per pass at most (the out buffer's room per pass). */
const PASS_ROOM = 128;

// ---- Shaders ----------------------------------------------------------------------------------------

const BODIES: Record<Pass, string> = {
  load: `if (op == ${OP.loadUint}u) {
    value = d3d12_texture_load_uint_checked(view, bitcast<vec2i>(job.zw), more.x, more.y, &status);
  } else {
    value = bitcast<vec4u>(d3d12_texture_load_sint_checked(view, bitcast<vec2i>(job.zw), more.x, more.y, &status));
  }`,
  gather: `value = bitcast<vec4u>(d3d12_texture_gather_checked(view, smp, bitcast<vec2f>(job.zw), (job.x >> 16u) & 0xffu, &status));`,
  grad: `value = bitcast<vec4u>(d3d12_texture_sample_grad_checked(view, smp, bitcast<vec2f>(job.zw), bitcast<vec2f>(more.xy), bitcast<vec2f>(more.zw), &status));`,
  cmp: `value.x = bitcast<u32>(d3d12_texture_sample_cmp_level_zero_checked(view, smp, bitcast<vec2f>(job.zw), bitcast<f32>(more.x), &status));`,
};

/** Job i from the root SRV (t0, space 1); its value and status (and CheckAccessFullyMapped) to the root UAV (u0, space 1). */
const shader = (pass: Pass): string => `${rig.jobShaderStart(OP.none, 32)}
  let more = d3d12_buffer_load_word4(jobs, id.x * 32u + 16u);
  let view = d3d12_texture2d(d3d12_t(job.y, 0u));
  ${pass === 'load' ? '' : 'let smp = d3d12_sampler(d3d12_s((job.x >> 8u) & 0xffu, 0u));'}
  var value = vec4u(0u);
  var status = 0xdeadu;
  ${BODIES[pass]}
  let out = d3d12_rw_buffer(d3d12_u(0u, 1u));
  d3d12_buffer_store_word4(out, id.x * 32u, value);
  d3d12_buffer_store_word4(out, id.x * 32u + 16u, vec4u(status, select(0u, 1u, d3d12_check_access_fully_mapped(status)), 0u, 0u));
}`;

/**
 * The pixel shader over the fragment forms: a target of 128 × 128, its top half reading the float
 * texture (t0) and its bottom half the NULL descriptor (t3), a texel per pixel (LOD 0; the biases
 * pick the minification and magnification filters of the point sampler s0). Each form gives a byte:
 * bit 7 status 1, bit 6 any other status than 0 and 1, bits 0-5 (green + blue) & 63: (x + y) & 63.
 */
const DRAW_SHADER = `
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {
  let corner = vec2f(f32((v << 1u) & 2u), f32(v & 2u));
  return vec4f(corner * 2.0 - 1.0, 0.0, 1.0);
}

fn status_byte(value: vec4f, status: u32) -> u32 {
  return select(0u, 128u, status == 1u) | select(0u, 64u, status > 1u) | (u32(value.y + value.z) & 63u);
}

@fragment fn ps(@builtin(position) position: vec4f) -> @location(0) vec4f {
  let bottom = position.y >= 64.0;
  let view = d3d12_texture2d(d3d12_t(select(${T.float}u, ${T.nullFloat}u, bottom), 0u));
  let smp = d3d12_sampler(d3d12_s(0u, 0u));
  let uv = vec2f(position.x / 128.0, (position.y - select(0.0, 64.0, bottom)) / 64.0);
  var s0 = 0xdeadu;
  var s1 = 0xdeadu;
  var s2 = 0xdeadu;
  var s3 = 0xdeadu;
  let a = d3d12_texture_sample_checked(view, smp, uv, &s0);
  let b = d3d12_texture_sample_bias_checked(view, smp, uv, 1.0, &s1);
  let c = d3d12_texture_array_sample_checked(view, smp, uv, 0u, &s2);
  let d = d3d12_texture_array_sample_bias_checked(view, smp, uv, 0u, -1.0, &s3);
  return vec4f(vec4u(status_byte(a, s0), status_byte(b, s1), status_byte(c, s2), status_byte(d, s3))) / 255.0;
}`;
const TARGET = { width: 128, height: 128 };

// ---- The file's device, resources and descriptors ---------------------------------------------------

/** Tables: one per kind, then one for the evicted heap and one for the draw. */
const EVICTED_TABLE = rig.KINDS.length;
const DRAW_TABLE = rig.KINDS.length + 1;

const ROOT_DESC: d3d12.VersionedRootSignatureDesc = {
  version: '1_1',
  desc_1_1: {
    parameters: [
      rig.JOBS_PARAMETER,
      rig.RESULTS_PARAMETER,
      {
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: { descriptorRanges: [{ rangeType: 'SRV', numDescriptors: SRVS, baseShaderRegister: 0 }] },
      },
    ],
    staticSamplers: STATIC_SAMPLERS,
  },
};
const DRAW_ROOT_DESC: d3d12.VersionedRootSignatureDesc = {
  version: '1_1',
  desc_1_1: {
    parameters: [
      {
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: { descriptorRanges: [{ rangeType: 'SRV', numDescriptors: SRVS, baseShaderRegister: 0 }] },
        shaderVisibility: 'PIXEL',
      },
    ],
    staticSamplers: [{ ...(STATIC_SAMPLERS[0] as d3d12.StaticSamplerDesc), shaderVisibility: 'PIXEL' }],
  },
};

interface Setup extends rig.RigDevice {
  rootSignature: d3d12.RootSignature;
  pipelines: Record<Pass, d3d12.PipelineState>;
  jobs: Record<Pass, { resource: d3d12.Resource; count: number; jobs: Job[] }>;
  heap: d3d12.DescriptorHeap;
  out: d3d12.Resource;
  draw: {
    gpu: GPUDevice;
    rootSignature: d3d12.RootSignature;
    pipeline: d3d12.PipelineState;
    target: GPUTexture;
    swapChain: d3d12.SwapChain;
    rtv: d3d12.CpuDescriptorHandle;
  };
}

async function createSetup(gpuDevice: GPUDevice): Promise<Setup> {
  const { d3d, queue } = await rig.createRigDevice(gpuDevice);
  const rootSignature = d3d.createRootSignature(0, ROOT_DESC);
  const pipelines = await rig.compilePasses(d3d, rootSignature, PASSES, shader);
  const jobs = {} as Setup['jobs'];
  for (const pass of PASSES) {
    const own = JOBS.filter((job) => job.pass === pass);
    if (own.length > PASS_ROOM) throw new Error(`${pass}: too many jobs`);
    const count = Math.ceil(own.length / 64) * 64;
    const words = new Uint32Array(count * 8).fill(OP.none);
    own.forEach((job, i) => words.set(job.words, i * 8));
    const resource = await rig.filledBuffer(d3d, queue, new Uint8Array(words.buffer), 'NON_PIXEL_SHADER_RESOURCE');
    jobs[pass] = { resource, count, jobs: own };
  }
  const heap = d3d.createDescriptorHeap({
    type: 'CBV_SRV_UAV',
    numDescriptors: SRVS * (DRAW_TABLE + 1),
    flags: 'SHADER_VISIBLE',
  });
  heap.setName('texture views');
  const out = rig.defaultBuffer(d3d, PASSES.length * PASS_ROOM * 32, 'UNORDERED_ACCESS', ['ALLOW_UNORDERED_ACCESS']);

  const drawRootSignature = d3d.createRootSignature(0, DRAW_ROOT_DESC);
  const pipeline = await d3d.createGraphicsPipelineState({
    code: DRAW_SHADER,
    vertexEntryPoint: 'vs',
    fragmentEntryPoint: 'ps',
    rtvFormats: ['R8G8B8A8_UNORM'],
    numRenderTargets: 1,
    primitiveTopologyType: 'TRIANGLE',
    rootSignature: drawRootSignature,
    rasterizerState: { cullMode: 'NONE' },
    label: 'fragment checked samples',
  });
  const { target, swapChain } = textureSwapChain(d3d, gpuDevice, TARGET.width, TARGET.height);
  const rtv = backBufferRtv(d3d, swapChain);
  const draw = { gpu: gpuDevice, rootSignature: drawRootSignature, pipeline, target, swapChain, rtv };
  return { d3d, queue, rootSignature, pipelines, jobs, heap, out, draw };
}

const textureDesc = (format: string, layout: 'UNKNOWN' | '64KB_UNDEFINED_SWIZZLE'): d3d12.ResourceDesc => ({
  dimension: 'TEXTURE2D',
  width: W,
  height: H,
  format,
  layout,
});

/** A texture's texels, rows packed. */
function texels(format: (typeof FORMATS)[number]): Uint8Array {
  const words = new Uint32Array(W * H * 4);
  const floats = new Float32Array(words.buffer);
  const ints = new Int32Array(words.buffer);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const at = (y * W + x) * 4;
      if (format === 'R32G32B32A32_FLOAT') floats.set(floatTexel(x, y), at);
      else if (format === 'R32G32B32A32_UINT') words.set(uintTexel(x, y), at);
      else ints.set(sintTexel(x, y), at);
    }
  return new Uint8Array(words.buffer);
}

interface Textures {
  textures: d3d12.Resource[];
  heap?: d3d12.Heap;
}

/**
 * The three textures as `kind`, filled, in `state`. Placed: one after another from tile 1 of one heap.
 * Reserved: each one's first tile mapped (heap tiles 0-2), its second NULL.
 */
async function kindTextures(
  { d3d, queue }: rig.RigDevice,
  kind: rig.Kind,
  state: d3d12.ResourceState,
): Promise<Textures> {
  const layout = kind === 'reserved' ? '64KB_UNDEFINED_SWIZZLE' : 'UNKNOWN';
  const size = d3d.getResourceAllocationInfo(textureDesc(FORMATS[0], 'UNKNOWN')).sizeInBytes;
  const { resources, heap } = rig.kindResources(
    d3d,
    kind,
    Object.fromEntries(
      FORMATS.map((format, i) => [
        format,
        { name: format, desc: textureDesc(format, layout), placedAt: TILE + i * size },
      ]),
    ) as Record<(typeof FORMATS)[number], { name: string; desc: d3d12.ResourceDesc; placedAt: number }>,
    { placed: TILE + FORMATS.length * size, reserved: FORMATS.length * TILE },
  );
  const textures = FORMATS.map((format) => resources[format]);
  if (kind === 'reserved')
    textures.forEach((texture, i) =>
      rig.mapTiles(queue, texture, heap as d3d12.Heap, [{ subresource: 0, heapTile: i }]),
    );
  await runList(d3d, queue, (list) => {
    textures.forEach((texture, i) =>
      rig.copyTextureIn(d3d, list, texture, [texels(FORMATS[i] as (typeof FORMATS)[number])]),
    );
    list.resourceBarrier(rig.transitions(textures, 'COPY_DEST', state));
  });
  return heap ? { textures, heap } : { textures };
}

/** Table `table`'s views of the textures, and the NULL descriptors. */
function writeViews(setup: Setup, table: number, textures: d3d12.Resource[]): void {
  const { d3d, heap } = setup;
  const at = (register: number) => rig.descriptorAt(d3d, heap, table * SRVS + register);
  textures.forEach((texture, i) => d3d.createShaderResourceView(texture, null, at(i)));
  FORMATS.forEach((format, i) =>
    d3d.createShaderResourceView(null, { format, viewDimension: 'TEXTURE2D' }, at(T.nullFloat + i)),
  );
}

/** Runs every pass's jobs through table `table`; returns each job's result, in JOBS' order by pass. */
async function run(setup: Setup, table: number): Promise<Map<Job, Result>> {
  const { d3d, queue, heap, rootSignature, out } = setup;
  const base = (pass: Pass): number => PASSES.indexOf(pass) * PASS_ROOM * 32;
  await runList(d3d, queue, (list) => {
    list.setComputeRootSignature(rootSignature);
    list.setDescriptorHeaps([heap]);
    list.setComputeRootDescriptorTable(2, rig.gpuDescriptorAt(d3d, heap, table * SRVS));
    for (const pass of PASSES) {
      list.setPipelineState(setup.pipelines[pass]);
      list.setComputeRootShaderResourceView(0, setup.jobs[pass].resource.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress() + BigInt(base(pass)));
      list.dispatch(setup.jobs[pass].count / 64);
    }
  });
  const words = new Uint32Array((await readBuffer(d3d, queue, out, 0, PASSES.length * PASS_ROOM * 32)).buffer);
  const results = new Map<Job, Result>();
  for (const pass of PASSES)
    setup.jobs[pass].jobs.forEach((job, i) => {
      const at = base(pass) / 4 + i * 8;
      const [status, fullyMapped] = [words[at + 4] as number, words[at + 5] as number];
      // CheckAccessFullyMapped must agree with the status bit (a status that is neither 0 nor 1 shows as is).
      expect(fullyMapped, `${job.label}: CheckAccessFullyMapped of status ${status}`).toBe(status & 1);
      results.set(job, { value: Array.from(words.subarray(at, at + 4)), status });
    });
  return results;
}

const line = (label: string, result: Result): string => `${label}: ${rig.hex(result.value)} status ${result.status}`;

/** Every job's value and status against the model for `kind` under `condition`. */
function expectModel(results: Map<Job, Result>, kind: rig.Kind, condition: Condition): void {
  expect(JOBS.map((job) => line(job.label, results.get(job) as Result))).toEqual(
    JOBS.map((job) => line(job.label, job.expect(kind, condition))),
  );
}

/** The file's emulated device, pipelines, jobs and render target, made once. */
const test = rig.fileSetupTest(createSetup, (setup) => setup.draw.target.destroy());

for (const [table, kind] of rig.KINDS.entries()) {
  test(`${kind} textures: each checked Load (uint, sint), Gather, SampleGrad and SampleCmpLevelZero gives the model's value and status`, async (setup) => {
    const { textures } = await kindTextures(setup, kind, 'NON_PIXEL_SHADER_RESOURCE');
    writeViews(setup, table, textures);
    expectModel(await run(setup, table), kind, 'resident');
    expect(await setup.d3d.readFaults()).toEqual([]);
  });
}

test('an evicted heap: checked texture reads of the placed textures give 0 with status 0 and fault naming each texture and the heap; resident again, they read as before', async (setup) => {
  const { d3d } = setup;
  const { textures, heap } = await kindTextures(setup, 'placed', 'NON_PIXEL_SHADER_RESOURCE');
  heap?.setName('evicted heap');
  writeViews(setup, EVICTED_TABLE, textures);
  await d3d.readFaults(); // what an earlier failed test left
  d3d.evict([heap as d3d12.Heap]);
  try {
    expectModel(await run(setup, EVICTED_TABLE), 'placed', 'heap evicted');
    const faults = await d3d.readFaults();
    expect(new Set(faults.map((f) => `${f.kind} ${f.resource?.label} ${f.heap?.label} ${f.heap?.state}`))).toEqual(
      new Set(textures.map((texture) => `read-absent ${texture.label} ${heap?.label} evicted`)),
    );
  } finally {
    d3d.makeResident([heap as d3d12.Heap]);
  }
  expectModel(await run(setup, EVICTED_TABLE), 'placed', 'resident');
  expect(await d3d.readFaults()).toEqual([]);
});

test('a pixel shader: Sample, SampleBias and their Texture2DArray forms with a status over a reserved texture (a NULL tile) and a NULL descriptor', async (setup) => {
  const { d3d, queue, heap, draw } = setup;
  const { textures } = await kindTextures(setup, 'reserved', 'PIXEL_SHADER_RESOURCE');
  writeViews(setup, DRAW_TABLE, textures);
  await runList(d3d, queue, (list) => {
    const backBuffer = draw.swapChain.getCurrentBackBuffer();
    list.resourceBarrier(rig.transitions([backBuffer], 'PRESENT', 'RENDER_TARGET'));
    list.setPipelineState(draw.pipeline);
    list.setGraphicsRootSignature(draw.rootSignature);
    list.setDescriptorHeaps([heap]);
    list.setGraphicsRootDescriptorTable(0, rig.gpuDescriptorAt(d3d, heap, DRAW_TABLE * SRVS));
    list.omSetRenderTargets([draw.rtv]);
    list.clearRenderTargetView(draw.rtv, [0, 0, 0, 0]);
    list.iaSetPrimitiveTopology('TRIANGLELIST');
    list.drawInstanced(3, 1, 0, 0);
    list.resourceBarrier(rig.transitions([backBuffer], 'RENDER_TARGET', 'PRESENT'));
  });
  const { width, height } = TARGET;
  const read = draw.gpu.createBuffer({
    size: width * height * 4,
    usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
  });
  const encoder = draw.gpu.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture: draw.target }, { buffer: read, bytesPerRow: width * 4 }, [width, height]);
  draw.gpu.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const got = new Uint32Array(read.getMappedRange().slice(0));
  read.destroy();
  // Top half: texel (x, y) of the reserved texture, mapped for x < 64 (its first tile), else 0 with
  // status 0; bottom half: the NULL descriptor, 0 with status 0. The same byte from all four forms.
  const want = Uint32Array.from({ length: width * height }, (_, p) => {
    const [x, y] = [p % width, Math.floor(p / width)];
    const byte = y < H && x < 64 ? 128 | ((x + y) & 63) : 0;
    return (byte * 0x01010101) >>> 0;
  });
  const rows = (words: Uint32Array) =>
    Array.from({ length: height }, (_, y) =>
      Array.from(words.subarray(y * width, (y + 1) * width), (w) => w.toString(16)).join(' '),
    );
  expect(rows(got)).toEqual(rows(want));
  expect(await d3d.readFaults()).toEqual([]);
});
