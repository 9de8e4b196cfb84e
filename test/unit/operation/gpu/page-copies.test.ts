/**
 * Which copy jobs the page kernel takes (src/gpu/page-copies.ts), against a page-table mirror whose
 * shadow the test writes: only 16-byte aligned pieces whose source and destination pages are both
 * RESIDENT, resolved to the pool words those entries name; everything else stays with the copy
 * kernel, whole when no piece of it is resident. Consecutive copies share the first one's dispatch
 * only when no pool page written by one is read or written by another, and never across another
 * command or a copy that keeps jobs for the copy kernel. The bytes these copies move are checked on
 * the GPU in test/gpu/operation/d3d12/page-copies.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { CopyJob } from '../../../../src/gpu/copy-jobs.js';
import type { ExecutableList, IndexedCommand } from '../../../../src/gpu/encoders/executable-commands.js';
import { splitPageJobs, withPageCopies } from '../../../../src/gpu/page-copies.js';
import { PageTableMirror } from '../../../../src/gpu/page-table.js';
import { TILE_SIZE } from '../../../../src/memory/tiling.js';

const WORDS = TILE_SIZE / 4;
/** A mirror with no GPU behind it: the test only writes and reads its shadow (no growth, no flush). */
function mirror(): PageTableMirror {
  const buffer = { size: 4096 * 4 } as GPUBuffer;
  return new PageTableMirror({} as GPUDevice, 1 << 20, buffer, (_what, fn) => fn());
}

/** Virtual page p at address p * 64 KiB; pool page q at word q * 16384. */
const at = (page: number, offset = 0): bigint => BigInt(page * TILE_SIZE + offset);
const PIPELINE = { label: 'pages' } as GPUComputePipeline;

function table(): PageTableMirror {
  const t = mirror();
  // Virtual pages 1-4 resident on pool pages 10-13; 5 NULL; 6 absent (an evicted heap); 7 unowned.
  for (let p = 1; p <= 4; p++) t.writeOne(p, t.encoding.residentPage('LOCAL', 9 + p));
  t.writeOne(5, t.encoding.null);
  t.writeOne(6, t.encoding.absent(3));
  return t;
}

describe('splitPageJobs', () => {
  test('a whole resident page each side goes to the page kernel with both pages resolved', () => {
    const { general, pages } = splitPageJobs(table(), [{ dst: at(1), src: at(2), bytes: TILE_SIZE }]);
    expect(general).toEqual([]);
    expect(pages).toEqual([{ dst: at(1), src: at(2), bytes: TILE_SIZE, dstWord: 10 * WORDS, srcWord: 11 * WORDS }]);
  });

  test('NULL, absent, unowned and unaligned jobs stay whole with the copy kernel (the same objects)', () => {
    const jobs: CopyJob[] = [
      { dst: at(5), src: at(2), bytes: TILE_SIZE },
      { dst: at(1), src: at(6), bytes: TILE_SIZE },
      { dst: at(7), src: at(2), bytes: 64 },
      { dst: at(1, 4), src: at(2, 4), bytes: 64 },
      { dst: at(1), src: at(2, 8), bytes: 64 },
      { dst: at(1), src: at(2), bytes: 20 },
    ];
    const { general, pages } = splitPageJobs(table(), jobs);
    expect(pages).toEqual([]);
    expect(general).toHaveLength(jobs.length);
    general.forEach((job, i) => expect(job).toBe(jobs[i]));
  });

  test('a job across pages is cut where either side crosses a page; resident pieces go, the rest stays', () => {
    // dst pages 4 → 5 (NULL), src pages 1 → 2: cut at dst's page end (offset 0x100 into dst's page 4).
    const job = { dst: at(4, 0xff00), src: at(1, 0x100), bytes: 0x200 };
    const { general, pages } = splitPageJobs(table(), [job]);
    expect(pages).toEqual([
      { dst: at(4, 0xff00), src: at(1, 0x100), bytes: 0x100, dstWord: 13 * WORDS + 0x3fc0, srcWord: 10 * WORDS + 0x40 },
    ]);
    expect(general).toEqual([{ dst: at(5), src: at(1, 0x200), bytes: 0x100 }]);
    // Cut on the source side: src crosses from page 1 into page 2 while dst stays in page 3.
    const across = splitPageJobs(table(), [{ dst: at(3), src: at(1, 0xfff0), bytes: 0x20 }]);
    expect(across.general).toEqual([]);
    expect(across.pages.map(({ bytes, dstWord, srcWord }) => [bytes, dstWord, srcWord])).toEqual([
      [0x10, 12 * WORDS, 10 * WORDS + 0x3ffc],
      [0x10, 12 * WORDS + 4, 11 * WORDS],
    ]);
  });
});

const copy = (index: number, jobs: CopyJob[], phases = 1): IndexedCommand => ({ index, kind: 'copy', jobs, phases });
const page = (dst: number, src: number): CopyJob => ({ dst: at(dst), src: at(src), bytes: TILE_SIZE });
/** Per command: how many jobs the copy kernel keeps and the page kernel runs (undefined: none of its own). */
function shape(list: ExecutableList): [number, number | undefined][] {
  return list.commands.map((c) => (c.kind === 'copy' ? [c.jobs.length, c.pages?.jobs.length] : [-1, undefined]));
}

describe('withPageCopies', () => {
  test('independent consecutive copies share the first one’s dispatch; the lists given are not changed', () => {
    const commands = [copy(0, [page(1, 2)]), copy(1, [page(3, 4)])];
    const list: ExecutableList = { id: 1, commands };
    const [resolved] = withPageCopies(table(), PIPELINE, [list]);
    expect(shape(resolved as ExecutableList)).toEqual([
      [0, 2],
      [0, undefined],
    ]);
    expect(list.commands).toBe(commands);
    expect(commands[1]).toEqual(copy(1, [page(3, 4)]));
    const first = resolved?.commands[0];
    expect(first?.kind === 'copy' && first.pages?.pipeline).toBe(PIPELINE);
  });

  test('a copy reading or writing a page an earlier one of the group writes, or writing one it reads, starts its own dispatch', () => {
    const t = table();
    const cases: [string, CopyJob, CopyJob][] = [
      ['read after write', page(1, 2), page(3, 1)],
      ['write after read', page(1, 2), page(2, 3)],
      ['write after write', page(1, 2), page(1, 3)],
    ];
    for (const [, a, b] of cases) {
      const [resolved] = withPageCopies(t, PIPELINE, [{ id: 1, commands: [copy(0, [a]), copy(1, [b])] }]);
      expect(shape(resolved as ExecutableList)).toEqual([
        [0, 1],
        [0, 1],
      ]);
    }
    // Reading the same page twice is no hazard.
    const [shared] = withPageCopies(t, PIPELINE, [{ id: 1, commands: [copy(0, [page(1, 2)]), copy(1, [page(3, 2)])] }]);
    expect(shape(shared as ExecutableList)).toEqual([
      [0, 2],
      [0, undefined],
    ]);
  });

  test('no merging across another command, into a copy that keeps general jobs, or of a copy in phases', () => {
    const t = table();
    const dispatch: IndexedCommand = {
      index: 1,
      kind: 'dispatch',
      pipeline: PIPELINE,
      root: new Uint32Array(4),
      groups: [1, 1, 1],
    };
    const [across] = withPageCopies(t, PIPELINE, [
      { id: 1, commands: [copy(0, [page(1, 2)]), dispatch, copy(2, [page(3, 4)])] },
    ]);
    expect(shape(across as ExecutableList)).toEqual([
      [0, 1],
      [-1, undefined],
      [0, 1],
    ]);
    const nulls = { dst: at(5), src: at(4), bytes: TILE_SIZE };
    const [mixed] = withPageCopies(t, PIPELINE, [
      { id: 1, commands: [copy(0, [page(1, 2)]), copy(1, [page(3, 4), nulls])] },
    ]);
    expect(shape(mixed as ExecutableList)).toEqual([
      [0, 1],
      [1, 1],
    ]);
    const phased = copy(0, [page(1, 2)], 2);
    const [kept] = withPageCopies(t, PIPELINE, [{ id: 1, commands: [phased] }]);
    expect(kept?.commands[0]).toBe(phased);
  });
});
