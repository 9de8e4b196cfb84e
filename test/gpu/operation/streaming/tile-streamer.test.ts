/**
 * The tile streamer (d3d12-webgpu/streaming, src/streaming/tile-streamer.ts) on the Node.js Dawn
 * device: CPU-made tiles of the virtual texture through an upload ring smaller than the stream (so writes wait for
 * slots), copied into a reserved texture by copyTiles, then read back through copyTiles into a
 * READBACK buffer and compared byte for byte with the CPU reference (tile-texels.ts). Tiles mapped by
 * the streamer, tiles left NULL, tiles unmapped after their copy and a tile re-mapped onto another
 * page and streamed again are all covered; so is the copyTextureRegion path (a placed footprint per
 * box: standard tiles and each packed mip), which must land the same texels, switched mid-stream too.
 */
import { describe, expect } from 'vitest';
import { VT_MIPS, VT_SIZE, VT_STANDARD_MIPS } from '../../../../demo/virtual-texture/procedural.js';
import { tileCoordinate } from '../../../../demo/virtual-texture/cpu-tiles.js';
import { TAIL_MIP_OFFSETS, TAIL_REGIONS, tileTexels } from '../../../../demo/virtual-texture/tile-texels.js';
import { TAIL_TILE, tileIndex } from '../../../../demo/virtual-texture/vt-layout.js';
import {
  D3D12Error,
  TILE_SIZE,
  type CommandQueue,
  type Device,
  type Resource,
  type TiledResourceCoordinate,
} from '../../../../src/index.js';
import { quantile, TileStreamer, type TileUpload } from '../../../../src/streaming/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, flush } from '../../../shared/d3d12-helpers.js';

const test = d3dTest({ localMemoryBytes: 32 * TILE_SIZE, nonLocalMemoryBytes: 64 * TILE_SIZE });
const RING_SLOTS = 4;
const HEAP_TILES = 24;
/** A copy into the tail tile touches every packed mip (8..14). */
const PACKED_SUBRESOURCES = Array.from({ length: VT_MIPS - VT_STANDARD_MIPS }, (_, k) => VT_STANDARD_MIPS + k);

function setup(d3d: Device): { queue: CommandQueue; texture: Resource; heap: ReturnType<Device['createHeap']> } {
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const texture = d3d.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: VT_SIZE,
      height: VT_SIZE,
      mipLevels: VT_MIPS,
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
  return { queue, texture, heap };
}

/** The texture's tiles at `coordinates`, read back through copyTiles into one READBACK buffer. */
async function readTiles(
  d3d: Device,
  queue: CommandQueue,
  texture: Resource,
  coordinates: TiledResourceCoordinate[],
  copiedSubresources: number[],
): Promise<Uint8Array[]> {
  const readback = d3d.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: coordinates.length * TILE_SIZE },
    'COPY_DEST',
  );
  const list = d3d.createCommandList('DIRECT');
  // The streamer's copies promoted these subresources to COPY_DEST (a texture's write state does not decay).
  list.resourceBarrier(
    copiedSubresources.map((subresource) => ({
      type: 'TRANSITION' as const,
      transition: {
        resource: texture,
        subresource,
        stateBefore: 'COPY_DEST' as const,
        stateAfter: 'COPY_SOURCE' as const,
      },
    })),
  );
  coordinates.forEach((c, i) =>
    list.copyTiles(texture, c, { numTiles: 1 }, readback, i * TILE_SIZE, 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER'),
  );
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
  const bytes = readback.map().slice();
  readback.unmap();
  readback.release();
  return coordinates.map((_, i) => bytes.subarray(i * TILE_SIZE, (i + 1) * TILE_SIZE));
}

const upload = (tile: number, mapTo: TileUpload<number>['mapTo'], data = tileTexels(tile)): TileUpload<number> => ({
  coordinate: tileCoordinate(tile),
  data,
  requestedAt: performance.now(),
  key: tile,
  ...(mapTo ? { mapTo } : {}),
  ...(tile === TAIL_TILE ? { regions: TAIL_REGIONS } : {}),
});
/** The tail's bytes that hold texels: copyTextureRegion writes those only (a new heap's other bytes are not cleared). */
const TAIL_TEXEL_BYTES = (TAIL_MIP_OFFSETS.at(-1) ?? 0) + 4;

describe('TileStreamer', () => {
  test('streams more tiles than the ring holds, waiting for slots, and every texel lands where copyTiles puts it', async ({
    d3d,
  }) => {
    const { queue, texture, heap } = setup(d3d);
    const streamer = new TileStreamer<number>(d3d, queue, texture, { slots: RING_SLOTS });
    // 15 standard tiles of mips 0, 3 and 7, and the packed tail: four times the ring.
    const tiles = [
      ...Array.from({ length: 12 }, (_, i) => tileIndex(0, 40 + (i % 4), 50 + Math.floor(i / 4))),
      tileIndex(3, 5, 9),
      tileIndex(3, 6, 9),
      tileIndex(7, 0, 0),
      TAIL_TILE,
    ];
    let mostPending = 0;
    let refused = 0;
    for (const [page, tile] of tiles.entries()) {
      const next = upload(tile, { heap, heapTile: page });
      if (!streamer.tryWrite(next)) {
        refused++;
        // Full: write() submits what is written and waits for the oldest copy.
        await streamer.write(next);
      }
      mostPending = Math.max(mostPending, streamer.pending);
      expect(streamer.freeSlots).toBeGreaterThanOrEqual(0);
    }
    await streamer.drain();
    expect(mostPending, 'never more tiles in the ring than slots').toBeLessThanOrEqual(RING_SLOTS);
    expect(refused, 'the ring filled up: backpressure happened').toBeGreaterThan(0);
    expect(streamer.freeSlots).toBe(RING_SLOTS);

    const done = streamer.takeCompleted();
    expect(done.map((d) => d.key).sort((a, b) => a - b)).toEqual([...tiles].sort((a, b) => a - b));
    expect(streamer.takeCompleted(), 'each tile is reported once').toEqual([]);
    for (const d of done) expect(d.latencyMs, `tile ${d.key}`).toBeGreaterThanOrEqual(0);
    const stats = streamer.stats();
    expect(stats.tiles).toBe(tiles.length);
    expect(stats.bytes).toBe(tiles.length * TILE_SIZE);
    expect(Number.isFinite(stats.latencyMedianMs) && stats.latencyP95Ms >= stats.latencyMedianMs).toBe(true);

    const read = await readTiles(d3d, queue, texture, tiles.map(tileCoordinate), [0, 3, 7, ...PACKED_SUBRESOURCES]);
    tiles.forEach((tile, i) =>
      expect(firstDifference(read[i] as Uint8Array, tileTexels(tile)), `tile ${tile}`).toBe(-1),
    );
    streamer.release();
  });

  test('a copy into a NULL tile is dropped, an unmapped tile reads as zeros, a re-mapped tile holds its new bytes and its old page keeps the old', async ({
    d3d,
  }) => {
    const { queue, texture, heap } = setup(d3d);
    const streamer = new TileStreamer<number>(d3d, queue, texture, { slots: 2, mapping: 'persistent' });
    const [kept, nulled, never, remapped, alias] = [
      tileIndex(0, 1, 1),
      tileIndex(0, 2, 1),
      tileIndex(0, 3, 1),
      tileIndex(0, 4, 1),
      tileIndex(0, 5, 1),
    ] as [number, number, number, number, number];
    await streamer.write(upload(kept, { heap, heapTile: 0 }));
    await streamer.write(upload(nulled, { heap, heapTile: 1 }));
    // Never mapped: the streamer leaves its mapping (NULL) alone, and the copy's bytes go nowhere.
    await streamer.write(upload(never, undefined));
    await streamer.write(upload(remapped, { heap, heapTile: 2 }));
    await streamer.drain();
    queue.updateTileMappings(texture, [tileCoordinate(nulled)], [{ numTiles: 1 }], null, ['NULL'], null, [1]);
    // The re-mapped tile gets another page and other bytes (a different tile's texels); its old page
    // is then seen through a second tile mapped onto it without a copy.
    const fresh = tileTexels(tileIndex(1, 9, 9));
    await streamer.write(upload(remapped, { heap, heapTile: 3 }, fresh));
    await streamer.drain();
    queue.updateTileMappings(texture, [tileCoordinate(alias)], [{ numTiles: 1 }], heap, ['NONE'], [2], [1]);
    expect(streamer.takeCompleted().map((d) => d.key)).toHaveLength(5);

    const [keptBytes, nulledBytes, neverBytes, remappedBytes, aliasBytes] = await readTiles(
      d3d,
      queue,
      texture,
      [kept, nulled, never, remapped, alias].map(tileCoordinate),
      [0],
    );
    const zeros = new Uint8Array(TILE_SIZE);
    expect(firstDifference(keptBytes as Uint8Array, tileTexels(kept)), 'kept').toBe(-1);
    expect(firstDifference(nulledBytes as Uint8Array, zeros), 'unmapped after its copy').toBe(-1);
    expect(firstDifference(neverBytes as Uint8Array, zeros), 'copied while NULL').toBe(-1);
    expect(firstDifference(remappedBytes as Uint8Array, fresh), 're-mapped and streamed again').toBe(-1);
    expect(firstDifference(aliasBytes as Uint8Array, tileTexels(remapped)), 'the old page').toBe(-1);
    streamer.release();
  });

  test('write() never overwrites a slot in flight: every tile of a long stream through one slot arrives intact', async ({
    d3d,
  }) => {
    const { queue, texture, heap } = setup(d3d);
    const streamer = new TileStreamer<number>(d3d, queue, texture, { slots: 1 });
    const tiles = Array.from({ length: 6 }, (_, i) => tileIndex(2, i, 3));
    // Each write waits for the one before to be copied: the slot is rewritten only after its fence.
    for (const [page, tile] of tiles.entries()) await streamer.write(upload(tile, { heap, heapTile: page }));
    await streamer.drain();
    const read = await readTiles(d3d, queue, texture, tiles.map(tileCoordinate), [2]);
    tiles.forEach((tile, i) =>
      expect(firstDifference(read[i] as Uint8Array, tileTexels(tile)), `tile ${tile}`).toBe(-1),
    );
    streamer.release();
  });

  test('copyTextureRegion, switched to mid-stream: standard tiles and every packed mip hold the texels copyTiles puts there', async ({
    d3d,
  }) => {
    const { queue, texture, heap } = setup(d3d);
    const streamer = new TileStreamer<number>(d3d, queue, texture, { slots: RING_SLOTS });
    const before = [tileIndex(0, 7, 7), tileIndex(4, 2, 3)];
    const after = [
      tileIndex(0, 8, 7),
      tileIndex(0, 127, 127),
      tileIndex(4, 3, 3),
      tileIndex(6, 1, 0),
      tileIndex(7, 0, 0),
      TAIL_TILE,
    ];
    for (const [page, tile] of before.entries()) await streamer.write(upload(tile, { heap, heapTile: page }));
    // Written and not yet submitted: these keep copyTiles; the switch takes the tiles written after it.
    streamer.copy = 'copyTextureRegion';
    for (const [page, tile] of after.entries())
      await streamer.write(upload(tile, { heap, heapTile: before.length + page }));
    await streamer.drain();
    expect(streamer.takeCompleted().map((d) => d.key)).toEqual([...before, ...after]);
    const tiles = [...before, ...after];
    const read = await readTiles(d3d, queue, texture, tiles.map(tileCoordinate), [0, 4, 6, 7, ...PACKED_SUBRESOURCES]);
    tiles.forEach((tile, i) => {
      const bytes = tile === TAIL_TILE ? TAIL_TEXEL_BYTES : TILE_SIZE;
      expect(
        firstDifference((read[i] as Uint8Array).subarray(0, bytes), tileTexels(tile).subarray(0, bytes)),
        `tile ${tile}`,
      ).toBe(-1);
    });
    streamer.release();
  });

  test('copyTextureRegion refuses a packed mip without its boxes and boxes beyond the data, leaving the ring usable', async ({
    d3d,
  }) => {
    const { queue, texture, heap } = setup(d3d);
    const streamer = new TileStreamer<number>(d3d, queue, texture, { slots: 1, copy: 'copyTextureRegion' });
    const { regions: _, ...unnamed } = upload(TAIL_TILE, undefined);
    expect(() => streamer.tryWrite(unnamed)).toThrow(/packed mip/);
    const region = { subresource: 0, left: 0, top: 0, width: 128, height: 128, dataOffset: 4, dataRowPitch: 512 };
    expect(() => streamer.tryWrite({ ...upload(0, undefined), regions: [region] })).toThrow(
      /^TileStreamer\.tryWrite: upload\.data: subresource 0's box needs data bytes up to .* \(E_INVALIDARG\)$/,
    );
    expect(streamer.freeSlots).toBe(1);
    const tile = tileIndex(0, 9, 9);
    await streamer.write(upload(tile, { heap, heapTile: 0 }));
    await streamer.drain();
    const [bytes] = await readTiles(d3d, queue, texture, [tileCoordinate(tile)], [0]);
    expect(firstDifference(bytes as Uint8Array, tileTexels(tile))).toBe(-1);
    streamer.release();
  });

  test('quantile is by nearest rank, NaN when empty; bad ring sizes and oversized tiles are refused', ({ d3d }) => {
    expect(quantile([], 0.5)).toBeNaN();
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(
      quantile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        0.95,
      ),
    ).toBe(95);
    const { queue, texture } = setup(d3d);
    expect(() => new TileStreamer(d3d, queue, texture, { slots: 0 })).toThrow(D3D12Error);
    const streamer = new TileStreamer<number>(d3d, queue, texture, { slots: 1 });
    expect(() => streamer.tryWrite({ ...upload(0, undefined), data: new Uint8Array(TILE_SIZE + 4) })).toThrow(
      D3D12Error,
    );
    streamer.release();
  });
});
