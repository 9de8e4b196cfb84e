/**
 * GpuBackend: the part of a GPU-backed device that runs on the queue. It submits executed command
 * lists, keeps CPU-accessible memory coherent, collects faults, and tells fences when work is done.
 *
 * CPU-accessible memory (UPLOAD, READBACK, CUSTOM heaps) is kept coherent by CpuCoherence: CPU writes
 * go to the GPU before each submission; after it, the bytes its copies wrote into CPU-accessible
 * memory, and every UAV-capable resource in CPU-accessible CUSTOM heaps when it ran shaders, are read
 * back. A fence signalled after that submission completes only once they have landed (D3D12: after
 * the fence, a READBACK resource maps to what the GPU wrote).
 * A readback or fault read that fails (a lost device) reports the failure and still lets fences
 * complete, so nothing waits forever.
 *
 * Submissions are cheap (bench figure submit-overhead): lists with nothing to run are not submitted;
 * constants and jobs go into reused buffers under cached bind groups (SubmissionBuffers); the fault
 * log accumulates over submissions, each of which ends by copying it into a MAP_READ slot, and that
 * slot is mapped once: when a fence is signalled, the device waits for its work (readFaults, settle)
 * or a list is executed again with other commands before the read (so every record is attributed to
 * the commands that ran); the submission after a read clears the log first, into a fresh slot. The
 * submissions in flight are watched by one onSubmittedWorkDone at a time, the one a fence signalled
 * right after them asks for (see watch); fences wait on one chained promise of the reads in flight.
 * Faults still reach the device before the fence that covers them completes.
 */
import type { GpuMemory } from '../gpu/gpu-memory.js';
import { copyKernel, encodeExecution, type ExecutableList } from '../gpu/executor.js';
import { uavClearKernel } from '../gpu/uav-clear.js';
import { memberOffset, preludeConstant, preludeLayout, readsTextures } from '../gpu/prelude.js';
import { markReadsTextures } from '../gpu/texture-mirrors.js';
import type { PipelineState } from '../d3d12/pipeline-state.js';
import type { CpuVisibleWrite } from '../commands/recorded-commands.js';
import type { FaultRecord, SubmittedList } from './fault-report.js';
import type { ListUse, WorkUse } from './deferred-release.js';
import type { Heap } from '../d3d12/heap.js';
import type { MemoryBacking } from './memory-backing.js';
import type { Resource } from '../d3d12/resource.js';
import { copySources, CpuCoherence, type Span } from './cpu-coherence.js';
import { SubmissionBuffers } from '../gpu/submission-buffers.js';
import {
  createUnmappedAccessPlaceholder,
  UnmappedAccessLog,
  type UnmappedAccessBinding,
} from '../gpu/unmapped-access-log.js';
import { UnmappedAccesses } from './unmapped-access.js';

interface Settings {
  tiledResourcesTier: number;
  validation: boolean;
  /** gpuValidation.unmappedAccess: records kept (maxUnmappedAccessRecords), or 0 when off. */
  unmappedAccessRecords: number;
}

/** What the backend tells its device. */
export interface BackendEvents {
  /** Faults arrived from the GPU, from the submission of `lists` (by command list id). */
  faults(records: FaultRecord[], lost: number, lists: ReadonlyMap<number, SubmittedList>): void;
  /** A readback or fault read failed: the GPU is gone. */
  failed(error: unknown): void;
  /** The reserved resources whose memory is not yet freed (what unmapped accesses are of). */
  reservedResources(): Iterable<Resource>;
}

/** The prelude's fault kind constants, by name. */
const FAULT_KIND_CONSTANTS: [string, FaultRecord['kind']][] = [
  ['D3D12_FAULT_READ_UNOWNED', 'read-unowned'],
  ['D3D12_FAULT_WRITE_UNOWNED', 'write-unowned'],
  ['D3D12_FAULT_READ_ABSENT', 'read-absent'],
  ['D3D12_FAULT_WRITE_ABSENT', 'write-absent'],
  ['D3D12_FAULT_MISALIGNED', 'misaligned'],
  ['D3D12_FAULT_PAGE_OFFSET', 'page-offset'],
  ['D3D12_FAULT_UNBOUND_REGISTER', 'unbound-register'],
  ['D3D12_FAULT_DESCRIPTOR_UNINITIALIZED', 'descriptor-uninitialized'],
  ['D3D12_FAULT_DESCRIPTOR_MISMATCH', 'descriptor-mismatch'],
  ['D3D12_FAULT_DESCRIPTOR_RELEASED', 'descriptor-released'],
];

function faultKind(value: number): FaultRecord['kind'] {
  return FAULT_KIND_CONSTANTS.find(([name]) => preludeConstant(name) === value)?.[1] ?? 'unknown';
}

/** Whether two descriptions of a command list name the same commands (a list re-recorded differs). */
function sameList(a: SubmittedList, b: SubmittedList): boolean {
  return (
    a.label === b.label &&
    a.commands.length === b.commands.length &&
    a.commands.every((command, i) => command === b.commands[i])
  );
}

/** A fault-log read started: settles once its slot's map resolved and the records were handled. */
interface FaultRead {
  done: Promise<void>;
  /** GpuMemory.submissions just after the submission that last copied the log into the slot. */
  copiedAt: number;
}

export class GpuBackend {
  /**
   * Settles once every readback and fault read started so far has (each never rejects): what the
   * next fence completion waits for.
   */
  private tracked: Promise<void> = Promise.resolve();
  /** The lists of the submissions whose faults the log holds and nobody has read yet, by id. */
  private unreadFaultLists = new Map<number, SubmittedList>();
  private faultsUnread = false;
  /** The slot the submissions since the last read copy the fault log into; whether the next one clears it first. */
  private faultSlot: GPUBuffer | undefined;
  /** GpuMemory.submissions just after the last submission that copied the log into `faultSlot`. */
  private faultSlotCopiedAt = -1;
  private clearFaultsNext = false;
  /** Fault slots mapped at least once (so known to be valid buffers). */
  private readonly slotsRead = new WeakSet<GPUBuffer>();
  /** Counts fault reads: a read's outcome may spare the clear only if no read started after it. */
  private faultReads = 0;
  /** Submitted work nobody watches yet; and whether an onSubmittedWorkDone is watching some. */
  private unwatched: WorkUse[] = [];
  private watching = false;
  private watchScheduled = false;
  private readonly buffers: SubmissionBuffers;
  /** CPU-accessible memory kept coherent between its CPU copy and its pages. */
  private readonly coherence: CpuCoherence;
  /** UAV-capable resources in CPU-accessible CUSTOM heaps (shaders may write them). */
  readonly shaderVisibleCpuMemory = new Set<Resource>();
  /** Executions submitted and not yet complete, with what their lists use (see deferred-release.ts). */
  readonly running = new Set<WorkUse>();
  /** Resolves when the WebGPU device is lost: no wait on the GPU outlives it. */
  private readonly lost: Promise<void>;
  /** gpuValidation.unmappedAccess: the log and its report (see unmapped-access.ts); else the placeholder bound in its place. */
  readonly unmappedAccesses: UnmappedAccesses | undefined;
  private readonly unmappedLog: UnmappedAccessLog | undefined;
  private readonly unmappedPlaceholder: GPUBuffer | undefined;
  /** The binding of the placeholder (made once: it never changes). */
  private readonly placeholderBinding: UnmappedAccessBinding | undefined;

  private constructor(
    readonly memory: GpuMemory,
    readonly backing: MemoryBacking,
    private readonly kernel: Awaited<ReturnType<typeof copyKernel>>,
    private readonly settings: Settings,
    private readonly events: BackendEvents,
  ) {
    this.lost = memory.device.lost.then(() => undefined);
    this.coherence = new CpuCoherence(memory);
    this.buffers = new SubmissionBuffers(memory.device, (descriptor) => memory.createBuffer(descriptor));
    if (settings.unmappedAccessRecords > 0) {
      const log = new UnmappedAccessLog(memory, settings.unmappedAccessRecords);
      this.unmappedLog = log;
      this.unmappedAccesses = new UnmappedAccesses(log, settings.unmappedAccessRecords, {
        reservedResources: () => events.reservedResources(),
        failed: (error) => events.failed(error),
      });
    } else {
      this.unmappedPlaceholder = createUnmappedAccessPlaceholder(memory);
      this.placeholderBinding = { buffer: this.unmappedPlaceholder, recording: false, submission: 0 };
    }
  }

  static async create(
    memory: GpuMemory,
    backing: MemoryBacking,
    settings: Settings,
    events: BackendEvents,
  ): Promise<GpuBackend> {
    return new GpuBackend(
      memory,
      backing,
      await copyKernel(memory.device, settings.unmappedAccessRecords > 0),
      settings,
      events,
    );
  }

  private static heapSpan(resource: Resource, offset = 0, length = resource.desc.width): Span {
    return { start: resource.heapOffset + offset, end: resource.heapOffset + offset + length };
  }

  /** A pipeline of `code` was created: the first that reads textures makes the texture cache's atlas (src/gpu/texture-cache.ts). */
  pipelineCreated(code: string, state: PipelineState): void {
    if (!readsTextures(code)) return;
    this.memory.textureCache.activate();
    // Compute pipelines' dispatches resolve descriptors to texture mirrors (src/gpu/texture-mirrors.ts).
    if (state.kind === 'compute') markReadsTextures(state.gpuPipeline as GPUComputePipeline);
  }

  /** `resource`'s texture descriptor `words` were written (writeTextureDescriptor): see TextureMirrors.described. */
  textureDescribed(resource: Resource, words: Uint32Array): void {
    const { desc, layout, virtualRange, label } = resource;
    this.memory.textureMirrors.described(
      resource,
      {
        label,
        width: desc.width,
        height: desc.height,
        layout,
        firstPage: virtualRange.firstPage,
        released: () => resource.released,
      },
      words,
    );
  }

  /** The UAV clear kernel (created at the first clear executed), over this device's prelude variant. */
  uavClearPipeline(): GPUComputePipeline {
    return uavClearKernel(this.memory.device, this.settings.unmappedAccessRecords > 0);
  }

  /** A resource was mapped: the CPU may write all of it, until it is unmapped. */
  markMapped(resource: Resource): void {
    this.coherence.mapped(resource);
  }

  /** A resource was unmapped: the CPU wrote `written` (when given; else all of it) since it was mapped. */
  markUnmapped(resource: Resource, written: { begin: number; end: number } | undefined): void {
    this.coherence.unmapped(resource, written);
  }

  /** Sends the CPU's writes into `heap` (or every heap) to its pages, in queue order (see cpu-coherence.ts). */
  flushMapped(heap?: Heap): void {
    this.coherence.flush(heap);
  }

  private track(promise: Promise<void>): Promise<void> {
    const tracked = promise.catch((error: unknown) => this.events.failed(error));
    const before = this.tracked;
    this.tracked = before.then(() => tracked);
    return tracked;
  }

  /** Reads the faults the log gathered since the last read (queue order), if any submission may have logged some. */
  private collectFaults(): FaultRead | undefined {
    if (!this.faultsUnread || !this.faultSlot) return undefined;
    const lists = this.unreadFaultLists;
    const slot = this.faultSlot;
    const copiedAt = this.faultSlotCopiedAt;
    this.unreadFaultLists = new Map();
    this.faultsUnread = false;
    // The next submission clears the log first and copies it into a slot of its own.
    this.faultSlot = undefined;
    this.clearFaultsNext = true;
    // A new slot is mapped inside scopes: one WebGPU refused (its submission already removed the
    // device) must not raise an error on the caller's device. A slot mapped before is known good,
    // and mapping it needs no scopes (two pushes and pops per read, the most expensive part of it).
    const read = ++this.faultReads;
    let done: Promise<void>;
    if (this.slotsRead.has(slot)) {
      done = this.readFaults(slot, lists, read);
    } else {
      this.slotsRead.add(slot);
      done = this.memory.guard('reading the fault log', () => this.readFaults(slot, lists, read));
    }
    return { done, copiedAt };
  }

  /**
   * Work submitted: it leaves `running` once the GPU has done it (one watcher at a time). The
   * watcher starts after the caller's synchronous code: a fence signalled right after the
   * submission (workDone) asks the queue for the same completion, and the watcher shares it (one
   * onSubmittedWorkDone per submit and signal, not two: a native call and a promise each).
   */
  private watch(work: WorkUse): void {
    this.unwatched.push(work);
    if (this.watching || this.watchScheduled) return;
    this.watchScheduled = true;
    queueMicrotask(() => {
      this.watchScheduled = false;
      if (!this.watching && this.unwatched.length > 0) this.watchOn(this.queueIdle());
    });
  }

  /** Takes the work nobody watches yet out of `running` once `done` settles. */
  private watchOn(done: Promise<void>): void {
    const batch = this.unwatched;
    this.unwatched = [];
    this.watching = true;
    void done.then(() => {
      for (const work of batch) this.running.delete(work);
      this.watching = false;
      if (this.unwatched.length > 0) this.watchOn(this.queueIdle());
    });
  }

  /** Settles once the work submitted so far has completed on the GPU, or the device is lost. */
  private queueIdle(): Promise<void> {
    return Promise.race([this.memory.device.queue.onSubmittedWorkDone(), this.lost]);
  }

  /** Reads back heap bytes the GPU may have written into the heap's CPU copy (see cpu-coherence.ts). */
  private readBack(heap: Heap, span: Span): void {
    const landed = this.coherence.readBack(heap, span);
    if (landed) void this.track(landed);
  }

  private readFaults(slot: GPUBuffer, lists: ReadonlyMap<number, SubmittedList>, read: number): Promise<void> {
    return this.track(
      this.memory.readFaultSlot(slot).then(({ count, more, records, staleTiles }) => {
        const layout = preludeLayout().faultRecord;
        const words = layout.size / 4;
        const field = (record: number, name: string): number =>
          records[record * words + memberOffset(layout, name) / 4] ?? 0;
        const recorded = records.length / words;
        const faults: FaultRecord[] = [];
        for (let i = 0; i < recorded; i++) {
          faults.push({
            address: (BigInt(field(i, 'va_high')) << 32n) | BigInt(field(i, 'va_low')),
            kind: faultKind(field(i, 'kind')),
            commandListId: field(i, 'command_list'),
            commandIndex: field(i, 'command_index'),
            entry: field(i, 'entry'),
          });
        }
        if (count > 0) this.events.faults(faults, Math.max(0, count - recorded) + more, lists);
        // The log held nothing at the end of the submissions this read covers. If no read started
        // since, no submission made since has logged anything without a clear first (the first one
        // after a read clears): the log is clean, and the next submission need not clear it.
        if (count === 0 && more === 0 && staleTiles === 0 && read === this.faultReads) this.clearFaultsNext = false;
      }),
    );
  }

  /**
   * Submits command lists: flush mapped memory, encode, submit, then read back what they wrote.
   * `described` names each list and its commands, for the faults this submission may report.
   */
  execute(
    lists: readonly ExecutableList[],
    writes: readonly CpuVisibleWrite[],
    described: ReadonlyMap<number, SubmittedList>,
    uses: readonly ListUse[],
  ): void {
    // Its buffers (constants, jobs, readback staging) are allocated here: inside scopes of its own,
    // opened at the first of them (a submission that allocates nothing makes none: LazyScopes).
    this.memory.guardAllocations('executeCommandLists', () => this.submit(lists, writes, described, uses));
  }

  private submit(
    lists: readonly ExecutableList[],
    writes: readonly CpuVisibleWrite[],
    described: ReadonlyMap<number, SubmittedList>,
    uses: readonly ListUse[],
  ): void {
    // What copies alone read is known: a persistently mapped UPLOAD ring sends only the slots they read.
    this.coherence.flush(undefined, () => copySources(lists));
    // Nothing to run (closed empty lists): no submission, as nothing reaches the GPU.
    if (!lists.some((list) => list.commands.length > 0)) return;
    if (this.settings.validation && this.unreadFaultLists.size > 0) {
      // A list the log may hold records of, executed again with other commands: read those first.
      for (const [id, list] of described) {
        const unread = this.unreadFaultLists.get(id);
        if (unread && !sameList(unread, list)) this.collectFaults();
      }
    }
    const unmapped = this.unmappedAccesses
      ? this.unmappedAccesses.beforeSubmit(described, this.memory.pageTable.gpuBuffer.size / 4)
      : (this.placeholderBinding as UnmappedAccessBinding);
    const faults = this.settings.validation
      ? { slot: (this.faultSlot ??= this.memory.faultSlot()), clearFirst: this.clearFaultsNext }
      : undefined;
    // Copies into and out of resident pages go to the page kernel: planned as they are encoded, against
    // the page-table entries this very submission reads (page-copies.ts).
    const encoded = encodeExecution(this.memory, this.kernel, this.settings, lists, unmapped, this.buffers, faults);
    if (encoded) {
      // After the page-table changes made before this execution (and only those: see page-table.ts).
      this.memory.submit([encoded.commandBuffer]);
      if (faults) {
        this.clearFaultsNext = false;
        this.faultSlotCopiedAt = this.memory.submissions;
      }
    }
    // After the submission: a drain here reads what it recorded.
    this.unmappedAccesses?.afterSubmit();
    if (!encoded) return;
    const work: WorkUse = { state: 'submitted', lists: uses };
    this.running.add(work);
    this.watch(work);
    for (const buffer of encoded.transient) buffer.destroy();
    for (const write of writes) {
      if (write.resource.heap)
        this.readBack(write.resource.heap, GpuBackend.heapSpan(write.resource, write.offset, write.length));
    }
    if (
      this.shaderVisibleCpuMemory.size > 0 &&
      lists.some((list) => list.commands.some((command) => command.kind === 'dispatch'))
    ) {
      for (const resource of this.shaderVisibleCpuMemory) {
        if (resource.heap && !resource.released) this.readBack(resource.heap, GpuBackend.heapSpan(resource));
      }
    }
    if (this.settings.validation) {
      for (const [id, list] of described) this.unreadFaultLists.set(id, list);
      this.faultsUnread = true;
    }
  }

  /** Settles once all work submitted so far, its readbacks and its faults are done (or the device is lost). */
  workDone(): Promise<void> {
    const read = this.collectFaults();
    // Mapping changes before the fence are queue work before it: their writes are sent now.
    this.memory.flushPageTable();
    // Everything submitted so far is done when the queue is idle: it leaves `running` then, before
    // the fence completes, so a release right after the CPU saw the fence is immediate (as in D3D12)
    // even when a watcher of earlier work would see it only later. The unwatched work is part of it:
    // no watcher needs to ask for it again.
    const submitted = [...this.running];
    this.unwatched = [];
    // A fault read of a slot the last submission copied into resolves once that submission, and so
    // everything submitted before it, has run: it stands for the queue's idle (a native call and
    // a promise fewer per signal). Queue writes since need no wait: only later queue work sees them.
    const gpuDone = read && read.copiedAt === this.memory.submissions ? read.done : this.queueIdle();
    const idle = gpuDone.then(() => {
      for (const work of submitted) this.running.delete(work);
    });
    const done = Promise.all([idle, this.tracked]).then(() => undefined);
    return Promise.race([done, this.lost]);
  }

  /** Waits until all submitted work, its readbacks and its faults are done, or the device is lost. */
  async settle(): Promise<void> {
    this.collectFaults();
    this.memory.flushPageTable();
    const settled = (async () => {
      await this.memory.device.queue.onSubmittedWorkDone();
      // Reads may start while it waits (a readback's completion can start another): until none did.
      for (let seen: Promise<void> | undefined; seen !== this.tracked;) {
        seen = this.tracked;
        await seen;
      }
    })();
    await Promise.race([settled, this.lost]);
  }

  destroy(): void {
    this.buffers.destroy();
    this.faultSlot?.destroy();
    this.backing.destroy();
    this.memory.destroy();
    this.unmappedLog?.destroy();
    this.unmappedPlaceholder?.destroy();
  }
}
