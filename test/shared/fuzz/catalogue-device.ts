/**
 * The API fuzzer's catalogue of Device (every public method but destroy, which the runner calls
 * once at the end) and of createResidencyManager: how each is called validly from the pool, and how
 * each parameter is made wrong.
 *
 * Invariants: valid plans stay within the pools (a few tiles per heap or resource); creations add
 * their object to the pool; pipeline states are compiled validly only a few times a run (a compile
 * costs seconds on SwiftShader), after which those calls are always made with a wrong description.
 */
import { createResidencyManager, type Heap, type Resource, type ResourceDesc } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import {
  badHeapDesc,
  badHeapFlags,
  badHeapProperties,
  badResourceDesc,
  badState,
  bufferDesc,
  heapDesc,
  heapFlags,
  heapProperties,
  initialState,
  reservedTextureDesc,
  textureDesc,
} from './descs.js';
import { TILE } from '../d3d12-helpers.js';
import { badRef, badRefArray, pickOf, sample, type DeviceWorld, type FuzzContext } from './pool.js';
import { param, type CallPlan, type MethodSpec, type Receiver } from './spec.js';
import {
  badEnum,
  badField,
  badUint,
  DELETE,
  invalid,
  maybe,
  notAnArray,
  notAStruct,
  withField,
  type Arg,
} from './values.js';

const SEGMENTS = ['LOCAL', 'NON_LOCAL'] as const;
const PRIORITY_NAMES = ['MINIMUM', 'LOW', 'NORMAL', 'HIGH', 'MAXIMUM'] as const;
const MIB = 2 ** 20;

export const COMPUTE_WGSL = `
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (d3d12_root_constant(2u) == 0u) { return; }
  let va = d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u);
  var status = 0u;
  let value = d3d12_load_checked(va, &status);
  if (d3d12_check_access_fully_mapped(status)) { d3d12_store(va, value + 1u); }
}`;

export const GRAPHICS_WGSL = `
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f { return vec4f(f32(v % 2u), f32(v / 2u), 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.25, 1.0); }`;

const device = (ctx: FuzzContext): Receiver => ({ target: ctx.main.device, validity: 'valid' });
const call = (ctx: FuzzContext, args: unknown[], extra: Partial<CallPlan> = {}): CallPlan => ({
  receiver: device(ctx),
  args,
  ...extra,
});

function pageables(ctx: FuzzContext, max = 3): ReturnType<DeviceWorld['pageables']> | undefined {
  const items = ctx.main.pageables();
  return items.length === 0 ? undefined : sample(ctx.rng, items, ctx.rng.int(1, max));
}

const objectsParam = param('objects', (ctx) => badRefArray(ctx, 'pageable', pageables(ctx) ?? []));
const segmentParam = param('memorySegmentGroup', (ctx) => badEnum(ctx.rng, SEGMENTS));
const fenceValue = (rng: Random): Arg => badUint(rng, { wide: true });

function priority(rng: Random): string | number {
  return rng.chance(0.6) ? rng.pick(PRIORITY_NAMES) : rng.pick([0, 1, 0x78000000, 0xffffffff, rng.int(0, 0xffffffff)]);
}

function badPriorities(ctx: FuzzContext, good: unknown): Arg {
  const items = Array.isArray(good) ? [...(good as unknown[])] : [];
  const { rng } = ctx;
  const r = rng.float();
  if (r < 0.2) return notAnArray(rng);
  // Shorter only from two up: objects may be made wrong too (an empty array), and [] would match it.
  if (r < 0.45) return invalid(items.length > 1 && rng.chance(0.5) ? items.slice(1) : [...items, 'NORMAL']);
  // Neither a priority name nor a 32-bit value (0 and 1 are priorities: badEnum's numbers are not wrong here).
  items[rng.int(0, Math.max(0, items.length - 1))] = rng.pick<unknown>([
    'toString',
    'constructor',
    '__proto__',
    'valueOf',
    'hasOwnProperty',
    '',
    'normal',
    'NORMAL|HIGH',
    -1,
    1.5,
    NaN,
    Infinity,
    2 ** 32,
    null,
    undefined,
    {},
    '1',
    1n,
  ]);
  return invalid(items);
}

/** A committed resource's heap properties, flags, description and state, consistent with each other. */
function committedArgs(rng: Random): [ReturnType<typeof heapProperties>, string[], ResourceDesc, unknown] {
  if (rng.chance(0.6)) {
    const properties = heapProperties(rng);
    const desc = bufferDesc(rng, 2 * TILE);
    if (properties.type !== 'DEFAULT' && properties.type !== 'CUSTOM') delete desc.flags;
    return [properties, heapFlags(rng, properties.type), desc, initialState(rng, properties.type, desc)];
  }
  const properties = heapProperties(rng, 'LOCAL');
  const desc = textureDesc(rng);
  return [
    properties,
    heapFlags(rng, properties.type, true).filter(
      (flag) => flag !== 'DENY_BUFFERS' && flag !== 'ALLOW_ONLY_NON_RT_DS_TEXTURES',
    ),
    desc,
    initialState(rng, undefined, desc),
  ];
}

function allocationSize(ctx: FuzzContext, desc: ResourceDesc): number | undefined {
  try {
    return ctx.main.device.getResourceAllocationInfo(desc).sizeInBytes;
  } catch {
    return undefined;
  }
}

/** A description that fits `heap` at a tile offset, of a kind its flags allow. */
function placedArgs(ctx: FuzzContext, heap: Heap): [number, ResourceDesc] | undefined {
  const { rng } = ctx;
  const { flags, properties, sizeInBytes } = heap.getDesc();
  const flagSet = new Set<string>(flags);
  const buffersDenied =
    flagSet.has('DENY_BUFFERS') ||
    flagSet.has('ALLOW_ONLY_NON_RT_DS_TEXTURES') ||
    flagSet.has('ALLOW_ONLY_RT_DS_TEXTURES');
  const texturesDenied =
    flagSet.has('ALLOW_ONLY_BUFFERS') ||
    flagSet.has('DENY_NON_RT_DS_TEXTURES') ||
    (properties.type !== 'DEFAULT' && !(properties.type === 'CUSTOM' && properties.memoryPoolPreference === 'L1'));
  const tiles = Math.floor(sizeInBytes / TILE);
  if (tiles === 0 && rng.chance(0.8)) return undefined;
  const offset = rng.int(0, Math.max(0, tiles - 1)) * TILE;
  const room = sizeInBytes - offset;
  if (!texturesDenied && (buffersDenied || rng.chance(0.4))) {
    const desc = textureDesc(rng);
    const size = allocationSize(ctx, desc);
    return size !== undefined && size <= room ? [offset, desc] : [0, desc];
  }
  const desc = bufferDesc(rng, Math.max(1, room));
  if (properties.type === 'UPLOAD' || properties.type === 'READBACK') delete desc.flags;
  return [offset, desc];
}

const created =
  (ctx: FuzzContext) =>
  (result: unknown): void =>
    ctx.main.addResource(result as Resource);

export function deviceCatalogue(): MethodSpec[] {
  return [
    {
      cls: 'Device',
      name: 'makeResident',
      weight: 2,
      params: [objectsParam],
      plan: (ctx) => mapOr(pageables(ctx), (objects) => call(ctx, [objects])),
    },
    {
      cls: 'Device',
      name: 'evict',
      weight: 2,
      params: [objectsParam],
      plan: (ctx) => mapOr(pageables(ctx, 2), (objects) => call(ctx, [objects])),
    },
    {
      cls: 'Device',
      name: 'enqueueMakeResident',
      params: [
        param('flags', (ctx) => badEnum(ctx.rng, ['NONE', 'DENY_OVERBUDGET'])),
        objectsParam,
        param('fenceToSignal', (ctx) => badRef(ctx, 'fence')),
        param('fenceValueToSignal', (ctx) => fenceValue(ctx.rng)),
      ],
      plan: (ctx) => {
        const fence = pickOf(ctx.rng, ctx.main.fences);
        const objects = pageables(ctx);
        if (!fence || !objects) return undefined;
        return call(ctx, [ctx.rng.pick(['NONE', 'DENY_OVERBUDGET']), objects, fence, ctx.main.nextFenceValue(fence)], {
          onSuccess: (_, args) => ctx.main.noteFence(fence, args[3]),
        });
      },
    },
    {
      cls: 'Device',
      name: 'setResidencyPriority',
      params: [objectsParam, { name: 'priorities', bad: (ctx, good) => badPriorities(ctx, good) }],
      plan: (ctx) => mapOr(pageables(ctx), (objects) => call(ctx, [objects, objects.map(() => priority(ctx.rng))])),
    },
    {
      cls: 'Device',
      name: 'queryVideoMemoryInfo',
      certain: true,
      weight: 0.5,
      params: [segmentParam],
      plan: (ctx) => call(ctx, [ctx.rng.pick(SEGMENTS)]),
    },
    {
      cls: 'Device',
      name: 'setVideoMemoryReservation',
      certain: true,
      weight: 0.5,
      params: [
        segmentParam,
        param('reservation', (ctx) => (ctx.rng.chance(0.3) ? invalid(2 ** 40) : badUint(ctx.rng, { wide: true }))),
      ],
      plan: (ctx) => call(ctx, [ctx.rng.pick(SEGMENTS), ctx.rng.pick([0, 0, MIB, 2 * MIB, ctx.rng.int(0, 4 * MIB)])]),
    },
    {
      cls: 'Device',
      name: 'setResidencyDebugBudget',
      certain: true,
      weight: 0.5,
      params: [param('bytes', (ctx) => badUint(ctx.rng, { wide: true, nullable: true }))],
      plan: (ctx) => call(ctx, [ctx.rng.pick([null, null, 0, MIB, 4 * MIB, 64 * MIB])]),
    },
    { cls: 'Device', name: 'getPagingStats', certain: true, weight: 0.3, params: [], plan: (ctx) => call(ctx, []) },
    { cls: 'Device', name: 'getReleaseCount', certain: true, weight: 0.1, params: [], plan: (ctx) => call(ctx, []) },
    { cls: 'Device', name: 'getMemoryStats', certain: true, weight: 0.2, params: [], plan: (ctx) => call(ctx, []) },
    { cls: 'Device', name: 'buildStatsString', certain: true, weight: 0.1, params: [], plan: (ctx) => call(ctx, []) },
    {
      cls: 'Device',
      name: 'getResidencyStatus',
      certain: true,
      weight: 0.3,
      params: [param('pageable', (ctx) => badRef(ctx, 'pageable'))],
      plan: (ctx) => mapOr(pageables(ctx, 1), (objects) => call(ctx, [objects[0]])),
    },
    { cls: 'Device', name: 'getInfoQueue', certain: true, weight: 0.2, params: [], plan: (ctx) => call(ctx, []) },
    {
      cls: 'Device',
      name: 'getDeviceRemovedReason',
      certain: true,
      weight: 0.3,
      params: [],
      plan: (ctx) => call(ctx, []),
    },
    { cls: 'Device', name: 'getPageFaultReport', certain: true, weight: 0.3, params: [], plan: (ctx) => call(ctx, []) },
    {
      cls: 'Device',
      name: 'checkFeatureSupport',
      certain: true,
      weight: 0.5,
      params: [param('feature', (ctx) => badEnum(ctx.rng, ['OPTIONS', 'GPU_VIRTUAL_ADDRESS_SUPPORT', 'ARCHITECTURE']))],
      plan: (ctx) => call(ctx, [ctx.rng.pick(['OPTIONS', 'GPU_VIRTUAL_ADDRESS_SUPPORT', 'ARCHITECTURE'])]),
    },
    {
      cls: 'Device',
      name: 'createHeap',
      weight: 2,
      params: [{ name: 'desc', bad: (ctx, good) => badHeapDesc(ctx.rng, good as object) }],
      plan: (ctx) => call(ctx, [heapDesc(ctx.rng)], { onSuccess: (heap) => ctx.main.addHeap(heap as Heap) }),
    },
    {
      cls: 'Device',
      name: 'createCommittedResource',
      weight: 2,
      params: [
        {
          name: 'heapProperties',
          bad: (ctx, good) => badHeapProperties(ctx.rng, good as ReturnType<typeof heapProperties>),
        },
        param('heapFlags', (ctx) => badHeapFlags(ctx.rng)),
        { name: 'desc', bad: (ctx, good) => badResourceDesc(ctx.rng, good as ResourceDesc) },
        param('initialState', (ctx) => badState(ctx.rng)),
        param('optimizedClearValue', (ctx) => badClearValue(ctx.rng)),
      ],
      plan: (ctx) =>
        call(ctx, [...committedArgs(ctx.rng), ...(ctx.rng.chance(0.2) ? [null] : [])], { onSuccess: created(ctx) }),
    },
    {
      cls: 'Device',
      name: 'createPlacedResource',
      weight: 2,
      params: [
        param('heap', (ctx) => badRef(ctx, 'heap')),
        param('heapOffset', (ctx) =>
          ctx.rng.chance(0.3) ? invalid(ctx.rng.pick([1, 4095, 65535, 2 ** 40])) : badUint(ctx.rng, { wide: true }),
        ),
        { name: 'desc', bad: (ctx, good) => badResourceDesc(ctx.rng, good as ResourceDesc) },
        param('initialState', (ctx) => badState(ctx.rng)),
        param('optimizedClearValue', (ctx) => badClearValue(ctx.rng)),
      ],
      plan: (ctx) => {
        const heap = pickOf(ctx.rng, ctx.main.heaps);
        const placed = heap && placedArgs(ctx, heap);
        if (!heap || !placed) return undefined;
        const [offset, desc] = placed;
        return call(ctx, [heap, offset, desc, initialState(ctx.rng, heap.desc.properties.type, desc)], {
          onSuccess: created(ctx),
        });
      },
    },
    {
      cls: 'Device',
      name: 'createReservedResource',
      weight: 2,
      params: [
        {
          name: 'desc',
          // A reserved texture's layout must be 64KB_*; a buffer's is ROW_MAJOR.
          bad: (ctx, good) => {
            const buffer = (good as ResourceDesc).dimension === 'BUFFER';
            if (!ctx.rng.chance(0.2)) return badResourceDesc(ctx.rng, good as ResourceDesc);
            return invalid(
              withField(
                good as object,
                'layout',
                ctx.rng.pick(buffer ? ['UNKNOWN', '64KB_UNDEFINED_SWIZZLE'] : ['ROW_MAJOR', 'UNKNOWN']),
              ),
            );
          },
        },
        param('initialState', (ctx) => badState(ctx.rng)),
        param('optimizedClearValue', (ctx) => badClearValue(ctx.rng)),
      ],
      plan: (ctx) => {
        const desc = ctx.rng.chance(0.5) ? bufferDesc(ctx.rng, 8 * TILE) : reservedTextureDesc(ctx.rng, ctx.tier);
        if (desc.dimension === 'BUFFER') delete desc.layout;
        return call(ctx, [desc, ctx.rng.pick(['COMMON', 'COMMON', 'COPY_DEST'])], { onSuccess: created(ctx) });
      },
    },
    {
      cls: 'Device',
      name: 'getResourceAllocationInfo',
      certain: true,
      params: [
        {
          name: 'descs',
          aliases: ['desc'],
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (rng.chance(0.15)) return invalid([]);
            if (Array.isArray(good)) {
              const items = [...(good as ResourceDesc[])];
              const at = rng.int(0, items.length - 1);
              const bad = badResourceDesc(rng, items[at] as ResourceDesc);
              items[at] = bad.value as ResourceDesc;
              return { value: items, validity: bad.validity };
            }
            return badResourceDesc(rng, good as ResourceDesc);
          },
        },
      ],
      plan: (ctx) => {
        const one = (): ResourceDesc => (ctx.rng.chance(0.5) ? bufferDesc(ctx.rng) : textureDesc(ctx.rng));
        return call(ctx, [ctx.rng.chance(0.5) ? one() : Array.from({ length: ctx.rng.int(1, 3) }, one)]);
      },
    },
    {
      cls: 'Device',
      name: 'getResourceTiling',
      certain: true,
      params: [
        param('resource', (ctx) => badRef(ctx, 'resource')),
        param('firstSubresource', (ctx) => badUint(ctx.rng, { optional: true })),
        param('numSubresources', (ctx) => badUint(ctx.rng, { optional: true })),
      ],
      plan: (ctx) => {
        const resource = pickOf(ctx.rng, ctx.main.resources);
        if (!resource) return undefined;
        const args: unknown[] = [resource];
        if (ctx.rng.chance(0.5)) args.push(ctx.rng.int(0, 4));
        if (args.length > 1 && ctx.rng.chance(0.5)) args.push(ctx.rng.int(0, 4));
        return call(ctx, args);
      },
    },
    {
      cls: 'Device',
      name: 'createCommandQueue',
      certain: true,
      params: [
        {
          name: 'desc',
          bad: (ctx, good) =>
            ctx.rng.chance(0.15)
              ? notAStruct(ctx.rng)
              : badField(ctx.rng, good as object, {
                  type: (g) => (g.chance(0.2) ? invalid(DELETE) : badEnum(g, ['DIRECT', 'COMPUTE', 'COPY'])),
                  priority: (g) => badEnum(g, ['NORMAL', 'HIGH', 'GLOBAL_REALTIME'], { optional: true }),
                  flags: (g) =>
                    g.chance(0.5)
                      ? invalid(g.pick<unknown>(['NONE', 5, {}, Symbol('flags')]))
                      : invalid([badEnum(g, ['NONE', 'DISABLE_GPU_TIMEOUT']).value]),
                  nodeMask: (g) => (g.chance(0.4) ? invalid(2) : badUint(g, { max: 1, optional: true })),
                }),
        },
      ],
      plan: (ctx) => {
        const desc: Record<string, unknown> = { type: ctx.rng.pick(['DIRECT', 'COMPUTE', 'COPY']) };
        if (ctx.rng.chance(0.3)) desc.priority = ctx.rng.pick(['NORMAL', 'HIGH']);
        if (ctx.rng.chance(0.3)) desc.flags = ctx.rng.pick([[], ['NONE'], ['DISABLE_GPU_TIMEOUT']]);
        if (ctx.rng.chance(0.2)) desc.nodeMask = ctx.rng.int(0, 1);
        return call(ctx, [desc], { onSuccess: (queue) => ctx.main.addQueue(queue as never) });
      },
    },
    {
      cls: 'Device',
      name: 'createCommandList',
      certain: true,
      weight: 1.5,
      params: [
        // A number first is D3D12's createCommandList(nodeMask, type, allocator, state): its checks name nodeMask.
        param('type', (ctx) => badEnum(ctx.rng, ['DIRECT', 'COMPUTE', 'COPY']), ['nodeMask']),
        {
          name: 'initialState',
          // A pipeline state for a COPY list: D3D12 ignores or refuses it (copy lists run no shaders).
          bad: (ctx, _, p) => {
            const pso = pickOf(ctx.rng, ctx.main.computePipelines);
            return p.args[0] === 'COPY' && pso && ctx.rng.chance(0.4)
              ? maybe(pso)
              : badRef(ctx, 'pipeline', { nullable: true });
          },
        },
      ],
      plan: (ctx) => {
        const type = ctx.rng.pick(['DIRECT', 'COMPUTE', 'COPY'] as const);
        const pso = type !== 'COPY' && ctx.rng.chance(0.4) ? pickOf(ctx.rng, ctx.main.computePipelines) : undefined;
        const args: unknown[] = [type];
        if (pso) args.push(pso);
        else if (ctx.rng.chance(0.3)) args.push(null);
        return call(ctx, args, { onSuccess: (list) => ctx.main.addList(list as never) });
      },
    },
    {
      cls: 'Device',
      name: 'createQueryHeap',
      weight: 0.7,
      params: [
        {
          name: 'desc',
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (rng.chance(0.15)) return notAStruct(rng);
            if (rng.chance(0.2))
              return maybe(
                withField(good as object, 'type', rng.pick(['OCCLUSION', 'PIPELINE_STATISTICS', 'SO_STATISTICS'])),
              );
            return badField(rng, good as object, {
              type: (g) => badEnum(g, ['TIMESTAMP', 'COPY_QUEUE_TIMESTAMP']),
              count: (g) => (g.chance(0.3) ? invalid(0) : g.chance(0.2) ? maybe(5000) : badUint(g, { min: 1 })),
              nodeMask: (g) => (g.chance(0.4) ? invalid(2) : badUint(g, { max: 1, optional: true })),
            });
          },
        },
      ],
      plan: (ctx) =>
        call(
          ctx,
          [
            {
              type: ctx.rng.pick(['TIMESTAMP', 'COPY_QUEUE_TIMESTAMP']),
              count: ctx.rng.int(1, 16),
              ...(ctx.rng.chance(0.2) ? { nodeMask: 0 } : {}),
            },
          ],
          {
            onSuccess: (heap) => ctx.main.addQueryHeap(heap as never),
          },
        ),
    },
    {
      cls: 'Device',
      name: 'createFence',
      certain: true,
      params: [param('initialValue', (ctx) => badUint(ctx.rng, { wide: true, optional: true }))],
      plan: (ctx) => {
        const args = ctx.rng.chance(0.3) ? [] : [ctx.rng.pick([0, 0, 1, 5, ctx.rng.int(0, 1000)])];
        return call(ctx, args, {
          onSuccess: (fence, given) => ctx.main.addFence(fence as never, typeof given[0] === 'number' ? given[0] : 0),
        });
      },
    },
    {
      cls: 'Device',
      name: 'createComputePipelineState',
      certain: true,
      async: true,
      weight: 0.5,
      params: [
        {
          name: 'desc',
          bad: (ctx, good) =>
            ctx.rng.chance(0.15)
              ? notAStruct(ctx.rng)
              : badField(ctx.rng, good as object, {
                  code: (g) =>
                    invalid(
                      g.pick<unknown>([
                        '',
                        '   ',
                        'fn main( {',
                        '@group(0) @binding(0) var<storage> x: u32;\n@compute @workgroup_size(1) fn main() {}',
                        42,
                        null,
                      ]),
                    ),
                  entryPoint: (g) => invalid(g.pick<unknown>(['missing', '', '1main', 7, null, undefined])),
                  label: (g) => invalid(g.pick<unknown>([5, {}, null, true])),
                }),
        },
      ],
      plan: (ctx) =>
        call(ctx, [{ code: COMPUTE_WGSL, entryPoint: 'main', ...(ctx.rng.chance(0.3) ? { label: 'fuzz' } : {}) }], {
          mustSettle: true,
          mustCorrupt: ctx.pipelineCreations.compute <= 0,
          onSuccess: (pso) => {
            ctx.pipelineCreations.compute--;
            ctx.main.addPipeline(pso as never);
          },
        }),
    },
    {
      cls: 'Device',
      name: 'createGraphicsPipelineState',
      certain: true,
      async: true,
      weight: 0.4,
      params: [
        {
          name: 'desc',
          bad: (ctx, good) =>
            ctx.rng.chance(0.1)
              ? notAStruct(ctx.rng)
              : badField(ctx.rng, good as object, {
                  code: (g) => invalid(g.pick<unknown>(['', 'fn vs( {', 17, null])),
                  vertexEntryPoint: (g) => invalid(g.pick<unknown>(['fs', 'missing', 3, null])),
                  fragmentEntryPoint: (g) => invalid(g.pick<unknown>(['vs', 'missing', 3, undefined])),
                  rtvFormat: (g) =>
                    g.chance(0.5)
                      ? invalid(g.pick(['R32_FLOAT', 'UNKNOWN', 'constructor', 'toString', '__proto__']))
                      : badEnum(g, ['B8G8R8A8_UNORM', 'R8G8B8A8_UNORM']),
                  primitiveTopology: (g) => badEnum(g, ['TRIANGLELIST', 'POINTLIST'], { optional: true }),
                  blend: (g) => badEnum(g, ['NONE', 'ALPHA_BLEND'], { optional: true }),
                  label: (g) => invalid(g.pick<unknown>([5, {}, null])),
                }),
        },
      ],
      plan: (ctx) =>
        call(
          ctx,
          [
            {
              code: GRAPHICS_WGSL,
              vertexEntryPoint: 'vs',
              fragmentEntryPoint: 'fs',
              rtvFormat: ctx.rng.pick(['B8G8R8A8_UNORM', 'R8G8B8A8_UNORM']),
              ...(ctx.rng.chance(0.5) ? { primitiveTopology: 'TRIANGLESTRIP' } : {}),
            },
          ],
          {
            mustSettle: true,
            mustCorrupt: ctx.pipelineCreations.graphics <= 0,
            onSuccess: (pso) => {
              ctx.pipelineCreations.graphics--;
              ctx.main.addPipeline(pso as never);
            },
          },
        ),
    },
    {
      cls: 'Device',
      name: 'createSwapChain',
      weight: 0.3,
      params: [
        param('context', (ctx) =>
          invalid(ctx.rng.pick<unknown>([null, undefined, {}, 'canvas', { configure: 1 }, ctx.main.heaps[0]])),
        ),
        param('desc', (ctx) =>
          ctx.rng.chance(0.5)
            ? notAStruct(ctx.rng)
            : invalid({ format: ctx.rng.pick(['R32_FLOAT', 'constructor', 5]), alphaMode: 'premultiplied' }),
        ),
      ],
      // No canvas in Node.js or in a worker: every call names something that is not a canvas context.
      plan: (ctx) =>
        call(ctx, [ctx.rng.pick<unknown>([{}, null, { getCurrentTexture: () => null }])], { validities: ['invalid'] }),
    },
    {
      cls: 'Device',
      name: 'writeTextureDescriptor',
      weight: 0.5,
      params: [param('resource', (ctx) => badRef(ctx, 'texture'))],
      plan: (ctx) =>
        mapOr(
          pickOf(
            ctx.rng,
            ctx.main.textures().filter((t) => t.desc.dimension === 'TEXTURE2D'),
          ),
          (texture) => call(ctx, [texture]),
        ),
    },
    {
      cls: 'Device',
      name: 'validateTileMappings',
      async: true,
      weight: 0.3,
      // Left out (undefined or null) is every live resource: only non-arrays and bad elements are wrong.
      params: [
        param('resources', (ctx) => {
          if (ctx.rng.chance(0.25))
            return invalid(
              ctx.rng.pick<unknown>([
                {},
                'all',
                1,
                true,
                { length: 1, 0: ctx.main.resources[0] },
                new Set(ctx.main.resources),
              ]),
            );
          const bad = badRef(ctx, 'resource');
          const items: unknown[] = sample(ctx.rng, ctx.main.resources, 2);
          items.splice(ctx.rng.int(0, items.length), 0, bad.value);
          return { value: items, validity: bad.validity === 'valid' ? 'invalid' : bad.validity };
        }),
      ],
      plan: (ctx) =>
        call(ctx, ctx.rng.chance(0.4) ? [] : [ctx.rng.chance(0.2) ? [] : sample(ctx.rng, ctx.main.resources, 3)], {
          mustSettle: true,
          // Whatever the fuzzer did, the GPU's page table must say what the CPU authority says.
          onSuccess: (result) => {
            const { mismatchCount, mismatches } = result as { mismatchCount: number; mismatches: unknown[] };
            if (mismatchCount !== 0)
              throw new Error(
                `validateTileMappings found ${mismatchCount} mismatches: ${JSON.stringify(mismatches.slice(0, 2))}`,
              );
          },
        }),
    },
    {
      cls: 'Device',
      name: 'readFaults',
      certain: true,
      async: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => call(ctx, [], { mustSettle: true }),
    },
    // The fuzzed devices are created without gpuValidation.unmappedAccess: every call is DXGI_ERROR_INVALID_CALL.
    {
      cls: 'Device',
      name: 'readUnmappedAccesses',
      async: true,
      weight: 0.1,
      params: [],
      plan: (ctx) => call(ctx, [], { mustSettle: true, receiver: { target: ctx.main.device, validity: 'invalid' } }),
    },
    {
      cls: 'Device',
      name: 'destroy',
      weight: 0,
      params: [],
      plan: (ctx) => call(ctx, [], { onSuccess: () => (ctx.main.destroyed = true) }),
    },
    {
      cls: 'module',
      name: 'createResidencyManager',
      certain: true,
      weight: 0.3,
      invoke: (_, args) => createResidencyManager(args[0] as never, args[1] as never),
      params: [
        // Another device is a device: the manager is then that device's. Only non-devices are wrong.
        param('device', (ctx) =>
          ctx.rng.chance(0.5)
            ? invalid(pickOf(ctx.rng, ctx.main.wrongKind('device')) ?? {})
            : invalid(
                ctx.rng.pick<unknown>([null, undefined, {}, 1, 'device', Object.create(null), ctx.main.heaps[0] ?? 2]),
              ),
        ),
        {
          name: 'options',
          bad: (ctx, good) =>
            ctx.rng.chance(0.2)
              ? invalid(ctx.rng.pick<unknown>([5, 'options', true]))
              : badField(ctx.rng, good as object, {
                  // Refused whatever its value now (d3dx12residency's MaxLatency bounds a worker thread the manager has not); these invalid values stay as they were.
                  maxLatency: (g) => (g.chance(0.4) ? invalid(0) : badUint(g, { min: 1, optional: true })),
                  clock: (g) => invalid(g.pick<unknown>([5, 'now', {}, null])),
                }),
        },
      ],
      plan: (ctx) => {
        // The draw that used to add a valid maxLatency is kept, so each seed replays the sequence it always did.
        ctx.rng.chance(0.5);
        return call(ctx, [ctx.main.device, { clock: ctx.now }], {
          receiver: { target: {}, validity: 'valid' },
          onSuccess: (manager, args) => {
            const options = args[1] as { clock?: unknown } | undefined;
            if (args[0] === ctx.main.device && options?.clock === ctx.now) ctx.main.addManager(manager as never);
          },
        });
      },
    },
  ];
}

function badClearValue(rng: Random): Arg {
  // A clear value on a resource that is no render target or depth-stencil target is refused by D3D12.
  return invalid(
    rng.pick<unknown>([
      { format: 'R8G8B8A8_UNORM', color: [0, 0, 0, 1] },
      { format: 'UNKNOWN' },
      5,
      'clear',
      { color: [NaN, 0, 0, 0] },
    ]),
  );
}

function mapOr<T>(value: T | undefined, build: (value: T) => CallPlan): CallPlan | undefined {
  return value === undefined ? undefined : build(value);
}
