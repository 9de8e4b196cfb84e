/**
 * Fence (ID3D12Fence): a 64-bit counter shared by the CPU and the queues.
 *
 * Two values are tracked. `completedValue` is what GetCompletedValue returns: set by a CPU signal,
 * or by a queue signal once the GPU work before it (and the CPU-visible copies of its results) has
 * completed. `reachedValue` is the value in queue order: a queue signal sets it when it is
 * submitted. Because every emulated queue feeds the one in-order WebGPU queue, a queue wait is
 * satisfied as soon as the signal it waits for is submitted; waits therefore watch `reachedValue`,
 * the CPU watches `completedValue`.
 */
import { invalidArg, show } from '../api/errors.js';

export class Fence {
  private completed: number;
  private reached: number;
  private readonly events: { value: number; resolve: () => void }[] = [];
  private readonly watchers = new Set<() => void>();
  /** Queue signals complete in the order they were submitted: each waits for the one before. */
  private completions: Promise<void> = Promise.resolve();
  private pendingCompletions = 0;

  /** @internal Created by Device.createFence. */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
    readonly id: number,
    initialValue: number,
  ) {
    this.completed = initialValue;
    this.reached = initialValue;
  }

  getCompletedValue(): number {
    return this.completed;
  }

  /** ID3D12Fence::Signal: sets the value from the CPU, at once. */
  signal(value: number): void {
    checkFenceValue('Fence.signal', 'value', value);
    this.reach(value);
    this.complete(value);
  }

  /** ID3D12Fence::SetEventOnCompletion: resolves once the completed value is at least `value`. */
  setEventOnCompletion(value: number): Promise<void> {
    checkFenceValue('Fence.setEventOnCompletion', 'value', value);
    if (this.completed >= value) return Promise.resolve();
    return new Promise((resolve) => this.events.push({ value, resolve }));
  }

  /** @internal The value in queue order (see the header). */
  get reachedValue(): number {
    return this.reached;
  }

  /**
   * The value in queue order (an emulator addition): what the latest signal set, counting a queue
   * signal once it is submitted to the GPU (not while a queue wait holds it) and a CPU signal at once.
   * GetCompletedValue catches up as the work before each queue signal completes. Two cases keep them
   * apart, as on D3D12: a CPU signal made while queue signals are in flight is overwritten by them
   * as they complete (the completed value ends at the last of those), and a removed device completes
   * every fence at the largest value.
   */
  getSubmittedValue(): number {
    return this.reached;
  }

  /** @internal A queue signal was submitted. */
  reach(value: number): void {
    this.reached = value;
    if (this.watchers.size === 0) return;
    for (const watcher of [...this.watchers]) {
      // A watcher removed by an earlier one (its wait already ended) must not run.
      if (this.watchers.has(watcher)) watcher();
    }
  }

  /**
   * @internal Completes `value` once `done` has settled and every earlier queue signal has completed;
   * with nothing to wait for (no `done`, none pending), at once.
   */
  completeAfter(done: Promise<unknown> | undefined, value: number): void {
    if (!done && this.pendingCompletions === 0) {
      this.complete(value);
      return;
    }
    const first = this.pendingCompletions === 0;
    this.pendingCompletions++;
    const settle = (): void => {
      this.pendingCompletions--;
      this.complete(value);
    };
    // None pending: every earlier completion has run, so only `done` is waited for (two promise hops
    // fewer on the path from the GPU to the event, taken by every signal that waits alone).
    this.completions =
      first && done ? done.then(settle, settle) : this.completions.then(() => done).then(settle, settle);
  }

  /** @internal A queue signal's work completed. */
  complete(value: number): void {
    this.completed = value;
    for (let i = this.events.length - 1; i >= 0; i--) {
      const event = this.events[i] as { value: number; resolve: () => void };
      if (value >= event.value) {
        this.events.splice(i, 1);
        event.resolve();
      }
    }
  }

  /** @internal Calls `watcher` whenever the reached value changes, until the returned function is called. */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}

/** Fence values are UINT64; here, non-negative integers up to 2^53. */
export function checkFenceValue(call: string, argument: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidArg(call, argument, `must be a non-negative integer (a fence value), got ${show(value)}`);
  }
}
