/**
 * The API fuzzer's live pool: the objects it calls methods on and passes as arguments, for the
 * device under test ("main") and a second device on the same GPUDevice ("other", whose objects are
 * always the wrong device's). Valid arguments are drawn from here, and every object the fuzzer
 * creates or releases is recorded here.
 *
 * Invariants: the pool is bounded (creating past a cap releases or forgets the oldest object), so
 * memory stays small; the choice of objects reads only what the calls made so far determine (never
 * fence completion or residency decided by GPU timing), so a seed replays the same calls; every
 * fence value the fuzzer uses is remembered (fenceMax), so a sync point can release every queue wait
 * by signalling each fence from the CPU.
 */
import type {
  CommandAllocator,
  CommandListType,
  CommandQueue,
  DescriptorHeap,
  Device,
  Fence,
  GraphicsCommandList,
  Heap,
  PipelineState,
  QueryHeap,
  ResidencyManager,
  ResidencySet,
  Resource,
  RootSignature,
  SwapChain,
} from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import { invalid, valid, type Arg, type Validity } from './values.js';

/** Caps on what a world keeps; past them the oldest goes (released where the API can release it). */
const CAPS = {
  heaps: 10,
  resources: 18,
  lists: 9,
  fences: 6,
  queues: 5,
  queryHeaps: 3,
  managers: 2,
  sets: 6,
  descriptorHeaps: 6,
  rootSignatures: 5,
  allocators: 6,
  released: 6,
} as const;

/** The largest resource (in 64 KiB tiles) the pool keeps. */
const MAX_POOLED_TILES = 4096;
/** The largest heap the pool keeps: the LOCAL pool's size. */
const MAX_POOLED_HEAP_BYTES = 16 * 2 ** 20;

export type RefKind =
  | 'heap'
  | 'pageable'
  | 'resource'
  | 'buffer'
  | 'texture'
  | 'reserved'
  | 'fence'
  | 'list'
  | 'queue'
  | 'pipeline'
  | 'queryHeap'
  | 'set'
  | 'manager'
  | 'device'
  | 'descriptorHeap'
  | 'rootSignature'
  | 'commandAllocator';

/** The objects of one device. */
export class DeviceWorld {
  readonly heaps: Heap[] = [];
  readonly resources: Resource[] = [];
  readonly queues: CommandQueue[] = [];
  readonly lists: GraphicsCommandList[] = [];
  readonly fences: Fence[] = [];
  readonly computePipelines: PipelineState[] = [];
  readonly graphicsPipelines: PipelineState[] = [];
  readonly queryHeaps: QueryHeap[] = [];
  readonly managers: ResidencyManager[] = [];
  readonly sets: ResidencySet[] = [];
  readonly setManager = new Map<ResidencySet, ResidencyManager>();
  readonly releasedHeaps: Heap[] = [];
  readonly releasedResources: Resource[] = [];
  readonly releasedQueryHeaps: QueryHeap[] = [];
  /** Descriptor heaps (small: a snapshot hashes their descriptors), root signatures, command allocators. */
  readonly descriptorHeaps: DescriptorHeap[] = [];
  readonly rootSignatures: RootSignature[] = [];
  readonly allocators: CommandAllocator[] = [];
  readonly releasedDescriptorHeaps: DescriptorHeap[] = [];
  readonly releasedRootSignatures: RootSignature[] = [];
  readonly releasedAllocators: CommandAllocator[] = [];
  /** A swap chain over a texture (a canvas context's stand-in): its back buffers are the render targets. */
  swapChain: SwapChain | undefined;
  /** A depth texture (ALLOW_DEPTH_STENCIL) for depth-stencil views; not in `resources` (no copy or barrier plan fits it). */
  depthTexture: Resource | undefined;
  /** The largest value the fuzzer has given each fence (created, signalled, waited for, enqueued). */
  readonly fenceMax = new Map<Fence, number>();
  /** Every resource ever in the pool, to snapshot released ones too (bounded by `forget`). */
  readonly everResources: Resource[] = [];
  /** Failures of the pool's own upkeep (releasing past a cap): reported by the runner. */
  readonly upkeepProblems: { what: string; error: unknown }[] = [];
  /** A queue and fence the fuzz never sees: sync points signal them to wait for the GPU. */
  syncQueue!: CommandQueue;
  syncFence!: Fence;
  syncValue = 0;
  /** Whether destroy() was called (the catalogue then stops creating GPU work on it). */
  destroyed = false;
  private queueCount = 0;
  private managerCount = 0;

  constructor(
    readonly prefix: '' | 'other.',
    readonly device: Device,
    private readonly labels: WeakMap<object, string>,
  ) {
    labels.set(device, `${prefix}device`);
  }

  label(object: object, text: string): void {
    this.labels.set(object, `${this.prefix}${text}`);
  }

  addHeap(heap: Heap): void {
    this.label(heap, `heap#${heap.id}(${heap.getDesc().properties.type})`);
    // A huge heap (a 'maybe' size accepted because it starts not resident) goes at once: resources
    // placed in it would be huge too.
    if (heap.desc.sizeInBytes > MAX_POOLED_HEAP_BYTES) {
      this.upkeep(`release huge heap#${heap.id}`, () => heap.release());
      pushBounded(this.releasedHeaps, heap);
      return;
    }
    this.heaps.push(heap);
    while (this.heaps.length > CAPS.heaps) this.releaseHeap(this.heaps[0] as Heap, 'upkeep');
  }

  addResource(resource: Resource): void {
    const desc = resource.desc;
    // A huge resource (a 'maybe' size that was accepted) is released at once: its tile table would
    // make every snapshot slow.
    if (resource.layout.numTiles > MAX_POOLED_TILES) {
      this.label(resource, `resource#${resource.id}(huge ${desc.dimension})`);
      this.upkeep(`release huge resource#${resource.id}`, () => resource.release());
      pushBounded(this.releasedResources, resource);
      return;
    }
    const where = resource.heap && resource.kind !== 'reserved' ? ` in ${resource.heap.desc.properties.type}` : '';
    this.label(resource, `resource#${resource.id}(${resource.kind} ${desc.dimension}${where})`);
    this.resources.push(resource);
    this.everResources.push(resource);
    while (this.resources.length > CAPS.resources) this.releaseResource(this.resources[0] as Resource, 'upkeep');
  }

  addQueue(queue: CommandQueue): void {
    this.label(queue, `queue#${++this.queueCount}(${queue.type})`);
    if (this.queues.length < CAPS.queues) this.queues.push(queue);
  }

  addList(list: GraphicsCommandList): void {
    this.label(list, `list#${list.id}(${list.type})`);
    this.lists.push(list);
    if (this.lists.length > CAPS.lists)
      this.lists.splice(
        this.lists.findIndex((l) => !this.isLastOfType(l)),
        1,
      );
  }

  addFence(fence: Fence, value: number): void {
    this.label(fence, `fence#${fence.id}`);
    this.noteFence(fence, value);
    this.fences.push(fence);
    if (this.fences.length > CAPS.fences) this.fences.shift();
  }

  addPipeline(pipeline: PipelineState): void {
    this.label(pipeline, `pso#${pipeline.id}(${pipeline.kind})`);
    (pipeline.kind === 'compute' ? this.computePipelines : this.graphicsPipelines).push(pipeline);
  }

  addQueryHeap(heap: QueryHeap): void {
    this.label(heap, `queryHeap#${heap.id}(${heap.desc.type})`);
    this.queryHeaps.push(heap);
    while (this.queryHeaps.length > CAPS.queryHeaps) this.releaseQueryHeap(this.queryHeaps[0] as QueryHeap, 'upkeep');
  }

  addManager(manager: ResidencyManager): boolean {
    if (this.managers.length >= CAPS.managers) return false;
    this.label(manager, `manager#${++this.managerCount}`);
    this.managers.push(manager);
    return true;
  }

  addSet(set: ResidencySet, manager: ResidencyManager): void {
    this.label(set, `set#${set.id}@${this.labels.get(manager) ?? 'manager'}`);
    this.sets.push(set);
    this.setManager.set(set, manager);
    if (this.sets.length > CAPS.sets) this.sets.shift();
  }

  addDescriptorHeap(heap: DescriptorHeap): void {
    const desc = heap.desc;
    this.label(
      heap,
      `descriptorHeap#${heap.id}(${desc.type}${desc.flags.includes('SHADER_VISIBLE') ? ' visible' : ''})`,
    );
    this.descriptorHeaps.push(heap);
    while (this.descriptorHeaps.length > CAPS.descriptorHeaps)
      this.releaseChild(
        this.descriptorHeaps,
        this.releasedDescriptorHeaps,
        this.descriptorHeaps[0] as DescriptorHeap,
        'upkeep',
      );
  }

  addRootSignature(signature: RootSignature): void {
    this.label(signature, `rootSignature#${signature.id}`);
    this.rootSignatures.push(signature);
    while (this.rootSignatures.length > CAPS.rootSignatures)
      this.releaseChild(
        this.rootSignatures,
        this.releasedRootSignatures,
        this.rootSignatures[0] as RootSignature,
        'upkeep',
      );
  }

  addAllocator(allocator: CommandAllocator): void {
    this.label(allocator, `allocator#${allocator.id}(${allocator.type})`);
    this.allocators.push(allocator);
    while (this.allocators.length > CAPS.allocators)
      this.releaseChild(this.allocators, this.releasedAllocators, this.allocators[0] as CommandAllocator, 'upkeep');
  }

  /** Moves a descriptor heap, root signature or allocator the fuzz released (or releases one for upkeep) to its released list. */
  releaseChild<T extends { release(): void }>(live: T[], released: T[], object: T, why: 'call' | 'upkeep'): void {
    if (why === 'upkeep') this.upkeep(`release ${this.labels.get(object) ?? 'object'}`, () => object.release());
    remove(live, object);
    pushBounded(released, object);
  }

  /** The live, released list of each kind releaseChild moves objects between. */
  childLists(kind: 'descriptorHeap' | 'rootSignature' | 'commandAllocator'): [object[], object[]] {
    if (kind === 'descriptorHeap') return [this.descriptorHeaps, this.releasedDescriptorHeaps];
    if (kind === 'rootSignature') return [this.rootSignatures, this.releasedRootSignatures];
    return [this.allocators, this.releasedAllocators];
  }

  noteFence(fence: Fence, value: unknown): void {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return;
    this.fenceMax.set(fence, Math.max(this.fenceMax.get(fence) ?? 0, value));
  }

  /** The next fence value for a signal: one past the largest used. */
  nextFenceValue(fence: Fence): number {
    return Math.min((this.fenceMax.get(fence) ?? 0) + 1, Number.MAX_SAFE_INTEGER);
  }

  /** Moves a heap the fuzz released (or releases one for upkeep) to the released list. */
  releaseHeap(heap: Heap, why: 'call' | 'upkeep'): void {
    if (why === 'upkeep') this.upkeep(`release ${this.labels.get(heap) ?? 'heap'}`, () => heap.release());
    remove(this.heaps, heap);
    pushBounded(this.releasedHeaps, heap);
  }

  releaseResource(resource: Resource, why: 'call' | 'upkeep'): void {
    if (why === 'upkeep') this.upkeep(`release ${this.labels.get(resource) ?? 'resource'}`, () => resource.release());
    remove(this.resources, resource);
    pushBounded(this.releasedResources, resource);
    // Snapshots cover released resources only while the fuzz may still pass them.
    while (this.everResources.length > CAPS.resources + 2 * CAPS.released) {
      const index = this.everResources.findIndex((r) => r.released && !this.releasedResources.includes(r));
      if (index < 0) break;
      this.everResources.splice(index, 1);
    }
  }

  releaseQueryHeap(heap: QueryHeap, why: 'call' | 'upkeep'): void {
    if (why === 'upkeep') this.upkeep(`release ${this.labels.get(heap) ?? 'query heap'}`, () => heap.release());
    remove(this.queryHeaps, heap);
    pushBounded(this.releasedQueryHeaps, heap);
  }

  private upkeep(what: string, action: () => void): void {
    try {
      action();
    } catch (error) {
      this.upkeepProblems.push({ what, error });
    }
  }

  private isLastOfType(list: GraphicsCommandList): boolean {
    return this.lists.filter((l) => l.type === list.type).length <= 1;
  }

  // ---- views of the pool -------------------------------------------------------------------

  /** Live heaps, committed resources and shader-visible descriptor heaps: what MakeResident and the residency manager take. */
  pageables(): (Heap | Resource | DescriptorHeap)[] {
    return [...this.heaps, ...this.resources.filter((r) => r.kind === 'committed'), ...this.visibleDescriptorHeaps()];
  }

  /** Live shader-visible descriptor heaps (of `type`, when given). */
  visibleDescriptorHeaps(type?: 'CBV_SRV_UAV' | 'SAMPLER'): DescriptorHeap[] {
    return this.descriptorHeaps.filter(
      (h) => h.desc.flags.includes('SHADER_VISIBLE') && (type === undefined || h.desc.type === type),
    );
  }

  buffers(): Resource[] {
    return this.resources.filter((r) => r.desc.dimension === 'BUFFER');
  }

  textures(): Resource[] {
    return this.resources.filter((r) => r.desc.dimension !== 'BUFFER');
  }

  reserved(): Resource[] {
    return this.resources.filter((r) => r.kind === 'reserved');
  }

  /** Buffers the CPU can map (UPLOAD, READBACK, CPU-visible CUSTOM). */
  mappable(): Resource[] {
    return this.buffers().filter((r) => r.kind !== 'reserved' && r.heap !== undefined && cpuVisible(r.heap));
  }

  listsOf(type: CommandListType | undefined, open: boolean | undefined): GraphicsCommandList[] {
    return this.lists.filter(
      (l) => (type === undefined || l.type === type) && (open === undefined || isOpen(l) === open),
    );
  }

  /** Live objects of a kind. */
  live(kind: RefKind): object[] {
    switch (kind) {
      case 'heap':
        return this.heaps;
      case 'pageable':
        return this.pageables();
      case 'resource':
        return this.resources;
      case 'buffer':
        return this.buffers();
      case 'texture':
        return this.textures();
      case 'reserved':
        return this.reserved();
      case 'fence':
        return this.fences;
      case 'list':
        return this.lists;
      case 'queue':
        return this.queues;
      case 'pipeline':
        return [...this.computePipelines, ...this.graphicsPipelines];
      case 'queryHeap':
        return this.queryHeaps;
      case 'set':
        return this.sets;
      case 'manager':
        return this.managers;
      case 'device':
        return [this.device];
      case 'descriptorHeap':
        return this.descriptorHeaps;
      case 'rootSignature':
        return this.rootSignatures;
      case 'commandAllocator':
        return this.allocators;
    }
  }

  /** Released objects of a kind (none for kinds the API cannot release). */
  released(kind: RefKind): object[] {
    switch (kind) {
      case 'heap':
        return this.releasedHeaps;
      case 'pageable':
        return [
          ...this.releasedHeaps,
          ...this.releasedResources.filter((r) => r.kind === 'committed'),
          ...this.releasedDescriptorHeaps.filter((h) => h.desc.flags.includes('SHADER_VISIBLE')),
        ];
      case 'resource':
        return this.releasedResources;
      case 'buffer':
        return this.releasedResources.filter((r) => r.desc.dimension === 'BUFFER');
      case 'texture':
        return this.releasedResources.filter((r) => r.desc.dimension !== 'BUFFER');
      case 'reserved':
        return this.releasedResources.filter((r) => r.kind === 'reserved');
      case 'queryHeap':
        return this.releasedQueryHeaps;
      case 'descriptorHeap':
        return this.releasedDescriptorHeaps;
      case 'rootSignature':
        return this.releasedRootSignatures;
      case 'commandAllocator':
        return this.releasedAllocators;
      default:
        return [];
    }
  }

  /** Live objects of this device that are certainly not of `kind` (a placed resource is no pageable). */
  wrongKind(kind: RefKind): object[] {
    const resources = this.resources;
    switch (kind) {
      case 'heap':
        return [...resources.slice(0, 2), ...this.fences.slice(0, 1), ...this.queryHeaps.slice(0, 1)];
      case 'pageable':
        return [
          ...resources.filter((r) => r.kind !== 'committed'),
          ...this.fences.slice(0, 1),
          ...this.lists.slice(0, 1),
          // Descriptors in CPU memory do not page.
          ...this.descriptorHeaps.filter((h) => !h.desc.flags.includes('SHADER_VISIBLE')).slice(0, 1),
        ];
      case 'resource':
        return [...this.heaps.slice(0, 2), ...this.queryHeaps.slice(0, 1), ...this.fences.slice(0, 1)];
      case 'buffer':
        return [...this.textures(), ...this.heaps.slice(0, 1)];
      case 'texture':
        return [...this.buffers().slice(0, 2), ...this.heaps.slice(0, 1)];
      case 'reserved':
        return [...resources.filter((r) => r.kind !== 'reserved'), ...this.heaps.slice(0, 1)];
      case 'fence':
        return [...this.heaps.slice(0, 1), ...this.lists.slice(0, 1), ...this.queues.slice(0, 1)];
      case 'list':
        return [...this.queues.slice(0, 1), ...this.fences.slice(0, 1), ...this.sets.slice(0, 1)];
      case 'queue':
        return [...this.lists.slice(0, 1), ...this.fences.slice(0, 1), this.device];
      case 'pipeline':
        return [...this.lists.slice(0, 1), ...this.heaps.slice(0, 1)];
      case 'queryHeap':
        return [...this.heaps.slice(0, 2), ...resources.slice(0, 1)];
      case 'set':
        return [...this.lists.slice(0, 1), ...this.managers.slice(0, 1)];
      case 'manager':
        return [this.device, ...this.sets.slice(0, 1)];
      case 'device':
        return [...this.managers.slice(0, 1), ...this.queues.slice(0, 1), ...this.heaps.slice(0, 1)];
      case 'descriptorHeap':
        return [...this.heaps.slice(0, 2), ...resources.slice(0, 1), ...this.rootSignatures.slice(0, 1)];
      case 'rootSignature':
        return [
          ...this.computePipelines.slice(0, 1),
          ...this.descriptorHeaps.slice(0, 1),
          ...this.allocators.slice(0, 1),
        ];
      case 'commandAllocator':
        return [...this.lists.slice(0, 1), ...this.queues.slice(0, 1), ...this.rootSignatures.slice(0, 1)];
    }
  }
}

export function cpuVisible(heap: Heap): boolean {
  const { type, cpuPageProperty } = heap.desc.properties;
  return type === 'UPLOAD' || type === 'READBACK' || (type === 'CUSTOM' && cpuPageProperty !== 'NOT_AVAILABLE');
}

/** Whether a list is open (the getter is internal; the fuzzer reads it, as the snapshot does). */
export function isOpen(list: GraphicsCommandList): boolean {
  return (list as unknown as { open: boolean }).open;
}

function remove<T>(items: T[], item: T): void {
  const index = items.indexOf(item);
  if (index >= 0) items.splice(index, 1);
}

function pushBounded<T>(items: T[], item: T): void {
  if (!items.includes(item)) items.push(item);
  if (items.length > CAPS.released) items.shift();
}

/** What every generator sees. */
export interface FuzzContext {
  readonly rng: Random;
  readonly main: DeviceWorld;
  readonly other: DeviceWorld;
  /** Valid pipeline-state creations left to this run (each compiles a shader: slow on SwiftShader). */
  readonly pipelineCreations: { compute: number; graphics: number };
  /** Whether the device supports timestamp queries. */
  readonly timestamps: boolean;
  /** tiledResourcesTier of the main device. */
  readonly tier: number;
  /** The residency managers' clock (milliseconds): advanced by the runner, one per call. */
  readonly now: () => number;
}

/** One of `items`, or undefined when there is none. */
export function pickOf<T>(rng: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : rng.pick(items);
}

export interface RefOptions {
  /** null (and undefined) mean "none" here. */
  nullable?: boolean;
  /** How a released object counts: invalid by default (COM: use after Release). */
  released?: Validity;
}

/** A wrong object for a parameter of `kind`: another device's, released, of another kind, or not an object. */
export function badRef(ctx: FuzzContext, kind: RefKind, options: RefOptions = {}): Arg {
  const { rng, main, other } = ctx;
  const r = rng.float();
  if (r < 0.3) {
    const foreign = pickOf(rng, other.live(kind));
    if (foreign) return invalid(foreign);
  }
  if (r < 0.55) {
    const released = pickOf(rng, main.released(kind));
    if (released) return { value: released, validity: options.released ?? 'invalid' };
  }
  if (r < 0.78) {
    const wrong = pickOf(rng, main.wrongKind(kind));
    if (wrong) return invalid(wrong);
  }
  const garbage = rng.pick<unknown>([
    null,
    undefined,
    {},
    1,
    'object',
    Symbol('ref'),
    Object.create(null),
    { id: 1, released: false },
    [],
    new Date(0),
  ]);
  if (garbage === null || garbage === undefined) return options.nullable ? valid(garbage) : invalid(garbage);
  return invalid(garbage);
}

/** An array parameter (of objects of `kind`) made wrong: not an array, a bad element among good ones, or empty. */
export function badRefArray(
  ctx: FuzzContext,
  kind: RefKind,
  good: readonly unknown[],
  options: RefOptions & { emptyValidity?: Validity } = {},
): Arg {
  const { rng } = ctx;
  const r = rng.float();
  if (r < 0.2)
    return {
      value: rng.pick<unknown>([null, undefined, {}, 'list', 1, { length: 1, 0: good[0] }]),
      validity: 'invalid',
    };
  if (r < 0.3) return { value: [], validity: options.emptyValidity ?? 'maybe' };
  const bad = badRef(ctx, kind, { released: options.released });
  const items = [...good];
  items.splice(rng.int(0, items.length), 0, bad.value);
  // A null element of a required array is as wrong as any other bad element.
  return { value: items, validity: bad.validity === 'valid' ? 'invalid' : bad.validity };
}

/** Up to `count` distinct items of `items`, in a random order (at least one when there are any). */
export function sample<T>(rng: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  const n = Math.min(pool.length, Math.max(1, count));
  for (let i = 0; i < n; i++) chosen.push(pool.splice(rng.int(0, pool.length - 1), 1)[0] as T);
  return chosen;
}
