/**
 * The device's residency API (ID3D12Device::MakeResident / Evict, ID3D12Device3::EnqueueMakeResident,
 * ID3D12Device1::SetResidencyPriority, IDXGIAdapter3::QueryVideoMemoryInfo /
 * SetVideoMemoryReservation, and UE's debug budget override) on a GPU-backed device, CTS style: one
 * invalid field at a time next to a valid control, and for every failure the HRESULT, call, argument
 * and rule plus a check that nothing changed (residency, usage, fence values). Then the rules of
 * src/emulator/device-residency.ts: reference counting, CREATE_NOT_RESIDENT, mapped memory staying resident,
 * and device removal when the GPU touches an evicted heap (DXGI_ERROR_DEVICE_HUNG, with a page-fault
 * report), or only a report with onPageFault: 'report'.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  createResidencyManager,
  RESIDENCY_PRIORITIES,
  type CommandQueue,
  type Device,
  type DeviceOptions,
  type FaultReport,
  type GraphicsCommandList,
  type Heap,
  type Resource,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectBytes } from '../../../shared/expect-bytes.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const MIB = 2 ** 20;
const loose = (value: unknown): never => value as never;

/** A GPU-backed device per test: 4 MiB pools, the LOCAL budget 2 MiB. */
const test = d3dTest({ localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB, localMemoryBudget: 2 * MIB });

async function otherDevice(gpuDevice: GPUDevice, options: DeviceOptions = {}): Promise<Device> {
  return createDevice({ gpuDevice, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB, ...options });
}

const defaultHeap = (d3d: Device, tiles: number, notResident = false): Heap =>
  d3d.createHeap({
    sizeInBytes: tiles * TILE,
    properties: { type: 'DEFAULT' },
    flags: notResident ? ['CREATE_NOT_RESIDENT'] : [],
  });
const placedBuffer = (d3d: Device, heap: Heap, width = heap.getDesc().sizeInBytes): Resource =>
  d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width }, 'COMMON');
const committedBuffer = (d3d: Device, tiles: number, notResident = false): Resource =>
  d3d.createCommittedResource(
    { type: 'DEFAULT' },
    notResident ? ['CREATE_NOT_RESIDENT'] : [],
    { dimension: 'BUFFER', width: tiles * TILE },
    'COMMON',
  );
const usage = (d3d: Device, segment: 'LOCAL' | 'NON_LOCAL' = 'LOCAL'): number =>
  d3d.queryVideoMemoryInfo(segment).currentUsage;

async function write(d3d: Device, queue: CommandQueue, target: Resource, bytes: Uint8Array): Promise<void> {
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(target, 0, uploadBuffer(d3d, bytes), 0, bytes.length);
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
}

/** The three calls that take a list of pageables, with valid other arguments. */
type PageableCall = [string, (d3d: Device, objects: unknown) => void];
const PAGEABLE_CALLS: PageableCall[] = [
  ['makeResident', (d3d, objects) => d3d.makeResident(loose(objects))],
  ['evict', (d3d, objects) => d3d.evict(loose(objects))],
  ['enqueueMakeResident', (d3d, objects) => d3d.enqueueMakeResident('NONE', loose(objects), d3d.createFence(0), 1)],
];

describe.each(PAGEABLE_CALLS)('%s: objects', (call, run) => {
  test('controls: an empty array, a heap and a committed resource', ({ d3d }) => {
    const heap = defaultHeap(d3d, 1);
    const committed = committedBuffer(d3d, 1);
    const before = usage(d3d);
    run(d3d, []);
    expect(usage(d3d)).toBe(before);
    run(d3d, [heap, committed]);
    const resident = call !== 'evict';
    expect([heap.resident, committed.heap?.resident]).toEqual([resident, resident]);
    expect(usage(d3d)).toBe(resident ? before : before - 2 * TILE);
  });

  test.for([
    ['null', null],
    ['undefined', undefined],
    ['a number', 3],
    ['a string', 'heap'],
    ['an object', { length: 1, 0: null }],
  ])('%s (not an array) is refused', ([_name, value], { d3d }) => {
    expectD3D12Error(() => run(d3d, value), {
      call,
      argument: 'objects',
      message: /must be an array of heaps and committed resources/,
    });
  });

  test('a heap (not in an array) is refused, and stays resident', ({ d3d }) => {
    const heap = defaultHeap(d3d, 1);
    expectD3D12Error(() => run(d3d, heap), { call, argument: 'objects', message: /must be an array/ });
    expect(heap.resident).toBe(true);
    expect(usage(d3d)).toBe(TILE);
  });

  /** A valid heap first, so that a change made before the bad entry would show. */
  function expectRefusedAfterHeap(d3d: Device, bad: unknown, message: RegExp): void {
    const heap = defaultHeap(d3d, 1);
    const before = usage(d3d);
    expectD3D12Error(() => run(d3d, [heap, bad]), { call, argument: 'objects[1]', message });
    expect(heap.resident).toBe(true);
    expect(usage(d3d)).toBe(before);
    // The count is still 1: one evict pages it out.
    d3d.evict([heap]);
    expect(heap.resident).toBe(false);
  }

  test('a placed resource is not pageable: it pages with its heap', ({ d3d }) => {
    const placed = placedBuffer(d3d, defaultHeap(d3d, 2), TILE);
    expectRefusedAfterHeap(d3d, placed, /placed resource #\d+ is not pageable: a placed resource pages with its heap/);
  });

  test('a reserved resource is not pageable: it pages with the heaps its tiles map to', ({ d3d }) => {
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    expectRefusedAfterHeap(
      d3d,
      reserved,
      /reserved resource #\d+ is not pageable: a reserved resource pages with the heaps its tiles map to/,
    );
  });

  test.for<[string, unknown]>([
    ['null', null],
    ['a number', 1],
    ['a plain object', { resident: true }],
  ])('%s in the array is refused', ([_name, value], { d3d }) => {
    expectRefusedAfterHeap(
      d3d,
      value,
      /must be a heap, committed resource or shader-visible descriptor heap of this device/,
    );
  });

  test("a committed resource's implicit heap is not an API object", ({ d3d }) => {
    expectRefusedAfterHeap(
      d3d,
      committedBuffer(d3d, 1).heap,
      /must be a heap, committed resource or shader-visible descriptor heap of this device/,
    );
  });

  test('objects of another device are refused', async ({ d3d, device }) => {
    const other = await otherDevice(device);
    try {
      expectRefusedAfterHeap(
        d3d,
        defaultHeap(other, 1),
        /must be a heap, committed resource or shader-visible descriptor heap of this device/,
      );
      expectRefusedAfterHeap(
        d3d,
        committedBuffer(other, 1),
        /must be a heap, committed resource or shader-visible descriptor heap of this device/,
      );
    } finally {
      other.destroy();
    }
  });

  test('released heaps and committed resources are refused', ({ d3d }) => {
    const heap = defaultHeap(d3d, 1);
    heap.setName('old');
    heap.release();
    expectRefusedAfterHeap(d3d, heap, /heap #\d+ 'old' was released/);
    const committed = committedBuffer(d3d, 1);
    committed.release();
    expectRefusedAfterHeap(d3d, committed, /committed resource #\d+ was released/);
  });
});

describe('reference counting (MakeResident / Evict)', () => {
  test('created resident at count 1; makeResident twice then evict once keeps it resident; the last evict pages out', ({
    d3d,
  }) => {
    const heap = defaultHeap(d3d, 3);
    expect([heap.resident, usage(d3d)]).toEqual([true, 3 * TILE]);
    d3d.makeResident([heap]);
    d3d.makeResident([heap]);
    expect(usage(d3d)).toBe(3 * TILE); // resident already: no new memory
    d3d.evict([heap]);
    expect([heap.resident, usage(d3d)]).toEqual([true, 3 * TILE]);
    d3d.evict([heap]);
    expect([heap.resident, usage(d3d)]).toEqual([true, 3 * TILE]);
    d3d.evict([heap]);
    expect([heap.resident, usage(d3d)]).toEqual([false, 0]);
    expect(d3d.getPagingStats()).toMatchObject({ evictions: 1, evictedBytes: 3 * TILE, restores: 0 });
  });

  test('an object twice in one call counts twice', ({ d3d }) => {
    const heap = defaultHeap(d3d, 1);
    d3d.makeResident([heap, heap]);
    d3d.evict([heap, heap]);
    expect(heap.resident).toBe(true);
    d3d.evict([heap]);
    expect(heap.resident).toBe(false);
  });

  test('evicting more times than made resident is E_INVALIDARG and changes nothing', ({ d3d }) => {
    const a = defaultHeap(d3d, 1);
    const b = defaultHeap(d3d, 2);
    b.setName('b');
    expectD3D12Error(() => d3d.evict([a, b, b]), {
      call: 'evict',
      argument: 'objects',
      message: /heap #\d+ 'b' would be evicted more times than it was made resident \(count 1\)/,
    });
    expect([a.resident, b.resident, usage(d3d)]).toEqual([true, true, 3 * TILE]);
    d3d.evict([a, b]);
    expect([a.resident, b.resident, usage(d3d)]).toEqual([false, false, 0]);
    expectD3D12Error(() => d3d.evict([a]), {
      call: 'evict',
      argument: 'objects',
      message: /more times than it was made resident \(count 0\)/,
    });
    expect(d3d.getPagingStats().evictions).toBe(2);
  });

  test('a committed resource pages with its implicit heap', ({ d3d }) => {
    const committed = committedBuffer(d3d, 2);
    d3d.evict([committed]);
    expect([committed.heap?.resident, usage(d3d)]).toEqual([false, 0]);
    d3d.makeResident([committed]);
    expect([committed.heap?.resident, usage(d3d)]).toEqual([true, 2 * TILE]);
  });

  test('CREATE_NOT_RESIDENT: starts evicted at count 0 with no usage; makeResident pages it in, reading zero', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heap = defaultHeap(d3d, 2, true);
    const buffer = placedBuffer(d3d, heap);
    const committed = committedBuffer(d3d, 1, true);
    expect([heap.resident, committed.heap?.resident, usage(d3d)]).toEqual([false, false, 0]);
    expectD3D12Error(() => d3d.evict([heap]), { call: 'evict', argument: 'objects', message: /\(count 0\)/ });
    d3d.makeResident([heap, committed]);
    expect([heap.resident, committed.heap?.resident, usage(d3d)]).toEqual([true, true, 3 * TILE]);
    expectBytes(
      await readBuffer(d3d, queue, buffer, 0, 2 * TILE),
      new Uint8Array(2 * TILE),
      'heap created not resident',
    );
    expectBytes(
      await readBuffer(d3d, queue, committed, 0, TILE),
      new Uint8Array(TILE),
      'committed resource created not resident',
    );
    d3d.evict([heap, committed]);
    expect([heap.resident, committed.heap?.resident, usage(d3d)]).toEqual([false, false, 0]);
  });

  test('evicted objects keep their GPU virtual addresses and their bytes', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heap = defaultHeap(d3d, 2);
    const buffer = placedBuffer(d3d, heap);
    const data = pattern(2 * TILE, 5);
    await write(d3d, queue, buffer, data);
    const address = buffer.getGPUVirtualAddress();
    d3d.evict([heap]);
    await flush(d3d, queue);
    expect(buffer.getGPUVirtualAddress()).toBe(address);
    d3d.makeResident([heap]);
    expect(buffer.getGPUVirtualAddress()).toBe(address);
    expectBytes(await readBuffer(d3d, queue, buffer, 0, 2 * TILE), data, 'after evict and makeResident');
  });
});

describe('makeResident: out of memory', () => {
  test('E_OUTOFMEMORY with the numbers when the pool cannot hold the objects; nothing changes', async ({ device }) => {
    const d3d = await otherDevice(device, { localMemoryBytes: 1 * MIB });
    try {
      // NON_LOCAL set aside for others: nothing can be demoted there, so LOCAL's pool is all there is
      // (with room in NON_LOCAL the OS demotes instead: residency-demotion.test.ts).
      d3d.setVideoMemoryReservation('NON_LOCAL', 4 * MIB);
      const a = defaultHeap(d3d, 12);
      const b = defaultHeap(d3d, 8, true);
      const c = defaultHeap(d3d, 2, true);
      expectD3D12Error(() => d3d.makeResident([b]), {
        hresult: 'E_OUTOFMEMORY',
        call: 'makeResident',
        argument: 'objects',
        message:
          /making these objects resident needs 524288 bytes of LOCAL memory and 262144 are free \(evict something first\); demotion cannot make the room either \(0 bytes of NON_LOCAL memory are free within its budget\)/,
      });
      // All or nothing: c would fit alone, but is not made resident with b.
      expectD3D12Error(() => d3d.makeResident([c, b]), {
        hresult: 'E_OUTOFMEMORY',
        call: 'makeResident',
        argument: 'objects',
        message: /needs 655360 bytes .* 262144 are free/,
      });
      expect([a.resident, b.resident, c.resident, usage(d3d)]).toEqual([true, false, false, 12 * TILE]);
      // Counts unchanged: b and c are still at 0.
      expectD3D12Error(() => d3d.evict([b]), { call: 'evict', message: /\(count 0\)/ });
      expectD3D12Error(() => d3d.evict([c]), { call: 'evict', message: /\(count 0\)/ });
      expect(d3d.getPagingStats().restores).toBe(0);
      // Control: after evicting a, b fits.
      d3d.evict([a]);
      d3d.makeResident([b, c]);
      expect([a.resident, b.resident, c.resident, usage(d3d)]).toEqual([false, true, true, 10 * TILE]);
      // a no longer fits (6 tiles free of 16): the numbers follow.
      expectD3D12Error(() => d3d.makeResident([a]), {
        hresult: 'E_OUTOFMEMORY',
        message: /needs 786432 bytes of LOCAL memory and 393216 are free/,
      });
    } finally {
      d3d.destroy();
    }
  });
});

describe('enqueueMakeResident', () => {
  test.for([['ALLOW_OVERBUDGET'], [''], [null], [0], ['none']])('flags %j is refused', ([flags], { d3d }) => {
    const heap = defaultHeap(d3d, 1, true);
    const fence = d3d.createFence(0);
    expectD3D12Error(() => d3d.enqueueMakeResident(loose(flags), [heap], fence, 1), {
      call: 'enqueueMakeResident',
      argument: 'flags',
      message: /must be NONE or DENY_OVERBUDGET/,
    });
    expect([heap.resident, fence.getCompletedValue(), usage(d3d)]).toEqual([false, 0, 0]);
  });

  test("fenceToSignal: missing, not a fence, or another device's, is refused", async ({ d3d, device }) => {
    const heap = defaultHeap(d3d, 1, true);
    const other = await otherDevice(device);
    try {
      const foreign = other.createFence(0);
      for (const fence of [undefined, null, {}, foreign]) {
        expectD3D12Error(() => d3d.enqueueMakeResident('NONE', [heap], loose(fence), 1), {
          call: 'enqueueMakeResident',
          argument: 'fenceToSignal',
          message: /must be a fence created by this device/,
        });
      }
      expect([heap.resident, foreign.getCompletedValue(), usage(d3d)]).toEqual([false, 0, 0]);
    } finally {
      other.destroy();
    }
  });

  test.for([[-1], [1.5], ['1'], [2 ** 53], [NaN], [undefined]])(
    'fenceValueToSignal %j is refused',
    ([value], { d3d }) => {
      const heap = defaultHeap(d3d, 1, true);
      const fence = d3d.createFence(0);
      expectD3D12Error(() => d3d.enqueueMakeResident('NONE', [heap], fence, loose(value)), {
        call: 'enqueueMakeResident',
        argument: 'fenceValueToSignal',
        message: /must be a non-negative integer \(a fence value\)/,
      });
      expect([heap.resident, fence.getCompletedValue(), usage(d3d)]).toEqual([false, 0, 0]);
    },
  );

  test('signals the fence with the value once the objects are resident, after the work queued before it', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(8 * TILE, 9);
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: 8 * TILE },
      'COPY_DEST',
    );
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(readback, 0, uploadBuffer(d3d, data), 0, 8 * TILE);
    list.close();
    queue.executeCommandLists([list]);
    const heap = defaultHeap(d3d, 4, true);
    const fence = d3d.createFence(3);
    d3d.enqueueMakeResident('NONE', [heap], fence, 7);
    expect(heap.resident).toBe(true);
    expect(usage(d3d)).toBe(4 * TILE);
    await fence.setEventOnCompletion(7);
    expect(fence.getCompletedValue()).toBe(7);
    // The work before it is done, its results visible.
    expectBytes(readback.map().slice(), data, 'the copy queued before enqueueMakeResident');
    readback.unmap();
    // The heap is usable (and reads zero).
    const buffer = placedBuffer(d3d, heap);
    expectBytes(await readBuffer(d3d, queue, buffer, 0, 4 * TILE), new Uint8Array(4 * TILE), 'made resident');
  });

  test('DENY_OVERBUDGET fails with E_OUTOFMEMORY rather than go over budget; NONE goes over; at the budget exactly both succeed', async ({
    d3d,
  }) => {
    // LOCAL budget 2 MiB (32 tiles), pool 4 MiB.
    const a = defaultHeap(d3d, 24);
    const b = defaultHeap(d3d, 12, true);
    expect(a.resident).toBe(true);
    const c = defaultHeap(d3d, 8, true);
    const fence = d3d.createFence(0);
    expectD3D12Error(() => d3d.enqueueMakeResident('DENY_OVERBUDGET', [b], fence, 1), {
      hresult: 'E_OUTOFMEMORY',
      call: 'enqueueMakeResident',
      argument: 'flags',
      message:
        /DENY_OVERBUDGET: making these objects resident needs 786432 bytes of LOCAL memory; usage is 1572864 of a 2097152-byte budget/,
    });
    expect([b.resident, usage(d3d)]).toEqual([false, 24 * TILE]);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    await flush(d3d, queue);
    expect(fence.getCompletedValue()).toBe(0);
    // Exactly at the budget: allowed.
    d3d.enqueueMakeResident('DENY_OVERBUDGET', [c], fence, 1);
    await fence.setEventOnCompletion(1);
    expect([c.resident, usage(d3d), d3d.queryVideoMemoryInfo('LOCAL').budget]).toEqual([true, 32 * TILE, 32 * TILE]);
    // NONE succeeds "regardless of the application's current memory budget": the process is over
    // its LOCAL budget (44 tiles of 32), so the OS demotes, within one priority the least recently
    // made resident first: a (24 tiles) moves to NON_LOCAL, still resident.
    d3d.enqueueMakeResident('NONE', [b], fence, 2);
    await fence.setEventOnCompletion(2);
    expect([b.resident, a.resident, d3d.getResidencyStatus(a).demoted, d3d.getResidencyStatus(b).demoted]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect([usage(d3d), usage(d3d, 'NON_LOCAL')]).toEqual([20 * TILE, 24 * TILE]);
  });

  test('with nothing to page in, DENY_OVERBUDGET succeeds even over budget (no new memory) and signals', async ({
    d3d,
  }) => {
    // 40 tiles over a 32-tile LOCAL budget: created demoted (resident in NON_LOCAL).
    const a = defaultHeap(d3d, 40);
    expect([a.resident, d3d.getResidencyStatus(a).demoted, usage(d3d), usage(d3d, 'NON_LOCAL')]).toEqual([
      true,
      true,
      0,
      40 * TILE,
    ]);
    const fence = d3d.createFence(0);
    d3d.enqueueMakeResident('DENY_OVERBUDGET', [a], fence, 4);
    await fence.setEventOnCompletion(4);
    expect([a.resident, usage(d3d), usage(d3d, 'NON_LOCAL')]).toEqual([true, 0, 40 * TILE]);
    // The call counted: two evicts now page it out.
    d3d.evict([a]);
    expect(a.resident).toBe(true);
    d3d.evict([a]);
    expect(a.resident).toBe(false);
  });
});

describe('setResidencyPriority', () => {
  test('names and 32-bit numbers set D3D12_RESIDENCY_PRIORITY values', ({ d3d }) => {
    const heaps = [0, 1, 2, 3, 4, 5, 6].map(() => defaultHeap(d3d, 1));
    const committed = committedBuffer(d3d, 1);
    expect(heaps[0]?.residencyPriority).toBe(0x78000000); // NORMAL by default
    d3d.setResidencyPriority(
      [...heaps, committed],
      ['MINIMUM', 'LOW', 'NORMAL', 'HIGH', 'MAXIMUM', 0, 0xffffffff, 0x12345678],
    );
    expect([...heaps.map((h) => h.residencyPriority), committed.heap?.residencyPriority]).toEqual([
      0x28000000, 0x50000000, 0x78000000, 0xa0010000, 0xc8000000, 0, 0xffffffff, 0x12345678,
    ]);
    expect(RESIDENCY_PRIORITIES).toEqual({
      MINIMUM: 0x28000000,
      LOW: 0x50000000,
      NORMAL: 0x78000000,
      HIGH: 0xa0010000,
      MAXIMUM: 0xc8000000,
    });
    // Priorities are not residency.
    expect(heaps.every((h) => h.resident)).toBe(true);
    d3d.setResidencyPriority([], []);
  });

  test('priorities: not one per object is refused', ({ d3d }) => {
    const heaps = [defaultHeap(d3d, 1), defaultHeap(d3d, 1)];
    for (const priorities of [['HIGH'], ['HIGH', 'HIGH', 'HIGH'], [], null, 'HIGH']) {
      expectD3D12Error(() => d3d.setResidencyPriority(heaps, loose(priorities)), {
        call: 'setResidencyPriority',
        argument: 'priorities',
        message: /must be an array with one priority per object \(2\)/,
      });
    }
    expect(heaps.map((h) => h.residencyPriority)).toEqual([0x78000000, 0x78000000]);
  });

  test.for([['HIGHEST'], ['normal'], [-1], [2 ** 32], [1.5], [null], [NaN], [RESIDENCY_PRIORITIES]])(
    'priority %j is refused and nothing changes',
    ([bad], { d3d }) => {
      const heaps = [defaultHeap(d3d, 1), defaultHeap(d3d, 1)];
      expectD3D12Error(() => d3d.setResidencyPriority(heaps, ['HIGH', loose(bad)]), {
        call: 'setResidencyPriority',
        argument: 'priorities[1]',
        message: /must be MINIMUM, LOW, NORMAL, HIGH, MAXIMUM or a 32-bit value/,
      });
      expect(heaps.map((h) => h.residencyPriority)).toEqual([0x78000000, 0x78000000]);
    },
  );

  test('objects follow the pageable rules (a placed resource pages with its heap)', ({ d3d }) => {
    const heap = defaultHeap(d3d, 2);
    const placed = placedBuffer(d3d, heap, TILE);
    expectD3D12Error(() => d3d.setResidencyPriority([heap, placed], ['HIGH', 'HIGH']), {
      call: 'setResidencyPriority',
      argument: 'objects[1]',
      message: /pages with its heap/,
    });
    expectD3D12Error(() => d3d.setResidencyPriority(loose(heap), ['HIGH']), {
      call: 'setResidencyPriority',
      argument: 'objects',
    });
    expect(heap.residencyPriority).toBe(0x78000000);
  });
});

describe('queryVideoMemoryInfo / setVideoMemoryReservation', () => {
  test('budget, usage, available and reservation of each segment', ({ d3d }) => {
    expect(d3d.queryVideoMemoryInfo('LOCAL')).toEqual({
      budget: 2 * MIB,
      currentUsage: 0,
      availableForReservation: 2 * MIB,
      currentReservation: 0,
    });
    expect(d3d.queryVideoMemoryInfo('NON_LOCAL')).toEqual({
      budget: 4 * MIB,
      currentUsage: 0,
      availableForReservation: 4 * MIB,
      currentReservation: 0,
    });
    // Usage counts resident heaps in whole pages, in the heap's segment.
    d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: 100 }, 'COMMON');
    d3d.createCommittedResource({ type: 'UPLOAD' }, [], { dimension: 'BUFFER', width: TILE + 4 }, 'GENERIC_READ');
    d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: 4 }, 'COPY_DEST');
    expect([usage(d3d), usage(d3d, 'NON_LOCAL')]).toEqual([TILE, 3 * TILE]);
  });

  test("videoMemoryInfo: an object given is filled and returned (D3D12's out pointer: polling allocates nothing); anything else is refused", ({
    d3d,
  }) => {
    const out = { budget: -1, currentUsage: -1, availableForReservation: -1, currentReservation: -1 };
    expect(d3d.queryVideoMemoryInfo('LOCAL', out)).toBe(out);
    expect(out).toEqual(d3d.queryVideoMemoryInfo('LOCAL'));
    expect(d3d.queryVideoMemoryInfo('NON_LOCAL', out)).toEqual({
      budget: 4 * MIB,
      currentUsage: 0,
      availableForReservation: 4 * MIB,
      currentReservation: 0,
    });
    for (const bad of [null, 7, 'info', []]) {
      expectD3D12Error(() => d3d.queryVideoMemoryInfo('LOCAL', loose(bad)), {
        call: 'queryVideoMemoryInfo',
        argument: 'videoMemoryInfo',
        message: /must be an object to fill, or omitted/,
      });
    }
    // A bad segment is reported first; the object given is left as it was.
    const untouched = { budget: -1, currentUsage: -1, availableForReservation: -1, currentReservation: -1 };
    expectD3D12Error(() => d3d.queryVideoMemoryInfo(loose('SYSTEM'), untouched), { argument: 'memorySegmentGroup' });
    expect(untouched.budget).toBe(-1);
  });

  test('a configured budget above the pool is the pool', async ({ device }) => {
    const d3d = await otherDevice(device, { localMemoryBudget: 64 * MIB, nonLocalMemoryBudget: MIB });
    try {
      expect(d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({ budget: 4 * MIB, availableForReservation: 4 * MIB });
      expect(d3d.queryVideoMemoryInfo('NON_LOCAL')).toMatchObject({ budget: MIB, availableForReservation: MIB });
    } finally {
      d3d.destroy();
    }
  });

  test.for([['local'], [null], [0], [undefined], ['SYSTEM']])('segment %j is refused', ([segment], { d3d }) => {
    expectD3D12Error(() => d3d.queryVideoMemoryInfo(loose(segment)), {
      call: 'queryVideoMemoryInfo',
      argument: 'memorySegmentGroup',
      message: /must be LOCAL or NON_LOCAL/,
    });
    expectD3D12Error(() => d3d.setVideoMemoryReservation(loose(segment), 0), {
      call: 'setVideoMemoryReservation',
      argument: 'memorySegmentGroup',
      message: /must be LOCAL or NON_LOCAL/,
    });
  });

  test('a reservation lowers the budget, from 0 up to availableForReservation', ({ d3d }) => {
    d3d.setVideoMemoryReservation('LOCAL', 0);
    expect(d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({ budget: 2 * MIB, currentReservation: 0 });
    d3d.setVideoMemoryReservation('LOCAL', MIB + 12345);
    expect(d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({
      budget: MIB - 12345,
      currentReservation: MIB + 12345,
      availableForReservation: 2 * MIB,
    });
    d3d.setVideoMemoryReservation('LOCAL', 2 * MIB);
    expect(d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({ budget: 0, currentReservation: 2 * MIB });
    // Segments are separate.
    expect(d3d.queryVideoMemoryInfo('NON_LOCAL')).toMatchObject({ budget: 4 * MIB, currentReservation: 0 });
    d3d.setVideoMemoryReservation('NON_LOCAL', MIB);
    expect(d3d.queryVideoMemoryInfo('NON_LOCAL')).toMatchObject({ budget: 3 * MIB, currentReservation: MIB });
  });

  test.for([[2 * MIB + 1], [-1], [1.5], ['1024'], [NaN], [null], [Infinity]])(
    'reservation %j is refused and the reservation stays',
    ([bytes], { d3d }) => {
      d3d.setVideoMemoryReservation('LOCAL', MIB);
      expectD3D12Error(() => d3d.setVideoMemoryReservation('LOCAL', loose(bytes)), {
        call: 'setVideoMemoryReservation',
        argument: 'reservation',
        message: /must be an integer from 0 to availableForReservation \(2097152\)/,
      });
      expect(d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({ budget: MIB, currentReservation: MIB });
    },
  );
});

describe("setResidencyDebugBudget (UE's D3D12.ResidencyDebugBudgetMB)", () => {
  test('lowers every budget (never raises it), combines with the reservation; null clears it', ({ d3d }) => {
    d3d.setResidencyDebugBudget(MIB);
    expect([d3d.queryVideoMemoryInfo('LOCAL').budget, d3d.queryVideoMemoryInfo('NON_LOCAL').budget]).toEqual([
      MIB,
      MIB,
    ]);
    d3d.setResidencyDebugBudget(64 * MIB);
    expect([d3d.queryVideoMemoryInfo('LOCAL').budget, d3d.queryVideoMemoryInfo('NON_LOCAL').budget]).toEqual([
      2 * MIB,
      4 * MIB,
    ]);
    d3d.setResidencyDebugBudget(MIB);
    d3d.setVideoMemoryReservation('LOCAL', MIB / 4);
    expect(d3d.queryVideoMemoryInfo('LOCAL')).toMatchObject({
      budget: (3 * MIB) / 4,
      availableForReservation: 2 * MIB,
    });
    d3d.setVideoMemoryReservation('LOCAL', 2 * MIB);
    expect(d3d.queryVideoMemoryInfo('LOCAL').budget).toBe(0);
    d3d.setVideoMemoryReservation('LOCAL', 0);
    d3d.setResidencyDebugBudget(0);
    expect([d3d.queryVideoMemoryInfo('LOCAL').budget, d3d.queryVideoMemoryInfo('NON_LOCAL').budget]).toEqual([0, 0]);
    d3d.setResidencyDebugBudget(null);
    expect([d3d.queryVideoMemoryInfo('LOCAL').budget, d3d.queryVideoMemoryInfo('NON_LOCAL').budget]).toEqual([
      2 * MIB,
      4 * MIB,
    ]);
  });

  test.for([[-1], [1.5], ['128'], [undefined], [NaN], [Infinity]])(
    '%j is refused and the budget stays',
    ([bytes], { d3d }) => {
      d3d.setResidencyDebugBudget(MIB);
      expectD3D12Error(() => d3d.setResidencyDebugBudget(loose(bytes)), {
        call: 'setResidencyDebugBudget',
        argument: 'bytes',
        message: /must be a non-negative integer or null/,
      });
      expect(d3d.queryVideoMemoryInfo('LOCAL').budget).toBe(MIB);
    },
  );

  test('0 forces paging: the manager evicts everything outside each batch, and the bytes survive', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const manager = createResidencyManager(d3d, { clock: () => 0 });
    const heaps = [defaultHeap(d3d, 2), defaultHeap(d3d, 2)];
    const buffers = heaps.map((h) => placedBuffer(d3d, h));
    const data = heaps.map((_, i) => pattern(2 * TILE, 60 + i));
    for (const h of heaps) manager.beginTrackingObject(h);
    d3d.setResidencyDebugBudget(0);
    const run = async (i: number, record: (list: GraphicsCommandList) => void): Promise<void> => {
      const list = d3d.createCommandList('DIRECT');
      record(list);
      list.close();
      const set = manager.createResidencySet();
      set.open();
      set.insert(heaps[i]);
      set.close();
      manager.executeCommandLists(queue, [list], [set]);
      await flush(d3d, queue);
    };
    for (const i of [0, 1]) {
      await run(i, (list) =>
        list.copyBufferRegion(buffers[i] as Resource, 0, uploadBuffer(d3d, data[i] as Uint8Array), 0, 2 * TILE),
      );
      expect(heaps.map((h) => h.resident)).toEqual([i === 0, i === 1]);
    }
    for (const i of [0, 1, 0]) {
      const readback = d3d.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: 2 * TILE },
        'COPY_DEST',
      );
      await run(i, (list) => list.copyBufferRegion(readback, 0, buffers[i] as Resource, 0, 2 * TILE));
      expect(heaps.map((h) => h.resident)).toEqual([i === 0, i === 1]);
      expectBytes(readback.map().slice(), data[i] as Uint8Array, `heap ${i}`);
      readback.unmap();
      readback.release();
    }
    expect(d3d.getPagingStats()).toMatchObject({ evictions: 5, restores: 4 });
    expect(manager.getStats().lastOverBudget).toMatchObject({ budget: 0 });
    // Five batches, each over its (zero) budget: five over-budget batches.
    expect(manager.getStats()).toMatchObject({ evictions: 5, madeResident: 4, executions: 5, overBudgetBatches: 5 });
  });
});

describe('mapped memory stays resident', () => {
  for (const type of ['UPLOAD', 'READBACK'] as const) {
    test(`a mapped ${type} buffer stays resident after evict until unmapped, then usage drops`, ({ d3d }) => {
      const buffer = d3d.createCommittedResource(
        { type },
        [],
        { dimension: 'BUFFER', width: 2 * TILE },
        type === 'UPLOAD' ? 'GENERIC_READ' : 'COPY_DEST',
      );
      const before = usage(d3d, 'NON_LOCAL');
      const view = buffer.map();
      buffer.map(); // maps nest
      d3d.evict([buffer]);
      expect([buffer.heap?.resident, usage(d3d, 'NON_LOCAL')]).toEqual([true, before]);
      view.fill(7);
      buffer.unmap();
      expect(buffer.heap?.resident).toBe(true);
      buffer.unmap();
      expect([buffer.heap?.resident, usage(d3d, 'NON_LOCAL')]).toEqual([false, before - 2 * TILE]);
      expect(d3d.getPagingStats().evictions).toBe(1);
    });
  }

  test('made resident again before the unmap, it stays resident after it', ({ d3d }) => {
    const buffer = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'GENERIC_READ',
    );
    buffer.map();
    d3d.evict([buffer]);
    d3d.makeResident([buffer]);
    buffer.unmap();
    expect([buffer.heap?.resident, usage(d3d, 'NON_LOCAL')]).toEqual([true, TILE]);
    expect(d3d.getPagingStats()).toMatchObject({ evictions: 0, restores: 0 });
  });

  test('mapping an evicted resource pages it in with its bytes (as Dawn locks mapped heaps); the last unmap pages it out again', async ({
    d3d,
  }) => {
    const buffer = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: 2 * TILE },
      'GENERIC_READ',
    );
    const data = pattern(2 * TILE, 77);
    buffer.map().set(data);
    buffer.unmap();
    d3d.evict([buffer]);
    const evicted = usage(d3d, 'NON_LOCAL');
    await flush(d3d, d3d.createCommandQueue({ type: 'DIRECT' }));
    expect(buffer.heap?.resident).toBe(false);
    expectBytes(buffer.map().slice(), data, 'mapped while evicted');
    expect([buffer.mapCount, buffer.heap?.resident, buffer.heap?.residencyReferences, usage(d3d, 'NON_LOCAL')]).toEqual(
      [1, true, 0, evicted + 2 * TILE],
    );
    buffer.unmap();
    // The residency count is still 0: the heap goes back out.
    expect([buffer.heap?.resident, usage(d3d, 'NON_LOCAL')]).toEqual([false, evicted]);
    expect(d3d.getPagingStats()).toMatchObject({ evictions: 2, restores: 1 });
    d3d.makeResident([buffer]);
    expectBytes(buffer.map().slice(), data, 'mapped after makeResident');
    buffer.unmap();
    expect(buffer.heap?.resident).toBe(true);
  });

  test('mapping an evicted resource when its pool is full is E_OUTOFMEMORY and changes nothing; with room, it maps', async ({
    d3d,
  }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'UPLOAD' } });
    const buffer = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'GENERIC_READ');
    d3d.evict([heap]);
    const filler = d3d.createHeap({ sizeInBytes: 4 * MIB, properties: { type: 'UPLOAD' } }); // the whole 4 MiB NON_LOCAL pool
    const before = [usage(d3d, 'NON_LOCAL'), d3d.getPagingStats().restores, heap.resident, heap.residencyLocks];
    expectD3D12Error(() => buffer.map(), {
      call: 'Resource.map',
      argument: 'this',
      hresult: 'E_OUTOFMEMORY',
      message: /heap #\d+ is evicted, and paging it in to map it needs 65536 bytes of NON_LOCAL memory; 0 are free/,
    });
    expect([usage(d3d, 'NON_LOCAL'), d3d.getPagingStats().restores, heap.resident, heap.residencyLocks]).toEqual(
      before,
    );
    expect(buffer.mapCount).toBe(0);
    filler.release();
    await flush(d3d, d3d.createCommandQueue({ type: 'DIRECT' }));
    expect(buffer.map()).toHaveLength(TILE);
    expect(heap.resident).toBe(true);
    buffer.unmap();
    expect(heap.resident).toBe(false);
  });
});

const WRITER = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u), 0xabcdu);
}
`;

interface FaultRig {
  d3d: Device;
  queue: CommandQueue;
  heap: Heap;
  source: Resource;
  readback: Resource;
  data: Uint8Array;
  list: GraphicsCommandList;
}

/** A heap written with `data`, evicted, and a named list that copies from it (not yet executed). */
async function faultRig(gpuDevice: GPUDevice, onPageFault: 'remove-device' | 'report'): Promise<FaultRig> {
  const d3d = await otherDevice(gpuDevice, { onPageFault });
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const heap = defaultHeap(d3d, 2);
  heap.setName('evicted heap');
  const source = placedBuffer(d3d, heap);
  source.setName('src');
  const data = pattern(2 * TILE, 88);
  await write(d3d, queue, source, data);
  d3d.evict([heap]);
  const readback = d3d.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: 2 * TILE },
    'COPY_DEST',
  );
  const list = d3d.createCommandList('DIRECT');
  list.setName('copy list');
  list.copyBufferRegion(readback, 0, source, 0, 2 * TILE);
  list.close();
  return { d3d, queue, heap, source, readback, data, list };
}

function expectCopyFault(fault: FaultReport | undefined, rig: FaultRig): void {
  expect(fault).toBeDefined();
  const f = fault as FaultReport;
  expect(f.kind).toBe('read-absent');
  const start = rig.source.getGPUVirtualAddress();
  expect(f.resource).toEqual({
    id: rig.source.id,
    name: 'src',
    label: rig.source.label,
    kind: 'placed',
    dimension: 'BUFFER',
    addressRange: { start: `0x${start.toString(16)}`, end: `0x${(start + BigInt(2 * TILE)).toString(16)}` },
    released: false,
    offset: Number(BigInt(f.address) - start),
    tile: 0,
    coordinate: { x: 0, y: 0, z: 0, subresource: 0 },
  });
  expect(f.heap).toEqual({ id: rig.heap.id, name: 'evicted heap', label: rig.heap.label, state: 'evicted' });
  expect(f.command).toEqual({ index: 0, name: 'copyBufferRegion' });
  expect(f.commandList).toEqual({ id: rig.list.id, label: rig.list.label });
  expect(f.commandList.label).toMatch(/^DIRECT command list #\d+ 'copy list'$/);
  expect(f.message).toMatch(
    /^GPU page fault: read of a page whose heap has no memory 0x[0-9a-f]+ \(placed resource #\d+ 'src' tile 0, heap #\d+ 'evicted heap'\) by command 0 \(copyBufferRegion\) of DIRECT command list #\d+ 'copy list'/,
  );
  // Plain data: it survives JSON unchanged.
  expect(JSON.parse(JSON.stringify(f))).toEqual(f);
}

describe('device removal: the GPU touching an evicted heap', () => {
  test('a copy from an evicted heap removes the device (DXGI_ERROR_DEVICE_HUNG) with a report naming resource, tile, heap, list and command', async ({
    device,
  }) => {
    const rig = await faultRig(device, 'remove-device');
    const { d3d, queue } = rig;
    try {
      const unsignalled = d3d.createFence(0);
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
      expect(d3d.getPageFaultReport()).toBeNull();
      queue.executeCommandLists([rig.list]);
      await flush(d3d, queue);
      expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_HUNG');
      const report = d3d.getPageFaultReport();
      expect(report).not.toBeNull();
      expectCopyFault(report?.faults[0], rig);
      expect(report?.message).toBe(report?.faults[0]?.message);

      // Fences complete, so nothing waits forever.
      await unsignalled.setEventOnCompletion(1_000_000);
      expect(unsignalled.getCompletedValue()).toBe(Number.MAX_SAFE_INTEGER);

      // Later calls: DXGI_ERROR_DEVICE_REMOVED, naming the call.
      const removed = {
        hresult: 'DXGI_ERROR_DEVICE_REMOVED',
        argument: 'this',
        message: /the device was removed: GPU page fault: read of a page whose heap has no memory/,
      };
      expectD3D12Error(() => d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } }), {
        ...removed,
        call: 'createHeap',
      });
      expectD3D12Error(() => committedBuffer(d3d, 1), { ...removed, call: 'createCommittedResource' });
      expectD3D12Error(() => d3d.createCommandList('DIRECT'), { ...removed, call: 'createCommandList' });
      expectD3D12Error(() => queue.executeCommandLists([rig.list]), { ...removed, call: 'executeCommandLists' });
      expectD3D12Error(() => d3d.makeResident([rig.heap]), { ...removed, call: 'makeResident' });
      expectD3D12Error(() => d3d.evict([rig.readback]), { ...removed, call: 'evict' });
      expectD3D12Error(() => d3d.enqueueMakeResident('NONE', [rig.heap], unsignalled, 1), {
        ...removed,
        call: 'enqueueMakeResident',
      });
      expectD3D12Error(() => d3d.createFence(0), { ...removed, call: 'createFence' });
      expectD3D12Error(() => queue.signal(unsignalled, 5), { ...removed, call: 'signal' });
      expect(rig.heap.resident).toBe(false);
      const manager = createResidencyManager(d3d);
      expectD3D12Error(() => manager.executeCommandLists(queue, [rig.list], [null]), {
        ...removed,
        call: 'ResidencyManager.executeCommandLists',
      });
    } finally {
      d3d.destroy();
    }
  });

  test('a dispatch writing an evicted heap removes the device; the report names tile 1 and command 2', async ({
    device,
  }) => {
    const d3d = await otherDevice(device);
    try {
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const heap = defaultHeap(d3d, 2);
      heap.setName('target heap');
      const target = placedBuffer(d3d, heap);
      target.setName('target');
      d3d.evict([heap]);
      const pso = await d3d.createComputePipelineState({ code: WRITER, entryPoint: 'main' });
      const list = d3d.createCommandList('DIRECT');
      list.setName('writer');
      list.setPipelineState(pso);
      list.setComputeRootUnorderedAccessView(1, target.getGPUVirtualAddress() + BigInt(TILE));
      list.dispatch(1);
      list.close();
      const fence = d3d.createFence(0);
      queue.executeCommandLists([list]);
      queue.signal(fence, 1);
      await fence.setEventOnCompletion(1);
      expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_HUNG');
      const fault = d3d.getPageFaultReport()?.faults[0];
      expect(fault).toMatchObject({
        kind: 'write-absent',
        resource: { id: target.id, name: 'target', tile: 1 },
        command: { index: 2, name: 'dispatch' },
      });
      expect(fault?.heap).toMatchObject({ id: heap.id, name: 'target heap', state: 'evicted' });
      expect(fault?.message).toMatch(
        /write to a page whose heap has no memory .*placed resource #\d+ 'target' tile 1, heap #\d+ 'target heap'.* by command 2 \(dispatch\) of DIRECT command list #\d+ 'writer'/,
      );
      expectD3D12Error(() => d3d.makeResident([heap]), {
        hresult: 'DXGI_ERROR_DEVICE_REMOVED',
        call: 'makeResident',
        argument: 'this',
      });
    } finally {
      d3d.destroy();
    }
  });

  test("onPageFault: 'report' keeps the device working; readFaults() returns the same report, once", async ({
    device,
  }) => {
    const removedRig = await faultRig(device, 'remove-device');
    let removedReport: FaultReport | undefined;
    try {
      removedRig.queue.executeCommandLists([removedRig.list]);
      await flush(removedRig.d3d, removedRig.queue);
      removedReport = removedRig.d3d.getPageFaultReport()?.faults[0];
    } finally {
      removedRig.d3d.destroy();
    }

    const rig = await faultRig(device, 'report');
    const { d3d, queue } = rig;
    try {
      queue.executeCommandLists([rig.list]);
      await flush(d3d, queue);
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
      expect(d3d.getPageFaultReport()).toBeNull();
      const faults = await d3d.readFaults();
      expect(faults.length).toBeGreaterThan(0);
      expectCopyFault(faults[0], rig);
      // The same report the removing device gave (the two devices made the same objects in the same
      // order); which faulting address is recorded first varies between runs, its tile does not.
      const withoutAddress = (message: string | undefined): string | undefined =>
        message?.replace(/0x[0-9a-f]+/, '0x…');
      expect(withoutAddress(faults[0]?.message)).toBe(withoutAddress(removedReport?.message));
      expect(faults[0]).toMatchObject({
        kind: removedReport?.kind,
        resource: { tile: removedReport?.resource?.tile },
        command: removedReport?.command,
        commandList: { label: removedReport?.commandList.label },
      });
      for (const f of faults) {
        const address = BigInt(f.address);
        expect(
          address >= rig.source.getGPUVirtualAddress() && address < rig.source.getGPUVirtualAddress() + BigInt(TILE),
          `fault at ${f.address} in tile 0`,
        ).toBe(true);
      }
      expect(await d3d.readFaults()).toEqual([]);

      // The device works: page the heap back in and read its bytes.
      d3d.makeResident([rig.heap]);
      expectBytes(await readBuffer(d3d, queue, rig.source, 0, 2 * TILE), rig.data, 'after makeResident');
      expect(await d3d.readFaults()).toEqual([]);
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
    } finally {
      d3d.destroy();
    }
  });
});
