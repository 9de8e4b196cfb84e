/**
 * The manager's sync points: one fence per queue it executes on, signalled after batches, whose
 * values record when the objects a batch used were last used (ManagedObject's fence and value).
 * Batches less than SIGNAL_INTERVAL_MS apart share one signal, made at the latest when the manager
 * next chooses victims (signalPending).
 */
import type { CommandQueue } from '../d3d12/command-queue.js';
import type { Device } from '../d3d12/device.js';
import type { Fence } from '../d3d12/fence.js';
import type { ObjectTable } from './object-table.js';

/**
 * A queue's sync point is signalled at most once a millisecond (and always before the manager asks
 * which objects' last use is done): a queue signal costs more than the rest of a small submission,
 * and the batches between two signals share the later one, which only makes them look busy a little
 * longer. At 60 fps every frame still gets its own.
 */
export const SIGNAL_INTERVAL_MS = 1;

/**
 * A queue's sync point: `value` is the last signalled; `pending`: batches since wait for value + 1;
 * `fenceId`: the fence's id in the ObjectTable.
 */
export interface SyncPoint {
  fence: Fence;
  fenceId: number;
  value: number;
  pending: boolean;
  signalledMs: number;
}

export class SyncPoints {
  private readonly fences = new Map<CommandQueue, SyncPoint>();
  /** The queue whose batch is being paged for (its pending signal must wait for the batch's lists). */
  executing: CommandQueue | null = null;

  constructor(
    private readonly device: Device,
    private readonly table: ObjectTable,
    private readonly clock: () => number,
  ) {}

  /** The sync point of `queue`, made with its fence on first use. */
  of(queue: CommandQueue): SyncPoint {
    let sync = this.fences.get(queue);
    if (!sync) {
      const fence = this.device.createFence(0);
      sync = { fence, fenceId: this.table.addFence(fence), value: 0, pending: false, signalledMs: -Infinity };
      this.fences.set(queue, sync);
    }
    return sync;
  }

  signal(queue: CommandQueue, sync: SyncPoint, now: number): void {
    queue.signal(sync.fence, ++sync.value);
    sync.pending = false;
    sync.signalledMs = now;
  }

  /** After a batch's lists on `queue`: its signal, now or (within SIGNAL_INTERVAL_MS of the last) later. */
  executed(queue: CommandQueue, sync: SyncPoint, now: number): void {
    sync.pending = true;
    if (now - sync.signalledMs >= SIGNAL_INTERVAL_MS) this.signal(queue, sync, now);
  }

  /**
   * Signals every queue with batches since its last signal (their objects' use is then judged by it),
   * except the one executing: its batch's objects wait for the signal after its lists.
   */
  signalPending(): void {
    for (const [queue, sync] of this.fences)
      if (sync.pending && queue !== this.executing) this.signal(queue, sync, this.clock());
  }
}
