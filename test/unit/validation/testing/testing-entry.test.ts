/**
 * d3d12-webgpu/testing refuses what is not the object a hook takes, as the main entry's methods do:
 * E_INVALIDARG naming the hook and its argument, one wrong argument at a time, with valid controls
 * on a CPU-only device.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { createDevice, type Device, type Heap, type Resource } from '../../../../src/index.js';
import {
  corruptPageTableEntryForTesting,
  dropNextPageTableWriteForTesting,
  failNextAllocationForTesting,
  getEvictedBytesForTesting,
  getHeapPoolPagesForTesting,
  getTileMappingForTesting,
  isReleasedForTesting,
} from '../../../../src/testing/index.js';
import { TILE } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

async function objects(): Promise<{ device: Device; heap: Heap; reserved: Resource }> {
  const device = await createDevice({ gpuDevice: null });
  const heap = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
  const reserved = device.createReservedResource({ dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
  return { device, heap, reserved };
}

/** Values that are not the object a hook takes (an object of the wrong class among them). */
const WRONG: readonly [string, (o: { heap: Heap; reserved: Resource; device: Device }) => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['a number', () => 7],
  ['NaN', () => Number.NaN],
  ['a plain object', () => ({})],
];

describe('hooks that take a Device', () => {
  const hooks = [
    ['failNextAllocationForTesting', (d: unknown) => failNextAllocationForTesting(d as Device)],
    ['dropNextPageTableWriteForTesting', (d: unknown) => dropNextPageTableWriteForTesting(d as Device)],
    [
      'corruptPageTableEntryForTesting',
      (d: unknown, r?: Resource) => corruptPageTableEntryForTesting(d as Device, r as Resource, 0),
    ],
    ['getHeapPoolPagesForTesting', (d: unknown, r?: Resource) => getHeapPoolPagesForTesting(d as Device, r as never)],
  ] as const;
  for (const [call, hook] of hooks) {
    for (const [name, make] of [...WRONG, ['a Heap', (o: { heap: Heap }) => o.heap] as const]) {
      test(`${call}: device is ${name}`, async () => {
        const all = await objects();
        expectD3D12Error(() => hook(make(all), all.reserved), {
          call,
          argument: 'device',
          message: /must be a Device/,
        });
      });
    }
  }
  test('control: failNextAllocationForTesting takes a CPU-only device (nothing to fail)', async () => {
    const { device } = await objects();
    expect(() => failNextAllocationForTesting(device)).not.toThrow();
  });
  test('control: the page-table hooks take the device and refuse it only for having no GPU memory', async () => {
    const { device, reserved } = await objects();
    expectD3D12Error(() => dropNextPageTableWriteForTesting(device), { message: /no GPU memory/ });
    expectD3D12Error(() => corruptPageTableEntryForTesting(device, reserved, 0), { message: /no GPU memory/ });
  });
});

/** A device for the hooks that take one beside the object under test. */
let SOME_DEVICE: Device | undefined;

describe('hooks that take a Heap or a Resource', () => {
  beforeAll(async () => {
    SOME_DEVICE = (await objects()).device;
  });
  const hooks = [
    ['getEvictedBytesForTesting', 'heap', /must be a Heap/, (v: unknown) => getEvictedBytesForTesting(v as Heap)],
    ['isReleasedForTesting', 'heap', /must be a Heap/, (v: unknown) => isReleasedForTesting(v as Heap)],
    [
      'getHeapPoolPagesForTesting',
      'heap',
      /must be a Heap/,
      (v: unknown) => getHeapPoolPagesForTesting(SOME_DEVICE as Device, v as Heap),
    ],
    [
      'getTileMappingForTesting',
      'resource',
      /must be a Resource/,
      (v: unknown) => getTileMappingForTesting(v as Resource, 0),
    ],
  ] as const;
  for (const [call, argument, message, hook] of hooks) {
    for (const [name, make] of [...WRONG, ['a Device', (o: { device: Device }) => o.device] as const]) {
      test(`${call}: ${argument} is ${name}`, async () => {
        const value = make(await objects());
        expectD3D12Error(() => hook(value), { call, argument, message });
      });
    }
  }
  test('controls: a live heap is not released and holds no evicted bytes (nor pool pages, CPU-only); a reserved tile starts NULL', async () => {
    const { device, heap, reserved } = await objects();
    expect(getHeapPoolPagesForTesting(device, heap)).toBeUndefined();
    const other = (await objects()).device;
    expectD3D12Error(() => getHeapPoolPagesForTesting(other, heap), {
      call: 'getHeapPoolPagesForTesting',
      argument: 'heap',
      message: /not a heap of this device/,
    });
    expect(isReleasedForTesting(heap)).toBe(false);
    expect(getEvictedBytesForTesting(heap)).toBeUndefined();
    expect(getTileMappingForTesting(reserved, 0)).toBeNull();
    heap.release();
    expect(isReleasedForTesting(heap)).toBe(true);
  });
});
