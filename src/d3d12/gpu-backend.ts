/**
 * GpuBackend: the part of a GPU-backed device that runs on the queue. It submits executed command
 * lists, keeps CPU-accessible memory coherent, collects faults, and completes fences.
 *
 * Coherence of CPU-accessible memory (UPLOAD, READBACK, CUSTOM system-memory heaps): each such heap
 * has a CPU copy, which map() exposes. Before a submission, the bytes of every resource mapped since
 * the last submission are written to the GPU pool (D3D12: CPU writes to mapped memory are seen by
 * command lists executed after them). After a submission, the bytes its commands wrote into
 * CPU-accessible memory are read back into the CPU copy, and a fence signalled after that submission
 * completes only once they have arrived (D3D12: after the fence, a READBACK resource maps to what the
 * GPU wrote).
 */
import type { GpuMemory } from '../gpu/gpu-memory.js';
import { preludeConstant, preludeLayout } from '../gpu/prelude.js';
import { copyKernel, encodeExecution, type ExecutableList } from '../gpu/executor.js';
import type { CpuVisibleWrite } from './command-list.js';
import type { Fence } from './fence.js';
import type { MemoryBacking } from './memory-backing.js';
import type { Resource } from './resource.js';

export interface FaultRecord {
  /** The virtual address accessed. */
  address: bigint;
  kind: 'read-unowned' | 'write-unowned' | 'read-absent' | 'write-absent' | 'misaligned';
  commandListId: number;
  commandIndex: number;
  /** The page-table entry seen. */
  entry: number;
}

type Settings = { tiledResourcesTier: number; validation: boolean };

/** The prelude's fault kind constants, by name. */
const FAULT_KIND_CONSTANTS: [string, FaultRecord['kind']][] = [
  ['D3D12_FAULT_READ_UNOWNED', 'read-unowned'],
  ['D3D12_FAULT_WRITE_UNOWNED', 'write-unowned'],
  ['D3D12_FAULT_READ_ABSENT', 'read-absent'],
  ['D3D12_FAULT_WRITE_ABSENT', 'write-absent'],
  ['D3D12_FAULT_MISALIGNED', 'misaligned'],
];

function faultKind(value: number): FaultRecord['kind'] {
  return FAULT_KIND_CONSTANTS.find(([name]) => preludeConstant(name) === value)?.[1] ?? 'read-unowned';
}

export class GpuBackend {
  /** Promises the next fence completion must wait for (readbacks, fault reads). */
  private outstanding = new Set<Promise<void>>();
  /** Resources mapped since the last submission (their CPU bytes go to the GPU before it). */
  private readonly dirty = new Set<Resource>();
  private readonly faults: FaultRecord[] = [];
  private faultsLost = 0;

  private constructor(
    readonly memory: GpuMemory,
    readonly backing: MemoryBacking,
    private readonly kernel: Awaited<ReturnType<typeof copyKernel>>,
    private readonly settings: Settings,
  ) {}

  static async create(memory: GpuMemory, backing: MemoryBacking, settings: Settings): Promise<GpuBackend> {
    return new GpuBackend(memory, backing, await copyKernel(memory.device), settings);
  }

  /** A resource was mapped: its CPU bytes are written to the GPU before the next submission. */
  markMapped(resource: Resource): void {
    this.dirty.add(resource);
  }

  private flushMapped(): void {
    for (const resource of this.dirty) {
      const heap = resource.heap;
      const memory = heap?.memory;
      if (!memory?.shadow || resource.released) continue;
      const start = Math.floor(resource.heapOffset / 4) * 4;
      const end = Math.ceil((resource.heapOffset + resource.desc.width) / 4) * 4;
      this.memory.writeHeapBytes(memory.segment, memory.pages, start, memory.shadow.subarray(start, end));
    }
    // Resources still mapped stay dirty: the CPU may keep writing through the pointer.
    for (const resource of [...this.dirty]) if (resource.mapCount === 0 || resource.released) this.dirty.delete(resource);
  }

  private track(promise: Promise<void>): void {
    const tracked = promise.finally(() => this.outstanding.delete(tracked));
    this.outstanding.add(tracked);
  }

  /** Reads back bytes that commands wrote into CPU-accessible memory, into the heaps' CPU copies. */
  private readBack(writes: readonly CpuVisibleWrite[]): void {
    for (const write of writes) {
      const heap = write.resource.heap;
      const memory = heap?.memory;
      if (!memory?.shadow || write.length === 0) continue;
      const start = Math.floor((write.resource.heapOffset + write.offset) / 4) * 4;
      const end = Math.ceil((write.resource.heapOffset + write.offset + write.length) / 4) * 4;
      const shadow = memory.shadow;
      this.track(
        this.memory.readHeapBytes(memory.segment, memory.pages, start, end - start).then((bytes) => {
          // The heap may have been released meanwhile; its CPU copy is then simply unused.
          shadow.set(bytes, start);
        }),
      );
    }
  }

  private readFaults(): void {
    this.track(
      this.memory.takeFaults().then(({ count, records }) => {
        const { size, offsets } = preludeLayout().faultRecord;
        const words = size / 4;
        const field = (record: number, name: string): number => records[record * words + (offsets[name] ?? 0) / 4] ?? 0;
        const recorded = records.length / words;
        for (let i = 0; i < recorded; i++) {
          this.faults.push({
            address: (BigInt(field(i, 'va_high')) << 32n) | BigInt(field(i, 'va_low')),
            kind: faultKind(field(i, 'kind')),
            commandListId: field(i, 'command_list'),
            commandIndex: field(i, 'command_index'),
            entry: field(i, 'entry'),
          });
        }
        this.faultsLost += Math.max(0, count - recorded);
      }),
    );
  }

  /** Submits command lists: flush mapped memory, encode, submit, then read back what they wrote. */
  execute(lists: readonly ExecutableList[], writes: readonly CpuVisibleWrite[]): void {
    this.flushMapped();
    const { commandBuffer, transient } = encodeExecution(this.memory, this.kernel, this.settings, lists);
    this.memory.device.queue.submit([commandBuffer]);
    for (const buffer of transient) buffer.destroy();
    this.readBack(writes);
    if (this.settings.validation) this.readFaults();
  }

  /** Completes `value` on `fence` once all work submitted so far, and its readbacks, are done. */
  completeWhenDone(fence: Fence, value: number): void {
    const waits = [this.memory.device.queue.onSubmittedWorkDone(), ...this.outstanding];
    void Promise.all(waits).then(() => fence.complete(value));
  }

  /** Waits for all submitted work and readbacks; returns (and forgets) the faults recorded so far. */
  async takeFaults(): Promise<{ records: FaultRecord[]; lost: number }> {
    await this.memory.device.queue.onSubmittedWorkDone();
    while (this.outstanding.size > 0) await Promise.all([...this.outstanding]);
    const records = this.faults.splice(0);
    const lost = this.faultsLost;
    this.faultsLost = 0;
    return { records, lost };
  }

  destroy(): void {
    this.memory.destroy();
  }
}
