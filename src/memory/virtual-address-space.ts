/**
 * The emulated GPU virtual address space: 2^bits bytes cut into 64 KiB pages, handed out to
 * resources as contiguous page ranges.
 *
 * Invariants: page 0 is never handed out, so no resource has address 0 (D3D12's null GPU VA); each
 * range is followed by one guard page that no resource owns, so an access running off the end of a
 * resource lands on an unmapped page (reported as a fault by the GPU layer) instead of in the next
 * resource; a range's base may sit inside its first page (a small texture placed at a 4 KiB heap
 * offset keeps that offset in its address, so page-granular translation still works).
 */
import { RangeAllocator } from './range-allocator.js';
import { TILE_SIZE } from './tiling.js';

/** A virtual page is as large as a tile, so a tile mapping is one page-table entry. */
export const VA_PAGE_SIZE = TILE_SIZE;
/** Pages left unowned after each range (see the invariants). */
const GUARD_PAGES = 1;

export interface VirtualRange {
  /** The resource's GPU virtual address. */
  address: bigint;
  firstPage: number;
  pageCount: number;
}

export class VirtualAddressSpace {
  private readonly pages: RangeAllocator;

  constructor(readonly bits: number) {
    if (!Number.isInteger(bits) || bits < 32 || bits > 47)
      throw new RangeError(`virtual address bits must be 32..47, got ${bits}`);
    this.pages = new RangeAllocator(1, 2 ** bits / VA_PAGE_SIZE);
  }

  get sizeInBytes(): number {
    return 2 ** this.bits;
  }

  get freeBytes(): number {
    return Math.max(0, this.pages.freeUnits - GUARD_PAGES) * VA_PAGE_SIZE;
  }

  /**
   * Reserves pages for `sizeInBytes` bytes starting `offsetInPage` bytes into the first page;
   * undefined when the address space has no such range left.
   */
  reserve(sizeInBytes: number, offsetInPage = 0): VirtualRange | undefined {
    const pageCount = Math.max(1, Math.ceil((offsetInPage + sizeInBytes) / VA_PAGE_SIZE));
    const firstPage = this.pages.allocate(pageCount + GUARD_PAGES);
    if (firstPage === undefined) return undefined;
    return { address: BigInt(firstPage) * BigInt(VA_PAGE_SIZE) + BigInt(offsetInPage), firstPage, pageCount };
  }

  release(range: VirtualRange): void {
    this.pages.release(range.firstPage);
  }
}
