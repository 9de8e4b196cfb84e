/**
 * TileStreamer's argument checks on a live streamer (the ring needs GPU memory): another device's
 * queue or texture, every field of tryWrite's and write's upload (data, requestedAt, coordinate,
 * mapTo, regions, a packed mip without its boxes), the `copy` setter, and every call that does work
 * after release(). One invalid field at a time beside a valid control; each a D3D12Error naming the
 * call, the argument and the rule, and the streamer's state (freeSlots, pending, stats(), copy) as it
 * was. The CPU-side rules are in test/unit/validation/streaming/streamer-validation.test.ts.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  TILE_SIZE,
  type CommandQueue,
  type Device,
  type Heap,
  type Resource,
} from '../../../../src/index.js';
import { TileStreamer, type TileUpload } from '../../../../src/streaming/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { expectD3D12Error, expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';

const test = d3dTest({ localMemoryBytes: 32 * TILE_SIZE, nonLocalMemoryBytes: 32 * TILE_SIZE });
const loose = (value: unknown): never => value as never;
const SIZE = 1024;
const MIPS = 11;
const HEAP_TILES = 4;

interface Setup {
  queue: CommandQueue;
  texture: Resource;
  heap: Heap;
  streamer: TileStreamer<number>;
}

function setup(d3d: Device, copy: 'copyTiles' | 'copyTextureRegion' = 'copyTiles'): Setup {
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const texture = d3d.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: SIZE,
      height: SIZE,
      mipLevels: MIPS,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    'COMMON',
  );
  const heap = d3d.createHeap({
    sizeInBytes: HEAP_TILES * TILE_SIZE,
    properties: { type: 'DEFAULT' },
    flags: ['ALLOW_ONLY_NON_RT_DS_TEXTURES'],
  });
  return { queue, texture, heap, streamer: new TileStreamer<number>(d3d, queue, texture, { slots: 2, copy }) };
}

const upload = (over: Record<string, unknown> = {}): TileUpload<number> =>
  loose({
    coordinate: { x: 0, y: 0, z: 0, subresource: 0 },
    data: new Uint8Array(TILE_SIZE),
    requestedAt: 0,
    key: 1,
    ...over,
  });

/** freeSlots, pending and stats(): what a refused call must leave as it was. */
const state = (streamer: TileStreamer<number>) => ({
  freeSlots: streamer.freeSlots,
  pending: streamer.pending,
  copy: streamer.copy,
  tiles: streamer.stats().tiles,
});

describe('TileStreamer validation', () => {
  test('valid control: a tile written, mapped and copied', async ({ d3d }) => {
    const { streamer, heap } = setup(d3d);
    expect(streamer.tryWrite(upload({ mapTo: { heap, heapTile: 1 } }))).toBe(true);
    expect(streamer.freeSlots).toBe(1);
    await streamer.drain();
    expect(streamer.takeCompleted().map((t) => t.key)).toEqual([1]);
    streamer.release();
  });

  test("another device's queue or texture is refused", async ({ d3d, device }) => {
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 8 * TILE_SIZE });
    const { queue, texture } = setup(other);
    const mine = setup(d3d);
    expectD3D12Error(() => new TileStreamer(d3d, queue, mine.texture, { slots: 1 }), {
      call: 'new TileStreamer',
      argument: 'queue',
      message: /must be a command queue of the device/,
    });
    expectD3D12Error(() => new TileStreamer(d3d, mine.queue, texture, { slots: 1 }), {
      call: 'new TileStreamer',
      argument: 'texture',
      message: /must be a resource of the device/,
    });
    other.destroy();
  });

  test('tryWrite and write refuse each bad upload field, changing nothing', async ({ d3d, device }) => {
    const { streamer, heap } = setup(d3d);
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 8 * TILE_SIZE });
    const otherHeap = other.createHeap({ sizeInBytes: TILE_SIZE, properties: { type: 'DEFAULT' } });
    const released = d3d.createHeap({ sizeInBytes: TILE_SIZE, properties: { type: 'DEFAULT' } });
    released.release();
    const upload_ = d3d.createHeap({ sizeInBytes: TILE_SIZE, properties: { type: 'UPLOAD' } });
    const buffers = d3d.createHeap({
      sizeInBytes: TILE_SIZE,
      properties: { type: 'DEFAULT' },
      flags: ['ALLOW_ONLY_BUFFERS'],
    });
    // One tile already written: a refusal must leave it pending and the free slot free.
    streamer.tryWrite(upload());
    const before = state(streamer);
    const cases: [string, unknown, string, RegExp][] = [
      ['not an object', 5, 'upload', /must be a TileUpload/],
      ['data: an array', upload({ data: [1, 2] }), 'upload.data', /must be a Uint8Array, got \[1,2\]/],
      ['data: over a tile', upload({ data: new Uint8Array(TILE_SIZE + 1) }), 'upload.data', /at most 65536 bytes/],
      ['requestedAt: NaN', upload({ requestedAt: NaN }), 'upload.requestedAt', /must be a finite time/],
      [
        'coordinate: missing',
        upload({ coordinate: undefined }),
        'upload.coordinate',
        /D3D12_TILED_RESOURCE_COORDINATE/,
      ],
      [
        'coordinate.x: 1.5',
        upload({ coordinate: { x: 1.5, y: 0, z: 0, subresource: 0 } }),
        'upload.coordinate.x',
        /got 1\.5/,
      ],
      [
        'coordinate: past the mip',
        upload({ coordinate: { x: 0, y: 8, z: 0, subresource: 0 } }),
        'upload.coordinate',
        /8×8×1 tiles/,
      ],
      [
        'coordinate.subresource',
        upload({ coordinate: { x: 0, y: 0, z: 0, subresource: 99 } }),
        'upload.coordinate.subresource',
        /11 subresources/,
      ],
      ['mapTo: not an object', upload({ mapTo: 3 }), 'upload.mapTo', /must be \{heap, heapTile\}/],
      ['mapTo.heap: not a heap', upload({ mapTo: { heap: {}, heapTile: 0 } }), 'upload.mapTo.heap', /must be a Heap/],
      ['mapTo.heap: released', upload({ mapTo: { heap: released, heapTile: 0 } }), 'upload.mapTo.heap', /was released/],
      [
        "mapTo.heap: another device's",
        upload({ mapTo: { heap: otherHeap, heapTile: 0 } }),
        'upload.mapTo.heap',
        /of the streamer's device/,
      ],
      ['mapTo.heap: UPLOAD', upload({ mapTo: { heap: upload_, heapTile: 0 } }), 'upload.mapTo.heap', /system memory/],
      [
        'mapTo.heap: buffers only',
        upload({ mapTo: { heap: buffers, heapTile: 0 } }),
        'upload.mapTo.heap',
        /ALLOW_ONLY_BUFFERS/,
      ],
      [
        'mapTo.heapTile: past the heap',
        upload({ mapTo: { heap, heapTile: HEAP_TILES } }),
        'upload.mapTo.heapTile',
        /\[0, 3\], got 4/,
      ],
      ['mapTo.heapTile: NaN', upload({ mapTo: { heap, heapTile: NaN } }), 'upload.mapTo.heapTile', /got NaN/],
      ['regions: not an array', upload({ regions: {} }), 'upload.regions', /non-empty array of TileRegion/],
      [
        'regions[0].height',
        upload({
          regions: [{ subresource: 0, left: 0, top: 0, width: 4, height: 0, dataOffset: 0, dataRowPitch: 16 }],
        }),
        'upload.regions[0].height',
        /got 0/,
      ],
    ];
    for (const [name, value, argument, message] of cases) {
      expectD3D12Error(() => streamer.tryWrite(loose(value)), { call: 'TileStreamer.tryWrite', argument, message });
      await expectD3D12Rejection(streamer.write(loose(value)), { call: 'TileStreamer.write', argument, message });
      expect(state(streamer), name).toEqual(before);
    }
    await streamer.drain();
    streamer.release();
    other.destroy();
  });

  test('copyTextureRegion: a packed mip without its boxes is refused under tryWrite, changing nothing', ({ d3d }) => {
    const { streamer } = setup(d3d, 'copyTextureRegion');
    const packed = d3d.getResourceTiling(streamer.texture).packedMipDesc.numStandardMips;
    const before = state(streamer);
    expectD3D12Error(() => streamer.tryWrite(upload({ coordinate: { x: 0, y: 0, z: 0, subresource: packed } })), {
      call: 'TileStreamer.tryWrite',
      argument: 'upload.regions',
      message: /is a packed mip; name its boxes/,
    });
    expect(state(streamer)).toEqual(before);
    streamer.release();
  });

  test('a full ring refuses a bad tile too, rather than answering false', ({ d3d }) => {
    const { streamer } = setup(d3d, 'copyTextureRegion');
    expect(streamer.tryWrite(upload())).toBe(true);
    expect(streamer.tryWrite(upload())).toBe(true);
    expect(streamer.tryWrite(upload())).toBe(false);
    const before = state(streamer);
    const region = { subresource: 0, left: 0, top: 0, width: 128, height: 128, dataOffset: 4, dataRowPitch: 512 };
    expectD3D12Error(() => streamer.tryWrite(upload({ regions: [region] })), {
      call: 'TileStreamer.tryWrite',
      argument: 'upload.data',
      message: /needs data bytes up to 65540, the tile has 65536/,
    });
    expect(state(streamer)).toEqual(before);
    streamer.release();
  });

  test('the copy setter refuses an unknown path and keeps the one it had', ({ d3d }) => {
    const { streamer } = setup(d3d);
    expectD3D12Error(
      () => {
        streamer.copy = loose('blit');
      },
      { call: 'TileStreamer.copy', argument: 'copy', message: /got 'blit'/ },
    );
    expect(streamer.copy).toBe('copyTiles');
    streamer.copy = 'copyTextureRegion';
    expect(streamer.copy).toBe('copyTextureRegion');
    streamer.release();
  });

  test('after release() the calls that do work refuse, naming the call; the queries still answer', async ({ d3d }) => {
    const { streamer } = setup(d3d);
    streamer.release();
    const expected = (call: string) => ({
      call,
      argument: 'this',
      message: /TileStreamer 'tile streamer' was released/,
    });
    expectD3D12Error(() => streamer.tryWrite(upload()), expected('TileStreamer.tryWrite'));
    await expectD3D12Rejection(streamer.write(upload()), expected('TileStreamer.write'));
    expectD3D12Error(() => streamer.submit(), expected('TileStreamer.submit'));
    await expectD3D12Rejection(streamer.drain(), expected('TileStreamer.drain'));
    expectD3D12Error(() => {
      streamer.copy = 'copyTextureRegion';
    }, expected('TileStreamer.copy'));
    expect(state(streamer)).toEqual({ freeSlots: 2, pending: 0, copy: 'copyTiles', tiles: 0 });
    expect(streamer.takeCompleted()).toEqual([]);
    streamer.release();
  });
});
