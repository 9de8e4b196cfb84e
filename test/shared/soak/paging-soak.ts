/**
 * Paging soak (issue 11, acceptance point 2): seeded random operations, at least 2,000 per seed,
 * interleave
 *   - CPU writes through map()/unmap() (with and without a written range, maps nested at times)
 *     into CPU-visible memory (UPLOAD committed buffers, CUSTOM WRITE_BACK / WRITE_COMBINE L0
 *     committed and placed buffers), and through persistent maps held across operations; CPU reads
 *     through map() compared with the model;
 *   - command lists of copies (copyBufferRegion, copyTiles both ways) and read-modify-write
 *     dispatches over the prelude's d3d12_store, executed through ResidencyManager.executeCommandLists
 *     with residency sets, or directly on the queue;
 *   - the device's own evict / makeResident / enqueueMakeResident (NONE and DENY_OVERBUDGET, with a
 *     fence) on heaps and committed resources, tracked by the manager or not;
 *   - queue.updateTileMappings on reserved buffers between lists (remaps and NULL ranges);
 * over objects worth at least 4x the LOCAL budget (paging-soak-setup.ts), while a CPU model
 * (paging-soak-model.ts) follows every byte. At checkpoints every byte of every buffer and every
 * heap (through probes) is read back through READBACK buffers, and CPU-visible memory also through
 * map(), and compared with the model. Orders the soak makes sure of and counts: a write followed by
 * an eviction before any GPU work (by the application, or by the manager), and write -> evict ->
 * restore -> GPU read.
 *
 * D3D12 rules kept, so a difference is the emulator's: an object is evicted only once the GPU work
 * that used it completed (a fence wait first); reference counts balance (an untracked object's count
 * is the application's; on a tracked object the application adds MakeResident "pins" on top of the
 * manager's reference and evicts each pin once); a list runs only with everything it touches
 * resident (the manager's sets for tracked objects, the application's references otherwise, and a
 * queue wait on the fence of an enqueueMakeResident); CPU access (and the unmap that ends a
 * persistent map) waits for the GPU work on that buffer and for the residency fence, and the
 * application holds a reference on memory while it is mapped; buffers start and end every list in COMMON (UPLOAD stays in
 * GENERIC_READ), with transitions and UAV barriers between uses, and an aliasing barrier before a
 * buffer's first use after a probe read its memory; no command reads memory it writes.
 *
 * The device, the seeded generator, the step loop and its checkpoints are soak-driver.ts's, shared
 * with the residency soak; this file is the paging soak's runner and its plan for the driver.
 */
import {
  D3D12Error,
  type CommandQueue,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type PipelineState,
  type ResidencyManager,
  type ResidencySet,
} from '../../../src/index.js';
import type { Random } from '../../../src/validate/random.js';
import {
  checkCounts,
  checkpoint as runCheckpoint,
  corruptModel,
  describeDifference,
  type CheckpointHost,
} from './paging-soak-checkpoint.js';
import {
  commandKind,
  describeCommand,
  planCommands,
  randomSize,
  recordCommands,
  storesOfCommand,
} from './paging-soak-lists.js';
import { TILE } from '../d3d12-helpers.js';
import {
  firstDifference,
  randomBytes,
  readModel,
  writeModel,
  type SoakBuffer,
  type Store,
} from './paging-soak-model.js';
import type { PagingSoakDifference, PagingSoakOptions, PagingSoakSummary } from './paging-soak-report.js';
import { createObjects, initializeObjects } from './paging-soak-setup.js';
import { randomRemap, type TileContext } from './paging-soak-tiles.js';
import { driveSoak, type SoakPlan } from './soak-driver.js';

export {
  describePagingSoakFailure,
  describePagingSoakRun,
  type PagingSoakOptions,
  type PagingSoakSummary,
} from './paging-soak-report.js';

const MIB = 2 ** 20;
export const PAGING_SOAK_LOCAL_POOL = 8 * MIB;
export const PAGING_SOAK_LOCAL_BUDGET = MIB;
const NON_LOCAL_POOL = 8 * MIB;
/** Below the CPU-visible objects' total, so the manager pages NON_LOCAL memory too. */
const NON_LOCAL_BUDGET = MIB;
const TRACKED_MULTIPLE = 4;
/** The manager's clock per execution: seeded time, enough for the grace period to trim idle objects. */
const MS_PER_EXECUTE = 250;
/** Application references on tracked objects before the soak insists on evicting some. */
const MAX_PINS = 4;

class Failure extends Error {}

/** What paging-soak-setup.ts needs of the runner. */
export interface SoakContext extends TileContext {
  readonly device: Device;
  readonly manager: ResidencyManager;
  readonly stores: Store[];
  readonly buffers: SoakBuffer[];
  readonly probes: SoakBuffer[];
  takeList(): GraphicsCommandList;
  takeSet(stores: Iterable<Store>): ResidencySet;
  executeManaged(lists: GraphicsCommandList[], sets: ResidencySet[], touched: Set<Store>): number;
  waitFor(value: number): Promise<void>;
  fenceValue(): number;
}

class PagingSoak implements SoakContext, TileContext, CheckpointHost {
  readonly stores: Store[] = [];
  readonly buffers: SoakBuffer[] = [];
  readonly probes: SoakBuffer[] = [];
  private readonly spareLists: GraphicsCommandList[] = [];
  private readonly spareSets: ResidencySet[] = [];
  private value = 0;
  private residencyValue = 0;
  /** The highest residency-fence value the queue has waited for. */
  private queueWaited = 0;
  /** Checkpoints so far + 1: buffers whose aliasGeneration is older need an aliasing barrier. */
  generation = 1;
  now = 0;
  operations = 0;
  counts: Record<string, number> = {};
  readonly orders = { writeThenEvict: 0, managerEvictedAfterWrite: 0, writeEvictRestoreRead: 0, unpinPagedOut: 0 };
  readonly bytesCompared = { gpu: 0, cpu: 0, cpuRead: 0 };
  bytesDiffering = 0;
  readonly differingByPath = { gpu: 0, cpu: 0 };
  checkpoints = 0;
  checkpointLists = 0;
  setupLists = 0;
  maxLocalUsage = 0;
  trackedLocalBytes = 0;
  difference: PagingSoakDifference | undefined;
  corrupted: PagingSoakSummary['corrupted'];
  readonly trace: string[] = [];
  /** Persistent maps: the pointer, and the bytes written through it since the map. */
  private readonly persistent = new Map<SoakBuffer, { view: Uint8Array; begin: number; end: number }>();

  constructor(
    readonly device: Device,
    readonly manager: ResidencyManager,
    readonly queue: CommandQueue,
    private readonly fence: Fence,
    private readonly residencyFence: Fence,
    private readonly pipeline: PipelineState,
    readonly random: Random,
  ) {}

  op(kind: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    this.operations++;
  }

  log(line: string): void {
    this.trace.push(`[${this.operations}] ${line}`);
    if (this.trace.length > 4000) this.trace.splice(0, 2000);
  }

  fenceValue(): number {
    return this.value;
  }

  checkRemoved(): void {
    const reason = this.device.getDeviceRemovedReason();
    if (reason !== 'S_OK')
      throw new Failure(
        `the device was removed (${reason}): ${this.device.getPageFaultReport()?.message ?? 'no report'}`,
      );
  }

  async waitFor(value: number): Promise<void> {
    if (this.fence.getCompletedValue() >= value) return;
    await this.fence.setEventOnCompletion(value);
    this.checkRemoved();
  }

  /** CPU access and Evict wait for the fence of an enqueueMakeResident (D3D12: residency is only promised then). */
  private async settleResidency(stores: Iterable<Store>): Promise<void> {
    let value = 0;
    for (const s of stores) value = Math.max(value, s.pending);
    if (value > this.residencyFence.getCompletedValue()) await this.residencyFence.setEventOnCompletion(value);
    for (const s of stores) if (s.pending <= value) s.pending = 0;
  }

  /** A queue about to use stores made resident by enqueueMakeResident waits for its fence first. */
  queueWaitFor(stores: Iterable<Store>): void {
    let value = 0;
    for (const s of stores) value = Math.max(value, s.pending);
    if (value > this.queueWaited) {
      this.queue.wait(this.residencyFence, value);
      this.queueWaited = value;
    }
  }

  // -- residency the application owns --

  /** The rule the model keeps: an untracked store is resident exactly while the application holds a reference. */
  checkResidency(store: Store, call: string): void {
    const resident = store.heap.resident;
    if (store.count > 0 && !resident)
      throw new Failure(
        `after ${call}: ${store.name} holds ${store.count} application reference(s) but is not resident`,
      );
    if (!store.tracked && store.count === 0 && resident)
      throw new Failure(`after ${call}: ${store.name} holds no reference but is still resident`);
  }

  /**
   * MakeResident or EnqueueMakeResident (NONE or DENY_OVERBUDGET) on `stores`, one operation. A
   * denied DENY_OVERBUDGET must change nothing; with `must`, a plain makeResident follows it.
   */
  private raise(stores: Store[], must: boolean): void {
    const r = this.random;
    const pageables = stores.map((s) => s.pageable);
    const names = stores.map((s) => s.name).join(' ');
    if (r.chance(0.4)) {
      const deny = r.chance(0.3);
      const value = ++this.residencyValue;
      const before = stores.map((s) => s.heap.residencyReferences);
      try {
        this.device.enqueueMakeResident(deny ? 'DENY_OVERBUDGET' : 'NONE', pageables, this.residencyFence, value);
        this.op('enqueueMakeResident');
        this.log(`enqueueMakeResident${deny ? ' DENY_OVERBUDGET' : ''} ${names} -> residency fence ${value}`);
        for (const s of stores) {
          s.count++;
          s.pending = value;
        }
      } catch (error) {
        if (!(deny && error instanceof D3D12Error && error.hresult === 'E_OUTOFMEMORY')) throw error;
        this.op('enqueueMakeResidentDenied');
        this.log(`enqueueMakeResident DENY_OVERBUDGET ${names}: E_OUTOFMEMORY`);
        stores.forEach((s, i) => {
          if (s.heap.residencyReferences !== before[i])
            throw new Failure(
              `a denied enqueueMakeResident changed ${s.name}'s reference count (${before[i]} -> ${s.heap.residencyReferences})`,
            );
        });
        if (!must) return;
        this.device.makeResident(pageables);
        this.op('makeResident');
        this.log(`makeResident ${names}`);
        for (const s of stores) s.count++;
      }
    } else {
      this.device.makeResident(pageables);
      this.op('makeResident');
      this.log(`makeResident ${names}`);
      for (const s of stores) s.count++;
    }
    for (const s of stores) this.checkResidency(s, 'makeResident');
  }

  /** Evict, one operation, after the GPU work that used the stores completed. */
  async evict(stores: Store[], counted = true): Promise<void> {
    await this.waitFor(Math.max(...stores.map((s) => s.lastUse)));
    await this.settleResidency(stores);
    const wasResident = stores.map((s) => s.heap.resident);
    this.device.evict(stores.map((s) => s.pageable));
    if (counted) this.op('evict');
    this.log(`evict ${stores.map((s) => s.name).join(' ')}`);
    for (const s of stores) s.count--;
    stores.forEach((s, i) => {
      this.checkResidency(s, 'evict');
      // A store named twice is counted once.
      if (!wasResident[i] || s.heap.resident || stores.indexOf(s) !== i) return;
      if (s.tracked) this.orders.unpinPagedOut++;
      if (s.dirty && !s.dirtyEvicted) {
        s.dirtyEvicted = true;
        this.orders.writeThenEvict++;
      }
    });
  }

  /** References the application may give back: all but one while it holds a persistent map. */
  private spare(store: Store): number {
    return store.count - (store.maps > 0 ? 1 : 0);
  }

  private async randomEvict(): Promise<void> {
    const r = this.random;
    const held = this.stores.filter((s) => this.spare(s) > 0);
    if (held.length === 0) return;
    const picked = new Set<Store>();
    for (let n = r.int(1, 3); n > 0; n--) picked.add(r.pick(held));
    const stores = [...picked];
    // Evicting one object twice in one call: both references go.
    const twice = stores.find((s) => this.spare(s) >= 2);
    if (twice && r.chance(0.5)) stores.push(twice);
    await this.evict(stores);
  }

  private randomRaise(): void {
    const r = this.random;
    const candidates = this.stores.filter((s) => (s.tracked ? s.count === 0 : s.count < 2));
    if (candidates.length === 0) return;
    const picked = new Set<Store>();
    for (let n = r.int(1, 3); n > 0; n--) picked.add(r.pick(candidates));
    this.raise([...picked], false);
  }

  /** Before the CPU touches a store: a reference of the application's own, and its residency fence. */
  private async holdForCpu(store: Store): Promise<void> {
    if (store.count === 0) this.raise([store], true);
    await this.settleResidency([store]);
  }

  // -- CPU access --

  /** map(), write random bytes, unmap() with the written range or none; sometimes evict straight after. */
  private async cpuWrite(): Promise<void> {
    const r = this.random;
    const buffer = r.pick(this.buffers.filter((b) => b.cpu));
    const store = buffer.store as Store;
    await this.waitFor(buffer.lastUse);
    await this.holdForCpu(store);
    const length = randomSize(r, buffer.width);
    const begin = r.int(0, buffer.width - length);
    const held = this.persistent.get(buffer);
    if (held) {
      // Through the pointer of a persistent map: later lists see it without an unmap (D3D12).
      const bytes = randomBytes(r, length);
      held.view.set(bytes, begin);
      writeModel(buffer, begin, bytes);
      held.begin = Math.min(held.begin, begin);
      held.end = Math.max(held.end, begin + length);
      this.op('cpuWritePersistent');
      this.log(`cpuWrite ${buffer.name}+${begin} (${length} bytes, persistently mapped)`);
      store.dirty = true;
      return;
    }
    // An empty read range: the CPU reads nothing (D3D12's write-only map), or none given.
    const view = buffer.resource.map(0, r.chance(0.5) ? { begin: 0, end: 0 } : null);
    // Maps nest (D3D12 counts them): the inner unmap says it wrote nothing, the outer names the range.
    const nested = r.chance(0.15);
    if (nested) buffer.resource.map(0, { begin: 0, end: 0 });
    const bytes = randomBytes(r, length);
    view.set(bytes, begin);
    writeModel(buffer, begin, bytes);
    if (nested) buffer.resource.unmap(0, { begin: 0, end: 0 });
    const ranged = r.chance(0.6);
    if (ranged) buffer.resource.unmap(0, { begin, end: begin + length });
    else buffer.resource.unmap(0);
    this.op(ranged ? 'cpuWrite' : 'cpuWriteNoRange');
    this.log(
      `cpuWrite ${buffer.name}+${begin} (${length} bytes${ranged ? '' : ', unmap without range'}${nested ? ', nested map' : ''})`,
    );
    store.dirty = true;
    // A write followed by eviction before any GPU work reads it.
    if (r.chance(0.3) && this.spare(store) > 0) await this.evict([store]);
  }

  /**
   * Maps a CPU-visible buffer and keeps it mapped across operations (UE's persistently mapped upload
   * buffers), holding a reference meanwhile; or unmaps one, naming every byte written through it
   * (or no range: all of it).
   */
  private async togglePersistentMap(): Promise<void> {
    const r = this.random;
    const mapped = [...this.persistent.keys()];
    if (mapped.length >= 2 || (mapped.length > 0 && r.chance(0.5))) {
      const buffer = r.pick(mapped);
      const held = this.persistent.get(buffer) as { view: Uint8Array; begin: number; end: number };
      // The unmap names bytes the CPU may have written: none may be the GPU's still (D3D12 forbids
      // CPU and GPU writing the same bytes at once), so the GPU work on the buffer completes first.
      await this.waitFor(buffer.lastUse);
      this.persistent.delete(buffer);
      const ranged = r.chance(0.6);
      if (!ranged) buffer.resource.unmap(0);
      else
        buffer.resource.unmap(0, held.end > held.begin ? { begin: held.begin, end: held.end } : { begin: 0, end: 0 });
      (buffer.store as Store).maps--;
      this.op('unmapPersistent');
      this.log(`unmap ${buffer.name} (persistent map, ${ranged ? `written ${held.begin}..${held.end}` : 'no range'})`);
      return;
    }
    const buffer = r.pick(this.buffers.filter((b) => b.cpu && !this.persistent.has(b)));
    const store = buffer.store as Store;
    await this.holdForCpu(store);
    this.persistent.set(buffer, { view: buffer.resource.map(0, { begin: 0, end: 0 }), begin: buffer.width, end: 0 });
    store.maps++;
    this.op('mapPersistent');
    this.log(`map ${buffer.name} (persistent)`);
  }

  /** map() after the GPU work on the buffer completed: the bytes must be the model's; unmap() says nothing was written. */
  private async cpuRead(): Promise<void> {
    const r = this.random;
    const buffer = r.pick([...this.buffers, ...this.probes].filter((b) => b.cpu));
    const store = buffer.store as Store;
    await this.waitFor(buffer.kind === 'probe' ? store.lastUse : buffer.lastUse);
    await this.holdForCpu(store);
    const view = buffer.resource.map(0, null);
    const at = firstDifference(view, readModel(buffer, 0, buffer.width));
    if (at >= 0)
      this.difference ??= describeDifference(this, 'cpu', 0, buffer, at, view[at], readModel(buffer, at, 1)[0]);
    buffer.resource.unmap(0, { begin: 0, end: 0 });
    this.op('cpuRead');
    this.log(`cpuRead ${buffer.name} (${buffer.width} bytes)`);
    this.bytesCompared.cpuRead += buffer.width;
    if (this.difference) throw new Failure('cpuRead found a difference');
  }

  // -- command lists --

  takeList(): GraphicsCommandList {
    const list = this.spareLists.pop();
    if (!list) return this.device.createCommandList('DIRECT');
    list.reset();
    return list;
  }

  takeSet(stores: Iterable<Store>): ResidencySet {
    const set = this.spareSets.pop() ?? this.manager.createResidencySet();
    set.open();
    for (const s of stores) if (s.tracked) set.insert(s.pageable);
    set.close();
    return set;
  }

  private afterExecute(lists: GraphicsCommandList[], touched: Set<Store>): number {
    this.spareLists.push(...lists);
    this.queue.signal(this.fence, ++this.value);
    for (const s of touched) s.lastUse = this.value;
    const usage = this.device.queryVideoMemoryInfo('LOCAL').currentUsage;
    this.maxLocalUsage = Math.max(this.maxLocalUsage, usage);
    if (usage > PAGING_SOAK_LOCAL_POOL)
      throw new Failure(`LOCAL usage ${usage} exceeds the ${PAGING_SOAK_LOCAL_POOL}-byte pool`);
    return this.value;
  }

  /** Executes through the manager (one set per list), signals the soak's fence; returns its value. */
  executeManaged(lists: GraphicsCommandList[], sets: ResidencySet[], touched: Set<Store>): number {
    this.manager.executeCommandLists(this.queue, lists, sets);
    this.now += MS_PER_EXECUTE;
    this.spareSets.push(...sets);
    return this.afterExecute(lists, touched);
  }

  /** 1-3 lists through the manager with residency sets, or 1-2 straight on the queue. */
  private execute(): void {
    const r = this.random;
    const direct = r.chance(0.3);
    const plans = Array.from({ length: direct ? 1 + r.weighted([3, 1]) : 1 + r.weighted([5, 3, 2]) }, () =>
      planCommands(r, this.buffers),
    ).filter((p) => p.length > 0);
    if (plans.length === 0) return;
    const perList = plans.map(() => new Set<Store>());
    const touched = new Set<Store>();
    const read = new Set<Store>();
    plans.forEach((commands, i) => {
      for (const c of commands) storesOfCommand(c, perList[i] as Set<Store>, read);
      for (const s of perList[i] as Set<Store>) touched.add(s);
    });
    // The application's residency: its untracked objects, and (straight on the queue, where no
    // manager pages) pins on the tracked ones.
    const missing = [...touched].filter((s) => s.count === 0 && (!s.tracked || direct));
    if (missing.length > 0) this.raise(missing, true);
    this.queueWaitFor(touched);
    const first = this.operations;
    const lists = plans.map((commands, i) => {
      const list = this.takeList();
      list.setName(`soak list ${first}.${i}`);
      recordCommands(list, commands, {
        pipeline: this.pipeline,
        generation: this.generation,
        signalValue: this.value + 1,
      });
      for (const c of commands) this.op(commandKind(c));
      return list;
    });
    this.log(
      `${direct ? 'queue' : 'manager'} execute: ${plans.map((commands) => commands.map(describeCommand).join('; ')).join(' | ')}`,
    );
    if (direct) {
      this.queue.executeCommandLists(lists);
      this.op('queueExecute');
      this.afterExecute(lists, touched);
    } else {
      this.executeManaged(
        lists,
        perList.map((set) => this.takeSet(set)),
        touched,
      );
      this.op('managerExecute');
    }
    for (const s of read) if (s.dirty && s.dirtyEvicted) this.orders.writeEvictRestoreRead++;
    for (const s of touched) s.dirty = s.dirtyEvicted = false;
    // The manager may have paged out written memory no list has read yet.
    for (const s of this.stores) {
      if (s.dirty && !s.dirtyEvicted && !s.heap.resident) {
        s.dirtyEvicted = true;
        this.orders.managerEvictedAfterWrite++;
      }
    }
  }

  // -- the soak --

  async setup(): Promise<void> {
    this.trackedLocalBytes = createObjects(this, PAGING_SOAK_LOCAL_BUDGET, TRACKED_MULTIPLE);
    this.setupLists = await initializeObjects(this);
    this.log(
      `objects: ${[...this.buffers, ...this.probes]
        .filter((b) => b.store)
        .map((b) => `${b.name}=${(b.store as Store).name}:${b.firstPage}+${b.width}`)
        .join(' ')}`,
    );
    // Setup's own calls (the first tile mappings) are not soak operations.
    this.counts = {};
    this.operations = 0;
  }

  async step(): Promise<void> {
    const r = this.random;
    const pinned = this.stores.filter((s) => s.tracked && this.spare(s) > 0);
    const pins = pinned.length;
    const held = this.stores.filter((s) => !s.tracked && s.count > 0).length;
    const kind = pins > MAX_PINS ? 2 : r.weighted([26, 18, 4, 6 + 2 * pins + held, 5, 8, 2]);
    switch (kind) {
      case 0:
        this.execute();
        return;
      case 1:
        return this.cpuWrite();
      case 2:
        return pins > MAX_PINS ? this.evict(pinned.slice(0, 2)) : this.cpuRead();
      case 3:
        return this.randomEvict();
      case 4:
        return this.randomRaise();
      case 5:
        randomRemap(this);
        return;
      default:
        return this.togglePersistentMap();
    }
  }

  /** The end: every application reference given back; the counts must come out even. */
  async teardown(): Promise<void> {
    for (const [buffer] of this.persistent) {
      buffer.resource.unmap(0);
      (buffer.store as Store).maps--;
    }
    this.persistent.clear();
    for (const s of this.stores) while (s.count > 0) await this.evict([s], false);
    checkCounts(this);
  }
}

/** The paging soak as the soak driver runs it: steps are operations; the first checkpoint may flip a model byte (`corrupt`). */
function pagingSoakPlan(options: PagingSoakOptions): SoakPlan<PagingSoak> {
  let corruptPending = options.corrupt;
  return {
    seed: options.seed >>> 0,
    target: options.operations ?? 2000,
    unit: 'operations',
    checkpoints: options.checkpoints ?? 2,
    localPool: PAGING_SOAK_LOCAL_POOL,
    localBudget: PAGING_SOAK_LOCAL_BUDGET,
    nonLocalPool: NON_LOCAL_POOL,
    nonLocalBudget: NON_LOCAL_BUDGET,
    pipelineLabel: 'paging soak read-modify-write',
    create: ({ device, manager, pipeline, random }) =>
      new PagingSoak(
        device,
        manager,
        device.createCommandQueue({ type: 'DIRECT' }),
        device.createFence(0),
        device.createFence(0),
        pipeline,
        random,
      ),
    done: (soak) => soak.operations,
    step: async (soak) => {
      await soak.step();
      if (options.serialize) await soak.waitFor(soak.fenceValue());
    },
    checkpoint: async (soak) => {
      if (corruptPending) corruptModel(soak, corruptPending);
      corruptPending = undefined;
      await runCheckpoint(soak);
    },
    finish: (soak) => soak.teardown(),
  };
}

/** Runs the soak from `options.seed` over `gpuDevice`. Never throws: the summary says what happened. */
export async function runPagingSoak(gpuDevice: GPUDevice, options: PagingSoakOptions): Promise<PagingSoakSummary> {
  const plan = pagingSoakPlan(options);
  const {
    seed,
    runner: soak,
    error,
    removedReason,
    residency,
    paging,
    ok,
    milliseconds,
  } = await driveSoak(gpuDevice, plan);
  const stores = soak?.stores ?? [];
  return {
    seed,
    ok,
    requestedOperations: plan.target,
    operations: soak?.operations ?? 0,
    counts: soak?.counts ?? {},
    orders: {
      writeThenEvict: soak?.orders.writeThenEvict ?? 0,
      managerEvictedAfterWrite: soak?.orders.managerEvictedAfterWrite ?? 0,
      writeEvictRestoreRead: soak?.orders.writeEvictRestoreRead ?? 0,
      unpinPagedOut: soak?.orders.unpinPagedOut ?? 0,
    },
    setupLists: soak?.setupLists ?? 0,
    checkpointLists: soak?.checkpointLists ?? 0,
    checkpoints: soak?.checkpoints ?? 0,
    bytesCompared: soak?.bytesCompared ?? { gpu: 0, cpu: 0, cpuRead: 0 },
    bytesDiffering: soak?.bytesDiffering ?? 0,
    differingByPath: soak?.differingByPath ?? { gpu: 0, cpu: 0 },
    objects: {
      stores: stores.length,
      tracked: stores.filter((s) => s.tracked).length,
      untracked: stores.filter((s) => !s.tracked).length,
      cpuVisible: stores.filter((s) => s.type !== 'DEFAULT').length,
      buffers: soak?.buffers.length ?? 0,
      reserved: soak?.buffers.filter((b) => b.kind === 'reserved').length ?? 0,
      probes: soak?.probes.length ?? 0,
    },
    trackedLocalBytes: soak?.trackedLocalBytes ?? 0,
    localBudget: PAGING_SOAK_LOCAL_BUDGET,
    budgetMultiple: (soak?.trackedLocalBytes ?? 0) / PAGING_SOAK_LOCAL_BUDGET,
    pageableBytes: stores.reduce((sum, s) => sum + s.pages * TILE, 0),
    maxLocalUsage: soak?.maxLocalUsage ?? 0,
    localPool: PAGING_SOAK_LOCAL_POOL,
    residency,
    paging,
    removedReason,
    milliseconds,
    ...(soak?.corrupted ? { corrupted: soak.corrupted } : {}),
    ...(soak?.difference ? { difference: soak.difference } : {}),
    ...(error ? { error } : {}),
    ...(ok ? {} : { trace: soak?.trace.slice(-(options.traceLines ?? 40)) ?? [] }),
  };
}
