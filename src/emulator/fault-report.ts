/**
 * Fault reports: the GPU's raw fault records (address, kind, page-table entry, command list and
 * command index) turned into what a D3D12 programmer needs and DXGI_ERROR_DEVICE_REMOVED never says:
 * which resource and tile, which heap, which command list and which of its commands.
 *
 * A report is plain data, as DRED's output is: numbers, strings and plain objects only (addresses as
 * '0x…' hex strings), so `JSON.stringify` stores it and a tool reads it back unchanged. Its size is
 * bounded: names are cut to MAX_NAME_LENGTH characters, and callers keep at most MAX_FAULT_REPORTS
 * reports, counting the rest.
 */
import type { Heap } from '../d3d12/heap.js';
import type { Resource, ResourceKind } from '../d3d12/resource.js';
import type { ResourceDimension } from '../api/types.js';
import type { DescriptorHeap } from '../d3d12/descriptor-heap.js';
import { tileAtByteOffset, tileCoordinate, TILE_SIZE, type TileCoordinate } from '../memory/tiling.js';
import {
  addressIsRegister,
  describeDescriptor,
  describeRegister,
  descriptorFaultWords,
  type FaultDescriptor,
  type FaultRegister,
} from './descriptor-faults.js';
import type { FaultRecord } from './fault-record.js';

export type { FaultRecord } from './fault-record.js';

/** Names (SetName) longer than this are cut in reports. */
export const MAX_NAME_LENGTH = 200;
/** Reports a device keeps (for readFaults, or in its removal report); later faults are only counted. */
export const MAX_FAULT_REPORTS = 1024;

export type FaultKind = FaultRecord['kind'];

/** The resource whose address range holds the faulting address. */
export interface FaultResource {
  id: number;
  name: string;
  /** How messages name it, e.g. "placed resource #3 'vertex data'". */
  label: string;
  kind: ResourceKind;
  dimension: ResourceDimension;
  /** Its GPU virtual address range [start, end), as hex strings. */
  addressRange: { start: string; end: string };
  /** Released, with GPU work that used it still running (its memory returns once that work completes). */
  released: boolean;
  /** Byte offset of the address in the resource. */
  offset: number;
  /** The tile holding the address, in the resource's tile order (GetResourceTiling's indices). */
  tile: number;
  /** That tile's D3D12_TILED_RESOURCE_COORDINATE (subresource, and x, y, z in its tile grid). */
  coordinate: TileCoordinate;
}

/** The heap the faulting page is mapped to, when the page's heap has no memory. */
export interface FaultHeap {
  id: number;
  name: string;
  label: string;
  /** What the heap is now: evicted (not resident), released, or resident again. */
  state: 'evicted' | 'released' | 'resident';
}

export interface FaultReport {
  kind: FaultKind;
  /** The virtual address accessed, as a hex string. */
  address: string;
  resource?: FaultResource;
  heap?: FaultHeap;
  /** The descriptor read, when the address is in a shader-visible descriptor heap. */
  descriptor?: FaultDescriptor;
  /** The shader register, for an unbound register or a root binding read as a descriptor. */
  register?: FaultRegister;
  commandList: { id: number; label: string };
  /** The command's index in its list (every recorded call counts) and the call that recorded it. */
  command: { index: number; name: string };
  /** One line saying all of the above. */
  message: string;
}

/** What the submission that faulted ran: per command list, its label and its commands' names. */
export interface SubmittedList {
  label: string;
  commands: readonly string[];
}

export interface FaultContext {
  /** Resources whose address ranges may hold faulting addresses (live, and released ones still in use). */
  resources: Iterable<Resource>;
  heapById(id: number): Heap | undefined;
  list(id: number): SubmittedList | undefined;
  decode(entry: number): { kind: string; heapId?: number } | undefined;
  /** The shader-visible descriptor heap and index at an address, if any. */
  descriptorAt?(address: bigint): { heap: DescriptorHeap; index: number } | undefined;
}

const KIND_WORDS: Record<FaultKind, string> = {
  'read-unowned': 'read of an address no resource owns',
  'write-unowned': 'write to an address no resource owns',
  'read-absent': 'read of a page whose heap has no memory',
  'write-absent': 'write to a page whose heap has no memory',
  misaligned: 'access at an address that is not 4-byte aligned',
  'page-offset': 'access through a page handle at an offset outside its 64 KiB page or not aligned to the access',
  'unbound-register': 'read of a shader register the root signature does not bind',
  'descriptor-uninitialized': 'read of a descriptor never written',
  'descriptor-mismatch': 'read of a descriptor of another type',
  'descriptor-released': 'read of a descriptor whose resource was released',
  unknown: 'access (of a kind this version does not know)',
};

const hex = (value: bigint): string => `0x${value.toString(16)}`;
const cut = (text: string): string => (text.length > MAX_NAME_LENGTH ? `${text.slice(0, MAX_NAME_LENGTH - 1)}…` : text);

function describeResource(resource: Resource, address: bigint): FaultResource {
  const range = resource.virtualRange;
  const offset = Number(address - range.address);
  const tile = tileAtByteOffset(resource.layout, offset);
  return {
    id: resource.id,
    name: cut(resource.getName()),
    label: cut(resource.label),
    kind: resource.kind,
    dimension: resource.desc.dimension,
    addressRange: { start: hex(range.address), end: hex(range.address + BigInt(resource.layout.sizeInBytes)) },
    released: resource.released,
    offset,
    tile,
    coordinate: tileCoordinate(resource.layout, tile),
  };
}

function describeHeap(heap: Heap): FaultHeap {
  return {
    id: heap.id,
    name: cut(heap.getName()),
    label: cut(heap.label),
    state: heap.released ? 'released' : heap.resident ? 'resident' : 'evicted',
  };
}

export function describeFaults(records: readonly FaultRecord[], lost: number, context: FaultContext): FaultReport[] {
  const candidates = [...context.resources];
  const reports = records.map((record): FaultReport => {
    const slot = context.descriptorAt?.(record.address);
    const isRegister = addressIsRegister(record, slot !== undefined);
    const descriptor = slot
      ? describeDescriptor(slot.heap, slot.index, cut(slot.heap.getName()), cut(slot.heap.label))
      : undefined;
    // A descriptor heap's memory is internal: the fault names the descriptor, not that buffer.
    const owner =
      slot || isRegister
        ? undefined
        : candidates.find(
            (r) =>
              record.address >= r.virtualRange.address &&
              record.address < r.virtualRange.address + BigInt(r.virtualRange.pageCount * TILE_SIZE),
          );
    const resource = owner ? describeResource(owner, record.address) : undefined;
    const decoded = isRegister ? undefined : context.decode(record.entry);
    const absentHeap =
      !slot && decoded?.kind === 'absent' && decoded.heapId !== undefined
        ? context.heapById(decoded.heapId)
        : undefined;
    const heap = absentHeap ? describeHeap(absentHeap) : undefined;
    const register = isRegister ? describeRegister(record) : undefined;
    const submitted = context.list(record.commandListId);
    const commandList = {
      id: record.commandListId,
      label: cut(submitted?.label ?? `command list #${record.commandListId}`),
    };
    const command = { index: record.commandIndex, name: submitted?.commands[record.commandIndex] ?? 'unknown' };
    const by = `by command ${record.commandIndex} (${command.name}) of ${commandList.label}`;
    const validation = descriptorFaultWords(record, descriptor);
    const base = {
      kind: record.kind,
      address: hex(record.address),
      ...(resource ? { resource } : {}),
      ...(heap ? { heap } : {}),
      ...(descriptor ? { descriptor } : {}),
      ...(register ? { register } : {}),
      commandList,
      command,
    };
    if (validation !== undefined) return { ...base, message: `GPU-based validation: ${validation}; ${by}` };
    const at = resource?.coordinate;
    const where = [
      descriptor
        ? `descriptor ${descriptor.index} of ${descriptor.heap.label}${descriptor.heap.state === 'resident' ? '' : ` (${descriptor.heap.state})`}`
        : resource && at
          ? `${resource.label}${resource.released ? ' (released)' : ''} tile ${resource.tile}${resource.dimension === 'BUFFER' ? '' : ` (subresource ${at.subresource}, x ${at.x}, y ${at.y}, z ${at.z})`}`
          : 'outside every live resource',
      heap ? `${heap.label}${heap.state === 'released' ? ' (released)' : ''}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    return { ...base, message: `GPU page fault: ${KIND_WORDS[record.kind]} ${hex(record.address)} (${where}) ${by}` };
  });
  if (lost > 0 && reports.length > 0) {
    const last = reports[reports.length - 1] as FaultReport;
    last.message += `; ${lost} more fault(s) were not recorded`;
  }
  return reports;
}
