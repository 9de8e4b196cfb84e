/**
 * updateTileMappings' per-tile fast path (singleRangeStart) against the full validator, differentially:
 * over a grid of single-region, single-range calls (each field on both sides of its boundaries, on
 * buffers, mips, packed mips, array slices and volumes), whatever the fast path accepts the full
 * validator accepts with the same plan, and the fast path does accept the valid shapes a streamer
 * makes (so the cost it saves is real). Rejections fall through to the full validator, whose messages
 * tile-mapping-validation.test.ts checks one field at a time. Seeded random calls then check the
 * queue's path as a whole (fast path, else the full validator) against the full validator alone.
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
import { Random } from '../../../../src/validate/random.js';

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
    // A run that covers slice 0's mip tail whole (tiles 8..9) is one the validator accepts.
    expect(one(resources.arr, 0, 0, 0, 0, 10, 0)).toBe(0);
    // Leaves to the full validator: packed mips, runs that split a mip tail, NULL ranges, boxes.
    expect(one(resources.tex, 0, 0, 0, 3, 1, 0)).toBe(-1);
    expect(one(resources.arr, 0, 0, 0, 0, 9, 0)).toBe(-1);
  });
});

/** A single-region, single-range call near the fast path's shape, each field valid or (sometimes) not. */
function randomCall(random: Random): Call {
  // Each field is valid (for some resource) most of the time, so that calls of every outcome are common.
  const ok = (): boolean => random.chance(0.96);
  const u32 = (): unknown =>
    random.pick<unknown>([0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 21, 22, -1, 0.5, 2 ** 32, '1', null, undefined]);
  // Mostly small values, which the fixture's resources hold, so that a good share of calls is valid.
  const small = (): number => (ok() ? random.int(0, 3) : random.int(4, 9));
  const coordinate = random.chance(0.05)
    ? random.pick<unknown>([null, [0, 0, 0, 0], 'tile'])
    : {
        x: ok() ? small() : u32(),
        y: ok() ? random.int(0, 1) : u32(),
        z: ok() ? (ok() ? 0 : random.int(1, 4)) : u32(),
        subresource: ok() ? (ok() ? random.int(0, 2) : random.int(3, 12)) : u32(),
      };
  const numTiles = ok() ? (ok() ? random.int(1, 3) : random.int(0, 12)) : u32();
  const size = random.chance(0.05)
    ? random.pick<unknown>([null, 1])
    : {
        numTiles,
        ...(random.chance(0.1) ? { useBox: random.pick<unknown>([false, true, 1]) } : {}),
        ...(random.chance(0.1) ? { width: random.pick<unknown>([0, 1, 2, -1, 2 ** 32]) } : {}),
        ...(random.chance(0.1) ? { height: random.pick<unknown>([0, 1, 2, 0x10000]) } : {}),
        ...(random.chance(0.1) ? { depth: random.pick<unknown>([0, 1, 2, 1.5]) } : {}),
      };
  const one = <T>(value: T): unknown =>
    random.chance(0.05) ? random.pick<unknown>([null, [], [value, value]]) : [value];
  return {
    coordinates: one(coordinate),
    sizes: one(size),
    flags: one(ok() ? 'NONE' : random.pick<unknown>(['NULL', 'SKIP', 'REUSE_SINGLE_TILE', 'none'])),
    offsets: one(ok() ? random.int(0, 17) : u32()),
    counts: one(ok() ? numTiles : u32()),
    mappingFlags: random.chance(0.9)
      ? random.pick<unknown>(['NONE', undefined, null, 'NO_HAZARD'])
      : random.pick<unknown>(['SOMETIMES', ['NONE'], 3]),
  };
}

/**
 * Whether the full validator accepted `call` with a plan of the fast path's shape: one region of a
 * standard subresource without a box, at least one tile, one NONE range, every array given, the
 * mapping flags a single name.
 */
function inFastShape(call: Call, view: ResourceView, full: ReturnType<typeof validateUpdateTileMappings>): boolean {
  if (full instanceof D3D12Error || full.regions.length !== 1 || full.ranges.length !== 1) return false;
  const arrays = [call.coordinates, call.sizes, call.flags, call.offsets, call.counts];
  if (!arrays.every((value) => Array.isArray(value) && value.length === 1)) return false;
  const size = (call.sizes as { useBox?: unknown }[])[0];
  const subresource = (call.coordinates as { subresource?: number }[])[0]?.subresource ?? 0;
  const packed = view.layout.mips[subresource % view.layout.mipLevels]?.packed ?? false;
  return (
    !packed &&
    !size?.useBox &&
    full.ranges[0]?.flag === 'NONE' &&
    (full.ranges[0]?.count ?? 0) > 0 &&
    (call.mappingFlags == null || typeof call.mappingFlags === 'string')
  );
}

/** What the caller learns: the plan, or the error's HRESULT, argument and message. */
function outcome(result: ReturnType<typeof validateUpdateTileMappings>): unknown {
  return result instanceof D3D12Error
    ? { hresult: result.hresult, message: result.message }
    : { regions: result.regions, ranges: result.ranges };
}

describe('updateTileMappings fast path, seeded random calls', () => {
  test("the queue's path (fast path, else the full validator) answers as the full validator does: same plan, or same HRESULT and message", async () => {
    const f = await fixture();
    const random = new Random(33);
    const resources = Object.entries(f.resources);
    const heaps = Object.entries<Heap>(f.heaps);
    let fast = 0;
    let refused = 0;
    for (let i = 0; i < 10_000; i++) {
      const [resourceName, resource] = random.pick(resources);
      // Mostly the heap every resource may use; the others refuse some or all resources.
      const [heapName, heap] = random.chance(0.6) ? (['local', f.heaps.local] as const) : random.pick(heaps);
      const call = randomCall(random);
      const view = resource as unknown as ResourceView;
      const heapView = heap as unknown as HeapView;
      const args = [call.flags, call.offsets, call.counts, call.mappingFlags] as const;
      const full = validateUpdateTileMappings(view, call.coordinates, call.sizes, heapView, true, ...args);
      const start = singleRangeStart(view, call.coordinates, call.sizes, heapView, ...args);
      const what = `seed 33 call ${i}, ${resourceName} / ${heapName}: ${JSON.stringify(call)}`;
      if (full instanceof D3D12Error) refused++;
      if (start < 0) {
        // Declined: the queue runs the full validator, so its answer is the full validator's by construction;
        // what matters is that a decline never hides a call the fast path's shape covers and the validator accepts.
        const fastShape = inFastShape(call, view, full);
        expect({ what, declinedAValidCall: fastShape }).toEqual({ what, declinedAValidCall: false });
        continue;
      }
      fast++;
      const numTiles = (call.sizes as { numTiles: number }[])[0]?.numTiles;
      const offset = (call.offsets as number[])[0];
      expect({ what, outcome: outcome(full) }).toEqual({
        what,
        outcome: {
          regions: [{ first: start, count: numTiles }],
          ranges: [{ flag: 'NONE', heapStart: offset, count: numTiles }],
        },
      });
    }
    // Both sides are exercised: many calls take the fast path, many are refused.
    expect(fast).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(5000);
  }, 60_000);
});
