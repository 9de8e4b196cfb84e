/**
 * ResidencyManager: Microsoft's D3D12 Residency Starter Library (d3dx12residency.h), which UE5
 * builds on, over an emulated device.
 *
 * executeCommandLists(queue, lists, sets):
 *   1. merges the lists' residency sets (each object once);
 *   2. if they need more than the local and non-local budgets together and there is more than one
 *      list, splits the batch in half and handles each half in turn;
 *   3. marks every object used now (to the LRU's tail);
 *   4. trims: objects idle for longer than the grace period (gracePeriodMs: 60 s down to 1 s as
 *      usage goes from 70 % to 100 % of the budget) whose last GPU use has completed are evicted,
 *      from the LRU's head, never below 70 % of the budget;
 *   5. makes the batch's objects resident, evicting least recently used objects outside the batch
 *      while usage would exceed the budget. The library waits for an object's last GPU use before
 *      evicting it; here eviction is queued after that use, which is the same for the GPU and never
 *      blocks the CPU. Objects whose use has completed go first. When nothing outside the batch is
 *      left, the batch goes over budget rather than fail, and the stats report it;
 *   6. executes the lists and signals the manager's fence for the queue, the sync point that
 *      records when the objects were last used.
 * The clock is injectable (options.clock) so grace periods can be tested.
 */
import { CommandQueue } from '../d3d12/command-queue.js';
import type { GraphicsCommandList } from '../d3d12/command-list.js';
import { Device } from '../d3d12/device.js';
import { D3D12Error, invalidArg, show } from '../api/errors.js';
import type { Fence } from '../d3d12/fence.js';
import type { Pageable, ResidencyStatus } from '../d3d12/residency.js';
import type { MemorySegment } from '../api/types.js';
import { gracePeriodMs, trimFloor } from './grace-period.js';
import { LruList } from './lru.js';
import { ManagedObject } from './managed-object.js';
import { ResidencySet } from './residency-set.js';

export interface ResidencyManagerOptions {
  /** The library's MaxLatency (frames the CPU may run ahead); accepted for compatibility. */
  maxLatency?: number;
  /** Milliseconds, monotonic; default performance.now(). */
  clock?: () => number;
}

export interface OverBudget {
  segment: MemorySegment;
  usage: number;
  budget: number;
}

export interface ResidencyStats {
  tracked: number;
  evictions: number;
  evictedBytes: number;
  /** Evictions by the grace period (part of `evictions`). */
  trimmed: number;
  madeResident: number;
  madeResidentBytes: number;
  /** Batches split in half because their sets did not fit the budgets together. */
  splits: number;
  /** Batches that ran over budget, the last one's numbers. */
  overBudgetBatches: number;
  lastOverBudget: OverBudget | null;
  executions: number;
}

const SEGMENTS: MemorySegment[] = ['LOCAL', 'NON_LOCAL'];

export class ResidencyManager {
  private readonly managedObjects = new Map<Pageable, ManagedObject>();
  private readonly lru = new LruList<ManagedObject>();
  private readonly fences = new Map<CommandQueue, { fence: Fence; value: number }>();
  private readonly clock: () => number;
  private batchNumber = 0;
  private nextSetId = 1;
  private readonly stats: ResidencyStats = {
    tracked: 0,
    evictions: 0,
    evictedBytes: 0,
    trimmed: 0,
    madeResident: 0,
    madeResidentBytes: 0,
    splits: 0,
    overBudgetBatches: 0,
    lastOverBudget: null,
    executions: 0,
  };

  constructor(
    readonly device: Device,
    options: ResidencyManagerOptions = {},
  ) {
    const call = 'createResidencyManager';
    if (!(device instanceof Device)) throw invalidArg(call, 'device', `must be a Device (createDevice), got ${show(device)}`);
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArg(call, 'options', `must be an object, got ${show(options)}`);
    const maxLatency = options.maxLatency ?? 3;
    // MaxLatency is a UINT.
    if (!Number.isInteger(maxLatency) || maxLatency < 1 || maxLatency > 0xffffffff) throw invalidArg(call, 'options.maxLatency', `must be an integer from 1 to 0xffffffff, got ${show(maxLatency)}`);
    if (options.clock !== undefined && typeof options.clock !== 'function') throw invalidArg('createResidencyManager', 'options.clock', 'must be a function returning milliseconds');
    this.clock = options.clock ?? (() => performance.now());
  }

  /** @internal */
  managed(pageable: unknown): ManagedObject | undefined {
    return this.managedObjects.get(pageable as Pageable);
  }

  /** Tracks a heap or committed resource; the manager then pages it as its sets need. */
  beginTrackingObject(pageable: Pageable): void {
    const call = 'ResidencyManager.beginTrackingObject';
    let status: ResidencyStatus;
    try {
      status = this.device.getResidencyStatus(pageable);
    } catch (error) {
      if (!(error instanceof D3D12Error)) throw error;
      // The device's rule as it stands (another device's object, released, not pageable), under this call's name.
      throw invalidArg(call, 'pageable', error.rule);
    }
    if (this.managedObjects.has(pageable)) throw invalidArg(call, 'pageable', `${pageable.label} is already tracked`);
    const managed = new ManagedObject(pageable, status);
    this.managedObjects.set(pageable, managed);
    this.lru.push(managed);
    this.stats.tracked++;
  }

  /** Stops tracking; the object keeps the residency it has. */
  endTrackingObject(pageable: Pageable): void {
    const managed = this.managed(pageable);
    if (!managed) throw invalidArg('ResidencyManager.endTrackingObject', 'pageable', 'is not tracked by this manager');
    this.forget(managed);
  }

  /**
   * d3dx12residency requires EndTrackingObject before Release; an object released while tracked is
   * forgotten when the manager comes to page it (its memory is the device's to free), and taken out
   * of `candidates`.
   */
  private forgetReleased(candidates: ManagedObject[]): void {
    for (let i = candidates.length - 1; i >= 0; i--) {
      const managed = candidates[i] as ManagedObject;
      if (!managed.released) continue;
      this.forget(managed);
      candidates.splice(i, 1);
    }
  }

  private forget(managed: ManagedObject): void {
    this.lru.remove(managed);
    this.managedObjects.delete(managed.pageable);
    this.stats.tracked--;
  }

  createResidencySet(): ResidencySet {
    return new ResidencySet(this, this.nextSetId++);
  }

  /** Counters for charts and tests (a copy). */
  getStats(): ResidencyStats {
    return { ...this.stats, lastOverBudget: this.stats.lastOverBudget && { ...this.stats.lastOverBudget } };
  }

  /** Makes every set's objects resident within the budget, then executes the lists on `queue`. */
  executeCommandLists(queue: CommandQueue, lists: GraphicsCommandList[], sets: (ResidencySet | null)[]): void {
    const call = 'ResidencyManager.executeCommandLists';
    if (this.device.getDeviceRemovedReason() !== 'S_OK') {
      throw new D3D12Error('DXGI_ERROR_DEVICE_REMOVED', call, 'this', `the device was removed: ${this.device.getPageFaultReport()?.message ?? this.device.getDeviceRemovedReason()}`);
    }
    if (!(queue instanceof CommandQueue)) throw invalidArg(call, 'queue', 'must be a command queue of the manager\'s device');
    if (!Array.isArray(lists) || lists.length === 0) throw invalidArg(call, 'commandLists', `must be a non-empty array of command lists, got ${show(lists)}`);
    if (!Array.isArray(sets) || sets.length !== lists.length) {
      throw invalidArg(call, 'residencySets', `must hold one residency set (or null) per command list (${lists.length}), got ${show(sets)}`);
    }
    sets.forEach((set, i) => {
      if (set === null) return;
      if (!(set instanceof ResidencySet) || !set.belongsTo(this)) throw invalidArg(call, `residencySets[${i}]`, 'must be a residency set of this manager, or null');
      if (!set.closed) throw invalidArg(call, `residencySets[${i}]`, `residency set #${set.id} is still open; close() it first`);
      for (const managed of set.objects()) {
        if (managed.released && this.managedObjects.has(managed.pageable)) {
          throw invalidArg(call, `residencySets[${i}]`, `holds ${managed.label}, which was released (endTrackingObject before release)`);
        }
      }
    });
    // Everything the queue would refuse is refused before anything pages.
    try {
      queue.validateExecuteCommandLists(lists);
    } catch (error) {
      // The queue's verdict, named as this call.
      if (error instanceof D3D12Error) throw new D3D12Error(error.hresult, call, error.argument, error.rule);
      throw error;
    }
    this.executeBatch(queue, lists, sets);
  }

  private executeBatch(queue: CommandQueue, lists: GraphicsCommandList[], sets: (ResidencySet | null)[]): void {
    const batch = ++this.batchNumber;
    const objects: ManagedObject[] = [];
    const needs: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
    /** Bytes of the batch not resident now, per segment. */
    const missing: Record<MemorySegment, number> = { LOCAL: 0, NON_LOCAL: 0 };
    for (const set of sets) {
      for (const managed of set?.objects() ?? []) {
        if (managed.batch === batch || !this.managedObjects.has(managed.pageable)) continue;
        managed.batch = batch;
        objects.push(managed);
        needs[managed.segment] += managed.size;
        if (!managed.resident) missing[managed.segment] += managed.size;
      }
    }
    const budget = (segment: MemorySegment): number => this.device.queryVideoMemoryInfo(segment).budget;
    if (lists.length > 1 && needs.LOCAL + needs.NON_LOCAL > budget('LOCAL') + budget('NON_LOCAL')) {
      this.stats.splits++;
      const half = Math.ceil(lists.length / 2);
      this.executeBatch(queue, lists.slice(0, half), sets.slice(0, half));
      this.executeBatch(queue, lists.slice(half), sets.slice(half));
      return;
    }

    const now = this.clock();
    for (const managed of objects) {
      this.lru.touch(managed);
      managed.lastUsedMs = now;
    }
    for (const segment of SEGMENTS) this.trim(segment, now, batch);
    const over = SEGMENTS.map((segment) => this.makeRoom(segment, missing[segment], batch)).filter((o): o is OverBudget => o !== null && needs[o.segment] > 0);
    if (over.length > 0) {
      this.stats.overBudgetBatches++;
      this.stats.lastOverBudget = over[0] as OverBudget;
    }
    if (missing.LOCAL + missing.NON_LOCAL > 0) this.makeBatchResident(objects, batch);

    queue.executeCommandLists(lists);
    const sync = this.syncPointFor(queue);
    queue.signal(sync.fence, ++sync.value);
    const lastUse = { fence: sync.fence, value: sync.value };
    for (const managed of objects) managed.lastUse = lastUse;
    this.stats.executions++;
  }

  private syncPointFor(queue: CommandQueue): { fence: Fence; value: number } {
    let sync = this.fences.get(queue);
    if (!sync) {
      sync = { fence: this.device.createFence(0), value: 0 };
      this.fences.set(queue, sync);
    }
    return sync;
  }

  private usage(segment: MemorySegment): number {
    return this.device.queryVideoMemoryInfo(segment).currentUsage;
  }

  private evict(managed: ManagedObject): void {
    // The manager holds one MakeResident reference; an application that evicted a tracked object
    // itself (which d3dx12residency forbids) has already dropped it, and there is nothing to drop.
    if (this.device.getResidencyStatus(managed.pageable).residencyReferences > 0) this.device.evict([managed.pageable]);
    managed.resident = false;
    // Mapped memory (or the app's own MakeResident) keeps the heap in: only a real page-out counts.
    if (!this.device.getResidencyStatus(managed.pageable).resident) {
      this.stats.evictions++;
      this.stats.evictedBytes += managed.size;
    }
  }

  /** Evicts objects idle longer than the grace period, from the LRU's head, down to 70 % of the budget. */
  private trim(segment: MemorySegment, now: number, batch: number): void {
    const budget = this.device.queryVideoMemoryInfo(segment).budget;
    const grace = gracePeriodMs(this.usage(segment), budget);
    if (grace === Infinity) return;
    const victims: ManagedObject[] = [];
    for (const managed of this.lru) {
      // The LRU is ordered by use: once one is recent enough, all after it are.
      if (now - managed.lastUsedMs <= grace) break;
      if (managed.segment === segment && managed.resident && managed.batch !== batch && managed.idle) victims.push(managed);
    }
    this.forgetReleased(victims);
    for (const managed of victims) {
      if (this.usage(segment) <= trimFloor(budget)) break;
      this.evict(managed);
      this.stats.trimmed++;
    }
  }

  /** Evicts least recently used objects outside the batch until the batch fits; says if it cannot. */
  private makeRoom(segment: MemorySegment, needed: number, batch: number): OverBudget | null {
    const budget = this.device.queryVideoMemoryInfo(segment).budget;
    if (this.usage(segment) + needed <= budget) return null;
    const outside = [...this.lru].filter((managed) => managed.segment === segment && managed.resident && managed.batch !== batch);
    this.forgetReleased(outside);
    // Objects whose last GPU use completed first, then those whose use is at least submitted (the
    // eviction is queued after it); never one whose use is still held behind a queue wait.
    const order = [...outside.filter((managed) => managed.idle), ...outside.filter((managed) => !managed.idle && managed.submitted)];
    for (const managed of order) {
      if (this.usage(segment) + needed <= budget) break;
      this.evict(managed);
    }
    const usage = this.usage(segment);
    return usage + needed > budget ? { segment, usage: usage + needed, budget } : null;
  }

  private makeBatchResident(objects: readonly ManagedObject[], batch: number): void {
    const rising = objects.filter((managed) => !managed.resident);
    if (rising.length === 0) return;
    try {
      this.device.makeResident(rising.map((managed) => managed.pageable));
    } catch (error) {
      if (!(error instanceof D3D12Error) || error.hresult !== 'E_OUTOFMEMORY') throw error;
      // Over budget and past the pool: evict everything else this manager may, then try again.
      const others = [...this.lru].filter((managed) => managed.resident && managed.batch !== batch && managed.submitted);
      this.forgetReleased(others);
      for (const managed of others) this.evict(managed);
      this.device.makeResident(rising.map((managed) => managed.pageable));
    }
    for (const managed of rising) {
      managed.resident = true;
      this.stats.madeResident++;
      this.stats.madeResidentBytes += managed.size;
    }
  }
}

/** Creates a residency manager for `device` (d3dx12residency.h's ResidencyManager::Initialize). */
export function createResidencyManager(device: Device, options: ResidencyManagerOptions = {}): ResidencyManager {
  // (options = {} applies to undefined only: null and other non-objects reach the checks.)
  return new ResidencyManager(device, options);
}
