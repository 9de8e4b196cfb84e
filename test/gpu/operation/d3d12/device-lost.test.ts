/**
 * A lost WebGPU device (GPUDevice.destroy() from outside, as a driver reset would) removes the
 * emulated device: the next call throws DXGI_ERROR_DEVICE_REMOVED quoting WebGPU's reason, every
 * fence completes, and nothing that waits on the GPU waits forever. These tests open WebGPU devices
 * of their own (the shared test device must survive), outside the harness's error scopes.
 */
import { describe, expect, test } from 'vitest';
import { createDevice, D3D12Error, type Device } from '../../../../src/index.js';
import { createNodeDevice } from '../../../../src/node/index.js';
import { pattern, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

/** Resolves with the promise's value, or rejects naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const removed = {
  hresult: 'DXGI_ERROR_DEVICE_REMOVED',
  argument: 'this',
  message: /the WebGPU device was lost \(reason: destroyed\)/,
};

describe('a lost WebGPU device removes the emulated device', () => {
  test(
    'GPUDevice.destroy() with work in flight, held behind a wait and paging: calls throw DEVICE_REMOVED, fences complete, waits end',
    { timeout: 60_000 },
    async () => {
      const gpuDevice = await createNodeDevice();
      const d3d: Device = await createDevice({
        gpuDevice,
        localMemoryBytes: 4 << 20,
        nonLocalMemoryBytes: 4 << 20,
        onPageFault: 'report',
      });
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const held = d3d.createCommandQueue({ type: 'DIRECT' });
      const gate = d3d.createFence(0);
      const done = d3d.createFence(0);
      const heldDone = d3d.createFence(0);
      const target = d3d.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: 4 * TILE },
        'COMMON',
      );
      const upload = uploadBuffer(d3d, pattern(4 * TILE, 3));
      const list = d3d.createCommandList('DIRECT');
      list.copyBufferRegion(target, 0, upload, 0, 4 * TILE);
      list.close();
      queue.executeCommandLists([list]);
      queue.signal(done, 1);
      held.wait(gate, 1);
      held.executeCommandLists([list]);
      held.signal(heldDone, 1);
      d3d.evict([target]); // a paging copy and map in flight
      const readback = d3d.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'COPY_DEST',
      );
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');

      gpuDevice.destroy();
      await within(gpuDevice.lost, 'GPUDevice.lost');

      expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_REMOVED');
      // Every fence completes, with waiters released: nothing waits forever.
      await within(done.setEventOnCompletion(1), 'the signalled fence');
      await within(heldDone.setEventOnCompletion(1), 'the fence behind the held wait');
      await within(gate.setEventOnCompletion(7), 'a value nobody signals');
      await within(d3d.readFaults(), 'readFaults');
      // The next call of each kind throws DEVICE_REMOVED with WebGPU's reason.
      expectD3D12Error(() => d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } }), {
        ...removed,
        call: 'createHeap',
      });
      expectD3D12Error(
        () => d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: TILE }, 'COMMON'),
        { ...removed, call: 'createCommittedResource' },
      );
      expectD3D12Error(() => d3d.createCommandList('DIRECT'), { ...removed, call: 'createCommandList' });
      expectD3D12Error(() => d3d.createCommandQueue({ type: 'DIRECT' }), { ...removed, call: 'createCommandQueue' });
      expectD3D12Error(() => d3d.createFence(0), { ...removed, call: 'createFence' });
      expectD3D12Error(() => queue.executeCommandLists([list]), { ...removed, call: 'executeCommandLists' });
      expectD3D12Error(() => queue.signal(done, 2), { ...removed, call: 'signal' });
      expectD3D12Error(() => d3d.makeResident([target]), { ...removed, call: 'makeResident' });
      expectD3D12Error(() => readback.map(), { ...removed, call: 'Resource.map' });
      await expect(
        d3d.createComputePipelineState({ code: '@compute @workgroup_size(1) fn main() {}', entryPoint: 'main' }),
      ).rejects.toBeInstanceOf(D3D12Error);
      d3d.destroy();
    },
  );

  test(
    'Device.destroy() removes the emulated device: later calls throw DEVICE_REMOVED, fences complete',
    { timeout: 60_000 },
    async () => {
      const gpuDevice = await createNodeDevice();
      try {
        const d3d = await createDevice({ gpuDevice, localMemoryBytes: 4 << 20, nonLocalMemoryBytes: 4 << 20 });
        const fence = d3d.createFence(0);
        d3d.destroy();
        expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_REMOVED');
        await within(fence.setEventOnCompletion(3), 'a fence of the destroyed device');
        expectD3D12Error(() => d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } }), {
          hresult: 'DXGI_ERROR_DEVICE_REMOVED',
          call: 'createHeap',
          argument: 'this',
          message: /Device\.destroy\(\) was called/,
        });
      } finally {
        gpuDevice.destroy();
      }
    },
  );
});
