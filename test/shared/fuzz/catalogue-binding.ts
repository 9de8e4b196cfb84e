/**
 * The API fuzzer's catalogue of resource binding on the device side: descriptor heaps and the Device
 * calls that write descriptors (Create*View, CreateSampler, CopyDescriptors[Simple]); root signatures
 * (createRootSignature, serializeVersionedRootSignature, serializeRootSignature); command allocators
 * and D3D12's createCommandList(nodeMask, type, allocator, state); DescriptorHeap, RootSignature,
 * CommandAllocator and the swap chain's methods; and the binding objects a world starts with
 * (populateBinding). catalogue-binding-list.ts has the command lists' binding calls.
 *
 * Invariants: valid plans name live objects of this device and stay inside them: a CPU handle names
 * a descriptor of a live heap of the call's type (a range of them inside it), an allocator has no
 * list recording into it. 'invalid' follows values.ts (D3D12 or its debug layer refuses the value);
 * what only the emulator refuses (UAV counters, views of 1D and 3D textures, render targets in heap
 * memory, a blob whose bytes were changed but still parse) is 'maybe'. A released descriptor heap,
 * root signature or allocator is wrong everywhere but getName, as other device children are.
 */
import {
  serializeRootSignature,
  serializeVersionedRootSignature,
  type CommandAllocator,
  type CpuDescriptorHandle,
  type DescriptorHeap,
  type DescriptorHeapType,
  type DescriptorRange,
  type GpuDescriptorHandle,
  type GraphicsCommandList,
  type Resource,
  type RootParameter,
  type RootSignature,
  type RootSignatureDesc,
  type VersionedRootSignatureDesc,
} from '../../../src/index.js';
import {
  COMPARISON_FUNCS,
  DESCRIPTOR_HEAP_TYPES,
  FILTERS,
  FLOAT32_MAX,
  TEXTURE_ADDRESS_MODES,
  UNBOUNDED_DESCRIPTOR_RANGE,
} from '../../../src/api/binding-types.js';
import { formatInfo } from '../../../src/memory/formats.js';
import { viewFormat } from '../../../src/memory/view-formats.js';
import type { Random } from '../../../src/validate/random.js';
import { badArrayOf } from './catalogue-objects.js';
import { badRef, pickOf, type DeviceWorld, type FuzzContext } from './pool.js';
import { field } from './snapshot.js';
import { param, type CallPlan, type ClassName, type MethodSpec, type Param, type Receiver } from './spec.js';
import { badEnum, badField, badUint, DELETE, invalid, maybe, notAStruct, oddString, type Arg } from './values.js';

const LIST_TYPES = ['DIRECT', 'COMPUTE', 'COPY'] as const;

/** The root signature the fuzz's table pipeline is made with (TABLE_WGSL): every kind of root parameter. */
export const TABLE_ROOT_SIGNATURE: VersionedRootSignatureDesc = {
  version: '1_1',
  desc_1_1: {
    parameters: [
      { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 0, num32BitValues: 4 } },
      {
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: {
          descriptorRanges: [
            { rangeType: 'UAV', numDescriptors: 1, baseShaderRegister: 0 },
            { rangeType: 'SRV', numDescriptors: 2, baseShaderRegister: 0, flags: ['DESCRIPTORS_VOLATILE'] },
          ],
        },
      },
      { parameterType: 'UAV', descriptor: { shaderRegister: 1 } },
      { parameterType: 'CBV', descriptor: { shaderRegister: 1, flags: 'DATA_STATIC' } },
      {
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: { descriptorRanges: [{ rangeType: 'SAMPLER', numDescriptors: 1, baseShaderRegister: 0 }] },
      },
      { parameterType: 'SRV', descriptor: { shaderRegister: 2 } },
    ],
  },
};

/** The table pipeline's shader: root constant 0 turns on one read through t0 and one write through u0 (table 1). */
export const TABLE_WGSL = `
@compute @workgroup_size(1) fn main() {
  if (d3d12_root_constant(0u) == 0u) { return; }
  let src = d3d12_buffer(d3d12_t(0u, 0u));
  let out = d3d12_rw_buffer(d3d12_u(0u, 0u));
  d3d12_buffer_store_word(out, 0u, d3d12_buffer_load_word(src, 0u) + 1u);
}`;

/** The side of the fuzz's swap chain's back buffers (a texture stands in for the canvas). */
export const BACK_BUFFER_SIZE = 64;

/**
 * The binding objects a world starts with: descriptor heaps of every type (shader-visible ones
 * too), root signatures, allocators of each type and a list recording into one, and one released
 * object of each kind; the full (main) world also a swap chain over a texture, a depth texture for
 * depth-stencil views and the table pipeline.
 */
export async function populateBinding(world: DeviceWorld, full: boolean): Promise<void> {
  const device = world.device;
  const heap = (type: DescriptorHeapType, numDescriptors: number, shaderVisible = false): DescriptorHeap => {
    const made = device.createDescriptorHeap({ type, numDescriptors, flags: shaderVisible ? ['SHADER_VISIBLE'] : [] });
    world.addDescriptorHeap(made);
    return made;
  };
  heap('CBV_SRV_UAV', full ? 16 : 4, true);
  heap('SAMPLER', 4);
  heap('RTV', full ? 4 : 2);
  if (full) {
    heap('CBV_SRV_UAV', 8);
    heap('SAMPLER', 4, true);
    heap('DSV', 2);
  }
  const table = device.createRootSignature(0, TABLE_ROOT_SIGNATURE);
  world.addRootSignature(table);
  if (full)
    world.addRootSignature(device.createRootSignature(0, serializeVersionedRootSignature(SMALL_ROOT_SIGNATURE)));
  for (const type of full ? LIST_TYPES : (['DIRECT'] as const)) world.addAllocator(device.createCommandAllocator(type));
  const direct = world.allocators[0] as CommandAllocator;
  world.addList(device.createCommandList(0, 'DIRECT', direct, null));
  // Released objects, so every kind has a released one to pass from the first call.
  const releasedHeap = device.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 2 });
  world.addDescriptorHeap(releasedHeap);
  world.releaseChild(world.descriptorHeaps, world.releasedDescriptorHeaps, releasedHeap, 'upkeep');
  const releasedSignature = device.createRootSignature(0, SMALL_ROOT_SIGNATURE);
  world.addRootSignature(releasedSignature);
  world.releaseChild(world.rootSignatures, world.releasedRootSignatures, releasedSignature, 'upkeep');
  const releasedAllocator = device.createCommandAllocator('COMPUTE');
  world.addAllocator(releasedAllocator);
  world.releaseChild(world.allocators, world.releasedAllocators, releasedAllocator, 'upkeep');
  if (!full) return;
  const gpuDevice = device.gpuDevice as GPUDevice;
  const target = gpuDevice.createTexture({
    size: [BACK_BUFFER_SIZE, BACK_BUFFER_SIZE],
    format: 'bgra8unorm',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const context = {
    canvas: { width: BACK_BUFFER_SIZE, height: BACK_BUFFER_SIZE },
    configure: () => undefined,
    unconfigure: () => undefined,
    getCurrentTexture: () => target,
  };
  world.swapChain = device.createSwapChain(context as unknown as GPUCanvasContext, {
    format: 'B8G8R8A8_UNORM',
    bufferCount: 3,
  });
  world.depthTexture = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'TEXTURE2D', width: 16, height: 16, format: 'D32_FLOAT', flags: ['ALLOW_DEPTH_STENCIL'] },
    'DEPTH_WRITE',
  );
  world.label(world.depthTexture, `resource#${world.depthTexture.id}(depth)`);
  world.addPipeline(
    await device.createComputePipelineState({ code: TABLE_WGSL, entryPoint: 'main', rootSignature: table }),
  );
}

const SMALL_ROOT_SIGNATURE: VersionedRootSignatureDesc = {
  version: '1_0',
  desc_1_0: {
    parameters: [
      {
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: {
          descriptorRanges: [
            { rangeType: 'CBV', numDescriptors: 1, baseShaderRegister: 0 },
            { rangeType: 'SRV', numDescriptors: UNBOUNDED_DESCRIPTOR_RANGE, baseShaderRegister: 0 },
          ],
        },
        shaderVisibility: 'PIXEL',
      },
      { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 1, num32BitValues: 2 } },
    ],
    staticSamplers: [{ filter: 'MIN_MAG_MIP_LINEAR', shaderRegister: 0, addressU: 'WRAP' }],
  },
};

// ---- small helpers ------------------------------------------------------------------------------

export const live = (target: object): Receiver => ({ target, validity: 'valid' });
export const wrong = (target: object | undefined): Receiver | undefined =>
  target ? { target, validity: 'invalid' } : undefined;
export const plan = (
  target: object | undefined,
  args: unknown[],
  extra: Partial<CallPlan> = {},
): CallPlan | undefined => (target ? { receiver: live(target), args, ...extra } : undefined);
const deviceCall = (ctx: FuzzContext, args: unknown[], extra: Partial<CallPlan> = {}): CallPlan => ({
  receiver: live(ctx.main.device),
  args,
  ...extra,
});

export const isVisible = (heap: DescriptorHeap): boolean => heap.desc.flags.includes('SHADER_VISIBLE');
export const sizeOf = (heap: DescriptorHeap): number => heap.desc.numDescriptors;
export const cpu = (heap: DescriptorHeap, index: number): CpuDescriptorHandle => ({
  ptr: heap.cpuBase + index * heap.incrementSize,
});
export const gpu = (heap: DescriptorHeap, index: number): GpuDescriptorHandle => ({
  ptr: (heap.memory as Resource).getGPUVirtualAddress() + BigInt(index * heap.incrementSize),
});

/** Live heaps of `type` (shader-visible or not, when given) with room for `room` descriptors. */
export function heapsOf(
  world: DeviceWorld,
  type: DescriptorHeapType,
  options: { visible?: boolean; room?: number } = {},
): DescriptorHeap[] {
  return world.descriptorHeaps.filter(
    (h) =>
      h.desc.type === type &&
      (options.visible === undefined || isVisible(h) === options.visible) &&
      sizeOf(h) >= (options.room ?? 1),
  );
}

export interface Slot {
  heap: DescriptorHeap;
  index: number;
}

/** A descriptor (the first of `room`) of a live heap of `type`. */
export function slotOf(
  ctx: FuzzContext,
  type: DescriptorHeapType,
  options: { visible?: boolean; room?: number } = {},
): Slot | undefined {
  const heap = pickOf(ctx.rng, heapsOf(ctx.main, type, options));
  return heap && { heap, index: ctx.rng.int(0, sizeOf(heap) - (options.room ?? 1)) };
}

/** The live heap of this device a CPU handle points into. */
export function heapOfHandle(world: DeviceWorld, handle: unknown): DescriptorHeap | undefined {
  const ptr = (handle as CpuDescriptorHandle | null | undefined)?.ptr;
  if (typeof ptr !== 'number') return undefined;
  return world.descriptorHeaps.find((h) => ptr >= h.cpuBase && ptr < h.cpuBase + sizeOf(h) * h.incrementSize);
}

/**
 * A CPU handle that names no descriptor of a live heap of `type` of this device: not a handle,
 * between descriptors, past the heap's end, in a released heap, in another device's heap, or in a
 * heap of another type.
 */
export function badCpuHandle(ctx: FuzzContext, type: DescriptorHeapType, good: unknown): Arg {
  const { rng } = ctx;
  const heap = heapOfHandle(ctx.main, good);
  const r = rng.float();
  if (r < 0.25 || !heap)
    return invalid(
      rng.pick<unknown>([
        null,
        undefined,
        5,
        'ptr',
        {},
        [],
        { ptr: NaN },
        { ptr: -incrementOf(type) },
        { ptr: 1.5 },
        { ptr: 2n ** 32n },
        { ptr: '4294967296' },
        { ptr: Infinity },
        { ptr: 0 },
      ]),
    );
  const ptr = (good as CpuDescriptorHandle).ptr;
  if (r < 0.4) return invalid({ ptr: ptr + rng.pick([1, 4, heap.incrementSize / 2]) });
  if (r < 0.5) return invalid(cpu(heap, sizeOf(heap)));
  const elsewhere =
    r < 0.65
      ? pickOf(rng, ctx.main.releasedDescriptorHeaps)
      : r < 0.82
        ? pickOf(rng, heapsOf(ctx.other, type))
        : pickOf(
            rng,
            ctx.main.descriptorHeaps.filter((h) => h.desc.type !== type),
          );
  return invalid(elsewhere ? cpu(elsewhere, rng.int(0, sizeOf(elsewhere) - 1)) : { ptr: -1 });
}

/** GetDescriptorHandleIncrementSize's answer (320 / 64 / 32 / 32 bytes). */
function incrementOf(type: DescriptorHeapType): number {
  return type === 'CBV_SRV_UAV' ? 320 : type === 'SAMPLER' ? 64 : 32;
}

// ---- descriptions -------------------------------------------------------------------------------

const REGISTER: Record<DescriptorRange['rangeType'], 't' | 'u' | 'b' | 's'> = {
  SRV: 't',
  UAV: 'u',
  CBV: 'b',
  SAMPLER: 's',
};

/**
 * A bad resource for a render-target or depth-stencil view: one of the pool's textures (none has the
 * ALLOW_RENDER_TARGET or ALLOW_DEPTH_STENCIL flag), else a bad reference; null makes a NULL view ('maybe').
 */
function badViewTarget(ctx: FuzzContext): Arg {
  const { rng } = ctx;
  const texture = rng.chance(0.4) ? pickOf(rng, ctx.main.textures()) : undefined;
  if (texture) return invalid(texture);
  const bad = badRef(ctx, 'resource');
  return bad.value === null ? maybe(null) : bad;
}

/** A root signature D3D12 accepts: the table pipeline's, or up to four parameters on registers of their own. */

export function rootSignatureDesc(rng: Random): VersionedRootSignatureDesc {
  if (rng.chance(0.3)) return structuredClone(TABLE_ROOT_SIGNATURE);
  if (rng.chance(0.1)) return structuredClone(SMALL_ROOT_SIGNATURE);
  const v11 = rng.chance(0.5);
  const next = { t: 0, u: 0, b: 0, s: 0 };
  const take = (kind: keyof typeof next, n: number): number => {
    const first = next[kind];
    next[kind] += n;
    return first;
  };
  const visibility = (): Partial<RootParameter> =>
    rng.chance(0.7) ? {} : { shaderVisibility: rng.pick(['ALL', 'VERTEX', 'PIXEL'] as const) };
  const parameters: RootParameter[] = [];
  for (let i = rng.int(0, 4); i > 0; i--) {
    const r = rng.float();
    if (r < 0.45) {
      const sampler = rng.chance(0.25);
      const ranges = Array.from({ length: sampler ? 1 : rng.int(1, 3) }, (): DescriptorRange => {
        const rangeType = sampler ? 'SAMPLER' : rng.pick(['SRV', 'UAV', 'CBV'] as const);
        const numDescriptors = rng.int(1, 3);
        const range: DescriptorRange = {
          rangeType,
          numDescriptors,
          baseShaderRegister: take(REGISTER[rangeType], numDescriptors),
        };
        if (v11 && rng.chance(0.4))
          range.flags = sampler
            ? ['DESCRIPTORS_VOLATILE']
            : rng.pick<DescriptorRange['flags']>([
                ['DESCRIPTORS_VOLATILE'],
                ['DATA_STATIC'],
                'DATA_VOLATILE',
                'NONE',
                ['DESCRIPTORS_VOLATILE', 'DATA_VOLATILE'],
              ]);
        return range;
      });
      parameters.push({
        parameterType: 'DESCRIPTOR_TABLE',
        descriptorTable: { descriptorRanges: ranges },
        ...visibility(),
      });
    } else if (r < 0.7) {
      parameters.push({
        parameterType: '32BIT_CONSTANTS',
        constants: { shaderRegister: take('b', 1), num32BitValues: rng.int(1, 8) },
        ...visibility(),
      });
    } else {
      const parameterType = rng.pick(['CBV', 'SRV', 'UAV'] as const);
      parameters.push({
        parameterType,
        descriptor: {
          shaderRegister: take(REGISTER[parameterType], 1),
          ...(v11 && rng.chance(0.3) ? { flags: rng.pick(['DATA_STATIC', 'DATA_VOLATILE'] as const) } : {}),
        },
        ...visibility(),
      });
    }
  }
  const body: RootSignatureDesc = { parameters };
  if (rng.chance(0.3))
    body.staticSamplers = [
      { filter: rng.pick(['MIN_MAG_MIP_POINT', 'MIN_MAG_MIP_LINEAR'] as const), shaderRegister: take('s', 1) },
    ];
  if (rng.chance(0.3)) body.flags = ['ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT'];
  return v11 ? { version: '1_1', desc_1_1: body } : { version: '1_0', desc_1_0: body };
}

/** A root parameter or static sampler D3D12 refuses (on registers no valid description here uses). */
export function badRootParameter(rng: Random, version: string, body: RootSignatureDesc): unknown {
  const copyOf = pickOf(rng, body.parameters ?? []);
  const options: unknown[] = [
    { parameterType: 'FUZZ' },
    { parameterType: 'DESCRIPTOR_TABLE', descriptorTable: { descriptorRanges: [] } },
    {
      parameterType: 'DESCRIPTOR_TABLE',
      descriptorTable: {
        descriptorRanges: [
          { rangeType: 'SAMPLER', numDescriptors: 1, baseShaderRegister: 900 },
          { rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: 900 },
        ],
      },
    },
    { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 900, num32BitValues: 65 } },
    { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 901, num32BitValues: 0 } },
    { parameterType: 'CBV', descriptor: { shaderRegister: 902, registerSpace: 0xfffffff0 } },
    { parameterType: 'SRV', descriptor: { shaderRegister: 903 }, shaderVisibility: 'EVERYWHERE' },
    { parameterType: 'UAV', descriptor: null },
    {
      parameterType: 'DESCRIPTOR_TABLE',
      descriptorTable: { descriptorRanges: [{ rangeType: 'CBV', numDescriptors: 0, baseShaderRegister: 904 }] },
    },
    {
      parameterType: 'DESCRIPTOR_TABLE',
      descriptorTable: {
        descriptorRanges: [
          { rangeType: 'UAV', numDescriptors: UNBOUNDED_DESCRIPTOR_RANGE, baseShaderRegister: 905 },
          { rangeType: 'UAV', numDescriptors: 1, baseShaderRegister: 0, registerSpace: 7 },
        ],
      },
    },
    version === '1_0'
      ? { parameterType: 'CBV', descriptor: { shaderRegister: 906, flags: 'DATA_STATIC' } }
      : { parameterType: 'CBV', descriptor: { shaderRegister: 906, flags: ['DATA_STATIC', 'DATA_VOLATILE'] } },
    version === '1_0'
      ? {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [{ rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: 907, flags: 'DATA_STATIC' }],
          },
        }
      : {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'SAMPLER', numDescriptors: 1, baseShaderRegister: 907, flags: 'DATA_STATIC' },
            ],
          },
        },
  ];
  // The same parameter twice binds its registers twice.
  if (copyOf) options.push(structuredClone(copyOf));
  return rng.pick(options);
}

/** A root signature description with one thing D3D12 refuses. */
export function badRootSignatureDesc(rng: Random, good: VersionedRootSignatureDesc): Arg {
  const r = rng.float();
  if (r < 0.1) return notAStruct(rng);
  if (r < 0.2) return invalid({ ...good, version: rng.pick<unknown>(['1_2', '1.0', 1, 'toString', undefined]) });
  const member = good.version === '1_0' ? 'desc_1_0' : 'desc_1_1';
  // The other version names a member this description does not have.
  if (r < 0.28) return invalid({ version: good.version === '1_0' ? '1_1' : '1_0', [member]: good[member] });
  return invalid({ version: good.version, [member]: badRootSignatureBody(rng, good.version, good[member] ?? {}) });
}

function badRootSignatureBody(rng: Random, version: string, body: RootSignatureDesc): unknown {
  const r = rng.float();
  if (r < 0.1) return { ...body, parameters: rng.pick<unknown>([5, 'parameters', {}]) };
  if (r < 0.6) return { ...body, parameters: [...(body.parameters ?? []), badRootParameter(rng, version, body)] };
  if (r < 0.85) {
    const sampler = rng.pick<unknown>([
      { filter: 'COMPARISON_MIN_MAG_MIP_POINT', comparisonFunc: 'NONE', shaderRegister: 950 },
      { filter: 'FUZZ', shaderRegister: 951 },
      { filter: 'MIN_MAG_MIP_POINT', shaderRegister: 952, borderColor: 'PINK' },
      { filter: 'MIN_MAG_MIP_POINT' },
      { filter: 'MIN_MAG_MIP_POINT', shaderRegister: 953, mipLODBias: 16 },
      { filter: 'MIN_MAG_MIP_POINT', shaderRegister: 954, minLOD: 2, maxLOD: 1 },
      'sampler',
    ]);
    return { ...body, staticSamplers: [...(body.staticSamplers ?? []), sampler] };
  }
  return { ...body, flags: rng.pick<unknown>([['FUZZ'], 'toString', 5, ['NONE', 'DENY_EVERYTHING']]) };
}

/** A D3D12_SAMPLER_DESC D3D12 accepts, its optional fields now and then left out. */
function samplerDesc(rng: Random): Record<string, unknown> {
  const filter = rng.pick(FILTERS);
  const desc: Record<string, unknown> = { filter };
  const comparisons = filter.startsWith('COMPARISON_')
    ? COMPARISON_FUNCS.filter((f) => f !== 'NONE')
    : COMPARISON_FUNCS;
  if (filter.startsWith('COMPARISON_') || rng.chance(0.3)) desc.comparisonFunc = rng.pick(comparisons);
  for (const axis of ['addressU', 'addressV', 'addressW'])
    if (rng.chance(0.6)) desc[axis] = rng.pick(TEXTURE_ADDRESS_MODES);
  if (rng.chance(0.4)) desc.mipLODBias = rng.pick([0, -16, 15.99, 1.5, -0.25]);
  if (rng.chance(0.4)) desc.maxAnisotropy = rng.int(0, 16);
  if (rng.chance(0.4)) desc.borderColor = [rng.float(), 0, 1, rng.pick([0, 1, 0.5])];
  if (rng.chance(0.5)) {
    const [min, max] = rng.pick([
      [0, FLOAT32_MAX],
      [1, 1],
      [-1, 5],
      [0, 0],
    ]);
    desc.minLOD = min;
    desc.maxLOD = max;
  }
  return desc;
}

/**
 * Bad values of the fields a D3D12_SAMPLER_DESC and a D3D12_STATIC_SAMPLER_DESC (d3dx12's
 * staticSamplerDesc options) share, addressU to comparisonFunc, in their order there: each
 * description's badField table spreads them in that place. Left out (undefined or null), a field
 * takes its default.
 */
export const BAD_SAMPLER_FIELDS: Record<string, (rng: Random) => Arg> = {
  addressU: (g) => badEnum(g, TEXTURE_ADDRESS_MODES, { optional: true }),
  addressV: (g) => badEnum(g, TEXTURE_ADDRESS_MODES, { optional: true }),
  addressW: (g) => badEnum(g, TEXTURE_ADDRESS_MODES, { optional: true }),
  mipLODBias: (g) => invalid(g.pick<unknown>([16, -16.5, NaN, '0', Infinity])),
  maxAnisotropy: (g) => invalid(g.pick<unknown>([17, -1, 1.5, NaN, '4'])),
  comparisonFunc: (g) => badEnum(g, COMPARISON_FUNCS, { optional: true }),
};

function badSamplerDesc(rng: Random, good: object): Arg {
  if (rng.chance(0.1)) return notAStruct(rng);
  if (rng.chance(0.1)) return invalid({ ...good, filter: 'COMPARISON_MIN_MAG_MIP_LINEAR', comparisonFunc: 'NONE' });
  if (rng.chance(0.1)) return invalid({ ...good, minLOD: 3, maxLOD: 2 });
  return badField(rng, good, {
    filter: (g) => (g.chance(0.2) ? invalid(DELETE) : badEnum(g, FILTERS)),
    ...BAD_SAMPLER_FIELDS,
    borderColor: (g) => invalid(g.pick<unknown>([[0, 0, 0], [NaN, 0, 0, 1], 'black', [0, 0, 0, '1'], 0])),
    minLOD: (g) => invalid(g.pick<unknown>([NaN, '0', {}])),
    maxLOD: (g) => invalid(g.pick<unknown>([NaN, '15', -Infinity])),
  });
}

/** Typed buffer view formats, and their element sizes. */
const BUFFER_FORMATS = ['R32_UINT', 'R32_FLOAT', 'R8G8B8A8_UNORM', 'R32G32B32A32_FLOAT', 'R32_SINT'] as const;

/** A buffer view of `width` bytes (typed, raw or structured), or undefined when no element fits. */
function bufferView(rng: Random, width: number): Record<string, unknown> | undefined {
  const kind = rng.pick(['typed', 'raw', 'structured'] as const);
  const format = kind === 'typed' ? rng.pick(BUFFER_FORMATS) : kind === 'raw' ? 'R32_TYPELESS' : 'UNKNOWN';
  const stride = kind === 'structured' ? rng.pick([4, 8, 12, 16]) : 0;
  const element = kind === 'typed' ? (formatInfo(format)?.bytesPerElement ?? 4) : kind === 'raw' ? 4 : stride;
  const elements = Math.floor(width / element);
  if (elements < 1) return undefined;
  const first = rng.int(0, elements - 1);
  const buffer: Record<string, unknown> = { firstElement: first, numElements: rng.int(1, elements - first) };
  if (kind === 'raw') buffer.flags = 'RAW';
  else if (rng.chance(0.3)) buffer.flags = 'NONE';
  if (stride) buffer.structureByteStride = stride;
  return { format, viewDimension: 'BUFFER', buffer };
}

/** A texture view of a 2D texture `resource` (whose format a view can have), SRV or UAV. */
function textureView(rng: Random, resource: Resource, view: 'SRV' | 'UAV'): Record<string, unknown> {
  const { mipLevels, depthOrArraySize, format } = resource.desc;
  const array = rng.chance(0.4);
  const fields: Record<string, unknown> = {};
  if (view === 'SRV') {
    const first = rng.int(0, mipLevels - 1);
    fields.mostDetailedMip = first;
    fields.mipLevels = rng.chance(0.5) ? -1 : rng.int(1, mipLevels - first);
    if (rng.chance(0.2)) fields.resourceMinLODClamp = rng.pick([0, 0.5, 2]);
  } else if (rng.chance(0.7)) fields.mipSlice = rng.int(0, mipLevels - 1);
  if (array) {
    const first = rng.int(0, depthOrArraySize - 1);
    fields.firstArraySlice = first;
    fields.arraySize = rng.chance(0.4) ? -1 : rng.int(1, depthOrArraySize - first);
  }
  return {
    format,
    viewDimension: array ? 'TEXTURE2DARRAY' : 'TEXTURE2D',
    [array ? 'texture2DArray' : 'texture2D']: fields,
  };
}

/** A resource and view description a Create*View call of `view` accepts (null resource: a NULL view). */
function resourceViewArgs(ctx: FuzzContext, view: 'SRV' | 'UAV'): [Resource | null, unknown] | undefined {
  const { rng } = ctx;
  if (rng.chance(0.15)) {
    const desc = rng.chance(0.5)
      ? bufferView(rng, 4096)
      : {
          format: rng.pick(['R8G8B8A8_UNORM', 'R32_FLOAT', 'R32_UINT'] as const),
          viewDimension: 'TEXTURE2D',
        };
    return [null, desc];
  }
  const candidates = ctx.main.resources.filter(
    (r) =>
      (view === 'SRV' || r.desc.flags.includes('ALLOW_UNORDERED_ACCESS')) &&
      (r.desc.dimension === 'BUFFER' || (r.desc.dimension === 'TEXTURE2D' && viewFormat(r.desc.format) !== undefined)),
  );
  const resource = pickOf(rng, candidates);
  if (!resource) return undefined;
  if (resource.desc.dimension === 'BUFFER') {
    const desc = bufferView(rng, resource.desc.width);
    return desc && [resource, desc];
  }
  return [resource, rng.chance(0.25) ? null : textureView(rng, resource, view)];
}

/** A view description made wrong where D3D12 refuses it. */
function badViewDesc(ctx: FuzzContext, good: unknown, resource: unknown, view: 'SRV' | 'UAV'): Arg {
  const { rng } = ctx;
  if (good === null || good === undefined || rng.chance(0.1))
    return invalid(rng.pick<unknown>([5, 'desc', [], true, { viewDimension: 'TEXTURE3D', format: 'R8G8B8A8_UNORM' }]));
  const desc = good as Record<string, unknown>;
  if (desc.viewDimension === 'BUFFER') {
    const buffer = desc.buffer as Record<string, unknown>;
    const width = (resource as Resource | null)?.desc.width;
    const bufferField = (g: Random): Arg => {
      const pick = g.float();
      if (pick < 0.3 && width !== undefined)
        return invalid({ ...buffer, firstElement: Math.ceil(width / 4), numElements: 1 });
      if (pick < 0.45) return invalid({ ...buffer, numElements: 0 });
      if (pick < 0.55) return invalid({ ...buffer, structureByteStride: g.pick([3, 2052]) });
      if (pick < 0.65) return invalid({ ...buffer, flags: g.pick(['toString', 'RAW|NONE', 5]) });
      if (pick < 0.75 && view === 'UAV') return maybe({ ...buffer, counterOffsetInBytes: 4096 });
      return badField(g, buffer, {
        firstElement: (h) => badUint(h, { max: 2 ** 30 }),
        numElements: (h) => badUint(h, { min: 1, max: 2 ** 30 }),
      });
    };
    return badField(rng, desc, {
      format: (g) =>
        g.chance(0.5)
          ? invalid(g.pick(['BC1_UNORM', 'R8G8B8A8_TYPELESS', 'FUZZ', 'constructor']))
          : badEnum(g, BUFFER_FORMATS),
      viewDimension: (g) => badEnum(g, ['BUFFER', 'TEXTURE2D', 'TEXTURE2DARRAY']),
      buffer: (g) => (g.chance(0.2) ? invalid(g.pick<unknown>([null, 5, 'buffer'])) : bufferField(g)),
    });
  }
  const member = desc.viewDimension === 'TEXTURE2DARRAY' ? 'texture2DArray' : 'texture2D';
  const fields = (desc[member] ?? {}) as Record<string, unknown>;
  const texture = resource as Resource | null;
  const mips = texture?.desc.mipLevels ?? 16;
  const slices = texture?.desc.depthOrArraySize ?? 2048;
  return badField(rng, desc, {
    format: (g) =>
      invalid(
        g.pick([
          'R8G8B8A8_TYPELESS',
          'FUZZ',
          '__proto__',
          // Of another family than the texture's (a NULL view takes any).
          ...(texture ? [texture.desc.format === 'R32_FLOAT' ? 'R8G8B8A8_UNORM' : 'R32_FLOAT'] : []),
          ...(view === 'UAV' ? ['R8G8B8A8_UNORM_SRGB'] : []),
        ]),
      ),
    viewDimension: (g) => (g.chance(0.5) ? invalid(texture ? 'BUFFER' : 'CUBE') : badEnum(g, ['TEXTURE2D'])),
    [member]: (g) => {
      if (g.chance(0.15)) return invalid(g.pick<unknown>([5, 'mips', true]));
      const pick = g.float();
      if (view === 'SRV' && pick < 0.3) return invalid({ ...fields, mostDetailedMip: mips });
      if (view === 'SRV' && pick < 0.45) return invalid({ ...fields, mipLevels: mips + 1 });
      if (view === 'SRV' && pick < 0.55) return invalid({ ...fields, resourceMinLODClamp: g.pick([-1, NaN, '0']) });
      if (view === 'UAV' && pick < 0.4) return invalid({ ...fields, mipSlice: mips });
      if (pick < 0.7) return invalid({ ...fields, planeSlice: 1 });
      if (member === 'texture2DArray') return invalid({ ...fields, firstArraySlice: slices, arraySize: 1 });
      return invalid({ ...fields, [view === 'SRV' ? 'mostDetailedMip' : 'mipSlice']: g.pick([1.5, -2, NaN]) });
    },
  });
}

/** A resource a view call refuses: another device's, released, not a resource; or one the view's flags exclude. */
function badViewResource(ctx: FuzzContext, view: 'SRV' | 'UAV'): Arg {
  const { rng } = ctx;
  if (view === 'UAV' && rng.chance(0.3)) {
    const noUav = pickOf(
      rng,
      ctx.main.resources.filter((r) => !r.desc.flags.includes('ALLOW_UNORDERED_ACCESS')),
    );
    if (noUav) return invalid(noUav);
  }
  const bad = badRef(ctx, 'resource');
  // null with a description is a NULL view.
  return bad.value === null ? maybe(null) : bad;
}

// ---- Device: descriptor heaps and descriptors ---------------------------------------------------

function descriptorHeapDesc(rng: Random): Record<string, unknown> {
  const type = rng.pick(DESCRIPTOR_HEAP_TYPES);
  const visible = (type === 'CBV_SRV_UAV' || type === 'SAMPLER') && rng.chance(0.4);
  const desc: Record<string, unknown> = { type, numDescriptors: rng.int(1, type === 'RTV' || type === 'DSV' ? 4 : 16) };
  if (visible) desc.flags = rng.pick<unknown>(['SHADER_VISIBLE', ['SHADER_VISIBLE'], ['NONE', 'SHADER_VISIBLE']]);
  else if (rng.chance(0.4)) desc.flags = rng.pick<unknown>([[], 'NONE', ['NONE']]);
  if (rng.chance(0.2)) desc.nodeMask = rng.int(0, 1);
  return desc;
}

function badDescriptorHeapDesc(rng: Random, good: Record<string, unknown>): Arg {
  if (rng.chance(0.1)) return notAStruct(rng);
  if (rng.chance(0.1))
    return invalid({ ...good, type: rng.pick(['RTV', 'DSV']), flags: 'SHADER_VISIBLE', numDescriptors: 1 });
  if (rng.chance(0.05)) return invalid({ type: 'SAMPLER', numDescriptors: 2049, flags: ['SHADER_VISIBLE'] });
  return badField(rng, good, {
    type: (g) => (g.chance(0.2) ? invalid(DELETE) : badEnum(g, DESCRIPTOR_HEAP_TYPES)),
    numDescriptors: (g) =>
      g.chance(0.4) ? invalid(g.pick([0, 2 ** 20 + 1, 2 ** 32])) : badUint(g, { min: 1, max: 2 ** 20 }),
    flags: (g) =>
      g.chance(0.5)
        ? invalid(g.pick<unknown>(['FUZZ', ['SHADER_VISIBLE', 'toString'], 4, {}, [1]]))
        : badEnum(g, ['NONE', 'SHADER_VISIBLE'], { optional: true }),
    nodeMask: (g) => (g.chance(0.4) ? invalid(2) : badUint(g, { max: 1, optional: true })),
  });
}

const destParam = (type: DescriptorHeapType): Param => ({
  name: 'destDescriptor',
  bad: (ctx, good) => badCpuHandle(ctx, type, good),
});

function descriptorCatalogue(): MethodSpec[] {
  const heapType = (ctx: FuzzContext): Arg => badEnum(ctx.rng, DESCRIPTOR_HEAP_TYPES);
  return [
    {
      cls: 'Device',
      name: 'createDescriptorHeap',
      weight: 0.8,
      params: [{ name: 'desc', bad: (ctx, good) => badDescriptorHeapDesc(ctx.rng, good as Record<string, unknown>) }],
      plan: (ctx) =>
        deviceCall(ctx, [descriptorHeapDesc(ctx.rng)], {
          onSuccess: (heap) => ctx.main.addDescriptorHeap(heap as DescriptorHeap),
        }),
    },
    {
      cls: 'Device',
      name: 'getDescriptorHandleIncrementSize',
      certain: true,
      weight: 0.2,
      params: [param('descriptorHeapType', heapType)],
      plan: (ctx) => deviceCall(ctx, [ctx.rng.pick(DESCRIPTOR_HEAP_TYPES)]),
    },
    ...(['SRV', 'UAV'] as const).map((view): MethodSpec => ({
      cls: 'Device',
      name: view === 'SRV' ? 'createShaderResourceView' : 'createUnorderedAccessView',
      certain: true,
      weight: 0.8,
      params: [
        param('resource', (ctx) => badViewResource(ctx, view)),
        ...(view === 'UAV'
          ? [
              // UAV counters are D3D12's; the emulator refuses them (DXGI_ERROR_UNSUPPORTED).
              param('counterResource', (ctx) => {
                const buffer = pickOf(ctx.rng, ctx.main.buffers());
                return buffer && ctx.rng.chance(0.5)
                  ? maybe(buffer)
                  : invalid(ctx.rng.pick<unknown>([5, 'counter', {}]));
              }),
            ]
          : []),
        { name: 'desc', bad: (ctx, good, p) => badViewDesc(ctx, good, p.args[0], view) },
        destParam('CBV_SRV_UAV'),
      ],
      plan: (ctx) => {
        const built = resourceViewArgs(ctx, view);
        const slot = slotOf(ctx, 'CBV_SRV_UAV');
        if (!built || !slot) return undefined;
        const [resource, desc] = built;
        const dest = cpu(slot.heap, slot.index);
        return deviceCall(ctx, view === 'SRV' ? [resource, desc, dest] : [resource, null, desc, dest]);
      },
    })),
    {
      cls: 'Device',
      name: 'createConstantBufferView',
      certain: true,
      weight: 0.6,
      params: [
        {
          name: 'desc',
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (rng.chance(0.15)) return invalid(rng.pick<unknown>([5, 'cbv', [], true]));
            const desc = (good ?? { bufferLocation: 65536n, sizeInBytes: 256 }) as Record<string, unknown>;
            return badField(rng, desc, {
              bufferLocation: (g) =>
                invalid(g.pick<unknown>([65536, (desc.bufferLocation as bigint) + 4n, -256n, null, '0x10000'])),
              sizeInBytes: (g) =>
                g.chance(0.5) ? invalid(g.pick([255, 65536 + 256, 100, 1.5])) : badUint(g, { max: 65536 }),
            });
          },
        },
        destParam('CBV_SRV_UAV'),
      ],
      plan: (ctx) => {
        const { rng } = ctx;
        const slot = slotOf(ctx, 'CBV_SRV_UAV');
        if (!slot) return undefined;
        const buffer = pickOf(rng, ctx.main.buffers());
        const desc = rng.chance(0.15)
          ? rng.pick<unknown>([null, { bufferLocation: 0n, sizeInBytes: 0 }])
          : {
              bufferLocation: (buffer?.getGPUVirtualAddress() ?? 0x10000n) + 256n * BigInt(rng.int(0, 16)),
              sizeInBytes: 256 * rng.int(1, 256),
            };
        return deviceCall(ctx, [desc, cpu(slot.heap, slot.index)]);
      },
    },
    {
      cls: 'Device',
      name: 'createSampler',
      certain: true,
      weight: 0.6,
      params: [{ name: 'desc', bad: (ctx, good) => badSamplerDesc(ctx.rng, good as object) }, destParam('SAMPLER')],
      plan: (ctx) => {
        const slot = slotOf(ctx, 'SAMPLER');
        return slot && deviceCall(ctx, [samplerDesc(ctx.rng), cpu(slot.heap, slot.index)]);
      },
    },
    {
      cls: 'Device',
      name: 'createRenderTargetView',
      certain: true,
      weight: 0.5,
      params: [
        // A texture in heap memory: D3D12 wants ALLOW_RENDER_TARGET, which the pool's never have.
        param('resource', badViewTarget),
        {
          name: 'desc',
          bad: (ctx, good, p) => {
            const { rng } = ctx;
            // A NULL view needs a description.
            if (p.args[0] === null) return invalid(rng.pick<unknown>([null, undefined, 5]));
            const desc = good ?? { format: 'B8G8R8A8_UNORM', viewDimension: 'TEXTURE2D' };
            if (rng.chance(0.15)) return invalid(rng.pick<unknown>([5, 'rtv', true]));
            return badField(rng, desc, {
              format: (g) => invalid(g.pick(['R32_FLOAT', 'R8G8B8A8_TYPELESS', 'FUZZ', 'toString'])),
              viewDimension: (g) => (g.chance(0.5) ? invalid('TEXTURE3D') : badEnum(g, ['TEXTURE2D'])),
              texture2D: (g) =>
                invalid(g.chance(0.5) ? { mipSlice: 1 } : { mipSlice: g.pick<unknown>([NaN, -1, '0']) }),
            });
          },
        },
        destParam('RTV'),
      ],
      plan: (ctx) => {
        const { rng } = ctx;
        const slot = slotOf(ctx, 'RTV');
        const chain = ctx.main.swapChain;
        if (!slot || !chain) return undefined;
        const dest = cpu(slot.heap, slot.index);
        if (rng.chance(0.15))
          return deviceCall(ctx, [
            null,
            { format: rng.pick(['R8G8B8A8_UNORM', 'R32_FLOAT']), viewDimension: 'TEXTURE2D' },
            dest,
          ]);
        const buffer = chain.getBuffer(rng.int(0, chain.bufferCount - 1));
        const desc = rng.chance(0.5)
          ? null
          : {
              format: buffer.format,
              viewDimension: 'TEXTURE2D',
              ...(rng.chance(0.5) ? { texture2D: { mipSlice: 0 } } : {}),
            };
        return deviceCall(ctx, [buffer, desc, dest]);
      },
    },
    {
      cls: 'Device',
      name: 'createDepthStencilView',
      certain: true,
      weight: 0.3,
      params: [
        // A texture without ALLOW_DEPTH_STENCIL.
        param('resource', badViewTarget),
        {
          name: 'desc',
          bad: (ctx, good, p) => {
            const { rng } = ctx;
            if (p.args[0] === null) return invalid(rng.pick<unknown>([null, undefined, 5]));
            const desc = good ?? { format: 'D32_FLOAT', viewDimension: 'TEXTURE2D' };
            if (rng.chance(0.15)) return invalid(rng.pick<unknown>([5, 'dsv', true]));
            return badField(rng, desc, {
              format: (g) => invalid(g.pick(['R32_FLOAT', 'R8G8B8A8_UNORM', 'D16_UNORM', 'FUZZ', 'valueOf'])),
              viewDimension: (g) => (g.chance(0.5) ? invalid('TEXTURE3D') : badEnum(g, ['TEXTURE2D'])),
              flags: (g) => invalid(g.pick<unknown>([['FUZZ'], 'READ_ONLY', [7], ['READ_ONLY_DEPTH', 'toString']])),
              texture2D: (g) => invalid({ mipSlice: g.pick<unknown>([1, NaN, '0']) }),
            });
          },
        },
        destParam('DSV'),
      ],
      plan: (ctx) => {
        const { rng } = ctx;
        const slot = slotOf(ctx, 'DSV');
        if (!slot) return undefined;
        const dest = cpu(slot.heap, slot.index);
        const depth = ctx.main.depthTexture;
        const desc = (): Record<string, unknown> => ({
          format: 'D32_FLOAT',
          viewDimension: 'TEXTURE2D',
          ...(rng.chance(0.3) ? { flags: rng.pick<unknown>([['READ_ONLY_DEPTH'], ['NONE'], []]) } : {}),
          ...(rng.chance(0.3) ? { texture2D: { mipSlice: 0 } } : {}),
        });
        if (!depth || rng.chance(0.2)) return deviceCall(ctx, [null, desc(), dest]);
        return deviceCall(ctx, [depth, rng.chance(0.5) ? null : desc(), dest]);
      },
    },
    copyDescriptorsSimpleSpec(),
    copyDescriptorsSpec(),
  ];
}

/** A copyDescriptorsSimple handle made wrong: only 'maybe' when the call copies no descriptors. */
const zeroMaybe = (p: CallPlan, bad: Arg): Arg =>
  p.args[0] === 0 && bad.validity === 'invalid' ? maybe(bad.value) : bad;

function copyDescriptorsSimpleSpec(): MethodSpec {
  return {
    cls: 'Device',
    name: 'copyDescriptorsSimple',
    certain: true,
    weight: 0.6,
    params: [
      {
        name: 'numDescriptors',
        bad: (ctx, good, p) => {
          const [dest, src] = [heapOfHandle(ctx.main, p.args[1]), heapOfHandle(ctx.main, p.args[2])];
          // More than the smaller of the two heaps holds overruns one range wherever it starts.
          if (dest && src && ctx.rng.chance(0.4)) return invalid(Math.min(sizeOf(dest), sizeOf(src)) + 1);
          return badUint(ctx.rng);
        },
      },
      // No descriptors: D3D12 reads neither handle.
      {
        name: 'destDescriptorRangeStart',
        bad: (ctx, good, p) => zeroMaybe(p, badCpuHandle(ctx, p.args[3] as never, good)),
      },
      {
        name: 'srcDescriptorRangeStart',
        bad: (ctx, good, p) => {
          const type = p.args[3] as DescriptorHeapType;
          // A shader-visible heap may be write-combined GPU memory: copies never read one.
          const visible = pickOf(ctx.rng, heapsOf(ctx.main, type, { visible: true }));
          if (visible && ctx.rng.chance(0.3)) return zeroMaybe(p, invalid(cpu(visible, 0)));
          return zeroMaybe(p, badCpuHandle(ctx, type, good));
        },
      },
      {
        name: 'descriptorHeapsType',
        bad: (ctx, good) =>
          ctx.rng.chance(0.4)
            ? invalid(ctx.rng.pick(DESCRIPTOR_HEAP_TYPES.filter((t) => t !== good)))
            : badEnum(ctx.rng, DESCRIPTOR_HEAP_TYPES),
      },
    ],
    plan: (ctx) => {
      const { rng } = ctx;
      const type = rng.pick(DESCRIPTOR_HEAP_TYPES);
      const [src, dest] = [
        pickOf(rng, heapsOf(ctx.main, type, { visible: false })),
        pickOf(rng, heapsOf(ctx.main, type)),
      ];
      if (!src || !dest) return undefined;
      const n = rng.int(0, Math.min(4, sizeOf(src), sizeOf(dest)));
      return deviceCall(ctx, [n, cpu(dest, rng.int(0, sizeOf(dest) - n)), cpu(src, rng.int(0, sizeOf(src) - n)), type]);
    },
  };
}

/** `total` split into `parts` counts of at least 0 (in order). */
function split(rng: Random, total: number, parts: number): number[] {
  const counts = new Array<number>(parts).fill(0);
  for (let i = 0; i < total; i++) {
    const at = rng.int(0, parts - 1);
    counts[at] = (counts[at] ?? 0) + 1;
  }
  return counts;
}

function copyDescriptorsSpec(): MethodSpec {
  const starts = (name: string, source: boolean): Param => ({
    name,
    bad: (ctx, good, p) => {
      const type = p.args[4] as DescriptorHeapType;
      const visible = source ? pickOf(ctx.rng, heapsOf(ctx.main, type, { visible: true })) : undefined;
      if (visible && Array.isArray(good) && good.length > 0 && ctx.rng.chance(0.3))
        return invalid([cpu(visible, 0), ...(good as unknown[]).slice(1)]);
      // A range of no descriptors may start at its heap's end (D3D12 reads nothing of it).
      const sizes = p.args[source ? 3 : 1] as number[] | null;
      return badArrayOf(
        ctx,
        good,
        (_, item, i) => {
          const bad = badCpuHandle(ctx, type, item);
          return sizes?.[i] === 0 ? maybe(bad.value) : bad;
        },
        { lengthValidity: 'invalid' },
      );
    },
  });
  const sizes = (name: string, startsAt: number): Param => ({
    name,
    bad: (ctx, good, p) => {
      const { rng } = ctx;
      const rangeStarts = p.args[startsAt] as unknown[];
      const counts = (good as number[] | null) ?? rangeStarts.map(() => 1);
      if (rng.chance(0.2)) return invalid(rng.pick<unknown>([5, 'sizes', {}, [...counts, 1]]));
      // One more descriptor on one side: the totals differ, or the range runs past its heap.
      const at = rng.int(0, counts.length - 1);
      if (rng.chance(0.5)) return invalid(counts.map((c, i) => (i === at ? c + 1 : c)));
      return invalid(counts.map((c, i) => (i === at ? rng.pick<unknown>([NaN, -1, 1.5, '1', null, 2 ** 32]) : c)));
    },
  });
  return {
    cls: 'Device',
    name: 'copyDescriptors',
    certain: true,
    weight: 0.6,
    params: [
      starts('destDescriptorRangeStarts', false),
      sizes('destDescriptorRangeSizes', 0),
      starts('srcDescriptorRangeStarts', true),
      sizes('srcDescriptorRangeSizes', 2),
      {
        name: 'descriptorHeapsType',
        bad: (ctx, good) =>
          ctx.rng.chance(0.4)
            ? invalid(ctx.rng.pick(DESCRIPTOR_HEAP_TYPES.filter((t) => t !== good)))
            : badEnum(ctx.rng, DESCRIPTOR_HEAP_TYPES),
      },
    ],
    plan: (ctx) => {
      const { rng } = ctx;
      const type = rng.pick(DESCRIPTOR_HEAP_TYPES);
      const [sources, dests] = [heapsOf(ctx.main, type, { visible: false }), heapsOf(ctx.main, type)];
      if (sources.length === 0 || dests.length === 0) return undefined;
      const total = rng.int(1, 5);
      const ranges = (heaps: DescriptorHeap[]): [CpuDescriptorHandle[], number[] | null] => {
        const counts = split(rng, total, rng.int(1, 3));
        const handles: CpuDescriptorHandle[] = [];
        const kept: number[] = [];
        for (const c of counts) {
          const heap = pickOf(
            rng,
            heaps.filter((h) => sizeOf(h) >= c),
          );
          if (!heap) return [[], null];
          handles.push(cpu(heap, rng.int(0, sizeOf(heap) - c)));
          kept.push(c);
        }
        return [handles, kept.every((c) => c === 1) && rng.chance(0.5) ? null : kept];
      };
      const [destStarts, destSizes] = ranges(dests);
      const [srcStarts, srcSizes] = ranges(sources);
      if (destStarts.length === 0 || srcStarts.length === 0) return undefined;
      return deviceCall(ctx, [destStarts, destSizes, srcStarts, srcSizes, type]);
    },
  };
}

// ---- Device: root signatures, allocators, D3D12's createCommandList ------------------------------

function nodeMaskParam(aliases?: readonly string[]): Param {
  return param('nodeMask', (ctx) => (ctx.rng.chance(0.4) ? invalid(2) : badUint(ctx.rng, { max: 1 })), aliases);
}

/** A blob a serialized root signature is not: cut short, not a DXBC container; or changed in a word (maybe still one). */
function badBlob(rng: Random, blob: Uint8Array): Arg {
  const r = rng.float();
  if (r < 0.35) return invalid(blob.slice(0, rng.pick([0, 8, blob.byteLength - 4, blob.byteLength - 1])));
  if (r < 0.6) return invalid(Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + rng.int(0, 255)) & 0xff));
  const changed = blob.slice();
  const at = rng.int(0, changed.byteLength - 1);
  changed[at] = (changed[at] as number) ^ (1 << rng.int(0, 7));
  return maybe(changed);
}

/** Whether a list of its type may start recording into `allocator`: live, with no list recording into it. */
export function allocatorFree(allocator: CommandAllocator): boolean {
  return !allocator.released && ![...field<Set<{ isOpen: boolean }>>(allocator, 'lists')].some((l) => l.isOpen);
}

/** An allocator a list of `type` cannot record into: of another type, busy, released, another device's, or none. */
export function badAllocator(ctx: FuzzContext, type: unknown): Arg {
  const { rng } = ctx;
  const r = rng.float();
  if (r < 0.25) {
    const otherType = pickOf(
      rng,
      ctx.main.allocators.filter((a) => a.type !== type),
    );
    if (otherType) return invalid(otherType);
  }
  if (r < 0.4) {
    const busy = pickOf(
      rng,
      ctx.main.allocators.filter((a) => !allocatorFree(a)),
    );
    if (busy) return invalid(busy);
  }
  return badRef(ctx, 'commandAllocator');
}

function signatureCatalogue(): MethodSpec[] {
  return [
    {
      cls: 'Device',
      name: 'createRootSignature',
      certain: true,
      weight: 0.6,
      params: [
        nodeMaskParam(),
        {
          name: 'blobWithRootSignature',
          aliases: ['desc'],
          bad: (ctx, good) =>
            good instanceof Uint8Array || good instanceof ArrayBuffer
              ? ctx.rng.chance(0.6)
                ? badBlob(ctx.rng, new Uint8Array(good))
                : badRootSignatureDesc(ctx.rng, rootSignatureDesc(ctx.rng))
              : badRootSignatureDesc(ctx.rng, good as VersionedRootSignatureDesc),
        },
      ],
      plan: (ctx) => {
        const { rng } = ctx;
        const desc = rootSignatureDesc(rng);
        const r = rng.float();
        const blob =
          r < 0.4
            ? desc
            : r < 0.8
              ? serializeVersionedRootSignature(desc)
              : serializeVersionedRootSignature(desc).slice().buffer;
        return deviceCall(ctx, [rng.chance(0.8) ? 0 : 1, blob], {
          onSuccess: (signature) => ctx.main.addRootSignature(signature as RootSignature),
        });
      },
    },
    {
      cls: 'module',
      name: 'serializeVersionedRootSignature',
      certain: true,
      weight: 0.3,
      invoke: (_, args) => serializeVersionedRootSignature(args[0] as never),
      params: [{ name: 'desc', bad: (ctx, good) => badRootSignatureDesc(ctx.rng, good as VersionedRootSignatureDesc) }],
      plan: (ctx) => ({ receiver: live({}), args: [rootSignatureDesc(ctx.rng)] }),
    },
    {
      cls: 'module',
      name: 'serializeRootSignature',
      certain: true,
      weight: 0.2,
      invoke: (_, args) =>
        args.length > 1 ? serializeRootSignature(args[0] as never, args[1]) : serializeRootSignature(args[0] as never),
      params: [
        {
          name: 'desc',
          bad: (ctx, good) => {
            if (ctx.rng.chance(0.15)) return notAStruct(ctx.rng);
            return invalid(badRootSignatureBody(ctx.rng, '1_0', good as RootSignatureDesc));
          },
        },
        param('version', (ctx) => invalid(ctx.rng.pick<unknown>(['1_1', 1, null, 'toString', '1.0']))),
      ],
      plan: (ctx) => {
        let desc = rootSignatureDesc(ctx.rng);
        if (desc.version !== '1_0') desc = SMALL_ROOT_SIGNATURE;
        return { receiver: live({}), args: [desc.desc_1_0, ...(ctx.rng.chance(0.5) ? ['1_0'] : [])] };
      },
    },
    {
      cls: 'Device',
      name: 'createCommandAllocator',
      certain: true,
      weight: 0.4,
      params: [param('type', (ctx) => badEnum(ctx.rng, LIST_TYPES))],
      plan: (ctx) =>
        deviceCall(ctx, [ctx.rng.pick(LIST_TYPES)], {
          onSuccess: (allocator) => ctx.main.addAllocator(allocator as CommandAllocator),
        }),
    },
    // D3D12's form (a number first); the shorter createCommandList(type, state) is catalogue-device's.
    {
      cls: 'Device',
      name: 'createCommandList',
      certain: true,
      weight: 0.6,
      params: [
        // Not a number: the call is the shorter form, whose first argument is the type.
        nodeMaskParam(['type']),
        param('type', (ctx) => badEnum(ctx.rng, LIST_TYPES)),
        { name: 'commandAllocator', bad: (ctx, _, p) => badAllocator(ctx, p.args[1]) },
        {
          name: 'initialState',
          bad: (ctx, _, p) => {
            const pso = pickOf(ctx.rng, ctx.main.computePipelines);
            return p.args[1] === 'COPY' && pso && ctx.rng.chance(0.4)
              ? maybe(pso)
              : badRef(ctx, 'pipeline', { nullable: true });
          },
        },
      ],
      plan: (ctx) => {
        const { rng } = ctx;
        const allocator = pickOf(rng, ctx.main.allocators.filter(allocatorFree));
        if (!allocator) return undefined;
        const pso = allocator.type !== 'COPY' && rng.chance(0.3) ? pickOf(rng, ctx.main.computePipelines) : undefined;
        const args: unknown[] = [rng.chance(0.8) ? 0 : 1, allocator.type, allocator];
        if (pso) args.push(pso);
        else if (rng.chance(0.5)) args.push(null);
        return deviceCall(ctx, args, { onSuccess: (list) => ctx.main.addList(list as GraphicsCommandList) });
      },
    },
  ];
}

// ---- DescriptorHeap, RootSignature, CommandAllocator, SwapChain ----------------------------------

type ChildKind = 'descriptorHeap' | 'rootSignature' | 'commandAllocator';

/** release, setName, getName (and getDesc where given): ID3D12DeviceChild and IUnknown's. */
function childMethods(cls: ClassName, kind: ChildKind, withDesc: boolean): MethodSpec[] {
  const liveOf = (ctx: FuzzContext): object | undefined => pickOf(ctx.rng, ctx.main.live(kind));
  const releasedOf = (ctx: FuzzContext): object | undefined => pickOf(ctx.rng, ctx.main.released(kind));
  const specs: MethodSpec[] = [
    {
      cls,
      name: 'release',
      certain: true,
      weight: 0.4,
      params: [],
      plan: (ctx) => {
        const target = liveOf(ctx);
        const [liveList, releasedList] = ctx.main.childLists(kind);
        return plan(target, [], {
          onSuccess: () =>
            ctx.main.releaseChild(
              liveList as { release(): void }[],
              releasedList as { release(): void }[],
              target as { release(): void },
              'call',
            ),
        });
      },
      badReceiver: (ctx) => wrong(releasedOf(ctx)),
    },
    {
      cls,
      name: 'setName',
      certain: true,
      weight: 0.15,
      params: [param('name', (ctx) => oddString(ctx.rng))],
      plan: (ctx) => plan(liveOf(ctx), [ctx.rng.pick(['bindings', '', 'a b'])]),
      badReceiver: (ctx) => wrong(releasedOf(ctx)),
    },
    {
      cls,
      name: 'getName',
      certain: true,
      weight: 0.1,
      params: [],
      plan: (ctx) => plan(liveOf(ctx) ?? releasedOf(ctx), []),
    },
  ];
  if (withDesc)
    specs.push({
      cls,
      name: 'getDesc',
      certain: true,
      weight: 0.2,
      params: [],
      // Another device's heap may be read.
      plan: (ctx) =>
        plan((ctx.rng.chance(0.15) ? pickOf(ctx.rng, ctx.other.live(kind)) : undefined) ?? liveOf(ctx), []),
      badReceiver: (ctx) => wrong(releasedOf(ctx)),
    });
  return specs;
}

function childCatalogue(): MethodSpec[] {
  const visibleHeap = (ctx: FuzzContext): DescriptorHeap | undefined =>
    pickOf(ctx.rng, ctx.main.visibleDescriptorHeaps());
  const swapChain = (ctx: FuzzContext) => ctx.main.swapChain;
  return [
    ...childMethods('DescriptorHeap', 'descriptorHeap', true),
    {
      cls: 'DescriptorHeap',
      name: 'getCPUDescriptorHandleForHeapStart',
      certain: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => plan(pickOf(ctx.rng, ctx.main.descriptorHeaps), []),
      badReceiver: (ctx) => wrong(pickOf(ctx.rng, ctx.main.releasedDescriptorHeaps)),
    },
    {
      cls: 'DescriptorHeap',
      name: 'getGPUDescriptorHandleForHeapStart',
      certain: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => plan(visibleHeap(ctx), []),
      // Released, or not shader-visible (no GPU handles).
      badReceiver: (ctx) =>
        wrong(
          pickOf(ctx.rng, [
            ...ctx.main.releasedDescriptorHeaps,
            ...ctx.main.descriptorHeaps.filter((h) => !isVisible(h)),
          ]),
        ),
    },
    ...childMethods('RootSignature', 'rootSignature', false),
    ...childMethods('CommandAllocator', 'commandAllocator', false),
    {
      cls: 'CommandAllocator',
      name: 'reset',
      certain: true,
      weight: 0.3,
      params: [],
      plan: (ctx) => plan(pickOf(ctx.rng, ctx.main.allocators.filter(allocatorFree)), []),
      // Released, or a list still recording into it.
      badReceiver: (ctx) =>
        wrong(
          pickOf(ctx.rng, [...ctx.main.releasedAllocators, ...ctx.main.allocators.filter((a) => !allocatorFree(a))]),
        ),
    },
    {
      cls: 'SwapChain',
      name: 'getBuffer',
      certain: true,
      weight: 0.2,
      params: [
        param('buffer', (ctx) =>
          ctx.rng.chance(0.4)
            ? invalid(swapChain(ctx)?.bufferCount ?? 3)
            : badUint(ctx.rng, { max: (swapChain(ctx)?.bufferCount ?? 3) - 1 }),
        ),
      ],
      plan: (ctx) => {
        const chain = swapChain(ctx);
        return chain && plan(chain, [ctx.rng.int(0, chain.bufferCount - 1)]);
      },
    },
    {
      cls: 'SwapChain',
      name: 'getCurrentBackBufferIndex',
      certain: true,
      weight: 0.1,
      params: [],
      plan: (ctx) => plan(swapChain(ctx), []),
    },
    {
      cls: 'SwapChain',
      name: 'getCurrentBackBuffer',
      certain: true,
      weight: 0.1,
      params: [],
      plan: (ctx) => plan(swapChain(ctx), []),
    },
    {
      cls: 'SwapChain',
      name: 'present',
      certain: true,
      weight: 0.3,
      params: [
        param('syncInterval', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(ctx.rng.pick([5, 1.5, -1])) : badUint(ctx.rng, { max: 4, optional: true }),
        ),
      ],
      plan: (ctx) => plan(swapChain(ctx), ctx.rng.chance(0.5) ? [] : [ctx.rng.int(0, 4)]),
    },
  ];
}

/** The Device, DescriptorHeap, RootSignature, CommandAllocator, SwapChain and module calls of binding (catalogue-binding-list.ts has the lists'). */
export function bindingCatalogue(): MethodSpec[] {
  return [...descriptorCatalogue(), ...signatureCatalogue(), ...childCatalogue()];
}
