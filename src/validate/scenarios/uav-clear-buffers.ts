/**
 * ClearUnorderedAccessViewUint / Float on buffers, through the public API: raw, typed and structured
 * views, whole and in rectangles (clipped), over a pattern, with every byte read back and compared
 * with a CPU model; a reserved buffer partly NULL (the clear's writes to NULL tiles are dropped, and
 * recorded as unmapped writes of the clear); a clear longer than one dispatch of the clear kernel; a
 * clear of CPU-visible memory, seen through map(); and a clear of an evicted heap's buffer, which
 * faults and names the clear. The expected element bytes are written out here, from D3D12's rules and
 * vkd3d-proton's tests of native drivers (tests/d3d12_clear.c), not computed by the library.
 */
import { createDevice } from '../../d3d12/create-device.js';
import type { GraphicsCommandList } from '../../d3d12/command-list.js';
import type { Device } from '../../d3d12/device.js';
import type { Resource } from '../../d3d12/resource.js';
import type { TiledResourcesTier, UavClearView } from '../../api/types.js';
import { check, pattern, TILE, type Check } from '../bytes.js';
import { readBuffer, runList, uploadBuffer } from '../d3d12-io.js';
import { TIER1_NULL_READ } from '../page-table-model.js';

interface BufferClear {
  name: string;
  kind: 'Uint' | 'Float';
  values: [number, number, number, number];
  view: UavClearView | null;
  rects: { left: number; right: number }[] | null;
  /** One element's bytes (raw and structured views: values[0]'s four). */
  element: number[];
}

const le = (word: number): number[] => [word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, word >>> 24];
const rect = (left: number, right: number): { left: number; top: number; right: number; bottom: number } => ({
  left,
  top: 0,
  right,
  bottom: 1,
});

/** In order, on one 8 KiB buffer; the later ones on their own elements. */
const CLEARS: BufferClear[] = [
  {
    name: 'raw, the default view: the whole buffer',
    kind: 'Uint',
    values: [0x11223344, 9, 9, 9],
    view: null,
    rects: null,
    element: le(0x11223344),
  },
  {
    name: 'raw, two rectangles (one clipped at the end)',
    kind: 'Uint',
    values: [0xcafef00d, 0, 0, 0],
    view: { format: 'R32_TYPELESS', flags: 'RAW' },
    rects: [rect(3, 10), rect(2040, 5000)],
    element: le(0xcafef00d),
  },
  {
    name: 'R8_UINT from element 5, a rectangle: partial words at both ends',
    kind: 'Uint',
    values: [0x17f, 0, 0, 0],
    view: { format: 'R8_UINT', firstElement: 5, numElements: 100 },
    rects: [rect(2, 7)],
    element: [0x7f],
  },
  {
    name: 'R16G16_UNORM Float: 0.50000762951 and 1 are 0x8000, 0xffff',
    kind: 'Float',
    values: [0.50000762951, 1, 0, 0],
    view: { format: 'R16G16_UNORM', firstElement: 64, numElements: 8 },
    rects: null,
    element: le(0xffff8000),
  },
  {
    name: 'R16G16_UNORM Float: 2 and -1 saturate',
    kind: 'Float',
    values: [2, -1, 0, 0],
    view: { format: 'R16G16_UNORM', firstElement: 80, numElements: 4 },
    rects: null,
    element: le(0x0000ffff),
  },
  {
    name: 'R16G16_FLOAT Float: 0.5, 1',
    kind: 'Float',
    values: [0.5, 1, 0, 0],
    view: { format: 'R16G16_FLOAT', firstElement: 90, numElements: 2 },
    rects: null,
    element: le(0x3c003800),
  },
  {
    name: 'R11G11B10_FLOAT Float: 0.5, 1, 2',
    kind: 'Float',
    values: [0.5, 1, 2, 0],
    view: { format: 'R11G11B10_FLOAT', firstElement: 100, numElements: 3 },
    rects: null,
    element: le(0x801e0380),
  },
  {
    name: 'R11G11B10_FLOAT Uint: the bits of each channel',
    kind: 'Uint',
    values: [0x7ff, 0, 0x3ff, 0],
    view: { format: 'R11G11B10_FLOAT', firstElement: 110, numElements: 2 },
    rects: null,
    element: le(0xffc007ff),
  },
  {
    name: 'R10G10B10A2_UNORM Uint: the low 10 and 2 bits',
    kind: 'Uint',
    values: [0x1010, 0x1020, 0x1030, 0x41],
    view: { format: 'R10G10B10A2_UNORM', firstElement: 120, numElements: 2 },
    rects: null,
    element: le(0x43008010),
  },
  // NaN stays NaN; a denormal is flushed to zero (the D3D12 runtime's rule for float clears).
  {
    name: 'R32G32B32A32_FLOAT Float: 1, -2, NaN, a denormal',
    kind: 'Float',
    values: [1, -2, NaN, 1e-40],
    view: { format: 'R32G32B32A32_FLOAT', firstElement: 40, numElements: 2 },
    rects: null,
    element: [...le(0x3f800000), ...le(0xc0000000), ...le(0x7fc00000), ...le(0)],
  },
  {
    name: 'R16G16B16A16_FLOAT Float from byte 808 (not 16-aligned)',
    kind: 'Float',
    values: [0.5, 1, -2, 65504],
    view: { format: 'R16G16B16A16_FLOAT', firstElement: 101, numElements: 3 },
    rects: null,
    element: [0x00, 0x38, 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b],
  },
  {
    name: 'structured, stride 12: values[0] into every word',
    kind: 'Uint',
    values: [0x01020304, 5, 6, 7],
    view: { structureByteStride: 12, firstElement: 90, numElements: 5 },
    rects: null,
    element: [4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1],
  },
  {
    name: 'B8G8R8A8_UNORM Uint: values[2] in the first byte',
    kind: 'Uint',
    values: [1, 2, 3, 4],
    view: { format: 'B8G8R8A8_UNORM', firstElement: 300, numElements: 2 },
    rects: null,
    element: [3, 2, 1, 4],
  },
  {
    name: 'B8G8R8A8_UNORM Float',
    kind: 'Float',
    values: [0, 0, 0.50000762951, 1],
    view: { format: 'B8G8R8A8_UNORM', firstElement: 310, numElements: 1 },
    rects: null,
    element: [0x80, 0, 0, 0xff],
  },
  {
    name: 'A8_UNORM Float: values[3]',
    kind: 'Float',
    values: [0, 0, 0, 0.50000762951],
    view: { format: 'A8_UNORM', firstElement: 1500, numElements: 3 },
    rects: null,
    element: [0x80],
  },
  {
    name: 'A8_UNORM Uint: values[3]',
    kind: 'Uint',
    values: [1, 2, 3, 4],
    view: { format: 'A8_UNORM', firstElement: 1510, numElements: 2 },
    rects: null,
    element: [4],
  },
  {
    name: 'R8G8B8A8_SNORM Float: -1, 1, 0.5, -0.5',
    kind: 'Float',
    values: [-1, 1, 0.5, -0.5],
    view: { format: 'R8G8B8A8_SNORM', firstElement: 1600, numElements: 1 },
    rects: null,
    element: [0x81, 0x7f, 0x40, 0xc0],
  },
  {
    name: 'R8G8B8A8_SINT Uint: -1, 0x80, 0x7f, 0x100',
    kind: 'Uint',
    values: [-1, 0x80, 0x7f, 0x100],
    view: { format: 'R8G8B8A8_SINT', firstElement: 1610, numElements: 1 },
    rects: null,
    element: [0xff, 0x80, 0x7f, 0x00],
  },
  {
    name: 'R32_FLOAT Float: a negative denormal is -0',
    kind: 'Float',
    values: [-1e-40, 0, 0, 0],
    view: { format: 'R32_FLOAT', firstElement: 1700, numElements: 1 },
    rects: null,
    element: le(0x80000000),
  },
];

/** The model of one clear: its element written at every element of the view inside its rectangles. */
function applyClear(bytes: Uint8Array, c: BufferClear): void {
  const size = c.view?.structureByteStride ?? c.element.length;
  const first = c.view?.firstElement ?? 0;
  const count = c.view?.numElements ?? Math.floor(bytes.length / size) - first;
  for (const r of c.rects ?? [{ left: 0, right: count }]) {
    for (let e = Math.max(0, r.left); e < Math.min(count, r.right); e++) bytes.set(c.element, (first + e) * size);
  }
}

function clear(list: GraphicsCommandList, resource: Resource, c: BufferClear): void {
  const rects = c.rects?.map((r) => rect(r.left, r.right)) ?? null;
  if (c.kind === 'Uint') list.clearUnorderedAccessViewUint(resource, c.values, rects, c.view);
  else list.clearUnorderedAccessViewFloat(resource, c.values, rects, c.view);
}

function expectThat(name: string, ok: boolean, detail: string): Check {
  return ok ? { name, length: 0, firstDifference: -1 } : { name, length: 0, firstDifference: 0, detail };
}

/** Every clear of CLEARS on a committed buffer over a pattern, each compared after it ran. */
async function committedClears(device: Device): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'COMPUTE' });
  const width = 8192;
  const buffer = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  const model = pattern(width, 91);
  const upload = uploadBuffer(device, model);
  await runList(device, queue, (list) => list.copyBufferRegion(buffer, 0, upload, 0, width), 'COMPUTE');
  const checks: Check[] = [];
  for (const c of CLEARS) {
    await runList(device, queue, (list) => clear(list, buffer, c), 'COMPUTE');
    applyClear(model, c);
    checks.push(check(`buffer clear, ${c.name}`, await readBuffer(device, queue, buffer, 0, width), model));
  }
  buffer.release();
  upload.release();
  return checks;
}

/** A reserved buffer of 4 tiles, tiles 1 and 3 NULL: cleared whole, and across the tile 0 / 1 boundary. */
async function reservedClears(device: Device, tier: TiledResourcesTier): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const reserved = device.createReservedResource(
    { dimension: 'BUFFER', width: 4 * TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  reserved.setName('partly NULL');
  const heap = device.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
  queue.updateTileMappings(
    reserved,
    [
      { x: 0, y: 0, z: 0, subresource: 0 },
      { x: 2, y: 0, z: 0, subresource: 0 },
    ],
    null,
    heap,
    ['NONE', 'NONE'],
    [0, 1],
    null,
  );
  await device.readUnmappedAccesses();
  const whole: BufferClear = {
    name: 'whole',
    kind: 'Uint',
    values: [0xabcdef01, 0, 0, 0],
    view: null,
    rects: null,
    element: le(0xabcdef01),
  };
  const edge: BufferClear = {
    name: 'edge',
    kind: 'Uint',
    values: [0x33, 0, 0, 0],
    view: { format: 'R8_UINT' },
    rects: [{ left: TILE - 6, right: TILE + 6 }],
    element: [0x33],
  };
  await runList(device, queue, (list) => {
    clear(list, reserved, whole);
    clear(list, reserved, edge);
  });
  const model = new Uint8Array(4 * TILE);
  applyClear(model, whole);
  applyClear(model, edge);
  const nullRead = new Uint8Array(new Uint32Array(TILE / 4).fill(tier === 1 ? TIER1_NULL_READ : 0).buffer);
  for (const tile of [1, 3]) model.set(nullRead, tile * TILE);
  const unmapped = await device.readUnmappedAccesses();
  const tiles = unmapped.resources.find((r) => r.resourceId === reserved.id)?.tiles.map((t) => t.tile) ?? [];
  const ours = unmapped.accesses.filter((a) => a.resourceId === reserved.id);
  const checks = [
    check(
      `tier ${tier}: a reserved buffer cleared whole and across a tile edge: mapped tiles hold the values, NULL tiles read as the tier says`,
      await readBuffer(device, queue, reserved, 0, 4 * TILE),
      model,
    ),
    expectThat(
      `tier ${tier}: the clears' writes to NULL tiles 1 and 3 are recorded as unmapped writes naming the clears`,
      tiles.join() === '1,3' &&
        ours.length > 0 &&
        ours.every(
          (a) =>
            a.access === 'write' &&
            a.command.name === 'clearUnorderedAccessViewUint' &&
            (a.command.index === 0 || a.command.index === 1),
        ),
      JSON.stringify({ tiles, accesses: ours.slice(0, 4) }),
    ),
  ];
  reserved.release();
  heap.release();
  return checks;
}

/**
 * A raw clear of a 17 MiB reserved buffer, more than one dispatch of the clear kernel covers (16 MiB
 * less 256 bytes): the tiles mapped at both ends and on either side of the first run's end hold the
 * value; the other tiles are NULL and drop theirs.
 */
async function longClear(device: Device): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const tiles = 272;
  const reserved = device.createReservedResource(
    { dimension: 'BUFFER', width: tiles * TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  const heap = device.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
  const mapped = [0, 255, 256, tiles - 1];
  queue.updateTileMappings(
    reserved,
    mapped.map((x) => ({ x, y: 0, z: 0, subresource: 0 })),
    null,
    heap,
    mapped.map(() => 'NONE' as const),
    [0, 1, 2, 3],
    null,
  );
  await runList(device, queue, (list) => list.clearUnorderedAccessViewUint(reserved, [0x600df00d, 0, 0, 0]));
  const expected = new Uint8Array(new Uint32Array(TILE / 4).fill(0x600df00d).buffer);
  const checks: Check[] = [];
  for (const tile of mapped)
    checks.push(
      check(
        `a 17 MiB raw clear (two runs of the kernel): tile ${tile} holds the value`,
        await readBuffer(device, queue, reserved, tile * TILE, TILE),
        expected,
      ),
    );
  reserved.release();
  heap.release();
  return checks;
}

/** A clear of a buffer in CPU-visible memory (a CUSTOM write-back heap): map() shows the cleared bytes once the fence completes. */
async function cpuVisibleClear(device: Device): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const buffer = device.createCommittedResource(
    { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
    [],
    { dimension: 'BUFFER', width: 256, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  const model = pattern(256, 93);
  buffer.map().set(model);
  buffer.unmap();
  const typed: BufferClear = {
    name: 'typed',
    kind: 'Uint',
    values: [0x1234, 0x5678, 0, 0],
    view: { format: 'R16G16_UINT' },
    rects: [{ left: 5, right: 20 }],
    element: le(0x56781234),
  };
  await runList(device, queue, (list) => clear(list, buffer, typed));
  applyClear(model, typed);
  const mapped = buffer.map().slice();
  buffer.unmap();
  buffer.release();
  return [check('a clear of a buffer in a CUSTOM write-back heap: map() shows it after the fence', mapped, model)];
}

/** A buffer placed in a heap that is then evicted: its clear faults, and the fault names the clear. */
async function evictedClear(device: Device): Promise<Check[]> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const heap = device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
  heap.setName('evicted heap');
  const buffer = device.createPlacedResource(
    heap,
    0,
    { dimension: 'BUFFER', width: 256, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  device.evict([heap]);
  await runList(device, queue, (list) => {
    list.setName('clears an evicted buffer');
    list.clearUnorderedAccessViewFloat(buffer, [1, 0, 0, 0], [rect(0, 4)], { format: 'R32_FLOAT' });
  });
  const faults = await device.readFaults();
  const address = `0x${buffer.getGPUVirtualAddress().toString(16)}`;
  const checks = [
    expectThat(
      'a clear of an evicted heap faults: write-absent at each word, attributed to the clear (command 0)',
      faults.length === 4 &&
        faults.every(
          (f) =>
            f.kind === 'write-absent' &&
            f.heap?.name === 'evicted heap' &&
            f.command?.name === 'clearUnorderedAccessViewFloat' &&
            f.command.index === 0,
        ) &&
        faults.some((f) => f.address === address),
      JSON.stringify(faults.map((f) => ({ kind: f.kind, address: f.address, command: f.command, heap: f.heap?.name }))),
    ),
  ];
  buffer.release();
  heap.release();
  return checks;
}

/** The buffer clears at `tier` (its NULL-tile semantics), on a device that records unmapped accesses and reports faults. */
export async function uavClearBuffers(
  gpuDevice: GPUDevice,
  options: { tiledResourcesTier: TiledResourcesTier },
): Promise<Check[]> {
  const tier = options.tiledResourcesTier;
  const device = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 8 << 20,
    nonLocalMemoryBytes: 8 << 20,
    onPageFault: 'report',
    gpuValidation: { unmappedAccess: true },
  });
  try {
    return [
      ...(await committedClears(device)),
      ...(await reservedClears(device, tier)),
      ...(await longClear(device)),
      ...(await cpuVisibleClear(device)),
      ...(await evictedClear(device)),
    ];
  } finally {
    device.destroy();
  }
}
