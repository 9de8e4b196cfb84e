/**
 * PhysicalPageAllocator: the 64 KiB pages of one memory segment's pool, handed out to heaps.
 * GPU-free: it only counts and lists page indices.
 *
 * A heap's pages need not be contiguous (the page table makes contiguity irrelevant to shaders),
 * but contiguous runs make clears and paging copies cheaper, so allocation prefers one run (first
 * fit) and only then gathers pages from several free runs, lowest first.
 *
 * Invariants: free runs are sorted, disjoint, non-empty and never adjacent; `freePages` is their
 * total; a page is either free or owned by exactly one allocation.
 */

export interface PageRun {
  start: number;
  count: number;
}

export class PhysicalPageAllocator {
  private free: PageRun[];
  private freeTotal: number;

  constructor(readonly pageCount: number) {
    if (!Number.isSafeInteger(pageCount) || pageCount < 0) throw new RangeError(`page count must be a non-negative integer, got ${pageCount}`);
    this.free = pageCount > 0 ? [{ start: 0, count: pageCount }] : [];
    this.freeTotal = pageCount;
  }

  get freePages(): number {
    return this.freeTotal;
  }

  /** Takes `count` pages; undefined (and nothing taken) when fewer are free. */
  allocate(count: number): PageRun[] | undefined {
    if (!Number.isSafeInteger(count) || count <= 0) throw new RangeError(`cannot allocate ${count} pages`);
    if (count > this.freeTotal) return undefined;
    this.freeTotal -= count;
    const fit = this.free.findIndex((run) => run.count >= count);
    if (fit >= 0) return [this.take(fit, count)];
    const runs: PageRun[] = [];
    let needed = count;
    while (needed > 0) {
      const take = Math.min(needed, (this.free[0] as PageRun).count);
      runs.push(this.take(0, take));
      needed -= take;
    }
    return runs;
  }

  private take(index: number, count: number): PageRun {
    const run = this.free[index] as PageRun;
    const taken = { start: run.start, count };
    if (run.count === count) this.free.splice(index, 1);
    else this.free[index] = { start: run.start + count, count: run.count - count };
    return taken;
  }

  /** Returns pages to the pool, merging them with free neighbours. */
  release(runs: readonly PageRun[]): void {
    for (const run of runs) {
      if (run.count <= 0) continue;
      this.freeTotal += run.count;
      let index = this.free.findIndex((free) => free.start > run.start);
      if (index < 0) index = this.free.length;
      const before = this.free[index - 1];
      const after = this.free[index];
      if ((before && before.start + before.count > run.start) || (after && run.start + run.count > after.start)) {
        throw new RangeError(`pages ${run.start}..${run.start + run.count - 1} are already free`);
      }
      const joinsBefore = before !== undefined && before.start + before.count === run.start;
      const joinsAfter = after !== undefined && run.start + run.count === after.start;
      if (joinsBefore && joinsAfter) this.free.splice(index - 1, 2, { start: before.start, count: before.count + run.count + after.count });
      else if (joinsBefore) this.free[index - 1] = { start: before.start, count: before.count + run.count };
      else if (joinsAfter) this.free[index] = { start: run.start, count: run.count + after.count };
      else this.free.splice(index, 0, { ...run });
    }
  }

  freeRunsForTesting(): PageRun[] {
    return this.free.map((run) => ({ ...run }));
  }
}

/** Expands runs into one page index per heap page, in order. */
export function pagesOf(runs: readonly PageRun[]): Uint32Array {
  const pages = new Uint32Array(runs.reduce((sum, run) => sum + run.count, 0));
  let i = 0;
  for (const run of runs) for (let page = run.start; page < run.start + run.count; page++) pages[i++] = page;
  return pages;
}
