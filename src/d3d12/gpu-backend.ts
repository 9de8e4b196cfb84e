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
 */
import type { GpuMemory } from '../gpu/gpu-memory.js';
import { copyKernel, encodeExecution, type ExecutableList } from '../gpu/executor.js';
import { memberOffset, preludeConstant, preludeLayout } from '../gpu/prelude.js';
import type { CpuVisibleWrite } from './recorded-commands.js';
import type { FaultRecord, SubmittedList } from './fault-report.js';
import type { ListUse, WorkUse } from './deferred-release.js';
import type { Heap } from './heap.js';
import type { MemoryBacking } from './memory-backing.js';
import type { Resource } from './resource.js';
import { CpuCoherence, type Span } from './cpu-coherence.js';
import { createUnmappedAccessPlaceholder, UnmappedAccessLog } from '../gpu/unmapped-access-log.js';
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
];

function faultKind(value: number): FaultRecord['kind'] {
  return FAULT_KIND_CONSTANTS.find(([name]) => preludeConstant(name) === value)?.[1] ?? 'unknown';
}

export class GpuBackend {
  /** Promises the next fence completion must wait for (readbacks, fault reads). */
  private readonly outstanding = new Set<Promise<void>>();
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

  private constructor(
    readonly memory: GpuMemory,
    readonly backing: MemoryBacking,
    private readonly kernel: Awaited<ReturnType<typeof copyKernel>>,
    private readonly settings: Settings,
    private readonly events: BackendEvents,
  ) {
    this.lost = memory.device.lost.then(() => undefined);
    this.coherence = new CpuCoherence(memory);
    if (settings.unmappedAccessRecords > 0) {
      const log = new UnmappedAccessLog(memory, settings.unmappedAccessRecords);
      this.unmappedLog = log;
      this.unmappedAccesses = new UnmappedAccesses(log, settings.unmappedAccessRecords, { reservedResources: () => events.reservedResources(), failed: (error) => events.failed(error) });
    } else {
      this.unmappedPlaceholder = createUnmappedAccessPlaceholder(memory);
    }
  }

  static async create(memory: GpuMemory, backing: MemoryBacking, settings: Settings, events: BackendEvents): Promise<GpuBackend> {
    return new GpuBackend(memory, backing, await copyKernel(memory.device, settings.unmappedAccessRecords > 0), settings, events);
  }

  private static heapSpan(resource: Resource, offset = 0, length = resource.desc.width): Span {
    return { start: resource.heapOffset + offset, end: resource.heapOffset + offset + length };
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

  private track(promise: Promise<void>): void {
    const tracked = promise.catch((error: unknown) => this.events.failed(error)).finally(() => this.outstanding.delete(tracked));
    this.outstanding.add(tracked);
  }

  /** Reads back heap bytes the GPU may have written into the heap's CPU copy (see cpu-coherence.ts). */
  private readBack(heap: Heap, span: Span): void {
    const landed = this.coherence.readBack(heap, span);
    if (landed) this.track(landed);
  }

  private readFaults(lists: ReadonlyMap<number, SubmittedList>): void {
    this.track(
      this.memory.takeFaults().then(({ count, more, records }) => {
        const layout = preludeLayout().faultRecord;
        const words = layout.size / 4;
        const field = (record: number, name: string): number => records[record * words + memberOffset(layout, name) / 4] ?? 0;
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
      }),
    );
  }

  /**
   * Submits command lists: flush mapped memory, encode, submit, then read back what they wrote.
   * `described` names each list and its commands, for the faults this submission may report.
   */
  execute(lists: readonly ExecutableList[], writes: readonly CpuVisibleWrite[], described: ReadonlyMap<number, SubmittedList>, uses: readonly ListUse[]): void {
    // Its buffers (constants, jobs, readback staging) are allocated here: inside scopes of its own.
    this.memory.guard('executeCommandLists', () => this.submit(lists, writes, described, uses));
  }

  private submit(lists: readonly ExecutableList[], writes: readonly CpuVisibleWrite[], described: ReadonlyMap<number, SubmittedList>, uses: readonly ListUse[]): void {
    this.flushMapped();
    const unmapped = this.unmappedAccesses?.beforeSubmit(described, this.memory.pageTable.gpuBuffer.size / 4) ?? { buffer: this.unmappedPlaceholder as GPUBuffer, recording: false, submission: 0 };
    const { commandBuffer, transient } = encodeExecution(this.memory, this.kernel, this.settings, lists, unmapped);
    this.memory.device.queue.submit([commandBuffer]);
    this.unmappedAccesses?.afterSubmit();
    const work: WorkUse = { state: 'submitted', lists: uses };
    this.running.add(work);
    void Promise.race([this.memory.device.queue.onSubmittedWorkDone(), this.lost]).then(() => this.running.delete(work));
    for (const buffer of transient) buffer.destroy();
    for (const write of writes) {
      if (write.resource.heap) this.readBack(write.resource.heap, GpuBackend.heapSpan(write.resource, write.offset, write.length));
    }
    if (lists.some((list) => list.commands.some((command) => command.kind === 'dispatch'))) {
      for (const resource of this.shaderVisibleCpuMemory) {
        if (resource.heap && !resource.released) this.readBack(resource.heap, GpuBackend.heapSpan(resource));
      }
    }
    if (this.settings.validation) this.readFaults(described);
  }

  /** Settles once all work submitted so far, and the readbacks it started, are done (or the device is lost). */
  workDone(): Promise<void> {
    const done = Promise.all([this.memory.device.queue.onSubmittedWorkDone(), ...this.outstanding]).then(() => undefined);
    return Promise.race([done, this.lost]);
  }

  /** Waits until all submitted work and its readbacks are done, or the device is lost. */
  async settle(): Promise<void> {
    const settled = (async () => {
      await this.memory.device.queue.onSubmittedWorkDone();
      while (this.outstanding.size > 0) await Promise.all([...this.outstanding]);
    })();
    await Promise.race([settled, this.lost]);
  }

  destroy(): void {
    this.memory.destroy();
    this.unmappedLog?.destroy();
    this.unmappedPlaceholder?.destroy();
  }
}
