/**
 * d3d12-webgpu/streaming's argument checks on a CPU-only device: every rule of new TileStreamer that
 * holds before its device needs GPU memory (a CPU-only device is refused: the ring is mapped and its
 * copies executed), and every public call of TileRegionCopier, which needs no GPU memory. One
 * invalid field at a time beside a valid control, each a D3D12Error naming the call, the argument and
 * the rule; a refused constructor creates nothing. The rules that need a live streamer are in
 * test/gpu/validation/streaming/tile-streamer-validation.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createDevice, TILE_SIZE, type Device, type Resource } from '../../../../src/index.js';
import { TileRegionCopier, TileStreamer, type TileRegion } from '../../../../src/streaming/index.js';
import { MAX_RING_SLOTS } from '../../../../src/streaming/streamer-validation.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;
const SIZE = 1024;
const MIPS = 11;

let d3d: Device;
let other: Device;

const reservedTexture = (device: Device): Resource =>
  device.createReservedResource(
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
const buffer = (device: Device): Resource =>
  device.createCommittedResource({ type: 'UPLOAD' }, [], { dimension: 'BUFFER', width: TILE_SIZE }, 'GENERIC_READ');

beforeAll(async () => {
  d3d = await createDevice({ gpuDevice: null });
  other = await createDevice({ gpuDevice: null });
});

describe('new TileStreamer', () => {
  const call = 'new TileStreamer';
  const make = (over: { device?: unknown; queue?: unknown; texture?: unknown; options?: unknown }) => () =>
    new TileStreamer(
      loose('device' in over ? over.device : d3d),
      loose('queue' in over ? over.queue : d3d.createCommandQueue({ type: 'DIRECT' })),
      loose('texture' in over ? over.texture : reservedTexture(d3d)),
      loose('options' in over ? over.options : { slots: 2 }),
    );

  it('valid arguments on a CPU-only device reach the one rule left: the device must have GPU memory', () => {
    expectD3D12Error(make({}), { call, argument: 'device', message: /must have GPU memory/ });
  });

  it.each([
    ['device: not a Device', { device: {} }, 'device', /must be a Device of the library, got \{\}/],
    ['device: null', { device: null }, 'device', /must be a Device of the library, got null/],
    ['queue: not a queue', { queue: 'DIRECT' }, 'queue', /must be a CommandQueue of the library, got 'DIRECT'/],
    ['texture: not a resource', { texture: { label: 'fake' } }, 'texture', /must be a Resource of the library/],
    ['options: not an object', { options: 4 }, 'options', /must be a TileStreamerOptions object/],
    ['options.slots: 0', { options: { slots: 0 } }, 'options.slots', /must be an integer in \[1, 4096\], got 0/],
    ['options.slots: NaN', { options: { slots: NaN } }, 'options.slots', /got NaN/],
    ['options.slots: 1.5', { options: { slots: 1.5 } }, 'options.slots', /got 1\.5/],
    ['options.slots: a string', { options: { slots: '2' } }, 'options.slots', /got '2'/],
    ['options.slots: over the maximum', { options: { slots: MAX_RING_SLOTS + 1 } }, 'options.slots', /got 4097/],
    [
      'options.mapping',
      { options: { slots: 1, mapping: 'always' } },
      'options.mapping',
      /must be one of 'per-write', 'persistent', got 'always'/,
    ],
    [
      'options.copy',
      { options: { slots: 1, copy: 'blit' } },
      'options.copy',
      /must be one of 'copyTiles', 'copyTextureRegion', got 'blit'/,
    ],
    ['options.name', { options: { slots: 1, name: 5 } }, 'options.name', /must be a string, got 5/],
    ['options.now', { options: { slots: 1, now: 0 } }, 'options.now', /must be a function returning milliseconds/],
  ])('%s', (_name, over, argument, message) => {
    expectD3D12Error(make(over), { call, argument, message });
  });

  it('refuses a COPY queue, a released, committed, buffer or other device texture', () => {
    expectD3D12Error(make({ queue: d3d.createCommandQueue({ type: 'COPY' }) }), {
      call,
      argument: 'queue',
      message: /must be a DIRECT queue .*got COPY/,
    });
    const released = reservedTexture(d3d);
    released.release();
    expectD3D12Error(make({ texture: released }), { call, argument: 'texture', message: /was released/ });
    const committed = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'TEXTURE2D', width: 256, height: 256, format: 'R8G8B8A8_UNORM' },
      'COMMON',
    );
    expectD3D12Error(make({ texture: committed }), {
      call,
      argument: 'texture',
      message: /must be a reserved resource .* is committed/,
    });
    expectD3D12Error(make({ texture: buffer(d3d) }), { call, argument: 'texture', message: /must be a TEXTURE2D/ });
    expectD3D12Error(make({ texture: reservedTexture(other) }), {
      call,
      argument: 'texture',
      message: /must be a resource of the device/,
    });
  });

  it('creates nothing when it refuses', () => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const texture = reservedTexture(d3d);
    const before = d3d.getMemoryStats().resources.length;
    expectD3D12Error(() => new TileStreamer(d3d, queue, texture, { slots: 0 }), { call, argument: 'options.slots' });
    expectD3D12Error(() => new TileStreamer(d3d, queue, texture, { slots: 2 }), { call, argument: 'device' });
    expect(d3d.getMemoryStats().resources.length).toBe(before);
  });
});

describe('TileRegionCopier', () => {
  let copier: TileRegionCopier;
  let texture: Resource;
  let packed: number;
  const box = (over: Partial<TileRegion> = {}): TileRegion => ({
    subresource: 0,
    left: 0,
    top: 0,
    width: 128,
    height: 128,
    dataOffset: 0,
    dataRowPitch: 512,
    ...over,
  });

  beforeAll(() => {
    texture = reservedTexture(d3d);
    copier = new TileRegionCopier(d3d, texture);
    packed = d3d.getResourceTiling(texture).packedMipDesc.numStandardMips;
  });

  it('valid control: a standard tile, its placement, rows written and copies recorded', () => {
    const region = copier.standardRegion({ x: 1, y: 2, z: 0, subresource: 0 });
    expect(region).toMatchObject({ subresource: 0, left: 128, top: 256, width: 128, height: 128 });
    const { placed, bytes } = copier.place([region], 0, TILE_SIZE, TILE_SIZE);
    expect(bytes).toBe(TILE_SIZE);
    const view = new Uint8Array(TILE_SIZE);
    copier.writeRows(view, new Uint8Array(TILE_SIZE).fill(7), placed);
    expect(view[TILE_SIZE - 1]).toBe(7);
    const list = d3d.createCommandList('DIRECT');
    copier.record(list, buffer(d3d), placed);
    list.close();
  });

  it('its constructor refuses what a streamer refuses', () => {
    const call = 'new TileRegionCopier';
    expectD3D12Error(() => new TileRegionCopier(loose({}), texture), { call, argument: 'device' });
    expectD3D12Error(() => new TileRegionCopier(d3d, loose(null)), { call, argument: 'texture' });
    expectD3D12Error(() => new TileRegionCopier(d3d, buffer(d3d)), { call, argument: 'texture' });
    expectD3D12Error(() => new TileRegionCopier(d3d, reservedTexture(other)), {
      call,
      argument: 'texture',
      message: /of the device/,
    });
  });

  it.each([
    ['not an object', null, 'coordinate', /must be a D3D12_TILED_RESOURCE_COORDINATE/],
    ['x negative', { x: -1, y: 0, z: 0, subresource: 0 }, 'coordinate.x', /got -1/],
    ['x NaN', { x: NaN, y: 0, z: 0, subresource: 0 }, 'coordinate.x', /got NaN/],
    ['x beyond the mip', { x: 8, y: 0, z: 0, subresource: 0 }, 'coordinate', /subresource 0 is 8×8×1 tiles/],
    [
      'subresource beyond the texture',
      { x: 0, y: 0, z: 0, subresource: MIPS },
      'coordinate.subresource',
      /11 subresources/,
    ],
  ])('standardRegion: coordinate %s', (_name, coordinate, argument, message) => {
    expectD3D12Error(() => copier.standardRegion(loose(coordinate)), {
      call: 'TileRegionCopier.standardRegion',
      argument,
      message,
    });
  });

  it('standardRegion: a packed mip has no standard tile, and its coordinate is the tail tile', () => {
    const call = 'TileRegionCopier.standardRegion';
    expectD3D12Error(() => copier.standardRegion({ x: 0, y: 0, z: 0, subresource: packed }), {
      call,
      argument: 'coordinate',
      message: /is a packed mip; name its boxes/,
    });
    expectD3D12Error(() => copier.standardRegion({ x: 0, y: 1, z: 0, subresource: packed }), {
      call,
      argument: 'coordinate',
      message: /packed mip: x indexes its 1 tail tile/,
    });
  });

  it.each([
    ['regions: not an array', [loose({}), 0, TILE_SIZE, TILE_SIZE], 'regions', /non-empty array of TileRegion/],
    ['regions: empty', [[], 0, TILE_SIZE, TILE_SIZE], 'regions', /non-empty array/],
    ['regions[0]: null', [[null], 0, TILE_SIZE, TILE_SIZE], 'regions[0]', /must be a TileRegion/],
    ['width 0', [[box({ width: 0 })], 0, TILE_SIZE, TILE_SIZE], 'regions[0].width', /got 0/],
    [
      'box past its mip',
      [[box({ subresource: 3, width: 129 })], 0, TILE_SIZE, TILE_SIZE],
      'regions[0].width',
      /\[1, 128\]/,
    ],
    ['left past its mip', [[box({ left: SIZE })], 0, TILE_SIZE, TILE_SIZE], 'regions[0].left', /got 1024/],
    ['subresource', [[box({ subresource: MIPS })], 0, TILE_SIZE, TILE_SIZE], 'regions[0].subresource', /got 11/],
    ['dataRowPitch', [[box({ dataRowPitch: -4 })], 0, TILE_SIZE, TILE_SIZE], 'regions[0].dataRowPitch', /got -4/],
    ['baseOffset unaligned', [[box()], 100, TILE_SIZE, TILE_SIZE], 'baseOffset', /multiple of 512, got 100/],
    ['capacity', [[box()], 0, -1, TILE_SIZE], 'capacity', /got -1/],
    ['dataBytes', [[box()], 0, TILE_SIZE, NaN], 'dataBytes', /got NaN/],
    ['data too short', [[box()], 0, TILE_SIZE, 1024], 'dataBytes', /needs data bytes up to 65536, the tile has 1024/],
    ['slot too small', [[box()], 0, 1024, TILE_SIZE], 'regions', /footprints take 65536 bytes, a slot holds 1024/],
  ])('place: %s', (_name, args, argument, message) => {
    const [regions, baseOffset, capacity, dataBytes] = args as [never, never, never, never];
    expectD3D12Error(() => copier.place(regions, baseOffset, capacity, dataBytes), {
      call: 'TileRegionCopier.place',
      argument,
      message,
    });
  });

  it('writeRows and record refuse bad views, data, lists, rings and placements, writing nothing', () => {
    const { placed } = copier.place([box()], 0, TILE_SIZE, TILE_SIZE);
    const view = new Uint8Array(TILE_SIZE);
    const rows = 'TileRegionCopier.writeRows';
    const data = new Uint8Array(TILE_SIZE).fill(9);
    expectD3D12Error(() => copier.writeRows(loose([]), data, placed), { call: rows, argument: 'view' });
    expectD3D12Error(() => copier.writeRows(view, loose('bytes'), placed), { call: rows, argument: 'data' });
    expectD3D12Error(() => copier.writeRows(view, data, loose({})), { call: rows, argument: 'placed' });
    expectD3D12Error(() => copier.writeRows(view, data, loose([{ region: 1 }])), {
      call: rows,
      argument: 'placed[0]',
    });
    expectD3D12Error(() => copier.writeRows(view, data.subarray(0, 100), placed), {
      call: rows,
      argument: 'placed[0]',
      message: /reads data bytes up to 65536, data has 100/,
    });
    expectD3D12Error(() => copier.writeRows(view.subarray(0, 100), data, placed), {
      call: rows,
      argument: 'placed[0]',
      message: /writes view bytes up to 65536, the view has 100/,
    });
    expect(view.every((byte) => byte === 0)).toBe(true);
    const record = 'TileRegionCopier.record';
    const ring = buffer(d3d);
    expectD3D12Error(() => copier.record(loose({}), ring, placed), { call: record, argument: 'list' });
    const list = d3d.createCommandList('DIRECT');
    expectD3D12Error(() => copier.record(list, loose(7), placed), { call: record, argument: 'ring' });
    expectD3D12Error(() => copier.record(list, texture, placed), {
      call: record,
      argument: 'ring',
      message: /must be a buffer/,
    });
    expectD3D12Error(() => copier.record(list, ring, loose(null)), { call: record, argument: 'placed' });
    const released = buffer(d3d);
    released.release();
    expectD3D12Error(() => copier.record(list, released, placed), {
      call: record,
      argument: 'ring',
      message: /was released/,
    });
  });
});
