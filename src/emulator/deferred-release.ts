/**
 * DeferredRelease: COM Release for GPU memory. A heap or resource released while GPU work that uses
 * it is submitted (not yet complete) or held behind a queue wait keeps its memory, its page-table
 * entries and its address range until that work has completed; only then does its `free` run. So the
 * work reads and writes the right bytes, and no new object gets the memory or addresses under it.
 * As Dawn's D3D12 backend queues deallocations behind the pending serial, the wait is for all work
 * submitted up to the point where nothing held remains, not for one submission's own completion.
 *
 * Which command lists use an object is known from what they record (copies, barriers, copyTiles,
 * resolves: their resource-state tracking); shaders reach memory by address, so a list that uses an
 * object only from a shader is not known. Hence, while any queue holds work, every release waits
 * (held work could use anything); a release is immediate only with nothing held and no known use in
 * flight, which queue order makes safe (work submitted earlier sees the old memory; what reuses it is
 * queued after).
 *
 * Frees that wait for the GPU wait in a SerialQueue keyed by a completion serial (Dawn's
 * SerialQueue of deallocations): each batch handed to the GPU gets the next serial, and when the
 * GPU's work for a serial is done, every batch up to it runs.
 *
 * Invariants: each `free` runs exactly once, after every held operation that existed at its release
 * has been submitted and the GPU has completed all work submitted by then; never on a CPU-only device
 * (there is nothing to wait for: frees run at once).
 */
import { SerialQueue } from '../memory/serial-queue.js';
import { Heap } from '../d3d12/heap.js';
import { objectDeletedWhileStillInUse, type InfoQueue } from '../d3d12/info-queue.js';
import { Resource } from '../d3d12/resource.js';

/** A command list of a submission, with the resources its recorded commands use. */
export interface ListUse {
  id: number;
  label: string;
  resources: ReadonlySet<Resource>;
}

/** Work on a queue: submitted to the GPU and not yet complete, or held behind a wait. */
export interface WorkUse {
  state: 'submitted' | 'waiting';
  lists: readonly ListUse[];
}

/** A command list that still uses a released object. */
export interface StillUsedBy {
  id: number;
  label: string;
  state: WorkUse['state'];
}

/** A queue, as deferred release sees it: what it holds behind a wait. */
export interface HoldingQueue {
  readonly holdsWork: boolean;
  heldWork(): WorkUse | undefined;
}

/** The GPU, as deferred release sees it; a CPU-only device has none. */
export interface CompletingGpu {
  /** Every submitted execution not yet complete. */
  readonly running: Iterable<WorkUse>;
  /** Settles once all work submitted so far is done. */
  workDone(): Promise<void>;
}

export interface ReleaseOwner {
  /** The device's queues (live: queues created later are seen). */
  readonly queues: Iterable<HoldingQueue>;
  gpu(): CompletingGpu | undefined;
  /** Where the debug layer's OBJECT_DELETED_WHILE_STILL_IN_USE goes. */
  readonly infoQueue: InfoQueue;
}

/** Whether `resources` reach `object`: the resource itself, or a heap through a placed resource or a tile. */
function reaches(resources: ReadonlySet<Resource>, object: Heap | Resource | object): boolean {
  if (object instanceof Resource) return resources.has(object);
  if (!(object instanceof Heap)) return false;
  for (const resource of resources) {
    if (resource.heap === object) return true;
    if (resource.tileMappings?.heapIds.includes(object.id)) return true;
  }
  return false;
}

export class DeferredRelease {
  /** Frees waiting for the queues to submit what they hold. */
  private behindHeldWork: (() => void)[] = [];
  /** Frees handed to the GPU's completion, keyed by the serial of the work they wait for. */
  private readonly awaitingGpu = new SerialQueue<() => void>();
  /** The serial of the latest batch handed to the GPU, and of the latest completed. */
  private submittedSerial = 0;
  private completedSerial = 0;

  constructor(private readonly owner: ReleaseOwner) {}

  /** The command lists in flight (or held) that use `object`. */
  usersOf(object: Heap | Resource | object): StillUsedBy[] {
    const users: StillUsedBy[] = [];
    for (const work of this.workInFlight()) {
      for (const list of work.lists)
        if (reaches(list.resources, object)) users.push({ id: list.id, label: list.label, state: work.state });
    }
    return users;
  }

  /**
   * Runs `free` now, or once the work that may use the object has completed. Returns the lists known
   * to use it (for the caller's warning). Objects other than heaps and resources (query heaps) have no
   * known users: they wait only for held work.
   */
  release(object: Heap | Resource | object, free: () => void): StillUsedBy[] {
    const users = this.usersOf(object);
    if (this.holdsWork()) this.behindHeldWork.push(free);
    else if (users.length > 0) this.afterWork([free]);
    else free();
    return users;
  }

  /**
   * COM Release of a heap's memory or a resource: `release`, with the debug layer's
   * OBJECT_DELETED_WHILE_STILL_IN_USE in the info queue when lists that use it are known.
   */
  retire(object: Heap | Resource, free: () => void): void {
    const users = this.release(object, free);
    if (users.length > 0)
      this.owner.infoQueue.add(
        objectDeletedWhileStillInUse(object, object instanceof Resource ? 'Resource' : 'Heap', users),
      );
  }

  /** No queue holds work any more: what waited for it now waits for the GPU. */
  queueDrained(): void {
    if (this.holdsWork() || this.behindHeldWork.length === 0) return;
    this.afterWork(this.behindHeldWork.splice(0));
  }

  /** Releases not yet freed, for tests and stats. */
  get pendingCount(): number {
    return this.behindHeldWork.length + this.awaitingGpu.size;
  }

  private holdsWork(): boolean {
    for (const queue of this.owner.queues) if (queue.holdsWork) return true;
    return false;
  }

  /** What releases wait for: running and held executions. */
  private *workInFlight(): Iterable<WorkUse> {
    yield* this.owner.gpu()?.running ?? [];
    for (const queue of this.owner.queues) {
      const held = queue.heldWork();
      if (held) yield held;
    }
  }

  private afterWork(frees: (() => void)[]): void {
    const done = this.owner.gpu()?.workDone();
    if (!done) {
      for (const free of frees) free();
      return;
    }
    const serial = ++this.submittedSerial;
    this.awaitingGpu.enqueue(serial, ...frees);
    void done.then(() => this.completed(serial));
  }

  private completed(serial: number): void {
    // Work completes in submission order; a later serial's completion covers the earlier ones too.
    this.completedSerial = Math.max(this.completedSerial, serial);
    for (const free of this.awaitingGpu.takeUpTo(this.completedSerial)) free();
  }
}
