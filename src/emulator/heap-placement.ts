/**
 * HeapPlacement: the emulated OS's demotion. When a residency change would put LOCAL usage over the
 * LOCAL budget, resident heaps that prefer LOCAL (DEFAULT heaps, CUSTOM L1) move to NON_LOCAL pages,
 * lowest residency priority first; when room returns they move back, highest first. Which heap goes
 * where is planPlacement's (src/memory/placement-plan.ts, sources there); this class gathers its
 * inputs and carries the plan out: the pages move as one queue operation (MemoryBacking.move), the
 * accounting through its host. A demoted heap stays resident: same GPU virtual addresses, same bytes,
 * counted in NON_LOCAL usage. Heaps native to NON_LOCAL (UPLOAD, READBACK, CUSTOM L0) never move.
 *
 * Within one priority the order is the emulator's choice (D3D12 leaves it to the OS): the least
 * recently made resident (or created) is demoted first and promoted last. Stamps record that order.
 *
 * Invariants: `stamps` holds exactly the resident heaps that prefer LOCAL; `demotedBytes` is the
 * sum of those that are demoted; a plan changes nothing until applied. While nothing is demoted and
 * LOCAL fits its budget nothing is computed (the common case costs a few comparisons).
 */
import { planPlacement, type PlacementCandidate } from '../memory/placement-plan.js';
import type { MemorySegment } from '../api/types.js';
import type { Heap } from '../d3d12/heap.js';
import type { MemoryBacking } from './memory-backing.js';

export interface PlacementHost {
  budget(segment: MemorySegment): number;
  /** Resident bytes in the segment now (QueryVideoMemoryInfo's CurrentUsage). */
  usage(segment: MemorySegment): number;
  /** Pool bytes a new heap can have in the segment. */
  freeBytes(segment: MemorySegment): number;
  /** The GPU memory; undefined on a CPU-only device (the accounting is the same). */
  readonly backing: MemoryBacking | undefined;
  /** A resident heap moved from one segment to the other: usage and paging statistics follow. */
  moved(heap: Heap, from: MemorySegment, to: MemorySegment): void;
}

/** How to make heaps resident: resident heaps to move first, then where each new one goes. */
export interface PlacementPlan {
  moves: { heap: Heap; to: MemorySegment }[];
  readonly segmentOf: (heap: Heap) => MemorySegment;
}

const ownSegment = (heap: Heap): MemorySegment => heap.segment;
const NOTHING_TO_MOVE: PlacementPlan = { moves: [], segmentOf: ownSegment };

export class HeapPlacement {
  /** Resident heaps that prefer LOCAL, with the order they were made resident in (higher: later). */
  private readonly stamps = new Map<Heap, number>();
  private nextStamp = 1;
  private demotedBytes = 0;

  constructor(private readonly host: PlacementHost) {}

  /** A heap became resident (created so, or paged in), in its current segment. */
  admitted(heap: Heap): void {
    if (heap.segment !== 'LOCAL') return;
    this.stamps.delete(heap);
    this.stamps.set(heap, this.nextStamp++);
    if (heap.demoted) this.demotedBytes += heap.residentBytes;
  }

  /** A heap stops being resident (evicted or freed); call while it still says where it was. */
  left(heap: Heap): void {
    if (!this.stamps.delete(heap)) return;
    if (heap.demoted) this.demotedBytes -= heap.residentBytes;
  }

  /**
   * Where `rising` (distinct heaps, not resident now) go and what moves first to make room, or
   * undefined when they fit nowhere (the caller's E_OUTOFMEMORY). Changes nothing.
   */
  plan(rising: readonly Heap[]): PlacementPlan | undefined {
    const host = this.host;
    let localNeed = 0;
    let nativeNeed = 0;
    for (const heap of rising) {
      if (heap.segment === 'LOCAL') localNeed += heap.residentBytes;
      else nativeNeed += heap.residentBytes;
    }
    const usage = host.usage('LOCAL');
    const localFree = host.freeBytes('LOCAL');
    const nonLocalFree = host.freeBytes('NON_LOCAL');
    if (
      this.demotedBytes === 0 &&
      usage + localNeed <= host.budget('LOCAL') &&
      localNeed <= localFree &&
      nativeNeed <= nonLocalFree
    )
      return NOTHING_TO_MOVE;

    const heaps = [...this.stamps.keys()];
    const candidates: PlacementCandidate[] = heaps.map((heap) => ({
      bytes: heap.residentBytes,
      priority: heap.residencyPriority,
      stamp: this.stamps.get(heap) as number,
      at: heap.currentSegment,
    }));
    let stamp = this.nextStamp;
    for (const heap of rising) {
      if (heap.segment !== 'LOCAL') continue;
      heaps.push(heap);
      candidates.push({ bytes: heap.residentBytes, priority: heap.residencyPriority, stamp: stamp++, at: undefined });
    }
    const nativeUsage = host.usage('NON_LOCAL') - this.demotedBytes;
    const places = planPlacement(candidates, {
      localBudget: host.budget('LOCAL'),
      localPool: localFree + usage,
      nonLocalBudget: host.budget('NON_LOCAL') - nativeUsage - nativeNeed,
      nonLocalPool: nonLocalFree + this.demotedBytes - nativeNeed,
    });
    if (!places) return undefined;
    const moves: PlacementPlan['moves'] = [];
    const targets = new Map<Heap, MemorySegment>();
    heaps.forEach((heap, i) => {
      const to = places[i] as MemorySegment;
      const at = candidates[i]?.at;
      if (at === undefined) targets.set(heap, to);
      else if (at !== to) moves.push({ heap, to });
    });
    return { moves, segmentOf: (heap) => targets.get(heap) ?? heap.segment };
  }

  /** Carries out a plan's moves: one queue operation on a GPU device, then the accounting. */
  apply(call: string, plan: PlacementPlan): void {
    if (plan.moves.length === 0) return;
    this.host.backing?.move(call, plan.moves);
    for (const { heap, to } of plan.moves) {
      const from = heap.currentSegment;
      heap.markDemoted(to !== heap.segment);
      this.demotedBytes += to === 'NON_LOCAL' ? heap.residentBytes : -heap.residentBytes;
      this.host.moved(heap, from, to);
    }
  }

  /** After a change that may put LOCAL over budget or make room (evict, release, budgets, priorities). */
  rebalance(call: string): void {
    const plan = this.plan([]);
    if (plan) this.apply(call, plan);
  }
}
