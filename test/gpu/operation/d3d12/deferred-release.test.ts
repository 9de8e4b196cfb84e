/**
 * COM Release while GPU work uses the object (src/emulator/deferred-release.ts): the memory and the
 * address range of a released heap or resource return only once the submitted or held work that uses
 * it has completed, and that work reads and writes the right bytes. As the D3D12 debug layer would,
 * the device's info queue then holds OBJECT_DELETED_WHILE_STILL_IN_USE naming the object and the
 * command lists, as data. Controls: with no work in flight, a release returns the memory at once and
 * says nothing.
 */
import { describe, expect } from 'vitest';
import type { Device, Resource } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, flush, pattern, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';

const test = d3dTest({
  localMemoryBytes: 8 << 20,
  nonLocalMemoryBytes: 8 << 20,
  gpuValidation: true,
  onPageFault: 'report',
});

const usage = (d3d: Device, segment: 'LOCAL' | 'NON_LOCAL'): number => d3d.queryVideoMemoryInfo(segment).currentUsage;
const defaultBuffer = (d3d: Device, width: number): Resource =>
  d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, 'COMMON');
const readbackBuffer = (d3d: Device, width: number): Resource =>
  d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width }, 'COPY_DEST');

function expectBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  const at = firstDifference(actual, expected);
  expect(at, `${what}: byte ${at} is ${actual[at]}, expected ${expected[at]}`).toBe(-1);
}

describe('release while GPU work uses the object', () => {
  test('an UPLOAD buffer released right after the copy from it was submitted: its memory returns when the copy completes, the copy reads its bytes, a warning names it', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(2 * TILE, 21);
    const upload = uploadBuffer(d3d, data);
    upload.setName('staging');
    const target = defaultBuffer(d3d, 2 * TILE);
    const list = d3d.createCommandList('DIRECT');
    list.setName('upload textures');
    list.copyBufferRegion(target, 0, upload, 0, 2 * TILE);
    list.close();
    const before = usage(d3d, 'NON_LOCAL');
    queue.executeCommandLists([list]);
    upload.release(); // the classic bug: the GPU has not copied yet
    expect(upload.released).toBe(true);
    expect(usage(d3d, 'NON_LOCAL'), 'memory kept while the copy runs').toBe(before);
    const info = d3d.getInfoQueue();
    expect(info.getNumStoredMessages()).toBe(1);
    expect(info.getMessage(0)).toEqual({
      category: 'EXECUTION',
      severity: 'WARNING',
      id: 'OBJECT_DELETED_WHILE_STILL_IN_USE',
      description: expect.stringMatching(
        /^committed resource #\d+ 'staging' was released while GPU work still uses it: DIRECT command list #\d+ 'upload textures' \(executing\)/,
      ) as string,
      object: { type: 'Resource', id: upload.id, name: 'staging', label: upload.label },
      commandLists: [{ id: list.id, label: list.label, state: 'submitted' }],
    });
    expect(JSON.parse(JSON.stringify(info.getMessages()))).toEqual(info.getMessages());
    await flush(d3d, queue);
    expect(usage(d3d, 'NON_LOCAL'), 'memory returned once the copy completed').toBe(before - 2 * TILE);
    // The copy read the right bytes.
    const readback = readbackBuffer(d3d, 2 * TILE);
    const out = d3d.createCommandList('DIRECT');
    out.copyBufferRegion(readback, 0, target, 0, 2 * TILE);
    out.close();
    queue.executeCommandLists([out]);
    await flush(d3d, queue);
    expectBytes(readback.map().slice(), data, 'the target');
    expect(await d3d.readFaults()).toEqual([]);
    info.clearStoredMessages();
    expect(info.getNumStoredMessages()).toBe(0);
  });

  test("work held behind a wait runs on the released buffer's memory, and a buffer created meanwhile gets other addresses and memory", async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const gate = d3d.createFence(0);
    const data = new Uint8Array(256).fill(0xab);
    const upload = uploadBuffer(d3d, data);
    const x = defaultBuffer(d3d, 256);
    const readback = readbackBuffer(d3d, 256);
    const list = d3d.createCommandList('DIRECT');
    list.setName('held');
    list.copyBufferRegion(x, 0, upload, 0, 256);
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: x, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } },
    ]);
    list.copyBufferRegion(readback, 0, x, 0, 256);
    list.close();
    queue.wait(gate, 1);
    queue.executeCommandLists([list]);
    const localBefore = usage(d3d, 'LOCAL');
    const va = x.getGPUVirtualAddress();
    x.release();
    upload.release();
    expect(
      d3d
        .getInfoQueue()
        .getMessages()
        .map((m) => [m.object?.label, m.commandLists?.map((l) => l.state)]),
    ).toEqual([
      [x.label, ['waiting']],
      [upload.label, ['waiting']],
    ]);
    const y = defaultBuffer(d3d, 256);
    expect(y.getGPUVirtualAddress(), "no new resource inside the held work's addresses").not.toBe(va);
    expect(usage(d3d, 'LOCAL'), "x's memory is still held").toBe(localBefore + TILE);
    gate.signal(1);
    await flush(d3d, queue);
    // The held work copied through x; y was never written.
    expectBytes(readback.map().slice(), data, 'read back through the released buffer');
    readback.unmap();
    expect(await d3d.readFaults(), 'no fault: the held work saw x mapped').toEqual([]);
    expect(usage(d3d, 'LOCAL'), "x's memory returned once the held work ran").toBe(localBefore);
    const check = readbackBuffer(d3d, 256);
    const out = d3d.createCommandList('DIRECT');
    out.copyBufferRegion(check, 0, y, 0, 256);
    out.close();
    queue.executeCommandLists([out]);
    await flush(d3d, queue);
    expectBytes(check.map().slice(), new Uint8Array(256), 'y');
  });

  test('a heap released while held work reads a reserved resource mapped onto it keeps its memory for that work', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const gate = d3d.createFence(0);
    const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    heap.setName('tile pool');
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
    queue.updateTileMappings(reserved, null, null, heap, null, null, null);
    const data = pattern(2 * TILE, 5);
    const fill = d3d.createCommandList('DIRECT');
    fill.copyBufferRegion(reserved, 0, uploadBuffer(d3d, data), 0, 2 * TILE);
    fill.close();
    queue.executeCommandLists([fill]);
    await flush(d3d, queue);
    const readback = readbackBuffer(d3d, 2 * TILE);
    const list = d3d.createCommandList('DIRECT');
    list.setName('read tiles');
    list.copyBufferRegion(readback, 0, reserved, 0, 2 * TILE);
    list.close();
    queue.wait(gate, 1);
    queue.executeCommandLists([list]);
    const before = usage(d3d, 'LOCAL');
    heap.release();
    expect(d3d.getInfoQueue().getMessages()).toMatchObject([
      {
        id: 'OBJECT_DELETED_WHILE_STILL_IN_USE',
        object: { type: 'Heap', id: heap.id, name: 'tile pool' },
        commandLists: [{ id: list.id, state: 'waiting' }],
      },
    ]);
    expect(usage(d3d, 'LOCAL')).toBe(before);
    gate.signal(1);
    await flush(d3d, queue);
    expectBytes(readback.map().slice(), data, 'tiles read after their heap was released');
    expect(await d3d.readFaults()).toEqual([]);
    expect(usage(d3d, 'LOCAL')).toBe(before - 2 * TILE);
  });

  test('controls: with no work in flight a release returns memory at once and says nothing; a list that used the object and completed is no user', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const upload = uploadBuffer(d3d, pattern(TILE, 1));
    const target = defaultBuffer(d3d, TILE);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(target, 0, upload, 0, TILE);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const before = usage(d3d, 'NON_LOCAL');
    upload.release();
    expect(usage(d3d, 'NON_LOCAL')).toBe(before - TILE);
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const local = usage(d3d, 'LOCAL');
    heap.release();
    expect(usage(d3d, 'LOCAL')).toBe(local - TILE);
    expect(d3d.getInfoQueue().getNumStoredMessages()).toBe(0);
  });

  test('a fence the CPU saw complete covers all work before its signal: a release right after is immediate, even while earlier work is still being watched', async ({
    d3d,
  }) => {
    // Regression: work submitted while an earlier submission's completion was being watched stayed
    // "running" after a later fence completed, so its resource's release waited and the next
    // allocation could find the memory still taken (E_OUTOFMEMORY in a full segment).
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const copy = (source: Resource, target: Resource): void => {
      const list = d3d.createCommandList('DIRECT');
      list.copyBufferRegion(target, 0, source, 0, TILE);
      list.close();
      queue.executeCommandLists([list]);
    };
    const target = defaultBuffer(d3d, TILE);
    // Several rounds: whether the earlier watcher settles before the fence depends on timing.
    for (let round = 0; round < 8; round++) {
      const first = uploadBuffer(d3d, pattern(TILE, 2 * round));
      const second = uploadBuffer(d3d, pattern(TILE, 2 * round + 1));
      copy(first, target);
      await Promise.resolve(); // the first submission's watcher starts
      copy(second, target);
      await flush(d3d, queue);
      const before = usage(d3d, 'NON_LOCAL');
      second.release();
      expect(usage(d3d, 'NON_LOCAL'), `round ${round}: memory returned at once`).toBe(before - TILE);
      first.release();
      expect(usage(d3d, 'NON_LOCAL')).toBe(before - 2 * TILE);
    }
    expect(d3d.getInfoQueue().getNumStoredMessages()).toBe(0);
  });
});
