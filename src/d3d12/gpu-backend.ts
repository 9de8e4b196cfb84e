/**
 * GpuBackend: the part of a GPU-backed device that runs on the queue. It submits executed command
 * lists, keeps CPU-accessible memory coherent, collects faults, and tells fences when work is done.
 *
 * Coherence of CPU-accessible memory (UPLOAD, READBACK, CUSTOM system-memory heaps): each such heap
 * has a CPU copy, which map() exposes.
 *   - CPU → GPU: before a submission, the bytes of every resource mapped since the last submission
 *     go to the GPU pool (D3D12: CPU writes to mapped memory are seen by command lists executed after
 *     them). Only what the CPU may have written goes: not READBACK resources (the GPU never reads
 *     them), only the written range an unmap() named, and never bytes whose GPU-written contents are
 *     still on their way back.
 *   - GPU → CPU: after a submission, the bytes its copies wrote into CPU-accessible memory, and every
 *     UAV-capable resource in CPU-accessible CUSTOM heaps when it ran shaders, are read back into the
 *     CPU copy; exactly those bytes land. A fence signalled after that submission completes only once
 *     they have (D3D12: after the fence, a READBACK resource maps to what the GPU wrote).
 * A readback or fault read that fails (a lost device) reports the failure and still lets fences
 * complete, so nothing waits forever.
 */
import type { GpuMemory } from '../gpu/gpu-memory.js';
import { copyKernel, encodeExecution, type ExecutableList } from '../gpu/executor.js';
import { preludeConstant, preludeLayout } from '../gpu/prelude.js';
import type { CpuVisibleWrite } from './command-list.js';
import type { SubmittedList } from './fault-report.js';
import type { ListUse, WorkUse } from './deferred-release.js';
import type { Heap } from './heap.js';
import type { MemoryBacking } from './memory-backing.js';
import type { Resource } from './resource.js';

export interface FaultRecord {
  /** The virtual address accessed. */
  address: bigint;
  kind: 'read-unowned' | 'write-unowned' | 'read-absent' | 'write-absent' | 'misaligned' | 'unknown';
  commandListId: number;
  commandIndex: number;
  /** The page-table entry seen. */
  entry: number;
}

interface Settings {
  tiledResourcesTier: number;
  validation: boolean;
}

/** What the backend tells its device. */
export interface BackendEvents {
  /** Faults arrived from the GPU, from the submission of `lists` (by command list id). */
  faults(records: FaultRecord[], lost: number, lists: ReadonlyMap<number, SubmittedList>): void;
  /** A readback or fault read failed: the GPU is gone. */
  failed(error: unknown): void;
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

/** A byte range [start, end) of a heap. */
interface Span {
  start: number;
  end: number;
}

/** `range` minus the spans in `holes`, as sorted spans. */
function subtract(range: Span, holes: readonly Span[]): Span[] {
  let pieces: Span[] = [range];
  for (const hole of holes) {
    pieces = pieces.flatMap((piece) => {
      if (hole.end <= piece.start || hole.start >= piece.end) return [piece];
      const left = { start: piece.start, end: hole.start };
      const right = { start: hole.end, end: piece.end };
      return [left, right].filter((part) => part.end > part.start);
    });
  }
  return pieces;
}

export class GpuBackend {
  /** Promises the next fence completion must wait for (readbacks, fault reads). */
  private readonly outstanding = new Set<Promise<void>>();
  /**
   * CPU writes not yet sent to the GPU: per resource mapped since the last flush, the heap spans its
   * unmaps said were written (all of it while it is still mapped).
   */
  private readonly dirty = new Map<Resource, Span[]>();
  /** Heap bytes the GPU wrote whose readback has not landed: the CPU copy is stale there. */
  private readonly inFlight = new Map<Heap, Span[]>();
  /**
   * Spans the CPU wrote (said by unmap) into a heap while readbacks of it were in flight, numbered in
   * order: a readback issued before a write leaves that write's bytes alone when it lands. (A readback
   * of UAV memory no command named is speculative: the GPU may not have written it at all.)
   */
  private readonly cpuWritesDuringReadback = new Map<Heap, { epoch: number; span: Span }[]>();
  private cpuEpoch = 0;
  /** UAV-capable resources in CPU-accessible CUSTOM heaps (shaders may write them). */
  readonly shaderVisibleCpuMemory = new Set<Resource>();
  /** Executions submitted and not yet complete, with what their lists use (see deferred-release.ts). */
  readonly running = new Set<WorkUse>();
  /** Resolves when the WebGPU device is lost: no wait on the GPU outlives it. */
  private readonly lost: Promise<void>;

  private constructor(
    readonly memory: GpuMemory,
    readonly backing: MemoryBacking,
    private readonly kernel: Awaited<ReturnType<typeof copyKernel>>,
    private readonly settings: Settings,
    private readonly events: BackendEvents,
  ) {
    this.lost = memory.device.lost.then(() => undefined);
  }

  static async create(memory: GpuMemory, backing: MemoryBacking, settings: Settings, events: BackendEvents): Promise<GpuBackend> {
    return new GpuBackend(memory, backing, await copyKernel(memory.device), settings, events);
  }

  private static heapSpan(resource: Resource, offset = 0, length = resource.desc.width): Span {
    return { start: resource.heapOffset + offset, end: resource.heapOffset + offset + length };
  }

  /** A resource was mapped: the CPU may write all of it, until it is unmapped. */
  markMapped(resource: Resource): void {
    if (resource.heap?.desc.properties.type === 'READBACK') return;
    if (!this.dirty.has(resource)) this.dirty.set(resource, []);
  }

  /** A resource was unmapped: the CPU wrote `written` (when given; else all of it) since it was mapped. */
  markUnmapped(resource: Resource, written: { begin: number; end: number } | undefined): void {
    const spans = this.dirty.get(resource);
    if (!spans) return;
    const span = written ? GpuBackend.heapSpan(resource, written.begin, written.end - written.begin) : GpuBackend.heapSpan(resource);
    spans.push(span);
    // A readback of this heap still on its way must not land over what the CPU has just written.
    const heap = resource.heap;
    if (heap && this.inFlight.has(heap)) {
      const writes = this.cpuWritesDuringReadback.get(heap) ?? [];
      writes.push({ epoch: ++this.cpuEpoch, span });
      this.cpuWritesDuringReadback.set(heap, writes);
    }
  }

  /**
   * Sends the CPU's writes into `heap` (or into every heap) to its memory, in queue order: before a
   * submission, and before the heap is paged out, so that the evicted copy holds them.
   */
  flushMapped(heap?: Heap): void {
    for (const [resource, spans] of this.dirty) {
      if (heap && resource.heap !== heap) continue;
      // While mapped, the CPU may be writing anywhere in the resource (persistent mapping); bytes the
      // GPU wrote whose readback has not landed are not the CPU's then, and stay as the GPU left them.
      // Spans an unmap said were written are the CPU's: they go, whatever is in flight.
      const mapped = resource.mapCount > 0;
      if (mapped) this.flushSpan(resource.heap, GpuBackend.heapSpan(resource), true);
      else for (const span of spans) this.flushSpan(resource.heap, span, false);
      if (mapped && !resource.released) spans.length = 0;
      else this.dirty.delete(resource);
    }
  }

  private flushSpan(heap: Heap | undefined, span: Span, skipInFlight: boolean): void {
    const memory = heap?.memory;
    const cpuCopy = heap?.cpuCopy;
    if (!heap || !memory || !cpuCopy) return;
    for (const piece of skipInFlight ? subtract(span, this.inFlight.get(heap) ?? []) : [span]) {
      // Queue writes move whole words: widen to 4 bytes (the bytes around are the CPU copy's too).
      const start = Math.floor(piece.start / 4) * 4;
      const end = Math.min(Math.ceil(piece.end / 4) * 4, cpuCopy.length);
      if (end > start) this.memory.writeHeapBytes(memory.segment, memory.pages, start, cpuCopy.subarray(start, end));
    }
  }

  private track(promise: Promise<void>): void {
    const tracked = promise.catch((error: unknown) => this.events.failed(error)).finally(() => this.outstanding.delete(tracked));
    this.outstanding.add(tracked);
  }

  /** Reads back heap bytes [start, end) the GPU wrote, into the heap's CPU copy, exactly. */
  private readBack(heap: Heap, span: Span): void {
    const memory = heap.memory;
    const cpuCopy = heap.cpuCopy;
    if (!memory || !cpuCopy || span.end <= span.start) return;
    const start = Math.floor(span.start / 4) * 4;
    const end = Math.ceil(span.end / 4) * 4;
    const pending = this.inFlight.get(heap) ?? [];
    pending.push(span);
    this.inFlight.set(heap, pending);
    const issued = this.cpuEpoch;
    this.track(
      this.memory.readHeapBytes(memory.segment, memory.pages, start, end - start).then(
        (bytes) => {
          // Bytes the CPU wrote (and unmapped) after this readback was issued are newer than it.
          const newer = (this.cpuWritesDuringReadback.get(heap) ?? []).filter((write) => write.epoch > issued).map((write) => write.span);
          for (const piece of subtract(span, newer)) cpuCopy.set(bytes.subarray(piece.start - start, piece.end - start), piece.start);
        },
      ).finally(() => {
        pending.splice(pending.indexOf(span), 1);
        if (pending.length > 0) return;
        this.inFlight.delete(heap);
        this.cpuWritesDuringReadback.delete(heap);
      }),
    );
  }

  private readFaults(lists: ReadonlyMap<number, SubmittedList>): void {
    this.track(
      this.memory.takeFaults().then(({ count, records }) => {
        const { size, offsets } = preludeLayout().faultRecord;
        const words = size / 4;
        const field = (record: number, name: string): number => records[record * words + (offsets[name] ?? 0) / 4] ?? 0;
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
        if (count > 0) this.events.faults(faults, Math.max(0, count - recorded), lists);
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
    const { commandBuffer, transient } = encodeExecution(this.memory, this.kernel, this.settings, lists);
    this.memory.device.queue.submit([commandBuffer]);
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
  }
}
