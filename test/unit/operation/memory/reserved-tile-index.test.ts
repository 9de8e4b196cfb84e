/**
 * ReservedTileIndex, what a heap's page event rewrites: forEachTile(heap) visits exactly the tiles
 * whose table entry names the heap now (sorted, disjoint runs), however the tables changed since
 * they were added (remapped elsewhere, to NULL, back again); lists stay bounded; a forgotten
 * resource is visited no more.
 */
import { describe, expect, test } from 'vitest';
import { NULL_HEAP, TileMappingTable } from '../../../../src/memory/tile-mappings.js';
import { ReservedTileIndex } from '../../../../src/memory/reserved-tile-index.js';
import { Random } from '../../../../src/validate/random.js';

type Visited = Map<TileMappingTable, number[]>;

function visit(index: ReservedTileIndex<TileMappingTable>, heapId: number): Visited {
  const visited: Visited = new Map();
  index.forEachTile(heapId, (table, first, count) => {
    const runs = visited.get(table) ?? [];
    runs.push(first, first + count);
    visited.set(table, runs);
  });
  return visited;
}

/** The runs of tiles of `table` that name `heapId`, from the table itself. */
function expectedRuns(table: TileMappingTable, heapId: number): number[] {
  const runs: number[] = [];
  for (let tile = 0; tile < table.numTiles; tile++) {
    if (table.heapIds[tile] !== heapId) continue;
    if (runs.length > 0 && runs[runs.length - 1] === tile) runs[runs.length - 1] = tile + 1;
    else runs.push(tile, tile + 1);
  }
  return runs;
}

describe('ReservedTileIndex', () => {
  test('a remapped tile leaves its old heap; one mapped back is visited once', () => {
    const table = new TileMappingTable(16);
    const index = new ReservedTileIndex<TileMappingTable>((t) => t.heapIds);
    const map = (first: number, count: number, heapId: number): void => {
      table.heapIds.fill(heapId, first, first + count);
      if (heapId !== NULL_HEAP) index.add(heapId, table, first, count);
    };
    map(0, 8, 1);
    map(4, 2, 2); // tiles 4, 5 move to heap 2
    map(6, 1, NULL_HEAP); // tile 6 unmapped
    map(4, 1, 1); // tile 4 back to heap 1 (listed twice now)
    expect(visit(index, 1)).toEqual(new Map([[table, [0, 5, 7, 8]]]));
    expect(visit(index, 2)).toEqual(new Map([[table, [5, 6]]]));
    expect(visit(index, 3)).toEqual(new Map());
    // Visiting compacted the lists: exactly the live tiles are listed.
    expect(index.listedForTesting(1, table)).toBe(6);
    index.forget(table);
    expect(visit(index, 1)).toEqual(new Map());
    expect(visit(index, 2)).toEqual(new Map());
  });

  test('random mapping changes over three tables and four heaps: visits match the tables; lists stay bounded', () => {
    const random = new Random(11);
    const tables = [new TileMappingTable(64), new TileMappingTable(300), new TileMappingTable(1000)];
    const index = new ReservedTileIndex<TileMappingTable>((t) => t.heapIds);
    let overBound = 0;
    for (let step = 0; step < 4000; step++) {
      const table = random.pick(tables);
      const first = random.int(0, table.numTiles - 1);
      const count = random.int(1, Math.min(40, table.numTiles - first));
      const heapId = random.chance(0.2) ? NULL_HEAP : random.int(0, 3);
      table.heapIds.fill(heapId, first, first + count);
      if (heapId !== NULL_HEAP) index.add(heapId, table, first, count);
      for (const t of tables)
        for (let heap = 0; heap < 4; heap++) if (index.listedForTesting(heap, t) > 2 * t.numTiles + 256) overBound++;
      if (step % 97 === 0) {
        const heap = random.int(0, 3);
        const visited = visit(index, heap);
        for (const t of tables) {
          const expected = expectedRuns(t, heap);
          expect(visited.get(t) ?? [], `step ${step}, heap ${heap}, table of ${t.numTiles}`).toEqual(expected);
        }
      }
    }
    expect(overBound).toBe(0);
  });
});
