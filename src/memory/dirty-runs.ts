/**
 * DirtyRuns: the entry ranges of a table written since it was last sent, merged for sending. GPU-free
 * (the page-table mirror, src/gpu/page-table.ts, sends what take() returns as queue writes).
 *
 * add(first, count) records written entries; take() returns the ranges to send and empties the set.
 * Two ranges at most `mergeGap` entries apart are sent as one covering range: sending the unchanged
 * entries between them costs less than a second write.
 *
 * Invariants: every entry added since the last take() lies in a range that take() returns; those
 * ranges are sorted, disjoint and more than `mergeGap` entries apart. The set holds at most about
 * COMPACT_ABOVE ranges between compactions, however many adds come without a take().
 */

/** Ranges kept before they are merged in place: bounds memory when many adds come without a take(). */
const COMPACT_ABOVE = 4096;

export class DirtyRuns {
  /** Pairs [start, end) of entries, in the order added (sorted unless `sorted` is false). */
  private runs: number[] = [];
  private sorted = true;
  private compactAbove = COMPACT_ABOVE;

  constructor(
    /** Ranges at most this many entries apart are merged into one. */
    private readonly mergeGap: number,
  ) {}

  get empty(): boolean {
    return this.runs.length === 0;
  }

  /** Entries [first, first + count) were written. */
  add(first: number, count: number): void {
    if (count <= 0) return;
    const end = first + count;
    const runs = this.runs;
    const n = runs.length;
    if (n > 0) {
      // The common case, a caller writing neighbouring entries in turn, grows the last range.
      const lastStart = runs[n - 2] as number;
      const lastEnd = runs[n - 1] as number;
      if (first <= lastEnd + this.mergeGap && end + this.mergeGap >= lastStart) {
        const start = Math.min(first, lastStart);
        runs[n - 2] = start;
        runs[n - 1] = Math.max(end, lastEnd);
        if (n > 2 && start < (runs[n - 4] as number)) this.sorted = false;
        return;
      }
      if (first < lastStart) this.sorted = false;
    }
    runs.push(first, end);
    if (runs.length / 2 > this.compactAbove) {
      this.runs = this.merged();
      this.sorted = true;
      // Ranges far apart stay apart: let the set grow rather than merge it again at every add.
      if (this.runs.length / 2 > this.compactAbove / 2) this.compactAbove *= 2;
    }
  }

  /** The ranges to send, as pairs [start, end): sorted, disjoint, merged (see the header). Empties the set. */
  take(): number[] {
    const merged = this.merged();
    this.runs = [];
    this.sorted = true;
    this.compactAbove = COMPACT_ABOVE;
    return merged;
  }

  private merged(): number[] {
    const runs = this.runs;
    const count = runs.length / 2;
    if (count <= 1) return runs;
    let order: number[] | undefined;
    if (!this.sorted) {
      order = Array.from({ length: count }, (_, i) => i);
      order.sort((a, b) => (runs[a * 2] as number) - (runs[b * 2] as number));
    }
    const out: number[] = [];
    for (let k = 0; k < count; k++) {
      const i = order ? (order[k] as number) : k;
      const start = runs[i * 2] as number;
      const end = runs[i * 2 + 1] as number;
      const last = out.length;
      if (last > 0 && start <= (out[last - 1] as number) + this.mergeGap)
        out[last - 1] = Math.max(out[last - 1] as number, end);
      else out.push(start, end);
    }
    return out;
  }
}
