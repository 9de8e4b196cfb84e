/**
 * The API fuzzer's catalogue of GraphicsCommandList: every recording method, close and reset, on
 * lists of each type, open or closed.
 *
 * Invariants: a valid plan records on an open list of a type that allows the command, with
 * resources of this device in states the list can reach (barriers start from the state the list
 * last left the subresource in, else the global one); copies stay inside their resources; drawing
 * commands are planned too though no back buffer exists outside a browser (they then fail with
 * E_INVALIDARG naming the render target). Recording into a closed list, or a command its type cannot
 * hold, is a wrong receiver. Root constants and root descriptors here are the fixed root signature's,
 * planned on lists with no root signature set for their kind (catalogue-binding.ts plans them against
 * one). Most dispatch plans first aim their list's root arguments at a live
 * resource (aimAtLiveResource: valid calls made while planning), so that dispatches touch emulated
 * memory; dispatchTargets counts the dispatches recorded through the fixed root signature and those aimed so.
 */
import {
  ROOT_CONSTANT_COUNT,
  ROOT_DESCRIPTOR_COUNT,
  type CommandListType,
  type GraphicsCommandList,
  type QueryHeap,
  type Resource,
  type ResourceState,
} from '../../../src/index.js';
import { RESOURCE_STATE_BITS } from '../../../src/api/types.js';
import type { Random } from '../../../src/validate/random.js';
import { badState, stateNamesOf } from './descs.js';
import { badArrayOf } from './catalogue-objects.js';
import { TILE } from '../d3d12-helpers.js';
import { badRef, isOpen, pickOf, type FuzzContext } from './pool.js';
import { field } from './snapshot.js';
import { param, type CallPlan, type MethodSpec, type Param, type Receiver } from './spec.js';
import { badCoordinate, badRegionSize, tileRegion } from './tiles.js';
import { badEnum, badField, badUint, invalid, maybe, notAnArray, oddString, type Arg } from './values.js';
import { clearChannels, takesFloatClear } from '../../../src/memory/clear-values.js';

export const ALL = ['DIRECT', 'COMPUTE', 'COPY'] as const;
export const SHADER = ['DIRECT', 'COMPUTE'] as const;
export const GRAPHICS = ['DIRECT'] as const;
const ALL_SUBRESOURCES = 0xffffffff;

/** An open list of one of `types`. */
export function openList(ctx: FuzzContext, types: readonly CommandListType[]): GraphicsCommandList | undefined {
  return pickOf(
    ctx.rng,
    ctx.main.lists.filter((l) => isOpen(l) && types.includes(l.type)),
  );
}

/** A closed list, or an open one of a type that cannot record the command. */
export function unfitList(ctx: FuzzContext, types: readonly CommandListType[]): Receiver | undefined {
  const list = pickOf(
    ctx.rng,
    ctx.main.lists.filter((l) => !isOpen(l) || !types.includes(l.type)),
  );
  return list && { target: list, validity: 'invalid' };
}

export function recording(
  name: string,
  types: readonly CommandListType[],
  params: readonly Param[],
  args: (ctx: FuzzContext, list: GraphicsCommandList) => unknown[] | undefined,
  extra: Partial<MethodSpec> = {},
): MethodSpec {
  return {
    cls: 'GraphicsCommandList',
    name,
    params,
    plan: (ctx) => {
      const list = openList(ctx, types);
      const built = list && args(ctx, list);
      return built && { receiver: { target: list, validity: 'valid' }, args: built };
    },
    badReceiver: (ctx) => unfitList(ctx, types),
    ...extra,
  };
}

/** The state a list's next barrier on a subresource must name: what the list left it in, else the global state. */
export function knownState(list: GraphicsCommandList, resource: Resource, sub: number): number {
  const tracked = (
    list.states as unknown as { tracked: Map<Resource, { states: (number | undefined)[] }> }
  ).tracked.get(resource);
  return tracked?.states[sub] ?? resource.states[sub] ?? 0;
}

/** Buffers a copy may write (not UPLOAD, whose state is GENERIC_READ for good) and read (not READBACK). */
export const writable = (ctx: FuzzContext): Resource[] =>
  ctx.main.buffers().filter((r) => r.heap?.desc.properties.type !== 'UPLOAD');
export const readable = (ctx: FuzzContext): Resource[] =>
  ctx.main.buffers().filter((r) => r.heap?.desc.properties.type !== 'READBACK');

function offsetInto(rng: Random, width: number): Arg {
  return rng.chance(0.5) ? invalid(width + rng.int(1, 4096)) : badUint(rng, { wide: true });
}

/**
 * Root constants and the offset they go to (undefined: left out, 0). Mostly constant 2 set, which
 * turns the memory access of the fuzz's compute shader on (COMPUTE_WGSL; the address is root
 * descriptor 1); else a few words of any value anywhere.
 */
function rootConstants(ctx: FuzzContext): { words: number[]; offset: number | undefined } {
  const { rng } = ctx;
  if (rng.chance(0.6)) return { words: [0, 0, 1], offset: rng.chance(0.5) ? undefined : 0 };
  const words = Array.from({ length: rng.int(1, 6) }, () => rng.pick([0, 1, rng.next(), -1, -(2 ** 31)]));
  return { words, offset: rng.chance(0.3) ? undefined : rng.int(0, ROOT_CONSTANT_COUNT - words.length) };
}

function badWords(ctx: FuzzContext, good: unknown, offset: number): Arg {
  const { rng } = ctx;
  if (rng.chance(0.25)) return rng.chance(0.5) ? notAnArray(rng) : invalid(rng.pick<unknown>(['1234', 5, {}]));
  // More words than there are root constants: too many from any offset.
  if (rng.chance(0.25)) return invalid(new Array<number>(ROOT_CONSTANT_COUNT + 1).fill(offset));
  return badArrayOf(ctx, good, (g) => badWord(g), { lengthValidity: 'maybe' });
}

/** Not a 32-bit value: root constants take signed and unsigned ones, so -1 and -2^31 are fine. */
function badWord(rng: Random): Arg {
  return invalid(
    rng.pick<unknown>([
      2 ** 32,
      -(2 ** 31) - 1,
      1.5,
      -0.5,
      NaN,
      Infinity,
      -Infinity,
      2 ** 53,
      '1',
      null,
      undefined,
      {},
      1n,
      true,
    ]),
  );
}

/** Whether `list` has no root signature set for compute (or graphics): the fixed one's arguments apply. */
function fixedRoot(list: GraphicsCommandList, graphics: boolean): boolean {
  return field<{ rootSignature: unknown }>(list, graphics ? 'graphicsRoot' : 'root').rootSignature === undefined;
}

const rootIndex = param('rootParameterIndex', (ctx) =>
  ctx.rng.chance(0.5) ? invalid(ctx.rng.int(1, 8)) : badUint(ctx.rng),
);

function constantsMethods(prefix: 'Compute' | 'Graphics', types: readonly CommandListType[]): MethodSpec[] {
  return [
    recording(
      `set${prefix}Root32BitConstants`,
      types,
      [
        rootIndex,
        { name: 'srcData', bad: (ctx, good, p) => badWords(ctx, good, (p.args[2] as number | undefined) ?? 0) },
        param('destOffsetIn32BitValues', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(ROOT_CONSTANT_COUNT + 1) : badUint(ctx.rng, { optional: true }),
        ),
      ],
      (ctx, list) => {
        if (!fixedRoot(list, prefix === 'Graphics')) return undefined;
        const { words, offset } = rootConstants(ctx);
        const data = ctx.rng.chance(0.3) ? Uint32Array.from(words, (w) => w >>> 0) : words;
        return offset === undefined ? [0, data] : [0, data, offset];
      },
    ),
    recording(
      `set${prefix}Root32BitConstant`,
      types,
      // Left out, the offset defaults to 0 (D3D12 requires it; taking the default is harmless).
      [
        rootIndex,
        param('srcData', (ctx) => badWord(ctx.rng)),
        param('destOffsetIn32BitValues', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(ROOT_CONSTANT_COUNT) : badUint(ctx.rng, { optional: true }),
        ),
      ],
      (ctx, list) =>
        fixedRoot(list, prefix === 'Graphics')
          ? [0, ctx.rng.next(), ctx.rng.int(0, ROOT_CONSTANT_COUNT - 1)]
          : undefined,
    ),
  ];
}

/** A root descriptor's parameter that is not one (0 is the constants; 9 is past the eighth). */
const descriptorIndex = param('rootParameterIndex', (ctx) =>
  ctx.rng.chance(0.5) ? invalid(ctx.rng.pick([0, ROOT_DESCRIPTOR_COUNT + 1])) : badUint(ctx.rng),
);

/** Not a D3D12_GPU_VIRTUAL_ADDRESS: a number instead of a bigint, negative, 2^64 or more. */
const badAddress = param('bufferLocation', (ctx) =>
  invalid(ctx.rng.pick<unknown>([65536, -1n, 2n ** 64n, '0x10000', null, undefined, {}, NaN])),
);

function descriptorMethods(prefix: 'Compute' | 'Graphics', types: readonly CommandListType[]): MethodSpec[] {
  return (['ConstantBuffer', 'ShaderResource', 'UnorderedAccess'] as const).map((view) =>
    recording(`set${prefix}Root${view}View`, types, [descriptorIndex, badAddress], (ctx, list) =>
      fixedRoot(list, prefix === 'Graphics') ? descriptorArgs(ctx, view === 'ConstantBuffer' ? 256 : 4) : undefined,
    ),
  );
}

/**
 * A root descriptor and its address. Mostly root descriptor 1, the one the fuzz's compute shader reads
 * (COMPUTE_WGSL), at an address inside a live resource, so that dispatches touch (or fault on)
 * emulated memory; else any root descriptor, at a resource's address or at one no resource owns
 * (D3D12 allows it; a shader's access faults).
 */
function descriptorArgs(ctx: FuzzContext, alignment: number): [number, bigint] {
  const { rng } = ctx;
  const target = pickOf(rng, ctx.main.resources);
  if (target && rng.chance(0.6))
    return [1, target.getGPUVirtualAddress() + BigInt(offsetWithin(rng, target, alignment))];
  const address =
    target && rng.chance(0.7)
      ? target.getGPUVirtualAddress()
      : rng.chance(0.5)
        ? BigInt(rng.next()) * BigInt(alignment)
        : rng.pick([0n, 0x12340000n, 2n ** 64n - 1n]);
  return [rng.int(1, ROOT_DESCRIPTOR_COUNT), address];
}

/** An offset into a resource, a multiple of `alignment`: its start often, else anywhere in it. */
function offsetWithin(rng: Random, resource: Resource, alignment: number): number {
  const last = Math.floor((byteSpan(resource) - 1) / alignment);
  return rng.chance(0.4) || last <= 0 ? 0 : alignment * rng.int(0, last);
}

/** What the dispatches a run recorded pointed at (dispatchTargets). */
export interface DispatchTargets {
  /** Dispatches that returned normally. */
  recorded: number;
  /** Of those, the ones whose shader accesses memory (root constant 2 not 0) at an address in a live resource of the device (root descriptor 1). */
  live: number;
}

const targets = new WeakMap<FuzzContext, DispatchTargets>();

/** What the dispatches recorded in a run (by its context) pointed at: a fuzz that never reaches memory through them is a weak one. */
export function dispatchTargets(ctx: FuzzContext): DispatchTargets {
  let counts = targets.get(ctx);
  if (!counts) targets.set(ctx, (counts = { recorded: 0, live: 0 }));
  return counts;
}

/** The bytes of a resource's that an address may point into: a buffer's width, a texture's tiles. */
function byteSpan(resource: Resource): number {
  return resource.desc.dimension === 'BUFFER' ? resource.desc.width : resource.layout.numTiles * TILE;
}

/**
 * dispatch's valid plan. Six in ten first aim the list at a live resource (aimAtLiveResource), on
 * a list that can record the dispatch (a compute pipeline state set, no root signature) where one
 * is open, else on a list with no root signature set, given the fixed root signature's compute
 * pipeline state first (a valid call made while planning); the others take any open list as its
 * root arguments stand.
 */
function dispatchPlan(ctx: FuzzContext): CallPlan | undefined {
  const { rng } = ctx;
  const aim = rng.chance(0.6);
  const open = ctx.main.lists.filter((l) => isOpen(l) && SHADER.includes(l.type as (typeof SHADER)[number]));
  const fixed = open.filter((l) => fixedRoot(l, false));
  const ready = fixed.filter((l) => {
    const pipeline = field<{ kind: string; rootSignature: unknown } | undefined>(l, 'pipeline');
    return pipeline?.kind === 'compute' && pipeline.rootSignature === undefined;
  });
  const list = (aim ? (pickOf(rng, ready) ?? pickOf(rng, fixed)) : undefined) ?? pickOf(rng, open);
  if (!list) return undefined;
  if (aim && fixed.includes(list) && !ready.includes(list)) {
    const pso = ctx.main.computePipelines.find((p) => p.rootSignature === undefined);
    if (pso) list.setPipelineState(pso);
  }
  if (aim) aimAtLiveResource(ctx, list);
  const args = [rng.int(0, 4), ...(rng.chance(0.5) ? [1, rng.int(1, 2)] : [])];
  return { receiver: { target: list, validity: 'valid' }, args, onSuccess: () => noteDispatch(ctx, list) };
}

/**
 * Aims the fuzz's compute shader (COMPUTE_WGSL), dispatched on `list`, at a live resource: root
 * descriptor 1 (its address) inside one, root constant 2 (its access) on. A plan is one call, so
 * these two valid calls are made while planning: the runner neither judges nor traces them (a throw
 * is reported as a plan that threw), but the dispatch planned next records what they set.
 */
function aimAtLiveResource(ctx: FuzzContext, list: GraphicsCommandList): void {
  // A root signature set lays the root arguments out its own way.
  if (!fixedRoot(list, false)) return;
  const target = pickOf(
    ctx.rng,
    ctx.main.resources.filter((r) => !r.released),
  );
  if (!target) return;
  list.setComputeRootUnorderedAccessView(1, target.getGPUVirtualAddress() + BigInt(offsetWithin(ctx.rng, target, 4)));
  list.setComputeRoot32BitConstant(0, 1, 2);
}

/**
 * Whether the fuzz's compute shader (COMPUTE_WGSL), dispatched on `list` now, accesses memory (root
 * constant 2 not 0) at an address inside a live resource of the device (root descriptor 1).
 */
function aimsAtLiveResource(ctx: FuzzContext, list: GraphicsCommandList): boolean {
  const words = field<{ snapshot(): Uint32Array }>(list, 'root').snapshot();
  if ((words[2] ?? 0) === 0) return false;
  const address = (BigInt(words[ROOT_CONSTANT_COUNT + 1] ?? 0) << 32n) | BigInt(words[ROOT_CONSTANT_COUNT] ?? 0);
  return ctx.main.resources.some((r) => {
    if (r.released) return false;
    const base = r.getGPUVirtualAddress();
    return address >= base && address < base + BigInt(byteSpan(r));
  });
}

/** Counts a dispatch just recorded on `list` (dispatchTargets). */
function noteDispatch(ctx: FuzzContext, list: GraphicsCommandList): void {
  // Through a root signature the shader is not COMPUTE_WGSL (catalogue-binding.ts's table pipeline).
  if (!fixedRoot(list, false)) return;
  const counts = dispatchTargets(ctx);
  counts.recorded++;
  if (aimsAtLiveResource(ctx, list)) counts.live++;
}

function barrier(ctx: FuzzContext, list: GraphicsCommandList): unknown {
  const { rng } = ctx;
  const r = rng.float();
  const resource = pickOf(
    rng,
    ctx.main.resources.filter((x) => x.fixedState === undefined),
  );
  if (r < 0.15 || !resource)
    return { type: 'UAV', uav: { resource: rng.chance(0.5) ? null : (pickOf(rng, ctx.main.resources) ?? null) } };
  if (r < 0.22)
    return { type: 'ALIASING', aliasing: { resourceBefore: null, resourceAfter: rng.chance(0.5) ? resource : null } };
  const count = resource.states.length;
  const subresource = rng.chance(0.5) ? ALL_SUBRESOURCES : rng.int(0, count - 1);
  const before = knownState(list, resource, subresource === ALL_SUBRESOURCES ? 0 : subresource);
  const uav = resource.desc.flags.includes('ALLOW_UNORDERED_ACCESS');
  const afters: ResourceState[] = [
    'COMMON',
    'COPY_DEST',
    'COPY_SOURCE',
    'NON_PIXEL_SHADER_RESOURCE',
    ...(uav ? (['UNORDERED_ACCESS'] as const) : []),
  ];
  const after = rng.pick(afters.filter((name) => RESOURCE_STATE_BITS[name] !== before));
  const transition: Record<string, unknown> = { resource, stateBefore: stateNamesOf(before), stateAfter: after };
  if (subresource !== ALL_SUBRESOURCES || rng.chance(0.5)) transition.subresource = subresource;
  return {
    type: 'TRANSITION',
    transition,
    ...(rng.chance(0.1) ? { flags: rng.pick(['NONE', 'BEGIN_ONLY', 'END_ONLY']) } : {}),
  };
}

function badBarrier(ctx: FuzzContext, good: unknown): Arg {
  const { rng } = ctx;
  const b = good as { type: string; transition?: Record<string, unknown> };
  if (b.type !== 'TRANSITION' || !b.transition || rng.chance(0.2)) {
    return invalid(
      rng.pick<unknown>([
        null,
        5,
        {},
        { type: 'TRANSITION' },
        { type: 'SPLIT' },
        { type: 'TRANSITION', transition: null },
        { type: 'UAV', flags: 'BEGIN_ONLY', uav: { resource: null } },
      ]),
    );
  }
  const transition = b.transition;
  const count = (transition.resource as Resource).states.length;
  const field = badField(rng, transition, {
    resource: (g) => (g.chance(0.2) ? invalid(null) : badRef(ctx, 'resource')),
    subresource: (g) => (g.chance(0.5) ? invalid(count) : badUint(g, { optional: true })),
    stateBefore: (g) => badState(g),
    stateAfter: (g) => (g.chance(0.3) ? invalid(transition.stateBefore) : badState(g)),
  });
  return { value: { ...b, transition: field.value }, validity: field.validity };
}

/** Whether the allocator a list records into (if any) is live, with no list recording into it. */
function keptAllocatorFree(list: GraphicsCommandList): boolean {
  const allocator = list.commandAllocator;
  return (
    !allocator ||
    (!allocator.released && ![...field<Set<{ isOpen: boolean }>>(allocator, 'lists')].some((l) => l.isOpen))
  );
}

/** Recording methods whose valid plan cannot fail on an open list of a fitting type. */
const CERTAIN_RECORDING = new Set([
  ...['Compute', 'Graphics'].flatMap((prefix) =>
    ['ConstantBuffer', 'ShaderResource', 'UnorderedAccess'].map((view) => `set${prefix}Root${view}View`),
  ),
  'setPipelineState',
  'setComputeRoot32BitConstants',
  'setComputeRoot32BitConstant',
  'setGraphicsRoot32BitConstants',
  'setGraphicsRoot32BitConstant',
  'omSetRenderTargets',
  'rsSetViewports',
  'rsSetScissorRects',
  'endQuery',
]);

export function listCatalogue(): MethodSpec[] {
  return listMethods().map((spec) => (CERTAIN_RECORDING.has(spec.name) ? { ...spec, certain: true } : spec));
}

function listMethods(): MethodSpec[] {
  const closed = (ctx: FuzzContext): GraphicsCommandList | undefined =>
    pickOf(
      ctx.rng,
      ctx.main.lists.filter((l) => !isOpen(l)),
    );
  const queryHeap = param('queryHeap', (ctx) => badRef(ctx, 'queryHeap'));
  const queryType = param('type', (ctx) =>
    ctx.rng.chance(0.3)
      ? invalid(ctx.rng.pick(['OCCLUSION', 'BINARY_OCCLUSION', 'PIPELINE_STATISTICS']))
      : badEnum(ctx.rng, ['TIMESTAMP']),
  );
  const heapFor = (ctx: FuzzContext, list: GraphicsCommandList): QueryHeap | undefined =>
    pickOf(
      ctx.rng,
      ctx.main.queryHeaps.filter((h) => (h.desc.type === 'COPY_QUEUE_TIMESTAMP') === (list.type === 'COPY')),
    );
  return [
    {
      cls: 'GraphicsCommandList',
      name: 'close',
      certain: true,
      weight: 2,
      params: [],
      plan: (ctx) => mapPlan(openList(ctx, ALL), []),
      badReceiver: (ctx) => mapReceiver(closed(ctx)),
    },
    {
      cls: 'GraphicsCommandList',
      name: 'reset',
      certain: true,
      weight: 2,
      params: [
        {
          name: 'initialState',
          bad: (ctx, _, p) => {
            const pso = pickOf(ctx.rng, ctx.main.computePipelines);
            return (p.receiver.target as GraphicsCommandList).type === 'COPY' && pso && ctx.rng.chance(0.4)
              ? maybe(pso)
              : badRef(ctx, 'pipeline', { nullable: true });
          },
        },
      ],
      plan: (ctx) => {
        // The shorter form keeps the list's allocator: refused while another list records into it.
        const list = pickOf(
          ctx.rng,
          ctx.main.lists.filter((l) => !isOpen(l) && keptAllocatorFree(l)),
        );
        if (!list) return undefined;
        const pso =
          list.type !== 'COPY' && ctx.rng.chance(0.3) ? pickOf(ctx.rng, ctx.main.computePipelines) : undefined;
        return mapPlan(list, pso ? [pso] : ctx.rng.chance(0.3) ? [null] : []);
      },
      badReceiver: (ctx) => mapReceiver(openList(ctx, ALL)),
    },
    {
      cls: 'GraphicsCommandList',
      name: 'setName',
      certain: true,
      weight: 0.2,
      params: [param('name', (ctx) => oddString(ctx.rng))],
      plan: (ctx) => mapPlan(pickOf(ctx.rng, ctx.main.lists), ['list']),
    },
    {
      cls: 'GraphicsCommandList',
      name: 'getName',
      certain: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => mapPlan(pickOf(ctx.rng, ctx.main.lists), []),
    },
    recording(
      'endQuery',
      ALL,
      [
        queryHeap,
        queryType,
        {
          name: 'index',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.5) ? invalid((p.args[0] as QueryHeap).desc?.count ?? 99) : badUint(ctx.rng),
        },
      ],
      (ctx, list) => {
        const heap = heapFor(ctx, list);
        return heap && [heap, 'TIMESTAMP', ctx.rng.int(0, heap.desc.count - 1)];
      },
    ),
    recording(
      'resolveQueryData',
      ALL,
      [
        queryHeap,
        queryType,
        {
          name: 'startIndex',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.4) ? invalid(((p.args[0] as QueryHeap).desc?.count ?? 0) + 1) : badUint(ctx.rng),
        },
        {
          name: 'numQueries',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.4) ? invalid(((p.args[0] as QueryHeap).desc?.count ?? 0) + 1) : badUint(ctx.rng),
        },
        param('destinationBuffer', (ctx) => badRef(ctx, 'buffer')),
        param('alignedDestinationBufferOffset', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(ctx.rng.pick([4, 1, 12])) : badUint(ctx.rng, { wide: true }),
        ),
      ],
      (ctx) => {
        const heap = pickOf(ctx.rng, ctx.main.queryHeaps);
        const destination = pickOf(
          ctx.rng,
          writable(ctx).filter((r) => r.desc.width >= 8),
        );
        if (!heap || !destination) return undefined;
        const start = ctx.rng.int(0, heap.desc.count - 1);
        const count = ctx.rng.int(0, Math.min(heap.desc.count - start, Math.floor(destination.desc.width / 8)));
        const offset = 8 * ctx.rng.int(0, Math.floor((destination.desc.width - count * 8) / 8));
        return [heap, 'TIMESTAMP', start, count, destination, offset];
      },
    ),
    recording(
      'copyBufferRegion',
      ALL,
      [
        param('dstBuffer', (ctx) => badRef(ctx, 'buffer')),
        { name: 'dstOffset', bad: (ctx, _, p) => offsetInto(ctx.rng, (p.args[0] as Resource).desc.width) },
        param('srcBuffer', (ctx) => badRef(ctx, 'buffer')),
        { name: 'srcOffset', bad: (ctx, _, p) => offsetInto(ctx.rng, (p.args[2] as Resource).desc.width) },
        param('numBytes', (ctx) =>
          ctx.rng.chance(0.5) ? invalid(ctx.rng.pick([2 ** 40, 16 * TILE])) : badUint(ctx.rng, { wide: true }),
        ),
      ],
      (ctx) => {
        const [dst, src] = [pickOf(ctx.rng, writable(ctx)), pickOf(ctx.rng, readable(ctx))];
        if (!dst || !src) return undefined;
        const n = ctx.rng.int(0, Math.min(dst.desc.width, src.desc.width, ctx.rng.chance(0.5) ? 256 : TILE));
        return [dst, ctx.rng.int(0, dst.desc.width - n), src, ctx.rng.int(0, src.desc.width - n), n];
      },
    ),
    recording(
      'copyResource',
      ALL,
      [param('dstResource', (ctx) => badRef(ctx, 'resource')), param('srcResource', (ctx) => badRef(ctx, 'resource'))],
      (ctx) => {
        const pairs = ctx.main.resources.flatMap((dst) =>
          ctx.main.resources
            .filter(
              (src) =>
                src !== dst &&
                sameShape(dst, src) &&
                dst.heap?.desc.properties.type !== 'UPLOAD' &&
                src.heap?.desc.properties.type !== 'READBACK',
            )
            .map((src) => [dst, src]),
        );
        return pickOf(ctx.rng, pairs);
      },
    ),
    recording(
      'copyTiles',
      ALL,
      [
        param('tiledResource', (ctx) => badRef(ctx, 'reserved')),
        { name: 'tileRegionStartCoordinate', bad: (ctx, good) => badCoordinate(ctx.rng, good as never) },
        { name: 'tileRegionSize', bad: (ctx, good) => badRegionSize(ctx.rng, good as never) },
        param('buffer', (ctx) => badRef(ctx, 'buffer')),
        {
          name: 'bufferStartOffsetInBytes',
          bad: (ctx, _, p) => offsetInto(ctx.rng, (p.args[3] as Resource).desc.width),
        },
        param('flags', (ctx) =>
          ctx.rng.chance(0.3)
            ? invalid(['LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE', 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER'])
            : badEnum(ctx.rng, ['NONE', 'NO_HAZARD']),
        ),
      ],
      (ctx) => {
        const tiled = pickOf(ctx.rng, ctx.main.reserved());
        if (!tiled) return undefined;
        const region = tileRegion(ctx, tiled, 2);
        const toTiles = ctx.rng.chance(0.5);
        const bytes = region.tiles * TILE;
        const buffer = pickOf(
          ctx.rng,
          (toTiles ? readable(ctx) : writable(ctx)).filter((b) => b !== tiled && b.desc.width >= bytes),
        );
        if (!buffer) return undefined;
        const offset = ctx.rng.chance(0.7) ? 0 : ctx.rng.int(0, buffer.desc.width - bytes);
        const direction = toTiles
          ? 'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE'
          : ctx.rng.pick(['SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER', 'NONE']);
        return [
          tiled,
          region.coordinate,
          region.size,
          buffer,
          offset,
          ctx.rng.chance(0.3) ? [direction, 'NO_HAZARD'] : direction,
        ];
      },
    ),
    ...uavClearMethods(),
    recording(
      'resourceBarrier',
      ALL,
      [
        {
          name: 'barriers',
          bad: (ctx, good) =>
            ctx.rng.chance(0.2)
              ? notAnArray(ctx.rng)
              : badArrayOf(ctx, good, (_, item) => badBarrier(ctx, item), { lengthValidity: 'maybe' }),
        },
      ],
      (ctx, list) => [Array.from({ length: ctx.rng.int(1, 3) }, () => barrier(ctx, list))],
      { weight: 3 },
    ),
    recording(
      'setPipelineState',
      SHADER,
      [
        {
          name: 'pipelineState',
          // A graphics pipeline state on a COMPUTE list is as wrong as another device's.
          bad: (ctx, _, p) => {
            const graphics = pickOf(ctx.rng, ctx.main.graphicsPipelines);
            if ((p.receiver.target as GraphicsCommandList).type === 'COMPUTE' && graphics && ctx.rng.chance(0.3))
              return invalid(graphics);
            return badRef(ctx, 'pipeline');
          },
        },
      ],
      (ctx, list) =>
        mapArgs(
          pickOf(
            ctx.rng,
            list.type === 'DIRECT'
              ? [...ctx.main.computePipelines, ...ctx.main.graphicsPipelines]
              : ctx.main.computePipelines,
          ),
          (pso) => [pso],
        ),
      { weight: 1.5 },
    ),
    ...constantsMethods('Compute', SHADER),
    ...descriptorMethods('Compute', SHADER),
    {
      cls: 'GraphicsCommandList',
      name: 'dispatch',
      weight: 1.5,
      params: [
        param('threadGroupCountX', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(ctx.rng.pick([65536, 2 ** 32])) : badUint(ctx.rng),
        ),
        param('threadGroupCountY', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(65536) : badUint(ctx.rng, { optional: true }),
        ),
        param('threadGroupCountZ', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(65536) : badUint(ctx.rng, { optional: true }),
        ),
      ],
      plan: dispatchPlan,
      badReceiver: (ctx) => unfitList(ctx, SHADER),
    },
    recording(
      'omSetRenderTargets',
      GRAPHICS,
      [param('renderTargets', (ctx) => (ctx.rng.chance(0.3) ? maybe([undefined]) : badRefArray4(ctx)))],
      () => [[]],
      { weight: 0.4 },
    ),
    {
      ...recording(
        'clearRenderTargetView',
        GRAPHICS,
        [
          param('renderTarget', (ctx) => badRef(ctx, 'heap'), ['renderTargetView']),
          param('colorRGBA', (ctx) =>
            invalid(
              ctx.rng.pick<unknown>([[1, 0, 0], [NaN, 0, 0, 1], [0, 0, 0, Infinity], 'red', null, [0, 0, 0, '1']]),
            ),
          ),
        ],
        (ctx) => [ctx.main.heaps[0] ?? {}, [0, 0, 0, 1]],
      ),
      weight: 0.3,
      // There is no back buffer outside a browser: the target is never right here.
      plan: (ctx) =>
        mapPlan(
          openList(ctx, GRAPHICS),
          [ctx.rng.pick<unknown>([{}, null, ctx.main.heaps[0]]), [0, 0, 0, 1]],
          ['invalid', 'valid'],
        ),
    },
    ...constantsMethods('Graphics', GRAPHICS),
    ...descriptorMethods('Graphics', GRAPHICS),
    recording(
      'rsSetViewports',
      GRAPHICS,
      [
        {
          name: 'viewports',
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (rng.chance(0.2)) return maybe(rng.chance(0.5) ? [] : [...(good as unknown[]), ...(good as unknown[])]);
            return badArrayOf(
              ctx,
              good,
              (g, item) =>
                badField(g, item as object, {
                  topLeftX: (h) => invalid(h.pick<unknown>([NaN, Infinity, '0', null])),
                  topLeftY: (h) => invalid(h.pick<unknown>([NaN, -Infinity, {}, undefined])),
                  width: (h) => invalid(h.pick<unknown>([0, -1, NaN, Infinity, '64'])),
                  height: (h) => invalid(h.pick<unknown>([0, -64, NaN, null])),
                  minDepth: (h) => invalid(h.pick<unknown>([-0.5, 2, NaN, '0'])),
                  maxDepth: (h) => invalid(h.pick<unknown>([1.5, -1, NaN, {}])),
                }),
              { lengthValidity: 'maybe' },
            );
          },
        },
      ],
      (ctx) => [
        [
          {
            topLeftX: ctx.rng.int(0, 8),
            topLeftY: 0,
            width: ctx.rng.int(1, 64),
            height: 32,
            ...(ctx.rng.chance(0.5) ? { minDepth: 0, maxDepth: 1 } : {}),
          },
        ],
      ],
      { weight: 0.4 },
    ),
    recording(
      'rsSetScissorRects',
      GRAPHICS,
      [
        {
          name: 'rects',
          bad: (ctx, good) =>
            badArrayOf(
              ctx,
              good,
              (g, item) => {
                const rect = item as { left: number; right: number };
                if (g.chance(0.3)) return invalid({ ...rect, right: rect.left - 1 });
                // D3D12_RECT's fields are LONG: negative values are D3D12's to accept (the emulator refuses them).
                if (g.chance(0.2)) return maybe({ ...rect, left: -1 });
                return badField(g, rect, {
                  left: (h) => invalid(h.pick<unknown>([NaN, 1.5, '0'])),
                  top: (h) => invalid(h.pick<unknown>([Infinity, null])),
                  right: (h) => invalid(h.pick<unknown>([0.25, {}])),
                  bottom: (h) => invalid(h.pick<unknown>([NaN, undefined])),
                });
              },
              { lengthValidity: 'maybe' },
            ),
        },
      ],
      (ctx) => [[{ left: 0, top: ctx.rng.int(0, 4), right: ctx.rng.int(8, 64), bottom: 64 }]],
      { weight: 0.4 },
    ),
    recording(
      'drawInstanced',
      GRAPHICS,
      [
        param('vertexCountPerInstance', (ctx) => badUint(ctx.rng)),
        param('instanceCount', (ctx) => badUint(ctx.rng)),
        param('startVertexLocation', (ctx) => badUint(ctx.rng, { optional: true })),
        param('startInstanceLocation', (ctx) => badUint(ctx.rng, { optional: true })),
      ],
      (ctx) => [ctx.rng.int(0, 6), ctx.rng.int(0, 2), ...(ctx.rng.chance(0.5) ? [0, 0] : [])],
      { weight: 0.4 },
    ),
  ];
}

/**
 * clearUnorderedAccessViewUint / Float's valid plans: a resource with ALLOW_UNORDERED_ACCESS (a
 * buffer with a raw, typed or structured view inside it; a texture of a format the clear writes, one
 * of its mips and slices: array slices, or a 3D mip's depth slices), 4 values, no rectangles or a few (clipped ones included). A
 * texture not in UNORDERED_ACCESS makes the list fail at execution, as in D3D12.
 */
function uavClearMethods(): MethodSpec[] {
  const clearable = (ctx: FuzzContext): Resource[] =>
    ctx.main.resources.filter(
      (r) =>
        !r.released &&
        r.desc.flags.includes('ALLOW_UNORDERED_ACCESS') &&
        (r.desc.dimension === 'BUFFER' ? r.desc.width >= 16 : clearChannels(r.desc.format) !== undefined),
    );
  const plan =
    (kind: 'Uint' | 'Float') =>
    (ctx: FuzzContext): unknown[] | undefined => {
      const { rng } = ctx;
      const resource = pickOf(
        rng,
        clearable(ctx).filter(
          (r) =>
            kind === 'Uint' || r.desc.dimension === 'BUFFER' || takesFloatClear(clearChannels(r.desc.format) ?? []),
        ),
      );
      if (!resource) return undefined;
      const values = kind === 'Uint' ? [rng.next(), 0, 1, -1] : [rng.float(), -1, 2, 0.5];
      const rects = rng.chance(0.5)
        ? null
        : [{ left: rng.int(-4, 8), top: rng.int(-4, 8), right: rng.int(0, 64), bottom: rng.int(0, 64) }];
      if (resource.desc.dimension === 'BUFFER') {
        const elements = Math.floor(resource.desc.width / 4);
        const first = rng.int(0, elements - 1);
        const view =
          kind === 'Float'
            ? { format: 'R32_FLOAT', firstElement: first }
            : rng.pick<unknown>([
                null,
                { flags: 'RAW' },
                { format: 'R8_UINT' },
                { structureByteStride: 4, firstElement: first },
              ]);
        return [resource, values, rects, view];
      }
      const layout = resource.layout;
      const mipSlice = rng.int(0, layout.mipLevels - 1);
      if (rng.chance(0.3)) return [resource, values, rects, null];
      if (resource.desc.dimension === 'TEXTURE3D') {
        const depth = Math.max(1, resource.desc.depthOrArraySize >> mipSlice);
        return [resource, values, rects, { mipSlice, firstWSlice: rng.int(0, depth - 1), wSize: rng.pick([1, -1]) }];
      }
      return [resource, values, rects, { mipSlice, firstArraySlice: rng.int(0, layout.arraySize - 1), arraySize: 1 }];
    };
  const params: Param[] = [
    param('resource', (ctx) => badRef(ctx, 'resource')),
    param('values', (ctx) =>
      invalid(ctx.rng.pick<unknown>([[1, 2, 3], '1234', null, [1, 2, 3, '4'], [1, 2, 3, {}], [undefined, 0, 0, 0]])),
    ),
    param('rects', (ctx) =>
      invalid(
        ctx.rng.pick<unknown>([
          {},
          5,
          [null],
          [{ left: 0.5, top: 0, right: 1, bottom: 1 }],
          [{ left: 0, top: 0, right: 2 ** 31, bottom: 1 }],
        ]),
      ),
    ),
    param('view', (ctx) =>
      invalid(
        ctx.rng.pick<unknown>([
          5,
          'RAW',
          { bogus: 1 },
          { format: 'BC1_UNORM' },
          { mipSlice: 99, firstElement: 0 },
          { format: 7 },
        ]),
      ),
    ),
  ];
  return (['Uint', 'Float'] as const).map((kind) =>
    recording(`clearUnorderedAccessView${kind}`, SHADER, params, plan(kind), { weight: 0.8 }),
  );
}

function badRefArray4(ctx: FuzzContext): Arg {
  return ctx.rng.chance(0.3)
    ? notAnArray(ctx.rng)
    : invalid([ctx.rng.pick<unknown>([{}, null, ctx.main.heaps[0] ?? 5, 'rtv'])]);
}

function sameShape(a: Resource, b: Resource): boolean {
  const [x, y] = [a.desc, b.desc];
  return (
    x.dimension === y.dimension &&
    x.width === y.width &&
    x.height === y.height &&
    x.depthOrArraySize === y.depthOrArraySize &&
    x.mipLevels === y.mipLevels &&
    x.format === y.format
  );
}

function mapPlan(
  list: GraphicsCommandList | undefined,
  args: unknown[],
  validities?: CallPlan['validities'],
): CallPlan | undefined {
  return list && { receiver: { target: list, validity: 'valid' }, args, validities };
}

function mapReceiver(list: GraphicsCommandList | undefined): Receiver | undefined {
  return list && { target: list, validity: 'invalid' };
}

function mapArgs<T>(value: T | undefined, build: (value: T) => unknown[]): unknown[] | undefined {
  return value === undefined ? undefined : build(value);
}
