/**
 * The growable buffer scene's watermark (demo/growable-buffer/commit-watermark.ts) against
 * REFERENCE.md's rules and worked example, with a backend that records the D3D12 calls it would make
 * and keeps its own tile map, so holes, double mappings and leaked heaps show up.
 */
import { describe, expect, it } from 'vitest';
import {
  CommitWatermark,
  HEAP_TILES,
  type WatermarkBackend,
} from '../../../../demo/growable-buffer/commit-watermark.js';
import { Random } from '../../../../src/validate/random.js';

interface FakeHeap {
  id: number;
  tiles: number;
  released: boolean;
}

function recordingBackend(capacity: number) {
  const mapping: ({ heap: number; tile: number } | null)[] = new Array<null>(capacity).fill(null);
  const heaps: FakeHeap[] = [];
  const backend: WatermarkBackend<FakeHeap> = {
    createHeap(tiles) {
      const heap = { id: heaps.length, tiles, released: false };
      heaps.push(heap);
      return heap;
    },
    releaseHeap(heap) {
      expect(heap.released).toBe(false);
      if (mapping.some((m) => m?.heap === heap.id)) throw new Error(`heap ${heap.id} released while mapped`);
      heap.released = true;
    },
    map(bufferTile, heap, heapTile, count) {
      expect(heap.released).toBe(false);
      expect(heapTile + count).toBeLessThanOrEqual(heap.tiles);
      for (let i = 0; i < count; i++) {
        if (mapping[bufferTile + i] !== null) throw new Error(`tile ${bufferTile + i} mapped twice`);
        mapping[bufferTile + i] = { heap: heap.id, tile: heapTile + i };
      }
    },
    unmap(bufferTile, count) {
      for (let i = 0; i < count; i++) mapping[bufferTile + i] = null;
    },
  };
  return { backend, mapping, heaps };
}

function checkInvariants(watermark: CommitWatermark<FakeHeap>, state: ReturnType<typeof recordingBackend>): void {
  const n = watermark.committedTiles;
  expect(
    state.mapping.slice(0, n).every((m) => m !== null),
    'no holes below the watermark',
  ).toBe(true);
  expect(watermark.heapCount).toBe(state.heaps.filter((h) => !h.released).length);
  expect(
    state.mapping.slice(n).every((m) => m === null),
    'nothing mapped above the watermark',
  ).toBe(true);
  // Heaps in tile order, each heap's mapped tiles are its prefix, only the last has slack.
  const live = state.heaps.filter((h) => !h.released);
  let tile = 0;
  live.forEach((heap, k) => {
    expect(heap.tiles).toBeLessThanOrEqual(HEAP_TILES);
    let used = 0;
    while (tile < n && state.mapping[tile]?.heap === heap.id) {
      if (state.mapping[tile]?.tile !== used)
        expect.fail(`buffer tile ${tile} maps heap ${k}'s tile ${state.mapping[tile]?.tile}, not ${used}`);
      used++;
      tile++;
    }
    if (k < live.length - 1) expect(used, `heap ${k} is not the last and must be full`).toBe(heap.tiles);
    expect(used, `heap ${k} holds no mapped tile and must be released`).toBeGreaterThan(0);
  });
  expect(tile).toBe(n);
}

describe('CommitWatermark (UE5 CommitReservedResource)', () => {
  it("reproduces REFERENCE.md's worked example: 40 MiB, shrink to 300 tiles, grow to 400", () => {
    const state = recordingBackend(32768);
    const watermark = new CommitWatermark(state.backend, 32768);
    const a = watermark.commit(640);
    expect(a.heaps).toEqual([
      { tiles: 256, used: 256 },
      { tiles: 256, used: 256 },
      { tiles: 128, used: 128 },
    ]);
    expect(a.createdHeaps).toBe(3);
    checkInvariants(watermark, state);
    const b = watermark.commit(300);
    expect(b.heaps).toEqual([
      { tiles: 256, used: 256 },
      { tiles: 256, used: 44 },
    ]);
    expect(b.releasedHeaps).toBe(1);
    checkInvariants(watermark, state);
    const c = watermark.commit(400);
    expect(c.heaps).toEqual([
      { tiles: 256, used: 256 },
      { tiles: 256, used: 144 },
    ]);
    expect(c).toMatchObject({ createdHeaps: 0, slackReused: 100 });
    expect(state.mapping[300]).toEqual({ heap: 1, tile: 44 });
    checkInvariants(watermark, state);
  });

  it('uses the slack before creating a heap, then sizes the new heap to what is left', () => {
    const state = recordingBackend(4096);
    const watermark = new CommitWatermark(state.backend, 4096);
    watermark.commit(300);
    watermark.commit(260); // heap 1: 4 used, 40 slack
    const step = watermark.commit(350);
    expect(step).toMatchObject({ slackReused: 40, createdHeaps: 1 });
    expect(step.heaps).toEqual([
      { tiles: 256, used: 256 },
      { tiles: 44, used: 44 },
      { tiles: 50, used: 50 },
    ]);
    checkInvariants(watermark, state);
  });

  it('shrinking to a heap boundary releases the heaps above it and leaves no slack', () => {
    const state = recordingBackend(4096);
    const watermark = new CommitWatermark(state.backend, 4096);
    watermark.commit(700);
    const step = watermark.commit(512);
    expect(step.heaps).toEqual([
      { tiles: 256, used: 256 },
      { tiles: 256, used: 256 },
    ]);
    expect(step.releasedHeaps).toBe(1);
    expect(watermark.commit(0).heaps).toEqual([]);
    expect(state.heaps.every((h) => h.released)).toBe(true);
    checkInvariants(watermark, state);
  });

  it('keeps every invariant over 500 seeded random commits', () => {
    const capacity = 1024;
    const state = recordingBackend(capacity);
    const watermark = new CommitWatermark(state.backend, capacity);
    const random = new Random(12345);
    for (let i = 0; i < 500; i++) {
      const target = random.chance(0.1) ? 0 : random.int(0, capacity);
      const grew = target > watermark.committedTiles;
      const step = watermark.commit(target);
      checkInvariants(watermark, state);
      if (!grew) expect(step.createdHeaps).toBe(0);
      else expect(step.releasedHeaps).toBe(0);
    }
  });

  it.each([-1, 1.5, 4097, Number.NaN])('rejects commit(%s)', (tiles) => {
    const watermark = new CommitWatermark(recordingBackend(4096).backend, 4096);
    expect(() => watermark.commit(tiles)).toThrow(RangeError);
  });
});
