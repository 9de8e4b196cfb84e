/**
 * Fences, queue signal/wait ordering, map/unmap of CPU-accessible memory, running out of pool
 * memory and compute pipeline creation, on a GPU-backed device, CTS style: one invalid field at a
 * time, both sides of each boundary, and for every failure the HRESULT, call, argument and rule plus
 * a check that nothing changed (fence values, map counts, pool usage, memory).
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandQueue,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type Range,
  type Resource,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error, expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

const MIB = 1 << 20;
const POOL = 8 * MIB;

/** A GPU-backed emulated device per test, with 8 MiB pools. */
const test = d3dTest({ localMemoryBytes: POOL, nonLocalMemoryBytes: POOL });

function defaultBuffer(d3d: Device, width: number): Resource {
  return d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, 'COMMON');
}

function readbackBuffer(d3d: Device, width: number): Resource {
  return d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width }, 'COPY_DEST');
}

function copyList(d3d: Device, queue: CommandQueue, dst: Resource, src: Resource, bytes: number): GraphicsCommandList {
  const list = d3d.createCommandList(queue.type);
  list.copyBufferRegion(dst, 0, src, 0, bytes);
  list.close();
  return list;
}

function expectSame(actual: Uint8Array, expected: Uint8Array, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const at = firstDifference(actual, expected);
  expect(at, `${what}: byte ${at} is ${actual[at]}, expected ${expected[at]}`).toBe(-1);
}

/** Lets pending promise callbacks and timers run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Whether `promise` has resolved by now. */
async function resolvedYet(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await settle();
  return done;
}

describe('fences', () => {
  test('createFence takes the initial value; invalid values are refused', async ({ d3d }) => {
    expect(d3d.createFence().getCompletedValue()).toBe(0);
    expect(d3d.createFence(0).getCompletedValue()).toBe(0);
    expect(d3d.createFence(7).getCompletedValue()).toBe(7);
    expect(d3d.createFence(2 ** 53 - 1).getCompletedValue()).toBe(2 ** 53 - 1);
    for (const value of [-1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '1', 1n]) {
      expectD3D12Error(() => d3d.createFence(value as number), {
        call: 'createFence',
        argument: 'initialValue',
        message: /must be a non-negative integer \(a fence value\), got/,
      });
    }
    // A fence from a failed call does not exist; the next one works normally.
    const fence = d3d.createFence(1);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    queue.signal(fence, 2);
    await fence.setEventOnCompletion(2);
    expect(fence.getCompletedValue()).toBe(2);
  });

  test('CPU signal sets the value at once (up or down); an invalid value changes nothing', ({ d3d }) => {
    const fence = d3d.createFence(1);
    fence.signal(5);
    expect(fence.getCompletedValue()).toBe(5);
    fence.signal(5);
    expect(fence.getCompletedValue()).toBe(5);
    fence.signal(3); // ID3D12Fence::Signal sets the value, whatever it was
    expect(fence.getCompletedValue()).toBe(3);
    for (const value of [-1, 2.5, 2 ** 53]) {
      expectD3D12Error(() => fence.signal(value), {
        call: 'Fence.signal',
        argument: 'value',
        message: /must be a non-negative integer/,
      });
      expect(fence.getCompletedValue()).toBe(3);
    }
  });

  test('setEventOnCompletion resolves once the value is reached, not before', async ({ d3d }) => {
    const fence = d3d.createFence(2);
    const resolved: number[] = [];
    const waits = [5, 3, 4].map((value) => fence.setEventOnCompletion(value).then(() => resolved.push(value)));
    expect(await resolvedYet(fence.setEventOnCompletion(2)), 'a value already reached').toBe(true);
    expect(await resolvedYet(fence.setEventOnCompletion(0)), 'a value below the current one').toBe(true);
    await settle();
    expect(resolved).toEqual([]);
    fence.signal(3);
    await settle();
    expect(resolved).toEqual([3]);
    fence.signal(4);
    await settle();
    expect(resolved.sort()).toEqual([3, 4]);
    fence.signal(100);
    await Promise.all(waits);
    expect(resolved.sort()).toEqual([3, 4, 5]);
    for (const value of [-1, 0.5]) {
      expectD3D12Error(() => fence.setEventOnCompletion(value), {
        call: 'Fence.setEventOnCompletion',
        argument: 'value',
        message: /must be a non-negative integer/,
      });
    }
  });

  test("queue signal and wait take this device's fences and valid values; a refused call enqueues nothing", async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const fence = d3d.createFence(0);
    const other = await createDevice({ gpuDevice: null });
    const foreign = other.createFence(0);
    for (const method of ['signal', 'wait'] as const) {
      expectD3D12Error(() => queue[method](foreign, 1), {
        call: method,
        argument: 'fence',
        message: /must be a fence created by this device/,
      });
      expectD3D12Error(() => queue[method]({} as Fence, 1), {
        call: method,
        argument: 'fence',
        message: /created by this device/,
      });
      for (const value of [-1, 1.5, 2 ** 53]) {
        expectD3D12Error(() => queue[method](fence, value), {
          call: method,
          argument: 'value',
          message: /must be a non-negative integer \(a fence value\)/,
        });
      }
    }
    // Nothing was signalled, and the queue is not held by a refused wait.
    await flush(d3d, queue);
    expect(fence.getCompletedValue()).toBe(0);
    queue.signal(fence, 2 ** 53 - 1);
    await fence.setEventOnCompletion(2 ** 53 - 1);
  });
});

describe('queue ordering', () => {
  test('a queue signal completes only after the work before it: the data is in the READBACK buffer by then', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const first = pattern(4 * TILE, 1);
    const second = pattern(4 * TILE, 2);
    const readback = readbackBuffer(d3d, 4 * TILE);
    const fence = d3d.createFence(0);
    const seen: Record<number, Uint8Array> = {};
    // Snapshots taken the moment each value completes.
    const watch = (value: number): Promise<void> =>
      fence.setEventOnCompletion(value).then(() => {
        seen[value] = readback.map().slice();
        readback.unmap();
      });
    const watches = [watch(1), watch(2)];
    // The second copy waits for the snapshot at value 1: otherwise its bytes may already have landed
    // when value 1's event runs (D3D12 allows that too), and the snapshot would show them.
    const gate = d3d.createFence(0);
    queue.executeCommandLists([copyList(d3d, queue, readback, uploadBuffer(d3d, first), 4 * TILE)]);
    queue.signal(fence, 1);
    queue.wait(gate, 1);
    queue.executeCommandLists([copyList(d3d, queue, readback, uploadBuffer(d3d, second), 4 * TILE)]);
    queue.signal(fence, 2);
    await watches[0];
    gate.signal(1);
    await Promise.all(watches);
    expect(fence.getCompletedValue()).toBe(2);
    expectSame(seen[1] as Uint8Array, first, 'at value 1');
    expectSame(seen[2] as Uint8Array, second, 'at value 2');
  });

  test("queue.wait on a value not yet signalled holds back that queue's later work until another queue signals it; other queues proceed", async ({
    d3d,
  }) => {
    const held = d3d.createCommandQueue({ type: 'DIRECT' });
    const free = d3d.createCommandQueue({ type: 'COPY' });
    const gate = d3d.createFence(0);
    const heldDone = d3d.createFence(0);
    const dataHeld = pattern(256, 3);
    const dataFree = pattern(256, 4);
    const targetHeld = defaultBuffer(d3d, 256);
    const targetFree = defaultBuffer(d3d, 256);
    held.wait(gate, 1);
    held.executeCommandLists([copyList(d3d, held, targetHeld, uploadBuffer(d3d, dataHeld), 256)]);
    held.signal(heldDone, 1);
    free.executeCommandLists([copyList(d3d, free, targetFree, uploadBuffer(d3d, dataFree), 256)]);
    await flush(d3d, free);
    // The other queue's copy happened; the held one did not (read through the free queue).
    expectSame(await readBuffer(d3d, free, targetFree, 0, 256), dataFree, "the free queue's copy");
    expectSame(
      await readBuffer(d3d, free, targetHeld, 0, 256),
      new Uint8Array(256),
      "the held queue's copy, before the signal",
    );
    expect(heldDone.getCompletedValue()).toBe(0);
    expect(await resolvedYet(heldDone.setEventOnCompletion(1))).toBe(false);
    // A signal of a lower value does not release it.
    free.signal(gate, 0);
    await flush(d3d, free);
    expectSame(await readBuffer(d3d, free, targetHeld, 0, 256), new Uint8Array(256), 'after signalling 0');
    // Another queue's signal of the value releases it.
    free.signal(gate, 1);
    await heldDone.setEventOnCompletion(1);
    expectSame(await readBuffer(d3d, free, targetHeld, 0, 256), dataHeld, "the held queue's copy, after the signal");
  });

  test('a CPU signal releases a waiting queue; a wait on a value already reached holds nothing', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const gate = d3d.createFence(0);
    const data = pattern(256, 5);
    const target = defaultBuffer(d3d, 256);
    const done = d3d.createFence(0);
    queue.wait(gate, 2);
    queue.executeCommandLists([copyList(d3d, queue, target, uploadBuffer(d3d, data), 256)]);
    queue.signal(done, 1);
    // Tile mappings queued behind the wait are held back too.
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    queue.updateTileMappings(reserved, null, null, heap, null, null, null);
    const other = d3d.createCommandQueue({ type: 'DIRECT' });
    await flush(d3d, other);
    expect(getTileMappingForTesting(reserved, 0), 'the mapping is queued behind the wait').toBeNull();
    expectSame(await readBuffer(d3d, other, target, 0, 256), new Uint8Array(256), 'before the CPU signal');
    gate.signal(1);
    await flush(d3d, other);
    expect(done.getCompletedValue()).toBe(0);
    gate.signal(2);
    await done.setEventOnCompletion(1);
    expect(getTileMappingForTesting(reserved, 0)?.heap).toBe(heap);
    expectSame(await readBuffer(d3d, other, target, 0, 256), data, 'after the CPU signal');
    // Already reached: the queue runs straight on.
    queue.wait(gate, 2);
    queue.wait(gate, 0);
    await flush(d3d, queue);
  });
});

describe('map and unmap', () => {
  test('only buffers in CPU-accessible heaps map: DEFAULT, reserved and textures are refused', ({ d3d }) => {
    const call = 'Resource.map';
    const notCpu = /is not in CPU-accessible memory \(an UPLOAD, READBACK or CPU-visible CUSTOM heap\)/;
    const resources: [string, Resource, RegExp][] = [
      ['DEFAULT buffer', defaultBuffer(d3d, 256), notCpu],
      ['reserved buffer', d3d.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON'), notCpu],
      [
        'DEFAULT texture',
        d3d.createCommittedResource(
          { type: 'DEFAULT' },
          [],
          { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
          'COMMON',
        ),
        notCpu,
      ],
      [
        'CPU-visible CUSTOM texture',
        d3d.createCommittedResource(
          { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
          [],
          { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
          'COMMON',
        ),
        /is a texture; only buffers are mapped here/,
      ],
    ];
    for (const [what, resource, message] of resources) {
      try {
        expectD3D12Error(() => resource.map(), { call, argument: 'this', message });
        // Not mapped by the failed call.
        expectD3D12Error(() => resource.unmap(), {
          call: 'Resource.unmap',
          argument: 'this',
          message: /is not mapped/,
        });
      } catch (error) {
        throw new Error(`${what}: ${String(error)}`, { cause: error });
      }
    }
    // The controls: UPLOAD, READBACK and CUSTOM buffers map.
    const custom = d3d.createCommittedResource(
      { type: 'CUSTOM', cpuPageProperty: 'WRITE_COMBINE', memoryPoolPreference: 'L0' },
      [],
      { dimension: 'BUFFER', width: 256 },
      'COMMON',
    );
    for (const resource of [uploadBuffer(d3d, pattern(256, 6)), readbackBuffer(d3d, 256), custom]) {
      expect(resource.map().length).toBe(256);
      resource.unmap();
    }
    const released = readbackBuffer(d3d, 256);
    released.release();
    expectD3D12Error(() => released.map(), { call: 'Resource.map', argument: 'this', message: /was released/ });
    expectD3D12Error(() => released.unmap(), { call: 'Resource.unmap', argument: 'this', message: /was released/ });
  });

  test('maps nest: each map needs an unmap, one more unmap fails; views share the bytes', ({ d3d }) => {
    const buffer = readbackBuffer(d3d, 256);
    expectD3D12Error(() => buffer.unmap(), {
      call: 'Resource.unmap',
      argument: 'this',
      message: /committed resource #\d+ is not mapped/,
    });
    const a = buffer.map();
    const b = buffer.map();
    a[17] = 0x5a;
    expect(b[17]).toBe(0x5a);
    buffer.unmap();
    buffer.unmap();
    expectD3D12Error(() => buffer.unmap(), { call: 'Resource.unmap', argument: 'this', message: /is not mapped/ });
    // Three maps, three unmaps.
    buffer.map();
    buffer.map();
    buffer.map();
    buffer.unmap();
    buffer.unmap();
    buffer.unmap();
    expectD3D12Error(() => buffer.unmap(), { call: 'Resource.unmap', argument: 'this', message: /is not mapped/ });
  });

  test('read and written ranges must lie in the buffer; a refused map or unmap does not count', ({ d3d }) => {
    const buffer = uploadBuffer(d3d, pattern(256, 7));
    const valid: (Range | null | undefined)[] = [
      undefined,
      null,
      { begin: 0, end: 256 },
      { begin: 256, end: 256 },
      { begin: 0, end: 0 },
      { begin: 100, end: 101 },
    ];
    const invalid: Range[] = [
      { begin: 0, end: 257 },
      { begin: 5, end: 4 },
      { begin: -1, end: 0 },
      { begin: 0.5, end: 1 },
      { begin: 257, end: 257 },
      { begin: 0 } as Range,
    ];
    for (const range of invalid) {
      expectD3D12Error(() => buffer.map(0, range), {
        call: 'Resource.map',
        argument: 'readRange',
        message: /must be \{begin, end\} with 0 <= begin <= end <= 256, got/,
      });
    }
    expectD3D12Error(() => buffer.map(1), {
      call: 'Resource.map',
      argument: 'subresource',
      message: /a buffer has one subresource, 0; got 1/,
    });
    expectD3D12Error(() => buffer.unmap(), { call: 'Resource.unmap', argument: 'this', message: /is not mapped/ });
    for (const range of valid) buffer.map(0, range);
    for (const range of invalid) {
      expectD3D12Error(() => buffer.unmap(0, range), {
        call: 'Resource.unmap',
        argument: 'writtenRange',
        message: /must be \{begin, end\} with 0 <= begin <= end <= 256, got/,
      });
    }
    expectD3D12Error(() => buffer.unmap(1), {
      call: 'Resource.unmap',
      argument: 'subresource',
      message: /a buffer has one subresource, 0; got 1/,
    });
    for (const range of valid) buffer.unmap(0, range);
    expectD3D12Error(() => buffer.unmap(), { call: 'Resource.unmap', argument: 'this', message: /is not mapped/ });
  });

  test('CPU writes to a mapped UPLOAD buffer are seen by copies executed afterwards, also while it stays mapped', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const upload = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: 256 },
      'GENERIC_READ',
    );
    const [a, b, c] = [pattern(256, 8), pattern(256, 9), pattern(256, 10)];
    const view = upload.map();
    view.set(a);
    const first = defaultBuffer(d3d, 256);
    queue.executeCommandLists([copyList(d3d, queue, first, upload, 256)]);
    await flush(d3d, queue);
    expectSame(await readBuffer(d3d, queue, first, 0, 256), a, 'first execution');
    // Still mapped: new bytes through the same pointer.
    view.set(b);
    const second = defaultBuffer(d3d, 256);
    queue.executeCommandLists([copyList(d3d, queue, second, upload, 256)]);
    await flush(d3d, queue);
    expectSame(await readBuffer(d3d, queue, second, 0, 256), b, 'second execution, still mapped');
    upload.unmap(0, { begin: 0, end: 256 });
    // Map, write, unmap again.
    upload.map(0, { begin: 0, end: 0 }).set(c);
    upload.unmap();
    const third = defaultBuffer(d3d, 256);
    queue.executeCommandLists([copyList(d3d, queue, third, upload, 256)]);
    await flush(d3d, queue);
    expectSame(await readBuffer(d3d, queue, third, 0, 256), c, 'third execution');
    // The first copy's result stayed.
    expectSame(await readBuffer(d3d, queue, first, 0, 256), a, 'first target afterwards');
  });

  test('a placed buffer in an UPLOAD heap maps to its own bytes, at its heap offset', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'UPLOAD' } });
    const low = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'GENERIC_READ');
    const high = d3d.createPlacedResource(heap, TILE, { dimension: 'BUFFER', width: 256 }, 'GENERIC_READ');
    const [a, b] = [pattern(TILE, 11), pattern(256, 12)];
    low.map().set(a);
    high.map().set(b);
    low.unmap();
    high.unmap();
    const target = defaultBuffer(d3d, 256);
    queue.executeCommandLists([copyList(d3d, queue, target, high, 256)]);
    await flush(d3d, queue);
    expectSame(await readBuffer(d3d, queue, target, 0, 256), b, 'the placed buffer at 64 KiB');
    expectSame(low.map().slice(), a, 'the placed buffer at 0 kept its bytes');
    low.unmap();
  });

  test('a READBACK buffer, even kept mapped, shows what the GPU wrote once the fence is reached', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'COPY' });
    const readback = readbackBuffer(d3d, 1024);
    const view = readback.map(0, { begin: 0, end: 1024 });
    expectSame(view.slice(), new Uint8Array(1024), 'a new READBACK buffer');
    const fence = d3d.createFence(0);
    const [a, b] = [pattern(1024, 13), pattern(512, 14)];
    queue.executeCommandLists([copyList(d3d, queue, readback, uploadBuffer(d3d, a), 1024)]);
    queue.signal(fence, 1);
    await fence.setEventOnCompletion(1);
    expectSame(view.slice(), a, 'after the first fence');
    // A second copy over the first half only.
    queue.executeCommandLists([copyList(d3d, queue, readback, uploadBuffer(d3d, b), 512)]);
    queue.signal(fence, 2);
    await fence.setEventOnCompletion(2);
    const expected = a.slice();
    expected.set(b, 0);
    expectSame(view.slice(), expected, 'after the second fence');
    readback.unmap(0, { begin: 0, end: 0 });
  });
});

describe('out of memory', () => {
  const heap = (d3d: Device, sizeInBytes: number, type: 'DEFAULT' | 'UPLOAD' = 'DEFAULT') =>
    d3d.createHeap({ sizeInBytes, properties: { type } });
  /**
   * With NON_LOCAL's whole budget reserved for others a DEFAULT heap cannot be demoted there, so
   * LOCAL's pool is all it may have (UPLOAD heaps still take NON_LOCAL's pool, which has no budget
   * check at creation). With room in NON_LOCAL the OS demotes instead: residency-demotion.test.ts.
   */
  const noDemotion = (d3d: Device): void =>
    d3d.setVideoMemoryReservation('NON_LOCAL', d3d.queryVideoMemoryInfo('NON_LOCAL').availableForReservation);

  test('createHeap: E_OUTOFMEMORY names the sizes, takes nothing; exactly the free space fits', ({ d3d }) => {
    noDemotion(d3d);
    const tooBig = (sizeInBytes: number, message: RegExp, type: 'DEFAULT' | 'UPLOAD' = 'DEFAULT'): void => {
      expectD3D12Error(() => heap(d3d, sizeInBytes, type), {
        hresult: 'E_OUTOFMEMORY',
        call: 'createHeap',
        argument: 'desc.sizeInBytes',
        message,
      });
    };
    tooBig(POOL + TILE, /needs 8\.06 MiB of LOCAL memory, and 8 MiB of the pool's 8 MiB are free/);
    tooBig(POOL + 1, /needs 8\.06 MiB of LOCAL memory, and 8 MiB of the pool's 8 MiB are free/);
    const a = heap(d3d, 5 * MIB);
    tooBig(3 * MIB + TILE, /needs 3\.06 MiB of LOCAL memory, and 3 MiB of the pool's 8 MiB are free/);
    tooBig(3 * MIB + 1, /needs 3\.06 MiB of LOCAL memory, and 3 MiB/);
    // The failures took nothing: exactly the free space fits.
    const b = heap(d3d, 3 * MIB);
    tooBig(1, /needs 0\.06 MiB of LOCAL memory, and 0 MiB of the pool's 8 MiB are free/);
    // NON_LOCAL is a pool of its own.
    const upload = heap(d3d, POOL, 'UPLOAD');
    tooBig(TILE, /needs 0\.06 MiB of NON_LOCAL memory, and 0 MiB of the pool's 8 MiB are free/, 'UPLOAD');
    // Freed memory fits the same size again.
    a.release();
    tooBig(5 * MIB + 1, /needs 5\.06 MiB of LOCAL memory, and 5 MiB of the pool's 8 MiB are free/);
    const again = heap(d3d, 5 * MIB);
    upload.release();
    heap(d3d, POOL, 'UPLOAD').release();
    b.release();
    again.release();
    heap(d3d, POOL).release();
  });

  test('createCommittedResource: E_OUTOFMEMORY when the resource does not fit; nothing is allocated', async ({
    d3d,
  }) => {
    noDemotion(d3d);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const big = heap(d3d, 6 * MIB);
    const call = 'createCommittedResource';
    expectD3D12Error(() => defaultBuffer(d3d, 2 * MIB + 1), {
      hresult: 'E_OUTOFMEMORY',
      call,
      argument: 'desc',
      message: /needs 2\.06 MiB of LOCAL memory, and 2 MiB of the pool's 8 MiB are free/,
    });
    expectD3D12Error(
      () =>
        d3d.createCommittedResource(
          { type: 'DEFAULT' },
          [],
          { dimension: 'TEXTURE2D', width: 1024, height: 1024, format: 'R8G8B8A8_UNORM' },
          'COMMON',
        ),
      {
        hresult: 'E_OUTOFMEMORY',
        call,
        argument: 'desc',
        message: /needs 4 MiB of LOCAL memory, and 2 MiB of the pool's 8 MiB are free/,
      },
    );
    expectD3D12Error(() => uploadBuffer(d3d, new Uint8Array(POOL + 4)), {
      hresult: 'E_OUTOFMEMORY',
      call,
      argument: 'desc',
      message: /needs 8\.06 MiB of NON_LOCAL memory, and 8 MiB of the pool's 8 MiB are free/,
    });
    // Exactly what is free fits, and works.
    const fits = defaultBuffer(d3d, 2 * MIB);
    const data = pattern(2 * MIB, 15);
    const upload = uploadBuffer(d3d, data);
    queue.executeCommandLists([copyList(d3d, queue, fits, upload, 2 * MIB)]);
    await flush(d3d, queue);
    expectSame(await readBuffer(d3d, queue, fits, 0, 2 * MIB), data, 'the buffer that exactly fits');
    expectD3D12Error(() => heap(d3d, TILE), {
      hresult: 'E_OUTOFMEMORY',
      call: 'createHeap',
      message: /0 MiB of the pool's 8 MiB are free/,
    });
    // Releasing the committed resource returns its memory.
    fits.release();
    big.release();
    heap(d3d, POOL).release();
  });
});

describe('createComputePipelineState', () => {
  const STORE = `
@compute @workgroup_size(1)
fn main() {
  d3d12_store(d3d12_root_descriptor(1u), d3d12_root_constant(2u));
}
`;

  test('a valid shader stores a root-constant value at a buffer address', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'COMPUTE' });
    const pso = await d3d.createComputePipelineState({ code: STORE, entryPoint: 'main', label: 'store' });
    const out = defaultBuffer(d3d, 256);
    const va = out.getGPUVirtualAddress() + 100n;
    const list = d3d.createCommandList('COMPUTE', pso);
    list.setComputeRootUnorderedAccessView(1, va);
    list.setComputeRoot32BitConstant(0, 0xc0ffee42, 2);
    list.dispatch(1);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const expected = new Uint8Array(256);
    new DataView(expected.buffer).setUint32(100, 0xc0ffee42, true);
    expectSame(await readBuffer(d3d, queue, out, 0, 256), expected, 'the stored word');
  });

  const BAD_LINE_3 = [
    '@compute @workgroup_size(1)',
    'fn main() {',
    '  let x: u32 = no_such_value;',
    '  d3d12_store(vec2u(0u), x);',
    '}',
  ].join('\n');

  test("a WGSL compile error rejects with E_INVALIDARG naming the line of the caller's code", async ({
    d3d,
    device,
  }) => {
    // (Whether WebGPU's own report of the bad module reaches the device is the next test's concern.)
    device.pushErrorScope('validation');
    await expectD3D12Rejection(d3d.createComputePipelineState({ code: BAD_LINE_3, entryPoint: 'main' }), {
      call: 'createComputePipelineState',
      argument: 'desc.code',
      message: /does not compile:\nline 3:\d+: .*no_such_value/,
    });
    await device.popErrorScope();
    // The device is fine: a valid shader still compiles.
    await d3d.createComputePipelineState({ code: STORE, entryPoint: 'main' });
  });

  test("a WGSL compile error leaves no WebGPU error on the caller's device: the D3D12Error is the whole report", async ({
    d3d,
    device,
  }) => {
    device.pushErrorScope('validation');
    await expectD3D12Rejection(d3d.createComputePipelineState({ code: BAD_LINE_3, entryPoint: 'main' }), {
      call: 'createComputePipelineState',
      argument: 'desc.code',
    });
    const leaked = await device.popErrorScope();
    expect(
      leaked?.message,
      "a WebGPU validation error of the emulator's making, on the caller's device",
    ).toBeUndefined();
  });

  test('shaders may not declare bindings; code and entry point must be given', async ({ d3d }) => {
    const call = 'createComputePipelineState';
    const bindings = /declares bindings; shaders reach memory through the prelude/;
    for (const declaration of [
      '@group(1) @binding(0) var<storage, read_write> extra: array<u32>;',
      '@group (2) var<uniform> u: vec4u;',
      '@binding(3) var<storage> s: array<u32>;',
    ]) {
      await expectD3D12Rejection(
        d3d.createComputePipelineState({ code: `${declaration}\n${STORE}`, entryPoint: 'main' }),
        { call, argument: 'desc.code', message: bindings },
      );
    }
    await expectD3D12Rejection(d3d.createComputePipelineState({ code: '  ', entryPoint: 'main' }), {
      call,
      argument: 'desc.code',
      message: /must be WGSL source text/,
    });
    await expectD3D12Rejection(d3d.createComputePipelineState({ code: STORE, entryPoint: '' }), {
      call,
      argument: 'desc.entryPoint',
      message: /must be the name of a @compute function/,
    });
    await expectD3D12Rejection(d3d.createComputePipelineState({ code: STORE, entryPoint: 'main()' }), {
      call,
      argument: 'desc.entryPoint',
      message: /must be the name of a @compute function/,
    });
    await expectD3D12Rejection(d3d.createComputePipelineState(null as never), {
      call,
      argument: 'desc',
      message: /must be \{code, entryPoint\}/,
    });
  });
});
