/**
 * A committed UPLOAD buffer kept mapped (persistent mapping, as upload rings are): before a
 * submission of copies, only the bytes those copies read are sent (src/emulator/cpu-coherence.ts,
 * flush), fresh from the CPU copy, and every later copy still reads what the CPU wrote last,
 * whichever bytes an earlier submission left out; once unmapped, even with a written range that
 * leaves out bytes written while mapped, every byte reaches the GPU, as it did when each submission
 * sent the whole buffer.
 */
import { expect } from 'vitest';
import { createDevice, type Resource } from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { firstDifference, pattern, readBuffer, runList, TILE } from '../../../shared/d3d12-helpers.js';

const PAGES = 4;
const BYTES = PAGES * TILE;

gpuTest(
  'persistently mapped UPLOAD buffer: copies read what the CPU wrote last, before and after unmap',
  async ({ device: gpuDevice }) => {
    const d3d = await createDevice({ gpuDevice, localMemoryBytes: 16 * TILE, nonLocalMemoryBytes: 16 * TILE });
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const upload = d3d.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: BYTES },
      'GENERIC_READ',
    );
    const target = d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: BYTES },
      'COMMON',
    );
    const copyPages = (first: number, count: number): Promise<void> =>
      runList(d3d, queue, (list) => list.copyBufferRegion(target, first * TILE, upload, first * TILE, count * TILE));
    const read = (resource: Resource): Promise<Uint8Array> => readBuffer(d3d, queue, resource, 0, BYTES);
    const expected = new Uint8Array(BYTES);
    const write = (view: Uint8Array, page: number, seed: number): void => {
      const bytes = pattern(TILE, seed);
      view.set(bytes, page * TILE);
      expected.set(bytes, page * TILE);
    };

    const view = upload.map(0, { begin: 0, end: 0 });
    for (let page = 0; page < PAGES; page++) write(view, page, 10 + page);
    // Page 1 only: the others stay in CPU memory for now.
    await copyPages(1, 1);
    expect(firstDifference((await read(target)).subarray(TILE, 2 * TILE), expected.subarray(TILE, 2 * TILE))).toBe(-1);
    // Pages 2-3 written again, then every page copied: each as the CPU wrote it last.
    write(view, 2, 20);
    write(view, 3, 21);
    await copyPages(0, PAGES);
    expect(firstDifference(await read(target), expected)).toBe(-1);
    // Page 0 written while mapped, a copy of page 1 only, then an unmap that names no written bytes:
    // page 0 still reaches the GPU before the next copy reads it.
    write(view, 0, 30);
    await copyPages(1, 1);
    upload.unmap(0, { begin: 0, end: 0 });
    await copyPages(0, PAGES);
    expect(firstDifference(await read(target), expected)).toBe(-1);
    d3d.destroy();
  },
);
