/**
 * BoundHeaps: the descriptor heaps a list set (SetDescriptorHeaps), and the checks that read them: a
 * table set, and later used, lies in the heap of its kind set then; a UAV clear's GPU handle is a
 * descriptor of the CBV_SRV_UAV heap set.
 *
 * Invariants: at most one heap of each shader-visible type; each live, shader-visible and the list's
 * device's when set (a refused call keeps the heaps set before).
 */
import { invalidArg, show } from '../api/errors.js';
import type { TableHeap } from '../validation/root-arguments.js';
import type { DescriptorHeap } from '../d3d12/descriptor-heap.js';
import type { Resource } from '../d3d12/resource.js';

type VisibleType = 'CBV_SRV_UAV' | 'SAMPLER';

export class BoundHeaps {
  private heaps: Partial<Record<VisibleType, DescriptorHeap>> = {};

  clear(): void {
    this.heaps = {};
  }

  /** SetDescriptorHeaps: `own` answers this device's heaps (undefined for anything else). */
  set(method: string, descriptorHeaps: unknown, own: (value: unknown) => DescriptorHeap | undefined): void {
    if (!Array.isArray(descriptorHeaps) || descriptorHeaps.length > 2)
      throw invalidArg(
        method,
        'descriptorHeaps',
        `must be an array of at most 2 descriptor heaps (one CBV_SRV_UAV, one SAMPLER), got ${show(descriptorHeaps)}`,
      );
    const set: Partial<Record<VisibleType, DescriptorHeap>> = {};
    descriptorHeaps.forEach((value: unknown, i) => {
      const heap = own(value);
      const at = `descriptorHeaps[${i}]`;
      if (!heap) throw invalidArg(method, at, `must be a descriptor heap of this device, got ${show(value)}`);
      if (heap.released) throw invalidArg(method, at, `${heap.label} was released`);
      if (!heap.memory)
        throw invalidArg(method, at, `${heap.label} is not shader-visible (create it with flags SHADER_VISIBLE)`);
      const type = heap.type as VisibleType;
      if (set[type]) throw invalidArg(method, at, `is a second ${type} heap; one heap of each type may be set`);
      set[type] = heap;
    });
    this.heaps = set;
  }

  /** The heap set for a table's kind, as the table checks read it. */
  tableHeap(sampler: boolean): TableHeap | undefined {
    const heap = this.heaps[sampler ? 'SAMPLER' : 'CBV_SRV_UAV'];
    const memory = heap?.memory;
    if (!heap || !memory) return undefined;
    // A heap released after it was set has no address left to read (its memory was released with it).
    return {
      label: heap.label,
      released: heap.released,
      gpuStart: heap.released ? 0n : memory.getGPUVirtualAddress(),
      numDescriptors: heap.desc.numDescriptors,
      incrementSize: heap.incrementSize,
    };
  }

  /**
   * The memory of the heaps `tables` read (what a dispatch or draw uses), after checking each table
   * (address 0: never set) lies in the heap of its kind set now.
   */
  tablesMemory(
    method: string,
    tables: readonly { parameter: number; address: bigint; sampler: boolean }[],
  ): Resource[] {
    const memory: Resource[] = [];
    for (const table of tables) {
      if (table.address === 0n) continue;
      const kind = table.sampler ? 'SAMPLER' : 'CBV_SRV_UAV';
      if (!this.holds(this.tableHeap(table.sampler), table.address, false))
        throw invalidArg(
          method,
          'this',
          `root parameter ${table.parameter}'s table is not in the ${kind} descriptor heap set now (setDescriptorHeaps changed since it was set)`,
        );
      const resource = this.heaps[kind]?.memory;
      if (resource && !memory.includes(resource)) memory.push(resource);
    }
    return memory;
  }

  /** A UAV clear's ViewGPUHandleInCurrentHeap: a descriptor of the CBV_SRV_UAV heap set. */
  checkClearHandle(call: string, handle: unknown): void {
    const ptr = (handle as { ptr?: unknown }).ptr as bigint;
    if (!this.holds(this.tableHeap(false), ptr, true))
      throw invalidArg(
        call,
        'viewGPUHandleInCurrentHeap',
        `0x${ptr.toString(16)} is not a descriptor of the CBV_SRV_UAV heap set (setDescriptorHeaps)`,
      );
  }

  /** Whether `address` lies in `heap` (`exact`: at a descriptor's start). */
  private holds(heap: TableHeap | undefined, address: bigint, exact: boolean): boolean {
    if (!heap || heap.released) return false;
    const offset = address - heap.gpuStart;
    const inside = offset >= 0n && offset < BigInt(heap.numDescriptors * heap.incrementSize);
    return inside && (!exact || offset % BigInt(heap.incrementSize) === 0n);
  }
}
