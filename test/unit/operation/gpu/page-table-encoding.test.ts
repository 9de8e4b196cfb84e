/**
 * The page-table entry encoding (src/gpu/page-table.ts) against what the prelude does with an entry
 * (shaders/prelude/common.wgsl): a RESIDENT entry is its page's first word index with the kind in
 * bits 0-1 and the segment in bit 2 (NON_LOCAL pages after LOCAL's: one pool buffer), so the WGSL's word index (the entry with its low 14 bits
 * replaced by the word's offset in the page) is the pool word the CPU model means. The WGSL rule is
 * modelled here as written there (insertBits of va.x >> 2 into bits 0-13).
 */
import { describe, expect, test } from 'vitest';
import { PageTableEncoding } from '../../../../src/gpu/page-table.js';
import { preludeConstant } from '../../../../src/gpu/prelude.js';

const encoding = new PageTableEncoding();
const WORDS_PER_PAGE = preludeConstant('D3D12_WORDS_PER_PAGE');
const OFFSET_BITS = preludeConstant('D3D12_PAGE_SHIFT') - 2;

/** d3d12_word_index: insertBits(entry, va_low >> 2, 0, 14). */
function wordIndex(entry: number, vaLow: number): number {
  const mask = (1 << OFFSET_BITS) - 1;
  return ((entry & ~mask) | ((vaLow >>> 2) & mask)) >>> 0;
}

/** d3d12_fast_access: RESIDENT and va a multiple of size. */
function fastAccess(entry: number, vaLow: number, size: number): boolean {
  return (
    (((entry ^ preludeConstant('D3D12_PTE_RESIDENT')) & preludeConstant('D3D12_PTE_KIND_MASK')) |
      (vaLow & (size - 1))) ===
    0
  );
}

describe('page-table entries', () => {
  const pages = [0, 1, 2, 0x1234, encoding.maxPage - 1, encoding.maxPage];
  for (const segment of ['LOCAL', 'NON_LOCAL'] as const) {
    test(`${segment}: resident pages round-trip and give the CPU model's word index, at both ends of the page`, () => {
      for (const page of pages) {
        const entry = encoding.residentPage(segment, page);
        expect(encoding.decode(entry)).toEqual({ kind: 'resident', segment, page });
        for (const offset of [0, 4, 0xfffc]) {
          // Any virtual page: only the offset inside it matters.
          const vaLow = (0x7 << 16) | offset;
          expect(wordIndex(entry, vaLow)).toBe(page * WORDS_PER_PAGE + offset / 4);
        }
        expect((entry & preludeConstant('D3D12_PTE_SEGMENT_BIT')) !== 0).toBe(segment === 'NON_LOCAL');
      }
    });
  }

  test('the largest page is 2^18 - 1: every word of a 16 GiB pool has a u32 index', () => {
    expect(encoding.maxPage).toBe(2 ** 18 - 1);
    expect(wordIndex(encoding.residentPage('LOCAL', encoding.maxPage), 0xfffc)).toBe(2 ** 32 - 1);
  });

  test('the fast path is taken for resident, aligned accesses only', () => {
    const resident = encoding.residentPage('NON_LOCAL', 5);
    expect(fastAccess(resident, 0x10, 4)).toBe(true);
    expect(fastAccess(resident, 0x10, 16)).toBe(true);
    expect(fastAccess(resident, 0x14, 16)).toBe(false);
    expect(fastAccess(resident, 0x12, 4)).toBe(false);
    for (const other of [encoding.unowned, encoding.null, encoding.absent(3)])
      expect(fastAccess(other, 0x10, 4)).toBe(false);
  });

  test('residentRun and residentGather write what residentPage says, page by page, up to the largest page', () => {
    const heapPages = Uint32Array.from([7, 8, 9, 0x1234, encoding.maxPage, encoding.maxPage - 1, 0]);
    for (const segment of ['LOCAL', 'NON_LOCAL'] as const) {
      const run = new Uint32Array(5);
      encoding.residentRun(run, segment, heapPages, 2);
      expect([...run]).toEqual([...heapPages.subarray(2, 7)].map((page) => encoding.residentPage(segment, page)));
      const order = Uint32Array.from([6, 4, 4, 0, 5, 3]);
      const gathered = new Uint32Array(4);
      encoding.residentGather(gathered, segment, heapPages, order, 1);
      expect([...gathered]).toEqual(
        [4, 4, 0, 5].map((heapPage) => encoding.residentPage(segment, heapPages[heapPage] as number)),
      );
    }
  });

  test("one pool buffer: NON_LOCAL pages sit after LOCAL's, so the word index needs no segment test", () => {
    const localPages = 0x1000;
    const shared = new PageTableEncoding(localPages);
    for (const page of [0, 1, 0x321, encoding.maxPage - localPages]) {
      const nonLocal = shared.residentPage('NON_LOCAL', page);
      expect(shared.decode(nonLocal)).toEqual({ kind: 'resident', segment: 'NON_LOCAL', page });
      expect(wordIndex(nonLocal, 8)).toBe((localPages + page) * WORDS_PER_PAGE + 2);
      // LOCAL pages are where they were.
      expect(shared.residentPage('LOCAL', page)).toBe(encoding.residentPage('LOCAL', page));
    }
    const heapPages = Uint32Array.from([3, 0, 9]);
    const run = new Uint32Array(3);
    shared.residentRun(run, 'NON_LOCAL', heapPages, 0);
    expect([...run]).toEqual([...heapPages].map((page) => shared.residentPage('NON_LOCAL', page)));
    const gathered = new Uint32Array(2);
    shared.residentGather(gathered, 'NON_LOCAL', heapPages, Uint32Array.from([2, 1]), 0);
    expect([...gathered]).toEqual([9, 0].map((page) => shared.residentPage('NON_LOCAL', page)));
  });

  test('absent, NULL and unowned entries decode as such', () => {
    expect(encoding.decode(encoding.absent(77))).toEqual({ kind: 'absent', heapId: 77 });
    expect(encoding.decode(encoding.null)).toEqual({ kind: 'null' });
    expect(encoding.decode(encoding.unowned)).toEqual({ kind: 'unowned' });
  });
});
