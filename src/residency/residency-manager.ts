/**
 * ResidencyManager: Microsoft's D3D12 Residency Starter Library (d3dx12residency.h), which UE5
 * builds on, over an emulated device.
 *
 * executeCommandLists(queue, lists, sets):
 *   1. gathers the lists' residency sets in one pass (each object once, by a per-object mark): the
 *      bytes per segment they need and the bytes not resident now;
 *   2. if they need more than the local and non-local budgets together and there is more than one
 *      list, splits the batch in half and handles each half in turn;
 *   3. stamps every object used now (LRU stamp, batch, CPU time, the sync point about to be
 *      signalled) and tells the reuse predictor and the victim policies of the ones arriving (first
 *      used, or back after a gap); a set submitted alone batch after batch, all resident, has the
 *      stamp deferred until something reads the records (stamp-deferral.ts);
 *   4. trims, at most once per TRIM_INTERVAL_MS: objects idle for longer than the grace period
 *      (gracePeriodMs: 60 s down to 1 s as usage goes from 70 % to 100 % of the budget) whose last
 *      GPU use has completed are evicted, never below 70 % of the budget; the resident objects are
 *      looked through only when TrimGate says one of them may be that old (or one was released);
 *   5. when what is missing does not fit, evicts objects outside the batch until it does, in
 *      VictimQueue's order: lower residency priority first, then the segment's victim policy, the
 *      one of three (recency, reuse prediction, popularity: victim-policies.ts, popularity.ts)
 *      whose shadow cache paged least lately (policy-selector.ts; d3dx12residency has plain LRU).
 *      The library waits for an object's last GPU use before evicting it; here eviction is queued
 *      after that use, the same for the GPU and never blocking the CPU; an object whose use is held
 *      behind a queue wait is never chosen. When nothing is left to evict, the batch goes over
 *      budget rather than fail, and the stats report it. Nothing of this runs while the batch fits:
 *      the eviction order is computed only when over budget. An object the device demoted to NON_LOCAL
 *      (getResidencyStatus().demoted) is evicted in its turn but frees no LOCAL bytes;
 *   6. executes the lists; the manager's fence for the queue, signalled after them, is the sync point
 *      that records when the objects were last used (sync-points.ts). Batches less than
 *      SIGNAL_INTERVAL_MS apart share one signal, made at the latest when the manager next chooses victims.
 * The queue checks the lists once, after the gather and before anything pages (validateThenExecuteCommandLists):
 * a call it refuses pages nothing, and step 6 executes on that check.
 * The library's MaxLatency is not an option: it bounds the queue of paging work handed to the
 * library's worker thread, and with a queued MakeResident (ID3D12Device3, as this device's paging
 * is queue work) the library pages on the calling thread and never reads it.
 * The clock is injectable (options.clock) so grace periods can be tested.
 */
import type { CommandQueue } from '../d3d12/command-queue.js';
import type { GraphicsCommandList } from '../d3d12/command-list.js';
import type { Device } from '../d3d12/device.js';
import { D3D12Error, invalidArg } from '../api/errors.js';
import type { Pageable, ResidencyStatus, VideoMemoryInfo } from '../emulator/device-residency.js';
import type { MemorySegment } from '../api/types.js';
import { checkBatchArguments, checkManagerArguments } from './batch-arguments.js';
import { Gathered } from './gather.js';
import { gracePeriodMs, trimFloor } from './grace-period.js';
import { ManagedObject } from './managed-object.js';
import { ObjectTable } from './object-table.js';
import { PolicySelector } from './policy-selector.js';
import { Popularity } from './popularity.js';
import { ReusePredictor } from './reuse-predictor.js';
import { ResidencySet } from './residency-set.js';
import { StampDeferral } from './stamp-deferral.js';
import { SyncPoints } from './sync-points.js';
import { TrimGate } from './trim-gate.js';
import { CoUse, policyQueue, type PolicyContext } from './victim-policies.js';

import type { OverBudget, ResidencyManagerOptions, ResidencyMemoryStats, ResidencyStats } from './residency-stats.js';
import { emptyResidencyStats } from './residency-stats.js';

export type { OverBudget, ResidencyManagerOptions, ResidencyMemoryStats, ResidencyStats } from './residency-stats.js';

const SEGMENTS: readonly MemorySegment[] = ['LOCAL', 'NON_LOCAL'];
/**
 * Trimming looks at the resident objects at most once a millisecond: grace periods are at least a
 * second, so trimming up to 1 ms late changes nothing that matters, and a manager submitting every
 * few microseconds under pressure does not scan its resident objects on every call.
 */
export const TRIM_INTERVAL_MS = 1;
export { SIGNAL_INTERVAL_MS } from './sync-points.js';

export class ResidencyManager {
  private readonly managedObjects = new Map<Pageable, ManagedObject>();
  /** The tracked objects' numbers (ManagedObject.index is the record). */
  private readonly table = new ObjectTable();
  /** The tracked object at each ObjectTable index in use. */
  private readonly byIndex: (ManagedObject | undefined)[] = [];
  /** Refilled by every gather (valid until the next). */
  private readonly gathered = new Gathered();
  private readonly trimGate = new TrimGate();
  /** The objects the manager holds resident (ManagedObject.residentIndex is the place). */
  private readonly residentObjects: ManagedObject[] = [];
  private readonly syncPoints: SyncPoints;
  private readonly clock: () => number;
  private readonly predictor = new ReusePredictor();
  /** FREQUENT's arrival rates and the shift detector that restarts them (popularity.ts). */
  private readonly popularity = new Popularity();
  private readonly deferral = new StampDeferral(this.table, this.predictor, this.popularity);
  /** The victim policy of each segment, LOCAL and NON_LOCAL (policy-selector.ts). */
  private readonly selectors = [new PolicySelector(false), new PolicySelector(true)];
  private batchNumber = 0;
  private useCounter = 0;
  private gatherMark = 0;
  private nextSetId = 1;
  private lastTrimMs = -Infinity;
  // ResidencySet fills (SetOwner).
  private fillMark = 0;
  private openFills = 0;
  /** @internal */
  overlaps = 0;
  /** @internal Grows whenever an object stops being tracked (SetOwner). */
  untracks = 0;
  /** Grows whenever the manager stops holding a tracked object resident (gather.ts's set sums). */
  private evictions = 0;
  /** Bytes of the tracked objects, and of those held resident (queryResidencyStats). */
  private trackedBytes = 0;
  private residentBytes = 0;
  /** Reused for every budget read, so reading one allocates nothing. */
  private readonly memoryInfo: VideoMemoryInfo = {
    budget: 0,
    currentUsage: 0,
    availableForReservation: 0,
    currentReservation: 0,
  };
  private readonly statusScratch = {} as ResidencyStatus;
  private readonly stats: ResidencyStats = emptyResidencyStats();

  constructor(
    readonly device: Device,
    options: ResidencyManagerOptions = {},
  ) {
    checkManagerArguments(device, options);
    this.clock = options.clock ?? (() => performance.now());
    this.syncPoints = new SyncPoints(device, this.table, this.clock);
  }

  /** @internal */
  managed(pageable: unknown): ManagedObject | undefined {
    return this.managedObjects.get(pageable as Pageable);
  }

  /** @internal getResidencyRecordForTesting (d3d12-webgpu/testing), a deferred stamp written first. */
  useRecordForTesting(pageable: unknown): { lastBatch: number; useStamp: number } | undefined {
    const managed = this.managed(pageable);
    if (!managed) return undefined;
    this.deferral.settle();
    return { lastBatch: managed.lastBatch, useStamp: managed.useStamp };
  }

  /** @internal */
  releaseCount(): number {
    return this.device.getReleaseCount();
  }

  /** @internal `set` opens (it forgets its members): a fresh de-duplication mark. */
  openFill(set: ResidencySet): number {
    this.deferral.opened(set);
    if (this.openFills > 0) this.overlaps++;
    this.openFills++;
    return ++this.fillMark;
  }

  /** @internal */
  closeFill(): void {
    this.openFills--;
  }

  /** Tracks a heap, committed resource or shader-visible descriptor heap; the manager then pages it as its sets need. */
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
    const managed = new ManagedObject(
      pageable,
      this.table,
      this.table.alloc(status.sizeInBytes, status.segment === 'NON_LOCAL', status.resident),
    );
    this.byIndex[managed.index] = managed;
    this.popularity.track(this.table.policy, managed.index, this.batchNumber + 1);
    this.managedObjects.set(pageable, managed);
    this.trackedBytes += managed.size;
    if (managed.resident) this.addResident(managed);
    this.stats.tracked++;
  }

  /** Stops tracking; the object keeps the residency it has. */
  endTrackingObject(pageable: Pageable): void {
    const managed = this.managed(pageable);
    if (!managed) throw invalidArg('ResidencyManager.endTrackingObject', 'pageable', 'is not tracked by this manager');
    this.forget(managed);
  }

  private forget(managed: ManagedObject): void {
    // Its index may be handed out again: nothing may write a deferred stamp into it after this.
    this.deferral.settle();
    if (managed.residentIndex >= 0) this.removeResident(managed);
    this.trackedBytes -= managed.size;
    for (const selector of this.selectors) selector.forget(this.table, managed.index);
    this.popularity.untrack();
    managed.tracked = false;
    this.untracks++;
    this.byIndex[managed.index] = undefined;
    this.table.release(managed.index);
    this.managedObjects.delete(managed.pageable);
    this.stats.tracked--;
  }

  private addResident(managed: ManagedObject): void {
    this.trimGate.admit(managed.segment, managed.lastUsedMs);
    managed.residentIndex = this.residentObjects.length;
    this.residentObjects.push(managed);
    this.residentBytes += managed.size;
  }

  /** O(1): the last resident object takes its place. */
  private removeResident(managed: ManagedObject): void {
    const last = this.residentObjects.pop() as ManagedObject;
    if (last !== managed) {
      this.residentObjects[managed.residentIndex] = last;
      last.residentIndex = managed.residentIndex;
    }
    managed.residentIndex = -1;
    this.residentBytes -= managed.size;
  }

  createResidencySet(): ResidencySet {
    return new ResidencySet(this, this.nextSetId++);
  }

  /**
   * d3dx12residency's QueryResidencyStats(ResidentMemoryInBytes, EvictedMemoryInBytes), its
   * out-parameters as one object: the bytes of the tracked objects the manager holds resident, and of
   * those it does not (evicted, or never made resident).
   */
  queryResidencyStats(): ResidencyMemoryStats {
    return { residentMemoryInBytes: this.residentBytes, evictedMemoryInBytes: this.trackedBytes - this.residentBytes };
  }

  /** Counters for charts and tests (a copy). */
  getStats(): ResidencyStats {
    return { ...this.stats, lastOverBudget: this.stats.lastOverBudget && { ...this.stats.lastOverBudget } };
  }

  /** Makes every set's objects resident within the budget, then executes the lists on `queue`. */
  executeCommandLists(queue: CommandQueue, lists: GraphicsCommandList[], sets: (ResidencySet | null)[]): void {
    const call = 'ResidencyManager.executeCommandLists';
    checkBatchArguments(call, this.device, queue, lists, sets, (set) => set.belongsTo(this));
    // The one pass over the sets; it refuses released objects, changing nothing but scratch marks.
    const gathered = this.gather(sets, call);
    // Everything the queue would refuse is refused before anything pages; the lists are checked once.
    let paging = false;
    try {
      queue.validateThenExecuteCommandLists(lists, (execute) => {
        paging = true;
        this.executeBatch(queue, execute, 0, sets, gathered);
      });
    } catch (error) {
      // The queue's verdict, named as this call.
      if (!paging && error instanceof D3D12Error) throw new D3D12Error(error.hresult, call, error.argument, error.rule);
      throw error;
    }
  }

  /** The batch's objects and bytes (gather.ts), refusing released ones when `call` names the caller. */
  private gather(sets: readonly (ResidencySet | null)[], call: string | null): Gathered {
    return this.gathered.gather(
      this.table,
      sets,
      call,
      this.device.getReleaseCount(),
      this.untracks,
      this.evictions,
      ++this.gatherMark,
    );
  }

  private budget(segment: MemorySegment): number {
    return this.device.queryVideoMemoryInfo(segment, this.memoryInfo).budget;
  }

  private usage(segment: MemorySegment): number {
    return this.device.queryVideoMemoryInfo(segment, this.memoryInfo).currentUsage;
  }

  /** Pages for and executes lists [first, first + sets.length) of the batch (`execute`: the queue's). */
  private executeBatch(
    queue: CommandQueue,
    execute: (first: number, count: number) => void,
    first: number,
    sets: (ResidencySet | null)[],
    gathered: Gathered,
  ): void {
    if (
      sets.length > 1 &&
      gathered.needsLocal + gathered.needsNonLocal > this.budget('LOCAL') + this.budget('NON_LOCAL')
    ) {
      this.stats.splits++;
      const half = Math.ceil(sets.length / 2);
      const [firstSets, lastSets] = [sets.slice(0, half), sets.slice(half)];
      this.executeBatch(queue, execute, first, firstSets, this.gather(firstSets, null));
      this.executeBatch(queue, execute, first + half, lastSets, this.gather(lastSets, null));
      return;
    }

    const batch = ++this.batchNumber;
    const now = this.clock();
    this.trimGate.tick(now);
    const sync = this.syncPoints.of(queue);
    // This batch's objects wait for the queue's next signal, so earlier batches on the queue that
    // still wait for theirs get it now if victims may be chosen (what they used may be evicted).
    const trimDue = now - this.lastTrimMs >= TRIM_INTERVAL_MS;
    if (sync.pending && (gathered.missingLocal + gathered.missingNonLocal > 0 || trimDue || this.overBudget()))
      this.syncPoints.signal(queue, sync, now);
    const useValue = sync.value + 1;
    this.syncPoints.executing = queue;
    this.useCounter = this.deferral.stamp(gathered, this.useCounter, batch, now, sync.fenceId, useValue);
    this.popularity.batchDone(batch, gathered.count);
    if (trimDue) {
      this.lastTrimMs = now;
      for (const segment of SEGMENTS) this.trim(segment, now, batch);
    }
    // Room is made where something is missing or usage is over budget (after a batch that ran over);
    // a segment the batch does not use is not reported over budget.
    const local = this.makeRoom('LOCAL', gathered.missingLocal, batch);
    const nonLocal = this.makeRoom('NON_LOCAL', gathered.missingNonLocal, batch);
    const over = (gathered.needsLocal > 0 ? local : null) ?? (gathered.needsNonLocal > 0 ? nonLocal : null);
    if (over) {
      this.stats.overBudgetBatches++;
      this.stats.lastOverBudget = over;
    }
    if (gathered.missingLocal + gathered.missingNonLocal > 0) this.makeBatchResident(gathered, batch);

    this.syncPoints.executing = null;
    execute(first, sets.length);
    this.syncPoints.executed(queue, sync, now);
    this.stats.executions++;
  }

  private overBudget(): boolean {
    return this.usage('LOCAL') > this.budget('LOCAL') || this.usage('NON_LOCAL') > this.budget('NON_LOCAL');
  }

  /**
   * Bytes of `segment` evicting `managed` frees: none when mapped memory or the app's own
   * MakeResident keeps it in, or when the OS demoted it (its bytes are in NON_LOCAL, not LOCAL).
   */
  private freedBy(managed: ManagedObject, segment: MemorySegment): number {
    const status = this.device.getResidencyStatus(managed.pageable, this.statusScratch);
    if (status.demoted && segment === 'LOCAL') return 0;
    return status.resident && status.residencyReferences <= 1 && !status.mapped ? status.sizeInBytes : 0;
  }

  /** Evicts the victims with one device.evict call, so their heaps page out in one submission. */
  private evictAll(victims: readonly ManagedObject[]): void {
    if (victims.length === 0) return;
    this.evictions++;
    // The manager holds one MakeResident reference; an application that evicted a tracked object
    // itself (which d3dx12residency forbids) has already dropped it, and there is nothing to drop.
    const held = victims.filter(
      (managed) => this.device.getResidencyStatus(managed.pageable, this.statusScratch).residencyReferences > 0,
    );
    if (held.length > 0) this.device.evict(held.map((managed) => managed.pageable));
    for (const managed of victims) {
      managed.resident = false;
      this.removeResident(managed);
      // Mapped memory (or the app's own MakeResident) keeps the heap in: only a real page-out counts.
      if (!this.device.getResidencyStatus(managed.pageable, this.statusScratch).resident) {
        this.stats.evictions++;
        this.stats.evictedBytes += managed.size;
      }
    }
  }

  /**
   * The resident objects of `segment` outside `batch` that `eligible` accepts, in victim order (the
   * segment's policy; with `choose`, the shadows first bring that choice up to date). d3dx12residency
   * requires EndTrackingObject before Release; an object released while tracked is forgotten here.
   */
  private victims(
    segment: MemorySegment | null,
    batch: number,
    eligible: (managed: ManagedObject) => boolean,
    choose = false,
  ): { next(): ManagedObject | undefined } {
    this.deferral.settle();
    this.syncPoints.signalPending();
    const releases = this.device.getReleaseCount();
    const candidates: ManagedObject[] = [];
    // The oldest last use per segment, for the trim gate.
    let oldestLocal = Infinity;
    let oldestNonLocal = Infinity;
    for (let i = this.residentObjects.length - 1; i >= 0; i--) {
      const managed = this.residentObjects[i] as ManagedObject;
      if (managed.released) {
        this.forget(managed);
        continue;
      }
      const objectSegment = managed.segment;
      if (objectSegment === 'LOCAL') oldestLocal = Math.min(oldestLocal, managed.lastUsedMs);
      else oldestNonLocal = Math.min(oldestNonLocal, managed.lastUsedMs);
      if ((segment === null || objectSegment === segment) && managed.lastBatch !== batch && eligible(managed))
        candidates.push(managed);
    }
    this.trimGate.scanned(releases, oldestLocal, oldestNonLocal);
    const indices = Int32Array.from(candidates, (managed) => managed.index);
    const priorities = Float64Array.from(
      candidates,
      (managed) => this.device.getResidencyStatus(managed.pageable, this.statusScratch).priority,
    );
    // Co-use with the batch being paged for: the last gathered (a split batch's half, too).
    const context: PolicyContext = {
      table: this.table,
      predictor: this.predictor,
      popularity: this.popularity,
      batch,
      coUse: new CoUse(this.table.policy, this.gathered.indices, this.gathered.count),
    };
    const selector = this.selectors[segment === 'NON_LOCAL' ? 1 : 0] as PolicySelector;
    if (choose && segment !== null) selector.update(context, this.budget(segment));
    const queue = policyQueue(selector.chosen, indices, indices.length, priorities, context);
    return { next: () => candidates[queue.next()] }; // (position -1, none left, reads as undefined)
  }

  /** Evicts objects idle longer than the grace period, in victim order, down to 70 % of the budget. */
  private trim(segment: MemorySegment, now: number, batch: number): void {
    const budget = this.budget(segment);
    const grace = gracePeriodMs(this.usage(segment), budget);
    if (grace === Infinity) return;
    // No resident object can be past the grace period and none was released since the last scan:
    // the scan would find nothing, so only its signalling of pending batches is done.
    if (this.trimGate.canSkip(segment, now, grace, this.device.getReleaseCount())) {
      this.syncPoints.signalPending();
      return;
    }
    const floor = trimFloor(budget);
    const queue = this.victims(segment, batch, (managed) => now - managed.lastUsedMs > grace && managed.idle);
    const chosen: ManagedObject[] = [];
    let usage = this.usage(segment);
    for (let managed = queue.next(); managed && usage > floor; managed = queue.next()) {
      chosen.push(managed);
      usage -= this.freedBy(managed, segment);
    }
    this.evictAll(chosen);
    this.stats.trimmed += chosen.length;
  }

  /** Evicts objects outside the batch, in victim order, until the batch fits; says if it cannot. */
  private makeRoom(segment: MemorySegment, needed: number, batch: number): OverBudget | null {
    const budget = this.budget(segment);
    if (this.usage(segment) + needed <= budget) return null;
    // Never one whose last use is still held behind a queue wait: the eviction would overtake it.
    const queue = this.victims(segment, batch, (managed) => managed.submitted, true);
    let usage = this.usage(segment);
    let managed = queue.next();
    while (managed && usage + needed > budget) {
      const chosen: ManagedObject[] = [];
      for (; managed && usage + needed > budget; managed = queue.next()) {
        chosen.push(managed);
        usage -= this.freedBy(managed, segment);
      }
      this.evictAll(chosen);
      // The room freed may go to heaps the OS demoted, moving back to LOCAL: then more must go.
      usage = this.usage(segment);
    }
    return usage + needed > budget ? { segment, usage: usage + needed, budget } : null;
  }

  private makeBatchResident(gathered: Gathered, batch: number): void {
    const rising: ManagedObject[] = [];
    for (let j = 0; j < gathered.count; j++) {
      const index = gathered.indices[j] as number;
      if (!this.table.isResident(index)) rising.push(this.byIndex[index] as ManagedObject);
    }
    if (rising.length === 0) return;
    try {
      this.device.makeResident(rising.map((managed) => managed.pageable));
    } catch (error) {
      if (!(error instanceof D3D12Error) || error.hresult !== 'E_OUTOFMEMORY') throw error;
      // Over budget and past the pool: evict everything else this manager may, then try again.
      const queue = this.victims(null, batch, (managed) => managed.submitted);
      const all: ManagedObject[] = [];
      for (let managed = queue.next(); managed; managed = queue.next()) all.push(managed);
      this.evictAll(all);
      this.device.makeResident(rising.map((managed) => managed.pageable));
    }
    for (const managed of rising) {
      managed.resident = true;
      this.addResident(managed);
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
