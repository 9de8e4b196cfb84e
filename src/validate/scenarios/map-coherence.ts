/**
 * CPU writes through map() reach every later GPU read, whatever paging happens in between (D3D12:
 * writes to mapped memory are seen by command lists executed after them). For each kind of
 * CPU-accessible memory (an UPLOAD committed buffer, a CUSTOM write-back L0 committed buffer, a buffer
 * placed in a CUSTOM write-combine L0 heap) and each order:
 *   - write → evict → restore → read;
 *   - write → evict → an unrelated list → restore → read (the write had no submission to ride on);
 *   - write → evict → a read that faults (report-only device) → restore → read;
 *   - evict → map → write → unmap → restore → read (**Chosen**, as Dawn: map pages the heap in);
 *   - two map/write/unmap rounds with written ranges, then evict → restore → read: both ranges.
 * Each read copies the whole buffer into a READBACK buffer and compares it with the bytes the CPU wrote;
 * then the GPU page table is compared with the CPU authority.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { Device } from '../../d3d12/device.js';
import type { Resource } from '../../d3d12/resource.js';
import type { HeapProperties } from '../../api/types.js';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { flush, readBuffer, runList } from '../d3d12-io.js';
import { ScenarioContext } from './context.js';

const BYTES = 2 * TILE;

interface Memory {
  name: string;
  /** A buffer of BYTES in this memory, and the pageable that holds it. */
  create(device: Device): { buffer: Resource; pageable: Parameters<Device['evict']>[0][number] };
}

const CUSTOM = (cpuPageProperty: 'WRITE_BACK' | 'WRITE_COMBINE'): HeapProperties => ({
  type: 'CUSTOM',
  cpuPageProperty,
  memoryPoolPreference: 'L0',
});

const MEMORIES: Memory[] = [
  {
    name: 'UPLOAD committed',
    create: (device) => {
      const buffer = device.createCommittedResource(
        { type: 'UPLOAD' },
        [],
        { dimension: 'BUFFER', width: BYTES },
        'GENERIC_READ',
      );
      return { buffer, pageable: buffer };
    },
  },
  {
    name: 'CUSTOM write-back L0 committed',
    create: (device) => {
      const buffer = device.createCommittedResource(
        CUSTOM('WRITE_BACK'),
        [],
        { dimension: 'BUFFER', width: BYTES },
        'COMMON',
      );
      return { buffer, pageable: buffer };
    },
  },
  {
    name: 'placed in a CUSTOM write-combine L0 heap',
    create: (device) => {
      const heap = device.createHeap({ sizeInBytes: 2 * BYTES, properties: CUSTOM('WRITE_COMBINE') });
      return {
        buffer: device.createPlacedResource(heap, BYTES, { dimension: 'BUFFER', width: BYTES }, 'COMMON'),
        pageable: heap,
      };
    },
  },
];

interface Rig {
  device: Device;
  queue: CommandQueue;
  buffer: Resource;
  pageable: Parameters<Device['evict']>[0][number];
}

/** Writes `bytes` at `offset` through map(), naming the written range when `ranged`. */
function cpuWrite(buffer: Resource, offset: number, bytes: Uint8Array, ranged: boolean): void {
  buffer.map().set(bytes, offset);
  buffer.unmap(0, ranged ? { begin: offset, end: offset + bytes.length } : null);
}

/** A list that touches nothing of the rig's buffer. */
async function unrelatedList(rig: Rig): Promise<void> {
  const other = rig.device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: 256 },
    'COMMON',
  );
  const source = rig.device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: 256 },
    'COMMON',
  );
  await runList(rig.device, rig.queue, (list) => list.copyBufferRegion(other, 0, source, 0, 256));
}

const ORDERS: { name: string; run(rig: Rig, data: Uint8Array): Promise<Uint8Array> | Uint8Array }[] = [
  {
    name: 'write → evict → restore → read',
    run: (rig, data) => {
      cpuWrite(rig.buffer, 0, data, false);
      rig.device.evict([rig.pageable]);
      rig.device.makeResident([rig.pageable]);
      return data;
    },
  },
  {
    name: 'write → evict → unrelated list → restore → read',
    run: async (rig, data) => {
      cpuWrite(rig.buffer, 0, data, true);
      rig.device.evict([rig.pageable]);
      await unrelatedList(rig);
      rig.device.makeResident([rig.pageable]);
      return data;
    },
  },
  {
    name: 'write → evict → read that faults → restore → read',
    run: async (rig, data) => {
      cpuWrite(rig.buffer, 0, data, false);
      rig.device.evict([rig.pageable]);
      const faulting = await readBuffer(rig.device, rig.queue, rig.buffer, 0, BYTES);
      const faults = await rig.device.readFaults();
      if (faults.length === 0 || faults.some((fault) => fault.kind !== 'read-absent'))
        throw new Error(`expected read-absent faults, got ${JSON.stringify(faults.map((f) => f.kind))}`);
      if (faulting.some((byte) => byte !== 0)) throw new Error('a read of an evicted heap returned bytes');
      rig.device.makeResident([rig.pageable]);
      return data;
    },
  },
  {
    name: 'evict → map → write → unmap → restore → read',
    run: async (rig, data) => {
      rig.device.evict([rig.pageable]);
      await flush(rig.device, rig.queue);
      cpuWrite(rig.buffer, 0, data, false);
      rig.device.makeResident([rig.pageable]);
      return data;
    },
  },
  {
    name: 'two ranged writes → evict → restore → read',
    run: (rig, data) => {
      const expected = new Uint8Array(BYTES);
      cpuWrite(rig.buffer, 100, data.subarray(100, 1000), true);
      expected.set(data.subarray(100, 1000), 100);
      cpuWrite(rig.buffer, TILE + 3, data.subarray(TILE + 3, TILE + 2001), true);
      expected.set(data.subarray(TILE + 3, TILE + 2001), TILE + 3);
      rig.device.evict([rig.pageable]);
      rig.device.makeResident([rig.pageable]);
      return expected;
    },
  },
];

export async function mapCoherence(gpuDevice: GPUDevice, context = new ScenarioContext()): Promise<Check[]> {
  const checks: Check[] = [];
  let seed = 1;
  for (const memory of MEMORIES) {
    for (const order of ORDERS) {
      const device = await createDevice({
        gpuDevice,
        localMemoryBytes: 4 << 20,
        nonLocalMemoryBytes: 4 << 20,
        gpuValidation: true,
        onPageFault: 'report',
      });
      try {
        const queue = device.createCommandQueue({ type: 'DIRECT' });
        const rig: Rig = { device, queue, ...memory.create(device) };
        const expected = await order.run(rig, pattern(BYTES, seed++));
        const name = `${memory.name}: ${order.name}`;
        checks.push(check(name, await readBuffer(device, queue, rig.buffer, 0, BYTES), expected));
        checks.push(...(await context.tileMappings(device, name)));
        if (device.getDeviceRemovedReason() !== 'S_OK')
          throw new Error(`${name}: the device was removed (${device.getDeviceRemovedReason()})`);
      } finally {
        device.destroy();
      }
    }
  }
  return checks;
}
