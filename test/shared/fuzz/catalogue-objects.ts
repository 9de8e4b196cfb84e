/**
 * The API fuzzer's catalogue of Heap, Resource, QueryHeap, Fence and CommandQueue: valid calls from
 * the pool, wrong receivers (released objects) and wrong arguments.
 *
 * Invariants: a released object's methods other than getName are wrong on it ('invalid'); another
 * device's heap or fence may be read (getDesc, getCompletedValue) but the fuzz never releases or
 * signals it, so the second device only changes through calls that wrongly accept its objects.
 */
import type {
  CommandQueue,
  Fence,
  GraphicsCommandList,
  Heap,
  QueryHeap,
  Resource,
  TileRangeFlag,
} from '../../../src/index.js';
import { TILE_SIZE } from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import {
  badRef,
  badRefArray,
  cpuVisible,
  isOpen,
  pickOf,
  sample,
  type DeviceWorld,
  type FuzzContext,
  type RefKind,
} from './pool.js';
import { param, type CallPlan, type MethodSpec, type Param, type Receiver } from './spec.js';
import { badCoordinate, badRegionSize, tileRegion, type Region } from './tiles.js';
import { badEnum, badUint, invalid, maybe, notAnArray, oddString, type Arg } from './values.js';

const live = (target: object): Receiver => ({ target, validity: 'valid' });
const wrong = (target: object | undefined): Receiver | undefined =>
  target ? { target, validity: 'invalid' } : undefined;
const plan = (target: object | undefined, args: unknown[], extra: Partial<CallPlan> = {}): CallPlan | undefined =>
  target ? { receiver: live(target), args, ...extra } : undefined;

type Child = 'Heap' | 'Resource' | 'QueryHeap';
const KIND: Record<Child, RefKind> = { Heap: 'heap', Resource: 'resource', QueryHeap: 'queryHeap' };

/** getDesc, release, setName, getName: what heaps, resources and query heaps share (ID3D12DeviceChild, IUnknown). */
function childMethods(cls: Child, release: (world: DeviceWorld, object: object) => void): MethodSpec[] {
  const liveOf = (ctx: FuzzContext): object | undefined => pickOf(ctx.rng, ctx.main.live(KIND[cls]));
  const releasedOf = (ctx: FuzzContext): object | undefined => pickOf(ctx.rng, ctx.main.released(KIND[cls]));
  const readable = (ctx: FuzzContext): object | undefined =>
    (ctx.rng.chance(0.15) ? pickOf(ctx.rng, ctx.other.live(KIND[cls])) : undefined) ?? liveOf(ctx);
  return [
    {
      cls,
      name: 'getDesc',
      certain: true,
      weight: 0.4,
      params: [],
      plan: (ctx) => plan(readable(ctx), []),
      badReceiver: (ctx) => wrong(releasedOf(ctx)),
    },
    {
      cls,
      name: 'release',
      certain: true,
      weight: cls === 'Resource' ? 1.5 : 0.8,
      params: [],
      plan: (ctx) => {
        const target = liveOf(ctx);
        return plan(target, [], { onSuccess: () => release(ctx.main, target as object) });
      },
      badReceiver: (ctx) => wrong(releasedOf(ctx)),
    },
    {
      cls,
      name: 'setName',
      certain: true,
      weight: 0.3,
      params: [param('name', (ctx) => oddString(ctx.rng))],
      plan: (ctx) => plan(liveOf(ctx), [ctx.rng.pick(['terrain', '', 'a b', 'fuzz'])]),
      badReceiver: (ctx) => wrong(releasedOf(ctx)),
    },
    {
      cls,
      name: 'getName',
      certain: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => plan(liveOf(ctx) ?? releasedOf(ctx), []),
    },
  ];
}

function badSubresource(rng: Random): Arg {
  return rng.chance(0.4) ? invalid(rng.pick([1, 2, 0xffffffff])) : badUint(rng, { optional: true });
}

/** A D3D12_RANGE outside `width`, inverted, or not a range. */
function badRange(rng: Random, width: number): Arg {
  return invalid(
    rng.pick<unknown>([
      { begin: 5, end: 2 },
      { begin: 0, end: width + 1 },
      { begin: -1, end: 4 },
      { begin: NaN, end: 1 },
      { begin: 0 },
      {},
      5,
      'all',
      { begin: 0.5, end: 1 },
    ]),
  );
}

function resourceMethods(): MethodSpec[] {
  const mappable = (ctx: FuzzContext): Resource | undefined => pickOf(ctx.rng, ctx.main.mappable());
  const widthOf = (p: CallPlan): number => (p.receiver.target as Resource).desc.width;
  const range = (ctx: FuzzContext, width: number): unknown => {
    const begin = ctx.rng.int(0, width);
    return ctx.rng.pick<unknown>([undefined, null, { begin, end: ctx.rng.int(begin, width) }, { begin: 0, end: 0 }]);
  };
  const notMappable = (ctx: FuzzContext): Receiver | undefined =>
    wrong(
      pickOf(ctx.rng, [
        ...ctx.main.released('buffer'),
        ...ctx.main.resources.filter(
          (r) => r.kind === 'reserved' || !r.heap || !cpuVisible(r.heap) || r.desc.dimension !== 'BUFFER',
        ),
      ]),
    );
  return [
    ...childMethods('Resource', (world, object) => world.releaseResource(object as Resource, 'call')),
    {
      cls: 'Resource',
      name: 'getGPUVirtualAddress',
      certain: true,
      weight: 0.4,
      params: [],
      plan: (ctx) => plan(pickOf(ctx.rng, ctx.main.resources), []),
      badReceiver: (ctx) => wrong(pickOf(ctx.rng, ctx.main.releasedResources)),
    },
    {
      cls: 'Resource',
      name: 'map',
      weight: 1.2,
      params: [
        param('subresource', (ctx) => badSubresource(ctx.rng)),
        { name: 'readRange', bad: (ctx, _, p) => badRange(ctx.rng, widthOf(p)) },
      ],
      plan: (ctx) => {
        const resource = mappable(ctx);
        if (!resource) return undefined;
        const args = ctx.rng.chance(0.3) ? [] : [0, range(ctx, resource.desc.width)];
        // A CPU write through the view, which the next execution must see.
        const write = (view: unknown): void => {
          if (view instanceof Uint8Array && view.length > 0) view[0] = 0x5a;
        };
        return plan(resource, args, { onSuccess: write });
      },
      badReceiver: notMappable,
    },
    {
      cls: 'Resource',
      name: 'unmap',
      weight: 1.2,
      params: [
        param('subresource', (ctx) => badSubresource(ctx.rng)),
        { name: 'writtenRange', bad: (ctx, _, p) => badRange(ctx.rng, widthOf(p)) },
      ],
      plan: (ctx) => {
        const mapped = ctx.main.mappable().filter((r) => r.mapCount > 0);
        const resource = pickOf(ctx.rng, mapped.length > 0 && ctx.rng.chance(0.85) ? mapped : ctx.main.mappable());
        if (!resource) return undefined;
        return plan(resource, ctx.rng.chance(0.3) ? [] : [0, range(ctx, resource.desc.width)]);
      },
      badReceiver: notMappable,
    },
  ];
}

function fenceMethods(): MethodSpec[] {
  const fence = (ctx: FuzzContext): Fence | undefined => pickOf(ctx.rng, ctx.main.fences);
  const value = param('value', (ctx) => badUint(ctx.rng, { wide: true }));
  return [
    {
      cls: 'Fence',
      name: 'getCompletedValue',
      certain: true,
      weight: 0.4,
      params: [],
      plan: (ctx) => plan((ctx.rng.chance(0.2) ? ctx.other.fences[0] : undefined) ?? fence(ctx), []),
    },
    {
      cls: 'Fence',
      name: 'getSubmittedValue',
      certain: true,
      weight: 0.2,
      params: [],
      plan: (ctx) => plan(fence(ctx), []),
    },
    {
      cls: 'Fence',
      name: 'signal',
      certain: true,
      params: [value],
      plan: (ctx) => {
        const f = fence(ctx);
        if (!f) return undefined;
        // Lowering a fence from the CPU is allowed (D3D12 does not require monotonic values).
        const v = ctx.rng.chance(0.85) ? ctx.main.nextFenceValue(f) : ctx.rng.int(0, ctx.main.fenceMax.get(f) ?? 0);
        return plan(f, [v], { onSuccess: (_, args) => ctx.main.noteFence(f, args[0]) });
      },
    },
    {
      cls: 'Fence',
      name: 'setEventOnCompletion',
      certain: true,
      async: true,
      params: [value],
      plan: (ctx) => {
        const f = fence(ctx);
        // May stay pending (the value may never be signalled again): not a hang.
        return f && plan(f, [ctx.rng.int(0, (ctx.main.fenceMax.get(f) ?? 0) + 1)], { mustSettle: false });
      },
    },
  ];
}

/** Closed lists of `queue`'s type: what executeCommandLists takes. */
function executable(ctx: FuzzContext, type: string): GraphicsCommandList[] {
  return ctx.main.listsOf(type as never, false);
}

export function listArrayParam(name: string, aliases?: readonly string[]): Param {
  return {
    name,
    aliases,
    bad: (ctx, good, p) => {
      const { rng } = ctx;
      const type = (p.receiver.target as CommandQueue).type ?? 'DIRECT';
      if (rng.chance(0.35)) {
        // Lists of this device that cannot run here: open, or of another type.
        const misfit = pickOf(
          rng,
          ctx.main.lists.filter((l) => isOpen(l) || l.type !== type),
        );
        if (misfit) return invalid([...(good as unknown[]), misfit]);
      }
      return badRefArray(ctx, 'list', good as unknown[]);
    },
  };
}

function queueMethods(): MethodSpec[] {
  const queue = (ctx: FuzzContext): CommandQueue | undefined => pickOf(ctx.rng, ctx.main.queues);
  const fenceParam = param('fence', (ctx) => badRef(ctx, 'fence'));
  const valueParam = param('value', (ctx) => badUint(ctx.rng, { wide: true }));
  const mappingFlags = param('flags', (ctx) => badEnum(ctx.rng, ['NONE', 'NO_HAZARD'], { optional: true }));
  return [
    {
      cls: 'CommandQueue',
      name: 'getDesc',
      certain: true,
      weight: 0.3,
      params: [],
      plan: (ctx) => plan(queue(ctx), []),
    },
    {
      cls: 'CommandQueue',
      name: 'getTimestampFrequency',
      certain: true,
      weight: 0.3,
      params: [],
      plan: (ctx) => plan(queue(ctx), []),
    },
    // The same arguments: one executes, one only checks (and must change nothing), and one checks,
    // then executes all the lists it checked.
    ...(['executeCommandLists', 'validateExecuteCommandLists', 'validateThenExecuteCommandLists'] as const).map(
      (name): MethodSpec => ({
        cls: 'CommandQueue',
        name,
        weight: name === 'executeCommandLists' ? 6 : 1,
        params: [listArrayParam('commandLists')],
        invoke:
          name === 'validateThenExecuteCommandLists'
            ? (target, args) =>
                (target as CommandQueue).validateThenExecuteCommandLists(args[0] as GraphicsCommandList[], (execute) =>
                  execute(0, (args[0] as unknown[]).length),
                )
            : undefined,
        plan: (ctx) => {
          const q = queue(ctx);
          const lists = q ? executable(ctx, q.type) : [];
          if (!q || lists.length === 0) return undefined;
          return plan(q, [sample(ctx.rng, lists, ctx.rng.int(1, 2))]);
        },
      }),
    ),
    {
      cls: 'CommandQueue',
      name: 'signal',
      certain: true,
      weight: 1.5,
      params: [fenceParam, valueParam],
      plan: (ctx) => {
        const [q, f] = [queue(ctx), pickOf(ctx.rng, ctx.main.fences)];
        return (
          f && plan(q, [f, ctx.main.nextFenceValue(f)], { onSuccess: (_, args) => ctx.main.noteFence(f, args[1]) })
        );
      },
    },
    {
      cls: 'CommandQueue',
      name: 'wait',
      certain: true,
      params: [fenceParam, valueParam],
      plan: (ctx) => {
        const [q, f] = [queue(ctx), pickOf(ctx.rng, ctx.main.fences)];
        // Mostly values already given to the fence; sometimes one nothing has signalled yet (a sync point will).
        return (
          f &&
          plan(q, [f, ctx.rng.int(0, (ctx.main.fenceMax.get(f) ?? 0) + (ctx.rng.chance(0.2) ? 2 : 0))], {
            onSuccess: (_, args) => ctx.main.noteFence(f, args[1]),
          })
        );
      },
    },
    {
      cls: 'CommandQueue',
      name: 'updateTileMappings',
      weight: 3,
      params: [
        param('resource', (ctx) => badRef(ctx, 'reserved')),
        {
          name: 'regionStartCoordinates',
          bad: (ctx, good, p) =>
            badArrayOf(ctx, good, (rng, item) => badCoordinate(rng, item as never), partnersGiven(p, [2])),
        },
        {
          name: 'regionSizes',
          bad: (ctx, good, p) =>
            badArrayOf(ctx, good, (rng, item) => badRegionSize(rng, item as never), {
              ...partnersGiven(p, [1]),
              lengthValidity: 'maybe',
            }),
        },
        param('heap', (ctx) => badRef(ctx, 'heap', { nullable: true })),
        {
          name: 'rangeFlags',
          bad: (ctx, good, p) =>
            badArrayOf(
              ctx,
              good,
              (rng) => badEnum(rng, ['NONE', 'NULL', 'SKIP', 'REUSE_SINGLE_TILE']),
              partnersGiven(p, [5, 6]),
            ),
        },
        {
          name: 'heapRangeStartOffsets',
          bad: (ctx, good, p) =>
            badArrayOf(
              ctx,
              good,
              (rng, _, i) => {
                // D3D12 reads a range's heap offset only where the range maps tiles.
                const flag = (p.args[4] as unknown[] | null)?.[i] ?? 'NONE';
                const bad = rng.chance(0.4) ? invalid(1 << 20) : badUint(rng);
                return flag === 'NULL' || flag === 'SKIP' ? maybe(bad.value) : bad;
              },
              partnersGiven(p, [4, 6]),
            ),
        },
        {
          name: 'rangeTileCounts',
          bad: (ctx, good, p) =>
            badArrayOf(
              ctx,
              good,
              (rng, item) => (rng.chance(0.4) ? invalid((item as number) + 1) : badUint(rng)),
              partnersGiven(p, [4, 5]),
            ),
        },
        mappingFlags,
      ],
      plan: (ctx) => {
        const [q, resource] = [queue(ctx), pickOf(ctx.rng, ctx.main.reserved())];
        return resource && plan(q, tileMappingArgs(ctx, resource));
      },
    },
    {
      cls: 'CommandQueue',
      name: 'copyTileMappings',
      params: [
        param('dstResource', (ctx) => badRef(ctx, 'reserved')),
        { name: 'dstRegionStartCoordinate', bad: (ctx, good) => badCoordinate(ctx.rng, good as never) },
        param('srcResource', (ctx) => badRef(ctx, 'reserved')),
        { name: 'srcRegionStartCoordinate', bad: (ctx, good) => badCoordinate(ctx.rng, good as never) },
        { name: 'regionSize', bad: (ctx, good) => badRegionSize(ctx.rng, good as never) },
        mappingFlags,
      ],
      plan: (ctx) => {
        const reserved = ctx.main.reserved();
        const [dst, src] = [pickOf(ctx.rng, reserved), pickOf(ctx.rng, reserved)];
        if (!dst || !src) return undefined;
        // One size for both regions: a run of tiles of the smaller region, no box (the shapes may differ).
        const [a, b] = [tileRegion(ctx, dst, 4), tileRegion(ctx, src, 4)];
        const tiles = Math.min(a.tiles, b.tiles);
        return plan(queue(ctx), [
          dst,
          a.coordinate,
          src,
          b.coordinate,
          { numTiles: tiles },
          ...(ctx.rng.chance(0.3) ? ['NO_HAZARD'] : []),
        ]);
      },
    },
  ];
}

/** updateTileMappings' eight arguments for a valid call on `resource`. */
function tileMappingArgs(ctx: FuzzContext, resource: Resource): unknown[] {
  const { rng } = ctx;
  const textures = resource.desc.dimension !== 'BUFFER';
  const heaps = ctx.main.heaps.filter((heap) => backs(heap, textures));
  const heap = rng.chance(0.85) ? pickOf(rng, heaps) : undefined;
  const whole = rng.chance(0.15);
  const regions: Region[] = whole
    ? []
    : Array.from({ length: rng.chance(0.75) ? 1 : 2 }, () => tileRegion(ctx, resource, 6));
  const total = whole
    ? ctx.main.device.getResourceTiling(resource).numTilesForEntireResource
    : regions.reduce((sum, region) => sum + region.tiles, 0);
  const heapTiles = heap ? Math.floor(heap.desc.sizeInBytes / TILE_SIZE) : 0;
  const flagFor = (count: number): TileRangeFlag => {
    if (!heap) return rng.pick(['NULL', 'SKIP'] as const);
    if (count > heapTiles) return rng.pick(['NULL', 'REUSE_SINGLE_TILE'] as const);
    return rng.pick(['NONE', 'NONE', 'NONE', 'NULL', 'SKIP', 'REUSE_SINGLE_TILE'] as const);
  };
  // A mip tail must come from one range: several ranges only over standard tiles.
  const split = !whole && !regions.some((region) => region.packed) && total > 1 && rng.chance(0.35);
  const counts = split ? splitCount(rng, total) : [total];
  const flags = counts.map(flagFor);
  const offsets = counts.map((count, i) =>
    flags[i] === 'NONE'
      ? rng.int(0, Math.max(0, heapTiles - count))
      : flags[i] === 'REUSE_SINGLE_TILE'
        ? rng.int(0, Math.max(0, heapTiles - 1))
        : 0,
  );
  const coordinates = whole ? null : regions.map((region) => region.coordinate);
  const sizes = whole ? null : regions.map((region) => region.size);
  const simple = counts.length === 1 && rng.chance(0.3);
  const args: unknown[] = [
    resource,
    coordinates,
    sizes,
    heap ?? null,
    flags,
    simple && flags[0] !== 'NONE' ? null : offsets,
    simple ? null : counts,
  ];
  if (rng.chance(0.3)) args.push(rng.pick(['NONE', 'NO_HAZARD', ['NO_HAZARD']]));
  return args;
}

/** Whether `heap` may hold tiles of a reserved buffer (or texture): live, in GPU memory, of an allowed category. */
function backs(heap: Heap, textures: boolean): boolean {
  const { type, memoryPoolPreference } = heap.desc.properties;
  if (type !== 'DEFAULT' && !(type === 'CUSTOM' && memoryPoolPreference === 'L1')) return false;
  const flags = new Set<string>(heap.desc.flags);
  return textures
    ? !flags.has('ALLOW_ONLY_BUFFERS') && !flags.has('DENY_NON_RT_DS_TEXTURES')
    : !flags.has('DENY_BUFFERS') && !flags.has('ALLOW_ONLY_NON_RT_DS_TEXTURES');
}

function splitCount(rng: Random, total: number): number[] {
  const first = rng.int(1, total - 1);
  return rng.chance(0.5) || total - first < 2 ? [first, total - first] : [first, 1, total - first - 1];
}

export interface ArrayBadOptions {
  /** null (or undefined) takes a default here. */
  nullable?: boolean;
  /** How an array of another length counts: 'invalid' where a parallel array fixes the length. */
  lengthValidity?: 'invalid' | 'maybe';
}

/** An array argument made wrong: not an array, of the wrong length, or with one bad element. */
export function badArrayOf(
  ctx: FuzzContext,
  good: unknown,
  element: (rng: Random, item: unknown, index: number) => Arg,
  options: ArrayBadOptions = {},
): Arg {
  const { rng } = ctx;
  const items = Array.isArray(good) ? [...(good as unknown[])] : null;
  const r = rng.float();
  if (r < 0.2 || !items || items.length === 0) {
    const value = rng.chance(0.5)
      ? rng.pick<unknown>([{}, 5, 'array', Symbol('array'), { length: 1 }])
      : notAnArray(rng).value;
    return value === null || value === undefined
      ? { value, validity: options.nullable ? 'maybe' : 'invalid' }
      : invalid(value);
  }
  if (r < 0.4)
    return {
      value: rng.chance(0.5) ? [...items, items[0]] : items.slice(1),
      validity: options.lengthValidity ?? 'invalid',
    };
  const at = rng.int(0, items.length - 1);
  const bad = element(rng, items[at], at);
  items[at] = bad.value;
  return { value: items, validity: bad.validity };
}

/** For one of updateTileMappings' parallel arrays: a wrong length is certain only when a partner array is given. */
function partnersGiven(p: CallPlan, partners: readonly number[]): ArrayBadOptions {
  return { nullable: true, lengthValidity: partners.some((i) => Array.isArray(p.args[i])) ? 'invalid' : 'maybe' };
}

/** ID3D12InfoQueue: the debug layer's messages (the device's, or now and then the other device's). */
function infoQueueMethods(): MethodSpec[] {
  const queue = (ctx: FuzzContext): object => (ctx.rng.chance(0.1) ? ctx.other : ctx.main).device.getInfoQueue();
  const read = (name: string): MethodSpec => ({
    cls: 'InfoQueue',
    name,
    certain: true,
    weight: 0.15,
    params: [],
    plan: (ctx) => plan(queue(ctx), []),
  });
  return [
    read('getNumStoredMessages'),
    read('getNumMessagesDiscardedByMessageCountLimit'),
    read('getMessageCountLimit'),
    read('getMessages'),
    { ...read('clearStoredMessages'), weight: 0.1 },
    {
      cls: 'InfoQueue',
      name: 'getMessage',
      weight: 0.3,
      params: [param('messageIndex', (ctx) => (ctx.rng.chance(0.3) ? invalid(1_000_000) : badUint(ctx.rng)))],
      plan: (ctx) => {
        const info = ctx.main.device.getInfoQueue();
        return plan(info, [ctx.rng.int(0, Math.max(0, info.getNumStoredMessages() - 1))]);
      },
    },
  ];
}

export function objectCatalogue(): MethodSpec[] {
  return [
    ...infoQueueMethods(),
    ...childMethods('Heap', (world, object) => world.releaseHeap(object as Heap, 'call')),
    ...resourceMethods(),
    ...childMethods('QueryHeap', (world, object) => world.releaseQueryHeap(object as QueryHeap, 'call')),
    ...fenceMethods(),
    ...queueMethods(),
  ];
}
