/**
 * TrimGate: tells the residency manager when a trim would find nothing, so it need not look.
 *
 * A trim (ResidencyManager.trim, at most once per TRIM_INTERVAL_MS above 70 % of a budget) evicts
 * resident objects idle for longer than the grace period. Finding them is a scan of every resident
 * object (ResidencyManager.victims), which also forgets objects released while tracked: at 100,000
 * resident objects that scan, once a millisecond, costs more than the batches it trims for. The
 * gate keeps, per segment, a lower bound of the last-use times of the resident objects, and the
 * device's release count at the last scan. When no resident object of the segment can be older
 * than the grace period and nothing was released since that scan, the scan would find no candidate
 * and forget nothing: the trim may be skipped, with the same outcome. So a manager whose objects
 * are in use scans once per grace period, not once per millisecond.
 *
 * Invariants: `bound(segment)` ≤ the last-use time of every object the manager holds resident in
 * that segment (last-use times only grow, as the clock is monotonic; `tick` drops the bounds if
 * it is not); `releases` is the release count when the last full scan began, -1 before the first.
 */
import type { MemorySegment } from '../api/types.js';

export class TrimGate {
  private localBound = -Infinity;
  private nonLocalBound = -Infinity;
  private releases = -1;
  private lastNow = -Infinity;

  /** The lower bound of the last-use times of the segment's resident objects. */
  bound(segment: MemorySegment): number {
    return segment === 'LOCAL' ? this.localBound : this.nonLocalBound;
  }

  /** The manager's clock for a batch, before it stamps anything with it. */
  tick(now: number): void {
    // A clock that went back would stamp objects below the bounds: start over from the next scan.
    if (now < this.lastNow) {
      this.localBound = -Infinity;
      this.nonLocalBound = -Infinity;
    }
    this.lastNow = now;
  }

  /** An object became resident (tracked resident, or made resident for a batch) with this last use. */
  admit(segment: MemorySegment, lastUsedMs: number): void {
    if (segment === 'LOCAL') this.localBound = Math.min(this.localBound, lastUsedMs);
    else this.nonLocalBound = Math.min(this.nonLocalBound, lastUsedMs);
  }

  /**
   * A full scan of the resident objects, begun at release count `releases`, found these oldest
   * last uses per segment (Infinity: none resident), after forgetting the released ones.
   */
  scanned(releases: number, oldestLocal: number, oldestNonLocal: number): void {
    this.releases = releases;
    this.localBound = oldestLocal;
    this.nonLocalBound = oldestNonLocal;
  }

  /** Whether a trim of `segment` at `now` with grace period `grace` would evict and forget nothing. */
  canSkip(segment: MemorySegment, now: number, grace: number, releases: number): boolean {
    return releases === this.releases && now - this.bound(segment) <= grace;
  }
}
