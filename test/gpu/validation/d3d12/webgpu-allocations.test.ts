/**
 * The emulator's own WebGPU allocations are checked (src/gpu/error-guard.ts): createDevice rejects
 * with E_OUTOFMEMORY naming the pool, its size and the adapter's limits when WebGPU refuses the pool
 * (SwiftShader refuses a 1 GiB pool with VK_ERROR_OUT_OF_DEVICE_MEMORY), and leaves the WebGPU device
 * usable; an allocation WebGPU refuses after a call returned (staging for an evict, for a readback)
 * removes the device with the reason in the message. Every test runs inside the harness's error
 * scopes, so a WebGPU error that escaped the emulator's own scopes would fail it.
 */
import { describe, expect } from 'vitest';
import { createDevice, type Device } from '../../../../src/index.js';
import { maxPoolBytes } from '../../../../src/gpu/gpu-memory.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { failNextAllocationForTesting } from '../../../../src/testing/index.js';

const MIB = 2 ** 20;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createDevice checks its pools', () => {
  gpuTest(
    'a pool WebGPU refuses: E_OUTOFMEMORY naming the pool, its size and what the adapter allows; the WebGPU device stays usable',
    async ({ device }) => {
      const largest = maxPoolBytes(device);
      const swiftShader = device.adapterInfo.architecture === 'swiftshader';
      // Both pools together as large as the limits allow: more than SwiftShader's memory holds.
      const error = await rejection(
        createDevice({ gpuDevice: device, localMemoryBytes: largest - TILE, nonLocalMemoryBytes: TILE }),
      );
      if (!swiftShader) {
        console.log(`[gpu] ${device.adapterInfo.vendor} gave a pool of ${largest} bytes: nothing to refuse here`);
        if (error === undefined) return;
      }
      expect(error, 'SwiftShader cannot hold a 1 GiB pool').toBeDefined();
      expectD3D12Error(
        () => {
          throw error;
        },
        {
          hresult: 'E_OUTOFMEMORY',
          call: 'createDevice',
          argument: 'options.localMemoryBytes',
          message: new RegExp(
            `WebGPU refused the pool \\(LOCAL and NON_LOCAL\\) \\(${largest} bytes\\): .+ \\(this adapter allows ${largest} bytes for both pools together \\(maxBufferSize \\d+, maxStorageBufferBindingSize \\d+\\)\\)`,
          ),
        },
      );
      // Nothing was left behind: a device of ordinary size opens and works.
      const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const buffer = d3d.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'COMMON',
      );
      const list = d3d.createCommandList('DIRECT');
      list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, pattern(TILE, 3)), 0, TILE);
      list.close();
      queue.executeCommandLists([list]);
      await flush(d3d, queue);
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
      d3d.destroy();
    },
  );

  // Both pools are ranges of one buffer: their sum is what the limits bound.
  const overLimits: [
    string,
    (largest: number) => { localMemoryBytes?: number; nonLocalMemoryBytes?: number },
    string,
    RegExp,
  ][] = [
    [
      'LOCAL alone over the limits',
      (largest) => ({ localMemoryBytes: largest + TILE }),
      'options.localMemoryBytes',
      /leave no page of NON_LOCAL memory within what this GPU allows for both pools \(one buffer\): this adapter allows \d+ bytes/,
    ],
    [
      'LOCAL at the limit: no page left for NON_LOCAL',
      (largest) => ({ localMemoryBytes: largest }),
      'options.localMemoryBytes',
      /leave no page of NON_LOCAL memory/,
    ],
    [
      'NON_LOCAL alone over the limits',
      (largest) => ({ nonLocalMemoryBytes: largest + TILE }),
      'options.nonLocalMemoryBytes',
      /leave no page of LOCAL memory/,
    ],
    [
      'both asked, one page over together',
      (largest) => ({ localMemoryBytes: largest / 2, nonLocalMemoryBytes: largest / 2 + TILE }),
      'options.localMemoryBytes',
      /bytes and options\.nonLocalMemoryBytes's \d+ exceed what this GPU allows for both pools \(one buffer\)/,
    ],
  ];
  for (const [name, options, argument, message] of overLimits) {
    gpuTest(`pools over the limits are E_INVALIDARG before WebGPU is asked: ${name}`, async ({ device }) => {
      const error = await rejection(createDevice({ gpuDevice: device, ...options(maxPoolBytes(device)) }));
      expectD3D12Error(
        () => {
          throw error;
        },
        { hresult: 'E_INVALIDARG', call: 'createDevice', argument, message },
      );
    });
  }

  gpuTest('pools at the limits together pass the check; defaults fit beside an asked size', async ({ device }) => {
    const largest = maxPoolBytes(device);
    // Exactly at the limit: not refused by the check (SwiftShader's memory may still refuse it).
    const error = await rejection(
      createDevice({ gpuDevice: device, localMemoryBytes: largest / 2, nonLocalMemoryBytes: largest / 2 }),
    );
    if (error !== undefined) expect((error as { hresult?: string }).hresult).toBe('E_OUTOFMEMORY');
    else console.log(`[gpu] two pools of ${largest / 2} bytes in one buffer`);
    const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 8 * MIB });
    expect(d3d.queryVideoMemoryInfo('LOCAL').budget).toBe(8 * MIB);
    expect(d3d.queryVideoMemoryInfo('NON_LOCAL').budget).toBe(Math.min(64 * MIB, largest - 8 * MIB));
    d3d.destroy();
  });
});

describe('an allocation WebGPU refuses after the call returned removes the device', () => {
  const open = (gpuDevice: GPUDevice): Promise<Device> =>
    createDevice({ gpuDevice, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });

  gpuTest('evict: its staging buffer refused', async ({ device }) => {
    const d3d = await open(device);
    const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
    const fence = d3d.createFence(0);
    failNextAllocationForTesting(d3d);
    d3d.evict([heap]);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    queue.signal(fence, 1);
    await fence.setEventOnCompletion(1);
    await d3d.readFaults();
    expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_REMOVED');
    expectD3D12Error(() => d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } }), {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      call: 'createHeap',
      argument: 'this',
      message: new RegExp(
        `evicting heap #${heap.id} failed after the call returned: evicting heap #${heap.id}: validation error: `,
      ),
    });
    d3d.destroy();
  });

  gpuTest('executeCommandLists: the staging of a READBACK write refused', async ({ device }) => {
    const d3d = await open(device);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: TILE },
      'COPY_DEST',
    );
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(readback, 0, uploadBuffer(d3d, pattern(TILE, 4)), 0, TILE);
    list.close();
    failNextAllocationForTesting(d3d);
    queue.executeCommandLists([list]);
    const fence = d3d.createFence(0);
    queue.signal(fence, 1);
    await fence.setEventOnCompletion(1);
    await d3d.readFaults();
    expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_REMOVED');
    expectD3D12Error(() => queue.executeCommandLists([list]), {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      call: 'executeCommandLists',
      message: /executeCommandLists failed after the call returned/,
    });
    d3d.destroy();
  });
});

describe('error scopes only where something is allocated (LazyScopes)', () => {
  /** Counts pushErrorScope calls on `device` while `fn` runs. */
  const pushesDuring = (device: GPUDevice, fn: () => void): number => {
    const push = device.pushErrorScope.bind(device);
    let pushes = 0;
    device.pushErrorScope = (filter: GPUErrorFilter): undefined => {
      pushes++;
      push(filter);
    };
    try {
      fn();
    } finally {
      device.pushErrorScope = push;
    }
    return pushes;
  };

  /** A committed one-tile buffer of heap type `type`, in COPY_DEST. */
  const tileBuffer = (d3d: Device, type: 'DEFAULT' | 'READBACK') =>
    d3d.createCommittedResource({ type }, [], { dimension: 'BUFFER', width: TILE }, 'COPY_DEST');

  gpuTest(
    'a submission whose buffers exist opens no scope; one that allocates opens one pair, and its results are right',
    async ({ device }) => {
      const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const source = uploadBuffer(d3d, pattern(TILE, 9));
      const target = tileBuffer(d3d, 'DEFAULT');
      const list = d3d.createCommandList('DIRECT');
      list.copyBufferRegion(target, 0, source, 0, TILE);
      list.close();
      // The first execution makes the submission's buffers (jobs, constants, the fault log's copy).
      expect(pushesDuring(device, () => queue.executeCommandLists([list]))).toBe(2);
      await flush(d3d, queue);
      expect(pushesDuring(device, () => queue.executeCommandLists([list]))).toBe(0);
      await flush(d3d, queue);
      // A copy into READBACK memory takes a staging buffer: scopes again, one pair.
      const readback = tileBuffer(d3d, 'READBACK');
      const out = d3d.createCommandList('DIRECT');
      out.copyBufferRegion(readback, 0, target, 0, TILE);
      out.close();
      expect(pushesDuring(device, () => queue.executeCommandLists([out]))).toBe(2);
      await flush(d3d, queue);
      // What the copy wrote into READBACK memory, as the CPU sees it.
      expect(readback.map(0)).toEqual(pattern(TILE, 9));
      readback.unmap(0, { begin: 0, end: 0 });
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
      d3d.destroy();
    },
  );

  gpuTest(
    'evict and makeResident of a heap whose staging exists open no scope; its bytes come back',
    async ({ device }) => {
      const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
      const buffer = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COPY_DEST');
      const list = d3d.createCommandList('DIRECT');
      list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, pattern(2 * TILE, 5)), 0, 2 * TILE);
      list.close();
      queue.executeCommandLists([list]);
      await flush(d3d, queue);
      // The first round makes the paging staging; the second reuses it.
      for (const round of [0, 1]) {
        const evictPushes = pushesDuring(device, () => d3d.evict([heap]));
        await flush(d3d, queue);
        const restorePushes = pushesDuring(device, () => d3d.makeResident([heap]));
        await flush(d3d, queue);
        if (round === 1) expect([evictPushes, restorePushes]).toEqual([0, 0]);
      }
      expect(await readBuffer(d3d, queue, buffer, 0, 2 * TILE)).toEqual(pattern(2 * TILE, 5));
      expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
      d3d.destroy();
    },
  );
});
