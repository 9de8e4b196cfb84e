/**
 * The residency manager (d3dx12residency.h) on a CPU-only device, where the residency bookkeeping
 * works without a GPU: createResidencyManager's options, beginTrackingObject / endTrackingObject,
 * ResidencySet's open → insert → close rules with O(1) de-duplication, and executeCommandLists'
 * argument checks. CTS style: one invalid argument at a time next to a valid control, and after
 * every failure a check that nothing changed. Executions need a GPU: see
 * test/gpu/operation/d3d12/residency-manager.test.ts (paging, splits, over-budget batches, trimming).
 */
import { describe, expect, test } from 'vitest';
import {
  createDevice,
  createResidencyManager,
  ResidencySet,
  type Device,
  type Heap,
  type ResidencyManager,
  type ResidencyStats,
  type Resource,
} from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';

const MIB = 2 ** 20;
const loose = (value: unknown): never => value as never;

const cpuDevice = (): Promise<Device> =>
  createDevice({
    gpuDevice: null,
    localMemoryBytes: 4 * MIB,
    nonLocalMemoryBytes: 4 * MIB,
    localMemoryBudget: 2 * MIB,
  });

const heap = (device: Device, tiles = 1, flags: ('CREATE_NOT_RESIDENT' | 'NONE')[] = []): Heap =>
  device.createHeap({ sizeInBytes: tiles * TILE, properties: { type: 'DEFAULT' }, flags });

const committed = (device: Device, width = TILE): Resource =>
  device.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, 'COMMON');

const usage = (device: Device): number => device.queryVideoMemoryInfo('LOCAL').currentUsage;

const ZERO_STATS: ResidencyStats = {
  tracked: 0,
  evictions: 0,
  evictedBytes: 0,
  trimmed: 0,
  madeResident: 0,
  madeResidentBytes: 0,
  splits: 0,
  overBudgetBatches: 0,
  lastOverBudget: null,
  executions: 0,
};

async function setup(): Promise<{ device: Device; manager: ResidencyManager }> {
  const device = await cpuDevice();
  return { device, manager: createResidencyManager(device) };
}

describe('createResidencyManager: options', () => {
  test('controls: no options, an empty object, clock given, maxLatency undefined; a new manager tracks nothing', async () => {
    const device = await cpuDevice();
    expect(createResidencyManager(device).getStats()).toEqual(ZERO_STATS);
    expect(createResidencyManager(device, {}).getStats()).toEqual(ZERO_STATS);
    expect(createResidencyManager(device, { clock: () => 0 }).getStats()).toEqual(ZERO_STATS);
    expect(createResidencyManager(device, loose({ maxLatency: undefined, clock: () => 0 })).getStats()).toEqual(
      ZERO_STATS,
    );
  });

  // d3dx12residency's MaxLatency bounds the paging work queued for its worker thread, which a queued
  // MakeResident (as this device pages) never uses: the option is refused, whatever its value, rather
  // than accepted and ignored.
  test.each([1, 3, 0xffffffff, 0, '3', null])('maxLatency %j is refused as unsupported', async (maxLatency) => {
    const device = await cpuDevice();
    expectD3D12Error(() => createResidencyManager(device, loose({ maxLatency, clock: () => 0 })), {
      call: 'createResidencyManager',
      argument: 'options.maxLatency',
      message:
        /is not supported: d3dx12residency reads MaxLatency only to bound the paging work queued for its worker thread/,
    });
  });

  test.each([null, undefined, {}, 'device', 5])('device %j (not a Device) is rejected', async (device) => {
    await cpuDevice();
    expectD3D12Error(() => createResidencyManager(loose(device)), {
      call: 'createResidencyManager',
      argument: 'device',
      message: /must be a Device/,
    });
  });

  test.each([null, 'options', 5, true, []])('options %j (not an object) are rejected', async (options) => {
    const device = await cpuDevice();
    expectD3D12Error(() => createResidencyManager(device, loose(options)), {
      call: 'createResidencyManager',
      argument: 'options',
      message: /must be an object/,
    });
  });

  test.each([0, 'now', null, {}])('clock %j (not a function) is rejected', async (clock) => {
    const device = await cpuDevice();
    expectD3D12Error(() => createResidencyManager(device, { clock: loose(clock) }), {
      call: 'createResidencyManager',
      argument: 'options.clock',
      message: /function returning milliseconds/,
    });
  });

  test('getStats returns a copy', async () => {
    const { device, manager } = await setup();
    const stats = manager.getStats();
    stats.tracked = 99;
    manager.beginTrackingObject(heap(device));
    expect(manager.getStats().tracked).toBe(1);
  });
});

describe('beginTrackingObject / endTrackingObject', () => {
  test('controls: heaps and committed resources, resident or not; tracking changes no residency', async () => {
    const { device, manager } = await setup();
    const a = heap(device, 2);
    const b = heap(device, 3, ['CREATE_NOT_RESIDENT']);
    const c = committed(device, 4 * TILE);
    const before = usage(device);
    expect(before).toBe(6 * TILE);
    manager.beginTrackingObject(a);
    manager.beginTrackingObject(b);
    manager.beginTrackingObject(c);
    expect(manager.getStats().tracked).toBe(3);
    expect(usage(device)).toBe(before);
    expect([a.resident, b.resident, c.heap?.resident]).toEqual([true, false, true]);
    manager.endTrackingObject(b);
    manager.endTrackingObject(c);
    expect(manager.getStats().tracked).toBe(1);
    expect(usage(device)).toBe(before);
    expect([a.resident, b.resident, c.heap?.resident]).toEqual([true, false, true]);
    // Tracked again after endTrackingObject.
    manager.beginTrackingObject(b);
    expect(manager.getStats().tracked).toBe(2);
  });

  test.each([
    ['null', (): unknown => null],
    ['undefined', (): unknown => undefined],
    ['a plain object', (): unknown => ({ resident: true })],
    ['a number', (): unknown => 1],
  ])('%s is not pageable', async (_name, value) => {
    const { manager } = await setup();
    expectD3D12Error(() => manager.beginTrackingObject(loose(value())), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: /must be a heap, committed resource or shader-visible descriptor heap of this device/,
    });
    expect(manager.getStats().tracked).toBe(0);
  });

  test('placed and reserved resources are not pageable (their heaps are); the heap is', async () => {
    const { device, manager } = await setup();
    const h = heap(device, 2);
    const placed = device.createPlacedResource(h, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    const reserved = device.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    for (const [resource, pages] of [
      [placed, 'its heap'],
      [reserved, 'the heaps its tiles map to'],
    ] as const) {
      expectD3D12Error(() => manager.beginTrackingObject(resource), {
        call: 'ResidencyManager.beginTrackingObject',
        argument: 'pageable',
        message: new RegExp(
          `is not pageable: a ${resource === placed ? 'placed' : 'reserved'} resource pages with ${pages}`,
        ),
      });
    }
    expect(manager.getStats().tracked).toBe(0);
    manager.beginTrackingObject(h);
    expect(manager.getStats().tracked).toBe(1);
  });

  test("a committed resource's implicit heap is not an API object; the resource is", async () => {
    const { device, manager } = await setup();
    const c = committed(device);
    expectD3D12Error(() => manager.beginTrackingObject(c.heap as Heap), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: /heap, committed resource or shader-visible descriptor heap/,
    });
    manager.beginTrackingObject(c);
    expect(manager.getStats().tracked).toBe(1);
  });

  test('objects of another device are refused', async () => {
    const { manager } = await setup();
    const other = await cpuDevice();
    const released = [heap(other), committed(other)];
    for (const object of released) object.release();
    // Released or not, another device's object is refused for being another device's.
    for (const object of [heap(other), committed(other), ...released]) {
      expectD3D12Error(() => manager.beginTrackingObject(object), {
        call: 'ResidencyManager.beginTrackingObject',
        argument: 'pageable',
        message: /must be a heap, committed resource or shader-visible descriptor heap of this device/,
      });
    }
    expect(manager.getStats().tracked).toBe(0);
  });

  test('released heaps and committed resources are refused', async () => {
    const { device, manager } = await setup();
    const h = heap(device);
    h.setName('gone');
    h.release();
    expectD3D12Error(() => manager.beginTrackingObject(h), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: /heap #\d+ 'gone' was released/,
    });
    const c = committed(device);
    c.release();
    expectD3D12Error(() => manager.beginTrackingObject(c), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: /released/,
    });
    expect(manager.getStats().tracked).toBe(0);
  });

  test('tracking an object twice is refused, also through another reference to the same heap', async () => {
    const { device, manager } = await setup();
    const h = heap(device);
    h.setName('twice');
    manager.beginTrackingObject(h);
    expectD3D12Error(() => manager.beginTrackingObject(h), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: /heap #\d+ 'twice' is already tracked/,
    });
    const c = committed(device);
    manager.beginTrackingObject(c);
    expectD3D12Error(() => manager.beginTrackingObject(c), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: /already tracked/,
    });
    expect(manager.getStats().tracked).toBe(2);
  });

  test('two managers may track the same object', async () => {
    const { device, manager } = await setup();
    const second = createResidencyManager(device);
    const h = heap(device);
    manager.beginTrackingObject(h);
    second.beginTrackingObject(h);
    expect([manager.getStats().tracked, second.getStats().tracked]).toEqual([1, 1]);
  });

  test('endTrackingObject of an untracked object, or twice, is refused', async () => {
    const { device, manager } = await setup();
    const h = heap(device);
    expectD3D12Error(() => manager.endTrackingObject(h), {
      call: 'ResidencyManager.endTrackingObject',
      argument: 'pageable',
      message: /is not tracked by this manager/,
    });
    expectD3D12Error(() => manager.endTrackingObject(loose(null)), {
      call: 'ResidencyManager.endTrackingObject',
      argument: 'pageable',
      message: /not tracked/,
    });
    manager.beginTrackingObject(h);
    manager.endTrackingObject(h);
    expectD3D12Error(() => manager.endTrackingObject(h), {
      call: 'ResidencyManager.endTrackingObject',
      argument: 'pageable',
      message: /not tracked/,
    });
    expect(manager.getStats().tracked).toBe(0);
  });

  test('an object tracked by another manager is not tracked by this one', async () => {
    const { device, manager } = await setup();
    const second = createResidencyManager(device);
    const h = heap(device);
    second.beginTrackingObject(h);
    expectD3D12Error(() => manager.endTrackingObject(h), {
      call: 'ResidencyManager.endTrackingObject',
      argument: 'pageable',
      message: /not tracked/,
    });
    expect(second.getStats().tracked).toBe(1);
  });
});

describe('ResidencySet', () => {
  test('a new set is closed and empty, with its own id', async () => {
    const { manager } = await setup();
    const a = manager.createResidencySet();
    const b = manager.createResidencySet();
    expect(a).toBeInstanceOf(ResidencySet);
    expect([a.closed, a.size, b.closed, b.size]).toEqual([true, 0, true, 0]);
    expect(a.id).not.toBe(b.id);
  });

  test('control: open → insert → close holds the objects', async () => {
    const { device, manager } = await setup();
    const [h, c] = [heap(device), committed(device)];
    manager.beginTrackingObject(h);
    manager.beginTrackingObject(c);
    const set = manager.createResidencySet();
    set.open();
    expect(set.closed).toBe(false);
    set.insert(h);
    set.insert(c);
    set.close();
    expect([set.closed, set.size]).toEqual([true, 2]);
  });

  test('inserting into a set that was never opened, or after close, is E_INVALIDARG and adds nothing', async () => {
    const { device, manager } = await setup();
    const [h, g] = [heap(device), heap(device)];
    manager.beginTrackingObject(h);
    manager.beginTrackingObject(g);
    const set = manager.createResidencySet();
    expectD3D12Error(() => set.insert(h), {
      call: 'ResidencySet.insert',
      argument: 'this',
      message: new RegExp(`residency set #${set.id} is closed; open\\(\\) it before inserting`),
    });
    expect(set.size).toBe(0);
    set.open();
    set.insert(h);
    set.close();
    expectD3D12Error(() => set.insert(g), { call: 'ResidencySet.insert', argument: 'this', message: /is closed/ });
    expect([set.size, set.closed]).toEqual([1, true]);
  });

  test('inserting an object the manager does not track is E_INVALIDARG', async () => {
    const { device, manager } = await setup();
    const [tracked, untracked] = [heap(device), heap(device)];
    manager.beginTrackingObject(tracked);
    const set = manager.createResidencySet();
    set.open();
    for (const value of [untracked, committed(device), null, {}, 7]) {
      expectD3D12Error(() => set.insert(value), {
        call: 'ResidencySet.insert',
        argument: 'pageable',
        message: /is not tracked by this residency manager \(beginTrackingObject first\)/,
      });
    }
    // Tracked by another manager of the same device is not tracked by this one.
    const second = createResidencyManager(device);
    second.beginTrackingObject(untracked);
    expectD3D12Error(() => set.insert(untracked), {
      call: 'ResidencySet.insert',
      argument: 'pageable',
      message: /not tracked/,
    });
    // No longer tracked after endTrackingObject.
    set.insert(tracked);
    manager.endTrackingObject(tracked);
    expectD3D12Error(() => set.insert(tracked), {
      call: 'ResidencySet.insert',
      argument: 'pageable',
      message: /not tracked/,
    });
    expect(set.size).toBe(1);
    expect(set.closed).toBe(false);
  });

  test('placed and reserved resources cannot be inserted (their heap is)', async () => {
    const { device, manager } = await setup();
    const h = heap(device, 2);
    manager.beginTrackingObject(h);
    const placed = device.createPlacedResource(h, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    const reserved = device.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    const set = manager.createResidencySet();
    set.open();
    for (const resource of [placed, reserved]) {
      expectD3D12Error(() => set.insert(resource), {
        call: 'ResidencySet.insert',
        argument: 'pageable',
        message: /not tracked/,
      });
    }
    set.insert(h);
    expect(set.size).toBe(1);
  });

  test('O(1) de-duplication: inserting an object again keeps one entry', async () => {
    const { device, manager } = await setup();
    const [h, c] = [heap(device), committed(device)];
    manager.beginTrackingObject(h);
    manager.beginTrackingObject(c);
    const set = manager.createResidencySet();
    set.open();
    set.insert(h);
    set.insert(h);
    expect(set.size).toBe(1);
    set.insert(c);
    set.insert(c);
    set.insert(h);
    expect(set.size).toBe(2);
    // Many inserts of few objects stay small.
    for (let i = 0; i < 10_000; i++) set.insert(i % 2 ? h : c);
    set.close();
    expect(set.size).toBe(2);
  });

  test('sets filled at the same time de-duplicate exactly, however their inserts interleave', async () => {
    const { device, manager } = await setup();
    const [h, g, k] = [heap(device), heap(device), heap(device)];
    for (const x of [h, g, k]) manager.beginTrackingObject(x);
    const [a, b] = [manager.createResidencySet(), manager.createResidencySet()];
    a.open();
    a.insert(h);
    b.open();
    // b takes h's mark; a must still know it holds h.
    b.insert(h);
    a.insert(h);
    a.insert(g);
    b.insert(g);
    for (let i = 0; i < 100; i++) (i % 2 ? a : b).insert(i % 3 ? h : g);
    a.close();
    b.insert(k);
    b.close();
    expect([a.size, b.size]).toEqual([2, 3]);
    // A set opened alone afterwards de-duplicates by mark again.
    a.open();
    for (let i = 0; i < 10; i++) a.insert(k);
    a.close();
    expect(a.size).toBe(1);
  });

  test('one object in several sets is in each of them', async () => {
    const { device, manager } = await setup();
    const h = heap(device);
    manager.beginTrackingObject(h);
    const sets = [manager.createResidencySet(), manager.createResidencySet()];
    for (const set of sets) set.open();
    for (const set of sets) set.insert(h);
    for (const set of sets) set.close();
    expect(sets.map((set) => set.size)).toEqual([1, 1]);
  });

  test('opening an open set and closing a closed one are errors that change nothing', async () => {
    const { device, manager } = await setup();
    const h = heap(device);
    manager.beginTrackingObject(h);
    const set = manager.createResidencySet();
    expectD3D12Error(() => set.close(), {
      call: 'ResidencySet.close',
      argument: 'this',
      message: new RegExp(`residency set #${set.id} is not open`),
    });
    set.open();
    set.insert(h);
    expectD3D12Error(() => set.open(), {
      call: 'ResidencySet.open',
      argument: 'this',
      message: new RegExp(`residency set #${set.id} is already open`),
    });
    // The failed open kept the set's contents and left it open.
    expect([set.size, set.closed]).toEqual([1, false]);
    set.close();
    expectD3D12Error(() => set.close(), { call: 'ResidencySet.close', argument: 'this', message: /is not open/ });
    expect([set.size, set.closed]).toEqual([1, true]);
  });

  test('open() starts the set afresh: it forgets what it held', async () => {
    const { device, manager } = await setup();
    const [h, g] = [heap(device), heap(device)];
    manager.beginTrackingObject(h);
    manager.beginTrackingObject(g);
    const set = manager.createResidencySet();
    set.open();
    set.insert(h);
    set.insert(g);
    set.close();
    expect(set.size).toBe(2);
    set.open();
    expect(set.size).toBe(0);
    set.insert(g);
    set.close();
    expect(set.size).toBe(1);
  });
});

describe('ResidencyManager.executeCommandLists: arguments', () => {
  async function ready(): Promise<{ device: Device; manager: ResidencyManager; h: Heap; set: ResidencySet }> {
    const { device, manager } = await setup();
    const h = heap(device, 2, ['CREATE_NOT_RESIDENT']);
    manager.beginTrackingObject(h);
    const set = manager.createResidencySet();
    set.open();
    set.insert(h);
    set.close();
    return { device, manager, h, set };
  }

  /** After a refused call: the heap still not resident, usage and stats as they were. */
  function expectUnchanged(device: Device, manager: ResidencyManager, h: Heap): void {
    expect(h.resident).toBe(false);
    expect(usage(device)).toBe(0);
    expect(manager.getStats()).toEqual({ ...ZERO_STATS, tracked: 1 });
  }

  test.each([
    ['null', null],
    ['a plain object', {}],
    ['a fence', 'fence'],
  ])('queue: %s is refused', async (_name, value) => {
    const { device, manager, h, set } = await ready();
    const queueValue = value === 'fence' ? device.createFence(0) : value;
    const list = device.createCommandList('DIRECT');
    list.close();
    expectD3D12Error(() => manager.executeCommandLists(loose(queueValue), [list], [set]), {
      call: 'ResidencyManager.executeCommandLists',
      argument: 'queue',
      message: /must be a command queue/,
    });
    expectUnchanged(device, manager, h);
  });

  test.each([
    ['an empty array', []],
    ['null', null],
    ['a list (not an array)', 'list'],
  ])('commandLists: %s is refused', async (_name, value) => {
    const { device, manager, h, set } = await ready();
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const list = device.createCommandList('DIRECT');
    list.close();
    expectD3D12Error(() => manager.executeCommandLists(queue, loose(value === 'list' ? list : value), [set]), {
      call: 'ResidencyManager.executeCommandLists',
      argument: 'commandLists',
      message: /must be a non-empty array of command lists/,
    });
    expectUnchanged(device, manager, h);
  });

  test('residencySets: not one per list is refused', async () => {
    const { device, manager, h, set } = await ready();
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const lists = [device.createCommandList('DIRECT'), device.createCommandList('DIRECT')];
    for (const list of lists) list.close();
    for (const sets of [[set], [set, set, set], [], null, set]) {
      expectD3D12Error(() => manager.executeCommandLists(queue, lists, loose(sets)), {
        call: 'ResidencyManager.executeCommandLists',
        argument: 'residencySets',
        message: /one residency set \(or null\) per command list \(2\)/,
      });
    }
    expectUnchanged(device, manager, h);
  });

  test('residencySets[i]: not a residency set, or still open, is refused', async () => {
    const { device, manager, h, set } = await ready();
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const lists = [device.createCommandList('DIRECT'), device.createCommandList('DIRECT')];
    for (const list of lists) list.close();
    for (const bad of [{}, 1, h, undefined]) {
      expectD3D12Error(() => manager.executeCommandLists(queue, lists, [set, loose(bad)]), {
        call: 'ResidencyManager.executeCommandLists',
        argument: 'residencySets[1]',
        message: /must be a residency set of this manager, or null/,
      });
    }
    const open = manager.createResidencySet();
    open.open();
    expectD3D12Error(() => manager.executeCommandLists(queue, lists, [open, set]), {
      call: 'ResidencyManager.executeCommandLists',
      argument: 'residencySets[0]',
      message: new RegExp(`residency set #${open.id} is still open; close\\(\\) it first`),
    });
    expectUnchanged(device, manager, h);
  });

  test('on a CPU-only device execution is refused (no GPU) and the manager changes nothing', async () => {
    const { device, manager, h, set } = await ready();
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const list = device.createCommandList('DIRECT');
    list.close();
    expectD3D12Error(() => manager.executeCommandLists(queue, [list], [set]), { message: /no GPU/ });
    expectUnchanged(device, manager, h);
  });
});
