/**
 * Error scopes around the emulator's own WebGPU work, so that none of its errors reaches the
 * caller's console or error scopes: every operation that allocates (pools, page table, staging,
 * query sets) or submits runs inside 'out-of-memory' and 'validation' scopes of its own.
 *
 * WebGPU reports errors asynchronously, through the scopes' promises. So `checked` (used where the
 * D3D12 call is asynchronous: createDevice) awaits them and throws; `guard` (synchronous calls)
 * returns at once and reports an error later to its `onError`, which removes the device, since the
 * call that caused it has long returned. The initial allocations are made with `checked`, so the
 * buffers every later call uses are known to be good.
 */

/** What went wrong in a guarded operation. */
export interface GuardedError {
  /** The operation, e.g. 'executeCommandLists' or 'the LOCAL pool (268435456 bytes)'. */
  what: string;
  outOfMemory: boolean;
  message: string;
}

/** Runs `fn` inside fresh 'validation' and 'out-of-memory' scopes; reports what they caught to `onError`. */
export function guard<T>(
  device: GPUDevice,
  what: string | (() => string),
  fn: () => T,
  onError: (error: GuardedError) => void,
): T {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  try {
    return fn();
  } finally {
    report(device, what, onError);
  }
}

/**
 * Error scopes opened only when needed: in a section (`begin` to `close`), from the first `open()`
 * (an allocation) to its end. For
 * the calls a program makes per frame or per tile (executeCommandLists, makeResident, evict), whose
 * other WebGPU calls encode and submit objects already known good: WebGPU reports no error for
 * them, but two pushes and two pops cost about 12 µs of an 84 µs submission in Node (Dawn, a
 * SwiftShader device; docs/architecture.md, "Submit overhead"). Every WebGPU call after an
 * allocation runs inside the scopes, so a refused buffer's later uses in the same call are caught
 * with it.
 */
export class LazyScopes {
  /** The running section's operation; undefined between sections. */
  private what: string | (() => string) | undefined;
  private opened = false;

  /** One per device, reused by every section: a call per frame or per tile allocates nothing for it. */
  constructor(
    private readonly device: GPUDevice,
    private readonly onError: (error: GuardedError) => void,
  ) {}

  /** Whether a section is running (between begin and close). */
  get active(): boolean {
    return this.what !== undefined;
  }

  /** Starts a section for operation `what` (named in what the scopes catch); none may be running. */
  begin(what: string | (() => string)): void {
    this.what = what;
  }

  /** Opens the scopes, once per section: call before any WebGPU call that can fail (an allocation). */
  open(): void {
    if (this.opened || this.what === undefined) return;
    this.opened = true;
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
  }

  /** Ends the section; its scopes, if opened, are closed and what they caught goes to `onError`. */
  close(): void {
    const what = this.what;
    this.what = undefined;
    if (!this.opened || what === undefined) return;
    this.opened = false;
    report(this.device, what, this.onError);
  }
}

/** Pops the two scopes guard pushed (validation innermost) and reports what they caught to `onError`. */
function report(device: GPUDevice, what: string | (() => string), onError: (error: GuardedError) => void): void {
  const validation = device.popErrorScope();
  const outOfMemory = device.popErrorScope();
  // Joined by hand, not with Promise.all (an array, a result array and more promises at every
  // submission, about 0.1 µs): the outer scope's result is awaited inside the inner one's handler.
  const caught = (validationError: GPUError | null, outOfMemoryError: GPUError | null): void => {
    const error = outOfMemoryError ?? validationError;
    // A label built per call costs as much as a small paging call's bookkeeping: built only when needed.
    if (error)
      onError({
        what: typeof what === 'string' ? what : what(),
        outOfMemory: outOfMemoryError !== null,
        message: error.message,
      });
  };
  // A lost device rejects pops: the loss itself is reported elsewhere (and, as with Promise.all,
  // a rejected pop reports nothing; the other one's rejection is handled too).
  const ignore = (): undefined => undefined;
  void validation.then(
    (v) => outOfMemory.then((o) => caught(v, o), ignore),
    () => outOfMemory.then(ignore, ignore),
  );
}

/** Runs `fn` inside fresh scopes and resolves with its result, or rejects with what the scopes caught. */
export async function checked<T>(device: GPUDevice, what: string, fn: () => T): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let outcome: { value: T } | { thrown: unknown };
  try {
    outcome = { value: fn() };
  } catch (thrown) {
    outcome = { thrown };
  }
  const validation = device.popErrorScope();
  const outOfMemory = device.popErrorScope();
  const [v, o] = await Promise.all([validation, outOfMemory]);
  if ('thrown' in outcome) throw outcome.thrown;
  const error = o ?? v;
  if (error) throw new GuardError({ what, outOfMemory: o !== null, message: error.message });
  return outcome.value;
}

export class GuardError extends Error {
  override name = 'GuardError';
  constructor(readonly detail: GuardedError) {
    super(`${detail.what}: ${detail.outOfMemory ? 'out of memory' : 'validation error'}: ${detail.message}`);
  }
}
