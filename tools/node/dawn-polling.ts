/**
 * Dawn's Node.js binding waits for GPU work by polling. While any mapAsync or onSubmittedWorkDone is
 * pending it calls `instance.ProcessEvents()` from a `setImmediate` callback that schedules itself
 * again at once (dawn/node's AsyncRunner, which fetches the global `setImmediate` on every tick), so
 * the process spins a whole core for as long as the GPU works. On a CPU adapter (SwiftShader) the GPU
 * is the CPU: on a 2-core machine the spinning thread takes one of the two cores its workers run on.
 *
 * yieldWhileDawnPolls makes each of Dawn's ticks first sleep (Atomics.wait: the thread yields its
 * core), then poll as before. A wait for the GPU then ends at most that much later; results are
 * unchanged. Only native callbacks are delayed: Dawn's ticks, and a bound function if one is handed
 * to the global `setImmediate` (it only starts 0.5 ms later); a JavaScript callback goes through as
 * before. Measured on a 2-core machine on SwiftShader: `npm run validate -- --target=node --seeds=1
 * --ops=50` 19.1 s → 12.5 s, its CPU time 34 s → 19 s; the gpu test project's files 297 s → 228 s
 * (summed).
 *
 * Meant for CPU adapters (src/gpu/request-device.ts's runsOnCpu): on a real GPU the spin costs a
 * core the GPU does not need, and the sleep would add to every wait. `npm run validate` installs it
 * on a CPU adapter only; the gpu test project always (its CI has no GPU); the library and the
 * benchmarks keep Dawn's own polling.
 */
import { promisify } from 'node:util';

/** The sleep before each of Dawn's polls: short against a SwiftShader submission (milliseconds). */
export const DAWN_POLL_SLEEP_MS = 0.5;

/** Marks the installed wrapper, so that a second install changes nothing. */
const INSTALLED = Symbol.for('d3d12-webgpu.yieldWhileDawnPolls');

const isNativeFunction = (value: unknown): boolean =>
  typeof value === 'function' && Function.prototype.toString.call(value).endsWith('{ [native code] }');

/**
 * Replaces the global `setImmediate` so that native callbacks (Dawn's polling ticks) sleep `sleepMs`
 * first. Returns the function that puts the original back; installed already, it changes nothing
 * and returns a function that does nothing.
 */
export function yieldWhileDawnPolls(sleepMs = DAWN_POLL_SLEEP_MS): () => void {
  const original = globalThis.setImmediate;
  if (INSTALLED in original) return () => {};
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  function polledSetImmediate<Args extends unknown[]>(
    callback: (...args: Args) => void,
    ...args: Args
  ): NodeJS.Immediate {
    if (!isNativeFunction(callback)) return original(callback, ...args);
    return original(() => {
      Atomics.wait(sleeper, 0, 0, sleepMs);
      callback(...args);
    });
  }
  const installed = Object.assign(polledSetImmediate, {
    __promisify__: original.__promisify__,
    // util.promisify(setImmediate) keeps working while the wrapper is in place.
    [promisify.custom]: (original as unknown as Record<symbol, unknown>)[promisify.custom],
    [INSTALLED]: true,
  });
  globalThis.setImmediate = installed;
  return () => {
    // Only this wrapper is taken back: a replacement made since stays.
    if (globalThis.setImmediate === installed) globalThis.setImmediate = original;
  };
}
