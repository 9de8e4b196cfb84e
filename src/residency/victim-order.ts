/**
 * VictimQueue: the order in which the residency manager evicts. Every victim it chooses, for room
 * and for trimming alike, and every victim of its shadow caches (policy-selector.ts), comes from
 * one of these.
 *
 *   1. Lower residency priority first (setResidencyPriority; NORMAL unless set), as the OS orders its
 *      own evictions: an object is never evicted before a lower-priority one.
 *   2. Within one priority, the policy's key, lowest first (ties: the least recently used first);
 *      with a window of w > 1, of the next w in that order the one with the highest score goes
 *      first (victim-policies.ts says what the keys and scores of each policy are).
 *
 * Candidates are positions 0..count-1 into the caller's arrays. The order is a binary heap, built in
 * O(n) and popped in O(log n) per victim, so a caller that needs a few victims of many candidates
 * (the usual case, and the shadow caches' always) does not pay for a full sort.
 *
 * Invariants: the positions returned are a permutation of 0..count-1; no position of higher priority
 * precedes one of lower priority; for equal priority, the k-th victim is among the first k + w − 1 in
 * (key, stamp) order; `score(i)` is read once per position that reaches the window.
 */

/** Candidates compared per choice by the RECENT policy (victim-policies.ts): its window. */
export const WINDOW = 4;

export class VictimQueue {
  /** Positions in heap order: the first `size` are the heap. */
  private readonly heap: Int32Array;
  private size: number;
  /** The window: positions taken from the heap, with their scores. */
  private readonly window: number[] = [];
  private readonly scores: number[] = [];

  /**
   * `priorities` (null: all equal), `keys` and `stamps` (the LRU stamps: a higher number was used
   * more recently) hold one number per position; `score` is needed when `width` > 1.
   */
  constructor(
    count: number,
    private readonly priorities: Float64Array | null,
    private readonly keys: Float64Array,
    private readonly stamps: Float64Array,
    private readonly width = 1,
    private readonly score: ((position: number) => number) | null = null,
  ) {
    this.heap = new Int32Array(count);
    for (let i = 0; i < count; i++) this.heap[i] = i;
    this.size = count;
    for (let i = (count >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The next victim's position, or -1 when every candidate was taken. */
  next(): number {
    const { window, scores } = this;
    if (this.width <= 1) return this.pop();
    while (window.length < this.width && this.size > 0) {
      const top = this.heap[0] as number;
      // The window holds one priority: a higher one waits until every lower one is taken.
      if (window.length > 0 && this.priority(top) !== this.priority(window[0] as number)) break;
      window.push(this.pop());
      scores.push((this.score as (position: number) => number)(top));
    }
    if (window.length === 0) return -1;
    let best = 0;
    // Strictly higher: among equal scores the first in key order goes.
    for (let i = 1; i < window.length; i++) if ((scores[i] as number) > (scores[best] as number)) best = i;
    const chosen = window[best] as number;
    window.splice(best, 1);
    scores.splice(best, 1);
    return chosen;
  }

  private priority(position: number): number {
    return this.priorities ? (this.priorities[position] as number) : 0;
  }

  /** Whether position `a` goes before `b`: priority, then key, then stamp (unique per object). */
  private before(a: number, b: number): boolean {
    const pa = this.priority(a);
    const pb = this.priority(b);
    if (pa !== pb) return pa < pb;
    const ka = this.keys[a] as number;
    const kb = this.keys[b] as number;
    if (ka !== kb) return ka < kb;
    return (this.stamps[a] as number) < (this.stamps[b] as number);
  }

  private pop(): number {
    if (this.size === 0) return -1;
    const heap = this.heap;
    const top = heap[0] as number;
    heap[0] = heap[--this.size] as number;
    this.siftDown(0);
    return top;
  }

  private siftDown(from: number): void {
    const heap = this.heap;
    const size = this.size;
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && this.before(heap[right] as number, heap[left] as number) ? right : left;
      if (!this.before(heap[child] as number, heap[i] as number)) return;
      const moved = heap[i] as number;
      heap[i] = heap[child] as number;
      heap[child] = moved;
      i = child;
    }
  }
}
