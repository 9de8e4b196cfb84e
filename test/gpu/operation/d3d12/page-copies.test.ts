/**
 * Copies that the page kernel runs (resident pages, 16-byte aligned: src/gpu/page-copies.ts) move
 * the bytes the copy kernel moves, in the order the list gives: in one list, a chain of dependent
 * copies (read after write, write after read, write after write, through barriers, and through two
 * placed buffers aliasing one heap's pages), aligned copies across page boundaries, and unaligned
 * copies beside them, are checked byte for byte against the CPU's model. (Which jobs go where is
 * test/unit/operation/gpu/page-copies.test.ts; NULL tiles, faults and unmapped-access records of
 * copies are the copy kernel's, tested in tile-data, unmapped-access and fault-reports.)
 */
import { expect } from 'vitest';
import { createDevice, type GraphicsCommandList, type Resource } from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { firstDifference, pattern, readBuffer, runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';

const BYTES = 3 * TILE;

function barrier(list: GraphicsCommandList, resource: Resource, stateBefore: 'COPY_DEST' | 'COPY_SOURCE'): void {
  const stateAfter = stateBefore === 'COPY_DEST' ? 'COPY_SOURCE' : 'COPY_DEST';
  list.resourceBarrier([{ type: 'TRANSITION', transition: { resource, stateBefore, stateAfter } }]);
}

gpuTest(
  'dependent copies in one list, aliased pages, page-crossing and unaligned copies: the bytes of the CPU model',
  async ({ device: gpuDevice }) => {
    const d3d = await createDevice({ gpuDevice, localMemoryBytes: 32 * TILE, nonLocalMemoryBytes: 16 * TILE });
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const [one, two] = [pattern(BYTES, 1), pattern(BYTES, 2)];
    const [u1, u2] = [uploadBuffer(d3d, one), uploadBuffer(d3d, two)];
    const buffer = (): Resource =>
      d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: BYTES }, 'COMMON');
    const [a, b, c, d, e, f] = [buffer(), buffer(), buffer(), buffer(), buffer(), buffer()];
    // Two placed buffers on the same pages of one heap: what one writes, the other reads.
    const heap = d3d.createHeap({ sizeInBytes: BYTES, properties: { type: 'DEFAULT' }, flags: ['ALLOW_ONLY_BUFFERS'] });
    const p = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: BYTES }, 'COMMON');
    const q = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: BYTES }, 'COMMON');

    await runList(d3d, queue, (list) => {
      list.copyBufferRegion(a, 0, u1, 0, BYTES);
      barrier(list, a, 'COPY_DEST');
      // Read after write, twice (two readers of one page share a dispatch).
      list.copyBufferRegion(b, 0, a, 0, BYTES);
      list.copyBufferRegion(e, 0, a, 0, BYTES);
      barrier(list, a, 'COPY_SOURCE');
      // Write after read: b and e keep u1's bytes.
      list.copyBufferRegion(a, 0, u2, 0, BYTES);
      // Write after write: d ends with u2's bytes.
      list.copyBufferRegion(d, 0, u1, 0, BYTES);
      list.copyBufferRegion(d, 0, u2, 0, BYTES);
      // Aliasing: p's writes are q's bytes.
      list.copyBufferRegion(p, 0, u2, 0, BYTES);
      list.resourceBarrier([{ type: 'ALIASING', aliasing: { resourceBefore: p, resourceAfter: q } }]);
      list.copyBufferRegion(f, 0, q, 0, BYTES);
      // Across pages, aligned but not on a page (the page kernel cuts at each side's page ends), and
      // unaligned (the copy kernel), side by side in c.
      list.copyBufferRegion(c, 16, u1, 0x8000, TILE + 0x40);
      list.copyBufferRegion(c, 2 * TILE + 0x100, u2, 3, 0x203);
    });

    const read = (resource: Resource): Promise<Uint8Array> => readBuffer(d3d, queue, resource, 0, BYTES);
    expect(firstDifference(await read(a), two)).toBe(-1);
    expect(firstDifference(await read(b), one)).toBe(-1);
    expect(firstDifference(await read(e), one)).toBe(-1);
    expect(firstDifference(await read(d), two)).toBe(-1);
    expect(firstDifference(await read(f), two)).toBe(-1);
    const expected = new Uint8Array(BYTES);
    expected.set(one.subarray(0x8000, 0x8000 + TILE + 0x40), 16);
    expected.set(two.subarray(3, 3 + 0x203), 2 * TILE + 0x100);
    expect(firstDifference(await read(c), expected)).toBe(-1);
    d3d.destroy();
  },
);
