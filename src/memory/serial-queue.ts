/**
 * SerialQueue: items waiting for a serial to complete, in serial order (Dawn's SerialQueue). Serials
 * are handed out in increasing order; enqueue() takes an item for a serial no smaller than the last
 * one enqueued, and takeUpTo(serial) removes and returns every item whose serial is at most `serial`,
 * oldest first. Knows nothing of GPUs: the caller decides what a serial is and when it completes.
 *
 * Invariants: serials are non-decreasing from head to tail; an item is returned exactly once.
 */
export class SerialQueue<T> {
  private readonly entries: { serial: number; items: T[] }[] = [];
  private count = 0;

  /** Items waiting, in all. */
  get size(): number {
    return this.count;
  }

  /** The serial the newest item waits for (0 when empty). */
  get lastSerial(): number {
    return this.entries[this.entries.length - 1]?.serial ?? 0;
  }

  enqueue(serial: number, ...items: T[]): void {
    if (!Number.isSafeInteger(serial) || serial < this.lastSerial)
      throw new RangeError(`SerialQueue.enqueue: serial ${serial} is below the last one enqueued (${this.lastSerial})`);
    if (items.length === 0) return;
    const last = this.entries[this.entries.length - 1];
    if (last && last.serial === serial) last.items.push(...items);
    else this.entries.push({ serial, items: [...items] });
    this.count += items.length;
  }

  /** Removes and returns the items of every serial up to `serial`, oldest first. */
  takeUpTo(serial: number): T[] {
    const taken: T[] = [];
    while (this.entries.length > 0 && (this.entries[0] as { serial: number }).serial <= serial) {
      taken.push(...(this.entries.shift() as { items: T[] }).items);
    }
    this.count -= taken.length;
    return taken;
  }
}
