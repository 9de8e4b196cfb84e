/**
 * Object lifetimes and addresses: unique non-zero GPU virtual addresses, release semantics (COM
 * Release: double release and use after release are errors; placed resources keep their heap),
 * objects of another device refused, the page-table view of committed and placed resources.
 */
import { describe, expect, test } from 'vitest';
import { createDevice, type Device, type Resource, type ResourceDesc } from '../../../../src/index.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { TILE } from '../../../shared/d3d12-helpers.js';
import { getTileMappingForTesting } from '../../../../src/testing/index.js';

const buffer = (width: number): ResourceDesc => ({ dimension: 'BUFFER', width });
const DEFAULT_HEAP = { type: 'DEFAULT' } as const;

/** The byte range [address, address + pages) a resource owns. */
function span(resource: Resource): [bigint, bigint] {
  const start = resource.getGPUVirtualAddress();
  return [start, start + BigInt(resource.layout.sizeInBytes)];
}

describe('GPU virtual addresses', () => {
  test('every kind of resource gets a non-zero address; live ranges never overlap', async () => {
    const device = await createDevice();
    const heap = device.createHeap({ sizeInBytes: 16 * TILE, properties: DEFAULT_HEAP });
    const resources = [
      device.createCommittedResource(DEFAULT_HEAP, [], buffer(3 * TILE + 5), 'COMMON'),
      device.createPlacedResource(heap, 0, buffer(TILE), 'COMMON'),
      device.createPlacedResource(heap, TILE, buffer(TILE), 'COMMON'), // aliases nothing, same heap
      device.createReservedResource(buffer(10 * TILE), 'COMMON'),
      device.createReservedResource(
        {
          dimension: 'TEXTURE2D',
          width: 1024,
          height: 1024,
          format: 'R8G8B8A8_UNORM',
          layout: '64KB_UNDEFINED_SWIZZLE',
        },
        'COMMON',
      ),
      device.createCommittedResource(
        DEFAULT_HEAP,
        [],
        { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8_UNORM' },
        'COMMON',
      ),
    ];
    const spans = resources.map(span).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (const [start] of spans) expect(start).toBeGreaterThan(0n);
    for (let i = 1; i < spans.length; i++)
      expect((spans[i - 1] as [bigint, bigint])[1]).toBeLessThanOrEqual((spans[i] as [bigint, bigint])[0]);
    for (const resource of resources) expect(typeof resource.getGPUVirtualAddress()).toBe('bigint');
  });

  test('reserved resources are page aligned; a small texture placed at 4 KiB keeps the offset in its address', async () => {
    const device = await createDevice();
    const reserved = device.createReservedResource(buffer(TILE), 'COMMON');
    expect(reserved.getGPUVirtualAddress() % BigInt(TILE)).toBe(0n);
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: DEFAULT_HEAP });
    const small = device.createPlacedResource(
      heap,
      12288,
      { dimension: 'TEXTURE2D', alignment: 4096, width: 32, height: 32, format: 'R8G8B8A8_UNORM' },
      'COMMON',
    );
    expect(small.getGPUVirtualAddress() % BigInt(TILE)).toBe(12288n);
  });

  test('a released range is reused; a live one never is', async () => {
    const device = await createDevice();
    const a = device.createCommittedResource(DEFAULT_HEAP, [], buffer(TILE), 'COMMON');
    const address = a.getGPUVirtualAddress();
    const b = device.createCommittedResource(DEFAULT_HEAP, [], buffer(TILE), 'COMMON');
    expect(b.getGPUVirtualAddress()).not.toBe(address);
    a.release();
    expect(device.createCommittedResource(DEFAULT_HEAP, [], buffer(TILE), 'COMMON').getGPUVirtualAddress()).toBe(
      address,
    );
  });

  test('exhausting the 1 TiB address space is E_OUTOFMEMORY from the creating call, which leaves nothing behind', async () => {
    const device = await createDevice();
    const half = 2 ** 39;
    const first = device.createCommittedResource(DEFAULT_HEAP, [], buffer(half), 'COMMON');
    // Page 0 and the guard page leave less than a second half.
    expectD3D12Error(() => device.createCommittedResource(DEFAULT_HEAP, [], buffer(half), 'COMMON'), {
      hresult: 'E_OUTOFMEMORY',
      message: /virtual address space/,
    });
    const fits = device.createCommittedResource(DEFAULT_HEAP, [], buffer(half - 3 * TILE), 'COMMON');
    first.release();
    fits.release();
    expect(device.createCommittedResource(DEFAULT_HEAP, [], buffer(half), 'COMMON').getGPUVirtualAddress()).toBe(
      BigInt(TILE),
    );
  });
});

describe('release', () => {
  test('double release and use after release are errors naming the object', async () => {
    const device = await createDevice();
    const resource = device.createCommittedResource(DEFAULT_HEAP, [], buffer(TILE), 'COMMON');
    resource.setName('vertices');
    resource.release();
    expectD3D12Error(() => resource.release(), {
      hresult: 'E_INVALIDARG',
      message: /committed resource #1 'vertices' was already released/,
    });
    expectD3D12Error(() => resource.getGPUVirtualAddress(), { hresult: 'E_INVALIDARG', message: /was released/ });
    expectD3D12Error(() => resource.getDesc(), { hresult: 'E_INVALIDARG', message: /was released/ });
    expectD3D12Error(() => device.getResourceTiling(resource), { hresult: 'E_INVALIDARG', message: /was released/ });
    const heap = device.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP });
    heap.release();
    expectD3D12Error(() => heap.release(), { hresult: 'E_INVALIDARG', message: /heap #\d+ was already released/ });
    expectD3D12Error(() => heap.getDesc(), { hresult: 'E_INVALIDARG', message: /was released/ });
    expectD3D12Error(() => device.createPlacedResource(heap, 0, buffer(TILE), 'COMMON'), {
      hresult: 'E_INVALIDARG',
      message: /was released/,
    });
  });

  test('placed resources keep their heap alive (as D3D12 placed resources hold a reference)', async () => {
    const device = await createDevice();
    const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: DEFAULT_HEAP });
    const a = device.createPlacedResource(heap, 0, buffer(TILE), 'COMMON');
    const b = device.createPlacedResource(heap, TILE, buffer(TILE), 'COMMON');
    heap.release();
    expect(heap.memoryFreed).toBe(false);
    a.release();
    expect(heap.memoryFreed).toBe(false);
    b.release();
    expect(heap.memoryFreed).toBe(true);
  });

  test('control: a heap released with no placed resource frees its memory at once', async () => {
    const device = await createDevice();
    const heap = device.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP });
    expect(heap.memoryFreed).toBe(false);
    heap.release();
    expect(heap.memoryFreed).toBe(true);
  });
});

describe('ownership', () => {
  async function twoDevices(): Promise<[Device, Device]> {
    return [await createDevice(), await createDevice()];
  }

  test("another device's heap or resource is refused", async () => {
    const [mine, theirs] = await twoDevices();
    const theirHeap = theirs.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP });
    const theirReserved = theirs.createReservedResource(buffer(TILE), 'COMMON');
    expectD3D12Error(() => mine.createPlacedResource(theirHeap, 0, buffer(TILE), 'COMMON'), {
      hresult: 'E_INVALIDARG',
      message: /heap created by this device/,
    });
    expectD3D12Error(() => mine.getResourceTiling(theirReserved), {
      hresult: 'E_INVALIDARG',
      message: /resource created by this device/,
    });
    const queue = mine.createCommandQueue({ type: 'DIRECT' });
    expectD3D12Error(() => queue.updateTileMappings(theirReserved, null, null, null, ['NULL'], null, null), {
      hresult: 'E_INVALIDARG',
      message: /resource created by this device/,
    });
    const myReserved = mine.createReservedResource(buffer(TILE), 'COMMON');
    expectD3D12Error(() => queue.updateTileMappings(myReserved, null, null, theirHeap, null, null, null), {
      hresult: 'E_INVALIDARG',
      message: /heap created by this device/,
    });
    // control: the same calls with the device's own objects pass
    const myHeap = mine.createHeap({ sizeInBytes: TILE, properties: DEFAULT_HEAP });
    queue.updateTileMappings(myReserved, null, null, myHeap, null, null, null);
    expect(getTileMappingForTesting(myReserved, 0)?.heap).toBe(myHeap);
  });

  test("a committed resource's implicit heap is not a heap the API accepts", async () => {
    const device = await createDevice();
    const committed = device.createCommittedResource(DEFAULT_HEAP, [], buffer(2 * TILE), 'COMMON');
    const implicit = getTileMappingForTesting(committed, 0)?.heap;
    expect(implicit?.label).toMatch(/implicit heap of committed resource #1/);
    expectD3D12Error(() => device.createPlacedResource(implicit as never, 0, buffer(TILE), 'COMMON'), {
      hresult: 'E_INVALIDARG',
      message: /heap created by this device/,
    });
  });
});

describe('the page-table view of committed and placed resources', () => {
  test('committed: tile i is tile i of its implicit heap; placed: heap tile = offset / 64 KiB + i', async () => {
    const device = await createDevice();
    const committed = device.createCommittedResource(DEFAULT_HEAP, [], buffer(3 * TILE), 'COMMON');
    expect([0, 1, 2].map((t) => getTileMappingForTesting(committed, t)?.heapTileOffset)).toEqual([0, 1, 2]);
    const heap = device.createHeap({ sizeInBytes: 8 * TILE, properties: DEFAULT_HEAP });
    const placed = device.createPlacedResource(heap, 5 * TILE, buffer(3 * TILE), 'COMMON');
    expect([0, 1, 2].map((t) => getTileMappingForTesting(placed, t))).toEqual(
      [5, 6, 7].map((heapTileOffset) => ({ heap, heapTileOffset })),
    );
  });

  test('reserved: every tile starts NULL; tile indices outside the resource are refused', async () => {
    const device = await createDevice();
    const reserved = device.createReservedResource(buffer(4 * TILE), 'COMMON');
    expect([0, 1, 2, 3].map((t) => getTileMappingForTesting(reserved, t))).toEqual([null, null, null, null]);
    expectD3D12Error(() => getTileMappingForTesting(reserved, 4), { hresult: 'E_INVALIDARG', message: /below 4/ });
    expectD3D12Error(() => getTileMappingForTesting(reserved, -1), { hresult: 'E_INVALIDARG', message: /below 4/ });
    expectD3D12Error(() => getTileMappingForTesting(reserved, 1.5), { hresult: 'E_INVALIDARG', message: /integer/ });
  });

  test('getDesc returns a copy with every default filled in', async () => {
    const device = await createDevice();
    const texture = device.createCommittedResource(
      DEFAULT_HEAP,
      [],
      { dimension: 'TEXTURE2D', width: 256, height: 128, mipLevels: 0, format: 'BC1_UNORM' },
      'COMMON',
    );
    const desc = texture.getDesc();
    expect(desc).toEqual({
      dimension: 'TEXTURE2D',
      alignment: 65536,
      width: 256,
      height: 128,
      depthOrArraySize: 1,
      mipLevels: 9,
      format: 'BC1_UNORM',
      sampleDesc: { count: 1, quality: 0 },
      layout: 'UNKNOWN',
      flags: [],
    });
    desc.width = 1;
    expect(texture.getDesc().width).toBe(256);
  });
});
