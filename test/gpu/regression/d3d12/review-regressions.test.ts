import { describe, expect } from 'vitest';
import { createDevice, type Device, type Resource } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, pattern, readBuffer, uploadBuffer } from '../../../shared/d3d12-helpers.js';

const test = d3dTest({ localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });

const defaultBuffer = (d3d: Device, width: number): Resource =>
  d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, 'COMMON');

describe('regressions found in review: state decay, coherence, fault kinds, error scopes, held work', () => {
  test('no decay between the lists of one executeCommandLists call, decay after it', ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = defaultBuffer(d3d, 256);
    const b = defaultBuffer(d3d, 256);
    const l1 = d3d.createCommandList('DIRECT');
    l1.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: a, stateBefore: 'COMMON', stateAfter: 'COPY_DEST' } },
    ]);
    l1.copyBufferRegion(a, 0, b, 0, 16);
    l1.close();
    const c = defaultBuffer(d3d, 256);
    const l2 = d3d.createCommandList('DIRECT');
    l2.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: a, stateBefore: 'COPY_DEST', stateAfter: 'COPY_SOURCE' } },
    ]);
    l2.copyBufferRegion(c, 0, a, 0, 16);
    l2.close();
    expect(() => queue.executeCommandLists([l1, l2])).not.toThrow();
    // b was promoted to COPY_SOURCE by l1 and has not decayed inside the call: l2 may not write it.
    const l3 = d3d.createCommandList('DIRECT');
    l3.copyBufferRegion(b, 0, c, 0, 16);
    l3.close();
    const l1again = d3d.createCommandList('DIRECT');
    l1again.copyBufferRegion(c, 16, b, 16, 16);
    l1again.close();
    expect(() => queue.executeCommandLists([l1again, l3])).toThrow(/is in COPY_SOURCE and cannot be used as COPY_DEST/);
    // control: in separate calls it decays in between, so the same pair runs.
    queue.executeCommandLists([l1again]);
    queue.executeCommandLists([l3]);
  });

  test('a persistently mapped CUSTOM L0 buffer written by the GPU is not overwritten by a CPU flush before the next execute', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(4096, 7);
    const up = uploadBuffer(d3d, data);
    const custom = d3d.createCommittedResource(
      { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
      [],
      { dimension: 'BUFFER', width: 4096 },
      'COMMON',
    );
    const dst = defaultBuffer(d3d, 4096);
    custom.map(); // persistently mapped
    const l1 = d3d.createCommandList('DIRECT');
    l1.copyBufferRegion(custom, 0, up, 0, 4096);
    l1.close();
    const l2 = d3d.createCommandList('DIRECT');
    l2.copyBufferRegion(dst, 0, custom, 0, 4096);
    l2.close();
    queue.executeCommandLists([l1]);
    queue.executeCommandLists([l2]);
    await flush(d3d, queue);
    const got = await readBuffer(d3d, queue, dst, 0, 4096);
    expect(Array.from(got.slice(0, 16))).toEqual(Array.from(data.slice(0, 16)));
  });

  test('a persistently mapped READBACK buffer keeps both bytes two executes wrote into one word', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const up = uploadBuffer(d3d, new Uint8Array([0x11, 0x22, 0x33, 0x44]));
    const rb = d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: 256 }, 'COPY_DEST');
    const view = rb.map(); // persistently mapped
    const l1 = d3d.createCommandList('DIRECT');
    l1.copyBufferRegion(rb, 0, up, 0, 1);
    l1.close();
    const l2 = d3d.createCommandList('DIRECT');
    l2.copyBufferRegion(rb, 1, up, 1, 1);
    l2.close();
    queue.executeCommandLists([l1]);
    queue.executeCommandLists([l2]);
    await flush(d3d, queue);
    expect(Array.from(view.slice(0, 2))).toEqual([0x11, 0x22]);
  });

  test('shader writes into a UAV buffer in CUSTOM L0 memory reach map() after the fence', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const custom = d3d.createCommittedResource(
      { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
      [],
      { dimension: 'BUFFER', width: 256, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    const pso = await d3d.createComputePipelineState({
      code: `@compute @workgroup_size(1) fn main() { d3d12_store(d3d12_root_descriptor(1u), 0x12345678u); }`,
      entryPoint: 'main',
    });
    const list = d3d.createCommandList('DIRECT');
    list.setPipelineState(pso);
    list.setComputeRootUnorderedAccessView(1, custom.getGPUVirtualAddress());
    list.dispatch(1);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const word = new DataView(custom.map().slice(0, 4).buffer).getUint32(0, true);
    expect(word.toString(16)).toBe('12345678');
  });

  test("a copy's unaligned write to a released heap logs only a write fault", async ({ device }) => {
    const d3d = await createDevice({
      gpuDevice: device,
      localMemoryBytes: 8 << 20,
      nonLocalMemoryBytes: 8 << 20,
      gpuValidation: true,
      onPageFault: 'report',
    });
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const heap = d3d.createHeap({ sizeInBytes: 65536, properties: { type: 'DEFAULT' } });
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 65536, layout: 'ROW_MAJOR' }, 'COMMON');
    queue.updateTileMappings(reserved, null, null, heap, null, null, null);
    heap.release();
    const up = uploadBuffer(d3d, new Uint8Array(8).fill(1));
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(reserved, 1, up, 0, 2);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const faults = await d3d.readFaults();
    expect(faults.map((f) => f.kind)).toEqual(['write-absent']);
    d3d.destroy();
  });
});

describe('review fences', () => {
  test('fence values complete in signal order when a signal releases a waiting queue', async ({ d3d }) => {
    const f = d3d.createFence(0);
    const a = d3d.createCommandQueue({ type: 'DIRECT' });
    const c = d3d.createCommandQueue({ type: 'DIRECT' });
    a.wait(f, 1);
    a.signal(f, 2);
    c.signal(f, 1);
    await f.setEventOnCompletion(2);
    await new Promise((r) => setTimeout(r, 200));
    expect(f.getCompletedValue()).toBe(2);
  });
});

describe('review scopes', () => {
  test("createComputePipelineState leaves the caller's error scopes alone while it compiles", async ({
    d3d,
    device,
  }) => {
    device.pushErrorScope('validation');
    const pending = d3d.createComputePipelineState({
      code: `@compute @workgroup_size(1) fn main() {}`,
      entryPoint: 'main',
    });
    device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE }); // invalid usage
    await pending;
    const error = await device.popErrorScope();
    expect(error).not.toBeNull();
  });
});
