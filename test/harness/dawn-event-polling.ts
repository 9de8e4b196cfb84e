/**
 * setupFiles of the gpu project: Dawn's Node.js binding waits for GPU work by polling. While any
 * mapAsync or onSubmittedWorkDone is pending it calls `instance.ProcessEvents()` from a
 * `setImmediate` callback that schedules itself again at once (dawn/node's AsyncRunner, which
 * fetches the global `setImmediate` on every tick), so the test process spins a whole core for as
 * long as the GPU works. On SwiftShader the GPU is the CPU: on a 2-core machine the spinning thread
 * takes one of the two cores SwiftShader's workers run on.
 *
 * Here each of Dawn's ticks first sleeps POLL_SLEEP_MS (Atomics.wait: the thread yields its core),
 * then polls as before. A wait for the GPU then ends at most that much later than it would have;
 * results are unchanged, and no test asserts a duration. Measured on a 2-core machine
 * (SwiftShader, the 54 gpu test files): their summed time 297 s → 228 s. Only Dawn's ticks are
 * delayed: they are the only native functions handed to the global `setImmediate`.
 *
 * Tests only: the library and the benchmarks keep Dawn's own polling (the lowest latency on a real GPU).
 */
const POLL_SLEEP_MS = 0.5;

const nativeSetImmediate = globalThis.setImmediate;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const isNativeFunction = (value: unknown): boolean =>
  typeof value === 'function' && Function.prototype.toString.call(value).endsWith('{ [native code] }');

function polledSetImmediate<Args extends unknown[]>(
  callback: (...args: Args) => void,
  ...args: Args
): NodeJS.Immediate {
  if (!isNativeFunction(callback)) return nativeSetImmediate(callback, ...args);
  return nativeSetImmediate(() => {
    Atomics.wait(sleeper, 0, 0, POLL_SLEEP_MS);
    callback(...args);
  });
}

globalThis.setImmediate = Object.assign(polledSetImmediate, { __promisify__: nativeSetImmediate.__promisify__ });
