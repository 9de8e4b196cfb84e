/**
 * updateTileMappings' per-tile fast path (singleRangeStart) against the full validator, differentially:
 * over a grid of single-region, single-range calls (each field on both sides of its boundaries, on
 * buffers, mips, packed mips, array slices and volumes), whatever the fast path accepts the full
 * validator accepts with the same plan, and the fast path does accept the valid shapes a streamer
 * makes (so the cost it saves is real). Rejections fall through to the full validator, whose messages
 * tile-mapping-validation.test.ts checks one field at a time.
 */
import { describe, expect, test } from 'vitest';
import { createDevice, D3D12Error } from '../../../../src/index.js';
import type { Heap, Resource, ResourceDesc } from '../../../../src/index.js';
import {
  singleRangeStart,
  validateUpdateTileMappings,
  type ResourceView,
} from '../../../../src/validation/tile-mappings.js';
import type { HeapView } from '../../../../src/validation/create-resource.js';
import { TILE } from '../../../shared/d3d12-helpers.js';

async function fixture() {
  const device = await createDevice({ tiledResourcesTier: 4 });
  const reserved = (desc: ResourceDesc): Resource =>
    device.createReservedResource(
      desc.dimension === 'BUFFER' ? desc : { layout: '64KB_UNDEFINED_SWIZZLE', ...desc },
      'COMMON',
    );
  const resources = {
    buf: reserved({ dimension: 'BUFFER', width: 8 * TILE }),
    // mip 0 4×4 tiles (0..15), mip 1 2×2 (16..19), mip 2 (20), mips 3..9 packed in tile 21.
    tex: reserved({ dimension: 'TEXTURE2D', format: 'R8G8B8A8_UNORM', width: 512, height: 512, mipLevels: 10 }),
    // Two slices of mip 0 8×1 tiles and a 2-tile mip tail each.
    arr: reserved({
      dimension: 'TEXTURE2D',
      format: 'R8G8B8A8_UNORM',
      width: 1024,
      height: 128,
      mipLevels: 2,
      depthOrArraySize: 2,
    }),
    // mip 0 4×4×4 tiles, mip 1 2×2×2, mip 2 one tile.
    vol: reserved({
      dimension: 'TEXTURE3D',
      format: 'R32G32B32A32_FLOAT',
      width: 64,
      height: 64,
      depthOrArraySize: 64,
      mipLevels: 3,
    }),
  };
  const heaps = {
    local: device.createHeap({ sizeInBytes: 16 * TILE, properties: { type: 'DEFAULT' } }),
    buffersOnly: device.createHeap({
      sizeInBytes: 16 * TILE,
      properties: { type: 'DEFAULT' },
      flags: ['ALLOW_ONLY_BUFFERS'],
    }),
    upload: device.createHeap({ sizeInBytes: 16 * TILE, properties: { type: 'UPLOAD' } }),
  };
  const released = device.createHeap({ sizeInBytes: 16 * TILE, properties: { type: 'DEFAULT' } });
  released.release();
  return { resources, heaps: { ...heaps, released } };
}

interface Call {
  coordinates: unknown;
  sizes: unknown;
  flags: unknown;
  offsets: unknown;
  counts: unknown;
  mappingFlags: unknown;
}

/** Each field's values: valid ones and both sides of every boundary, plus wrong types. */
const X = [0, 1, 3, 4, 7, 8, -1, -0, 1.5, Number.NaN, 2 ** 32, '0', 1n, { valueOf: () => 1 }, null];
const SUBRESOURCE = [0, 1, 2, 3, 9, 10, 11, 12, 30];
const NUM_TILES = [0, 1, 2, 4, 8, 9, 16, 17, 22, 0xffffffff + 1];
const HEAP_START = [0, 15, 16, 12, -1, 0.5, 2 ** 32 - 1, 3n];

function* calls(): Generator<Call> {
  for (const x of X) {
    for (const subresource of SUBRESOURCE) {
      for (const numTiles of NUM_TILES) {
        for (const heapStart of HEAP_START) {
          yield {
            coordinates: [{ x, y: 0, z: 0, subresource }],
            sizes: [{ numTiles }],
            flags: ['NONE'],
            offsets: [heapStart],
            counts: [numTiles],
            mappingFlags: 'NONE',
          };
        }
      }
    }
  }
  // The other fields, one at a time, from a valid one-tile call.
  const base: Call = {
    coordinates: [{ x: 1, y: 1, z: 0, subresource: 0 }],
    sizes: [{ numTiles: 1, useBox: false, width: 1, height: 1, depth: 1 }],
    flags: ['NONE'],
    offsets: [3],
    counts: [1],
    mappingFlags: 'NONE',
  };
  const variants: Partial<Call>[] = [
    {},
    { coordinates: [{ x: 1 }] },
    { coordinates: [{ x: 0, y: 3, z: 0, subresource: 0 }] },
    { coordinates: [{ x: 0, y: 4, z: 0, subresource: 0 }] },
    { coordinates: [{ x: 0, y: 0, z: 1, subresource: 0 }] },
    { coordinates: [{ x: 0, y: 0, z: 3, subresource: 0 }] },
    { coordinates: [{ x: 0, y: 0, z: 4, subresource: 0 }] },
    { coordinates: [{ x: 0, y: -1, z: 0, subresource: 0 }] },
    { coordinates: [null] },
    { coordinates: [[1, 1, 0, 0]] },
    { coordinates: [] },
    { coordinates: [{ x: 0 }, { x: 1 }] },
    { coordinates: null },
    { sizes: [{ numTiles: 1, useBox: true, width: 1, height: 1, depth: 1 }] },
    { sizes: [{ numTiles: 1, useBox: 1 }] },
    { sizes: [{ numTiles: 1, width: -1 }] },
    { sizes: [{ numTiles: 1, width: 0, height: 0, depth: 0 }] },
    { sizes: [{ numTiles: 1, height: 0x10000 }] },
    { sizes: [{ numTiles: 1, depth: 0x10000 }] },
    { sizes: [{ numTiles: 1, width: 0x100000000 }] },
    { sizes: [{ numTiles: 1, width: 0xffffffff, height: 0xffff, depth: 0xffff }] },
    { sizes: [{ numTiles: 1, height: -0, depth: 1.5 }] },
    { sizes: [{ numTiles: 1n }] },
    { sizes: [{ numTiles: { valueOf: () => 1 } }] },
    { sizes: [null] },
    { sizes: null },
    { flags: ['NULL'] },
    { flags: ['SKIP'] },
    { flags: ['REUSE_SINGLE_TILE'] },
    { flags: ['none'] },
    { flags: null },
    { flags: ['NONE', 'NONE'] },
    { offsets: null },
    { offsets: ['3'] },
    { counts: [2] },
    { counts: [0] },
    { counts: null },
    { mappingFlags: undefined },
    { mappingFlags: null },
    { mappingFlags: 'NO_HAZARD' },
    { mappingFlags: ['NONE'] },
    { mappingFlags: 'SOMETIMES' },
  ];
  for (const variant of variants) yield { ...base, ...variant };
}

type Fixture = Awaited<ReturnType<typeof fixture>>;

/** Runs both validators on every call against every resource and heap; returns how many the fast path took. */
function compare(f: Fixture): { fast: number; total: number; fastPerResource: Record<string, number> } {
  let fast = 0;
  let total = 0;
  const fastPerResource: Record<string, number> = {};
  for (const [resourceName, resource] of Object.entries(f.resources)) {
    for (const [heapName, heap] of Object.entries<Heap>(f.heaps)) {
      for (const call of calls()) {
        total++;
        const view = resource as unknown as ResourceView;
        const heapView = heap as unknown as HeapView;
        const start = singleRangeStart(
          view,
          call.coordinates,
          call.sizes,
          heapView,
          call.flags,
          call.offsets,
          call.counts,
          call.mappingFlags,
        );
        if (start < 0) continue;
        fast++;
        fastPerResource[resourceName] = (fastPerResource[resourceName] ?? 0) + 1;
        const plan = validateUpdateTileMappings(
          view,
          call.coordinates,
          call.sizes,
          heapView,
          true,
          call.flags,
          call.offsets,
          call.counts,
          call.mappingFlags,
        );
        const what = `${resourceName} / ${heapName}: ${JSON.stringify(call)}`;
        expect(plan instanceof D3D12Error ? `${what} refused: ${plan.message}` : what).toBe(what);
        if (plan instanceof D3D12Error) continue;
        const numTiles = (call.sizes as { numTiles: number }[])[0]?.numTiles;
        expect({ what, regions: plan.regions, ranges: plan.ranges }).toEqual({
          what,
          regions: [{ first: start, count: numTiles }],
          ranges: [{ flag: 'NONE', heapStart: (call.offsets as number[])[0], count: numTiles }],
        });
      }
    }
  }
  return { fast, total, fastPerResource };
}

describe('updateTileMappings fast path (singleRangeStart)', () => {
  test('accepts only calls the full validator accepts, with the same plan', async () => {
    const f = await fixture();
    const { fast, total, fastPerResource } = compare(f);
    // The grid holds thousands of calls; the fast path takes a real share of them on every resource.
    expect(total).toBeGreaterThan(10_000);
    expect(fast).toBeGreaterThan(200);
    expect(Object.keys(fastPerResource).sort()).toEqual(['arr', 'buf', 'tex', 'vol']);
  });

  test('takes the shapes a streamer makes: one tile, a run within a mip, any array slice', async () => {
    const { resources, heaps } = await fixture();
    const one = (
      resource: Resource,
      x: number,
      y: number,
      z: number,
      subresource: number,
      numTiles: number,
      heapStart: number,
    ): number =>
      singleRangeStart(
        resource,
        [{ x, y, z, subresource }],
        [{ numTiles, useBox: false, width: 1, height: 1, depth: 1 }],
        heaps.local,
        ['NONE'],
        [heapStart],
        [numTiles],
        'NONE',
      );
    expect(one(resources.buf, 5, 0, 0, 0, 1, 0)).toBe(5);
    expect(one(resources.buf, 0, 0, 0, 0, 8, 8)).toBe(0);
    expect(one(resources.tex, 2, 3, 0, 0, 1, 15)).toBe(14);
    expect(one(resources.tex, 1, 1, 0, 1, 1, 0)).toBe(19);
    expect(one(resources.arr, 7, 0, 0, 2, 1, 0)).toBe(17);
    expect(one(resources.vol, 1, 2, 3, 0, 1, 0)).toBe(57);
    // Leaves to the full validator: packed mips, runs into a mip tail, NULL ranges, boxes.
    expect(one(resources.tex, 0, 0, 0, 3, 1, 0)).toBe(-1);
    expect(one(resources.arr, 0, 0, 0, 0, 10, 0)).toBe(-1);
  });
});
