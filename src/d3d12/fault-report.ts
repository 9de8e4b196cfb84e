/**
 * Fault reports: the GPU's raw fault records (address, kind, page-table entry, command list and
 * command index) turned into what a D3D12 programmer needs and DXGI_ERROR_DEVICE_REMOVED never says:
 * which resource and tile, which heap, which command list and which of its commands.
 */
import type { FaultRecord } from './gpu-backend.js';
import type { Heap } from './heap.js';
import type { Resource } from './resource.js';
import { TILE_SIZE } from '../memory/tiling.js';

export interface FaultReport {
  address: bigint;
  kind: FaultRecord['kind'];
  /** The resource whose address range holds the address, if a live one does. */
  resource?: Resource;
  /** The tile of that resource (reserved resources), or its 64 KiB page. */
  tile?: number;
  /** The heap the page is mapped to, when the fault is an access to a heap without memory. */
  heap?: Heap;
  commandListId: number;
  commandList?: string;
  commandIndex: number;
  /** One line saying all of the above. */
  message: string;
}

export interface FaultContext {
  resources: readonly Resource[];
  heapById(id: number): Heap | undefined;
  listLabel(id: number): string | undefined;
  decode(entry: number): { kind: string; heapId?: number } | undefined;
}

const KIND_WORDS: Record<FaultRecord['kind'], string> = {
  'read-unowned': 'read of an address no resource owns',
  'write-unowned': 'write to an address no resource owns',
  'read-absent': 'read of a page whose heap has no memory',
  'write-absent': 'write to a page whose heap has no memory',
  misaligned: 'access at an address that is not 4-byte aligned',
  unknown: 'access (of a kind this version does not know)',
};

export function describeFaults(records: readonly FaultRecord[], lost: number, context: FaultContext): FaultReport[] {
  const reports = records.map((record): FaultReport => {
    const resource = context.resources.find((r) => record.address >= r.virtualRange.address && record.address < r.virtualRange.address + BigInt(r.virtualRange.pageCount * TILE_SIZE));
    const tile = resource ? Number((record.address - resource.virtualRange.address) / BigInt(TILE_SIZE)) : undefined;
    const decoded = context.decode(record.entry);
    const heap = decoded?.kind === 'absent' && decoded.heapId !== undefined ? context.heapById(decoded.heapId) : undefined;
    const commandList = context.listLabel(record.commandListId);
    const where = [
      resource ? `${resource.label} tile ${tile}` : 'outside every live resource',
      heap ? `${heap.label}${heap.released ? ' (released)' : ''}` : undefined,
    ].filter(Boolean).join(', ');
    return {
      address: record.address,
      kind: record.kind,
      resource,
      tile,
      heap,
      commandListId: record.commandListId,
      commandList,
      commandIndex: record.commandIndex,
      message: `GPU page fault: ${KIND_WORDS[record.kind]} 0x${record.address.toString(16)} (${where}) by command ${record.commandIndex} of ${commandList ?? `command list #${record.commandListId}`}`,
    };
  });
  if (lost > 0 && reports.length > 0) {
    const last = reports[reports.length - 1] as FaultReport;
    last.message += `; ${lost} more fault(s) were not recorded`;
  }
  return reports;
}
