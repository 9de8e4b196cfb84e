/**
 * The order in which the residency manager evicts: every victim it chooses, for room and for
 * trimming alike, comes from here.
 *
 *   1. Lower residency priority first (setResidencyPriority; NORMAL unless set), as the OS orders its
 *      own evictions: an object is only evicted before a lower-priority one never.
 *   2. Within one priority, the least recently used are the candidates, and of the WINDOW least
 *      recently used the one the reuse predictor expects back last goes first. LRU alone evicts the
 *      object a cyclic scan needs next and the popular set that just had a pause; looking at a few
 *      old candidates and asking which is due last fixes much of that and keeps LRU's choice where
 *      recency is what predicts (a camera walk), since a victim is never far from LRU's.
 *
 * Invariants: the result is a permutation of the candidates; for equal priority, the k-th victim is
 * among the first k + WINDOW − 1 candidates in LRU order; no candidate of higher priority precedes one
 * of lower priority.
 */

/**
 * Candidates compared per choice. Measured on the policy figure's four traces at 2× and 4× budget
 * (bench/suite/policy-quality.ts, SwiftShader): 4 pages 2–7 % fewer bytes than LRU on seven of the
 * eight and 0.2 % more on the camera walk at 4×; 8 and more page still fewer on scans and popular
 * sets but up to 2.4 % more than LRU on the camera walk.
 */
export const WINDOW = 4;

export interface VictimCandidate {
  /** The LRU stamp: a higher number was used more recently. */
  readonly useStamp: number;
}

/**
 * The candidates in eviction order, taken one at a time (callers usually need a few): sorting costs
 * O(n log n) once, each victim O(WINDOW). `priority(c)` is read once per candidate, `wait(c)` (the
 * batches until it is expected back: ReusePredictor.expectedWait) once per candidate that reaches the
 * window.
 */
export class VictimQueue<T extends VictimCandidate> {
  private readonly priorities: Float64Array;
  private readonly order: number[];
  private cursor = 0;
  /** Indices into `candidates` with their expected waits: the next WINDOW of one priority. */
  private readonly window: number[] = [];
  private readonly waits: number[] = [];

  constructor(
    private readonly candidates: readonly T[],
    priority: (candidate: T) => number,
    private readonly wait: (candidate: T) => number,
  ) {
    const n = candidates.length;
    this.priorities = new Float64Array(n);
    for (let i = 0; i < n; i++) this.priorities[i] = priority(candidates[i] as T);
    this.order = Array.from({ length: n }, (_, i) => i);
    const priorities = this.priorities;
    this.order.sort((a, b) => (priorities[a] as number) - (priorities[b] as number) || (candidates[a] as T).useStamp - (candidates[b] as T).useStamp);
  }

  /** The next victim, or undefined when every candidate was taken. */
  next(): T | undefined {
    const { window, waits, order, priorities } = this;
    while (window.length < WINDOW && this.cursor < order.length) {
      const at = order[this.cursor] as number;
      // The window holds one priority: a higher one waits until every lower one is taken.
      if (window.length > 0 && priorities[at] !== priorities[window[0] as number]) break;
      window.push(at);
      waits.push(this.wait(this.candidates[at] as T));
      this.cursor++;
    }
    if (window.length === 0) return undefined;
    let best = 0;
    // Strictly later: among equal waits the least recently used goes.
    for (let i = 1; i < window.length; i++) if ((waits[i] as number) > (waits[best] as number)) best = i;
    const chosen = window[best] as number;
    window.splice(best, 1);
    waits.splice(best, 1);
    return this.candidates[chosen];
  }
}
