/**
 * tools/node/dawn-polling.ts: once installed, a native callback handed to the global setImmediate
 * (Dawn's polling tick) runs after the sleep, with its arguments; a JavaScript callback is handed
 * on unwrapped; a second install changes nothing; uninstalling puts the original back, but not over
 * a replacement made since; util.promisify(setImmediate) keeps working. runsOnCpu, which decides
 * where npm run validate installs it, knows SwiftShader and WebGPU's fallback adapter, and no GPU.
 */
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { runsOnCpu } from '../../../../src/gpu/request-device.js';
import { yieldWhileDawnPolls } from '../../../../tools/node/dawn-polling.js';

const original = globalThis.setImmediate;
/** Long against a setImmediate round trip (microseconds), so that the sleep is what the wait shows. */
const SLEEP_MS = 40;

afterEach(() => {
  globalThis.setImmediate = original;
});

/** Milliseconds until `schedule` has its callback called. */
async function timed(schedule: (done: (...args: unknown[]) => void) => void): Promise<{ ms: number; args: unknown[] }> {
  const start = performance.now();
  const args = await new Promise<unknown[]>((resolve) => schedule((...got) => resolve(got)));
  return { ms: performance.now() - start, args };
}

describe('yieldWhileDawnPolls', () => {
  test('a native callback sleeps first and gets its arguments', async () => {
    const restore = yieldWhileDawnPolls(SLEEP_MS);
    try {
      // A bound function is native code, as Dawn's tick is.
      const native = await timed((done) => setImmediate(done.bind(null), 'a', 2));
      expect(native.args).toEqual(['a', 2]);
      expect(native.ms).toBeGreaterThanOrEqual(SLEEP_MS - 1);
    } finally {
      restore();
    }
  });

  test('a JavaScript callback is handed to the original setImmediate as it is; a native one wrapped', () => {
    const handed: unknown[] = [];
    const spy = Object.assign((callback: unknown) => handed.push(callback) as unknown as NodeJS.Immediate, {
      __promisify__: original.__promisify__,
    });
    globalThis.setImmediate = spy;
    const restore = yieldWhileDawnPolls(SLEEP_MS);
    const script = (): void => {};
    const native = Math.max.bind(null);
    setImmediate(script);
    setImmediate(native);
    restore();
    expect(globalThis.setImmediate).toBe(spy);
    expect(handed[0]).toBe(script);
    expect(handed[1]).not.toBe(native);
    expect(typeof handed[1]).toBe('function');
  });

  test('a second install changes nothing; uninstalling puts the original back', () => {
    const restore = yieldWhileDawnPolls(SLEEP_MS);
    const installed = globalThis.setImmediate;
    expect(installed).not.toBe(original);
    const again = yieldWhileDawnPolls(SLEEP_MS);
    expect(globalThis.setImmediate).toBe(installed);
    again();
    expect(globalThis.setImmediate).toBe(installed);
    restore();
    expect(globalThis.setImmediate).toBe(original);
  });

  test('uninstalling leaves a replacement made since; util.promisify(setImmediate) works while installed', async () => {
    const restore = yieldWhileDawnPolls(SLEEP_MS);
    expect(await promisify(setImmediate)('value')).toBe('value');
    const replacement = Object.assign(() => undefined as unknown as NodeJS.Immediate, {
      __promisify__: original.__promisify__,
    });
    globalThis.setImmediate = replacement;
    restore();
    expect(globalThis.setImmediate).toBe(replacement);
  });
});

describe('runsOnCpu (where npm run validate lets Dawn sleep, and the texture cache is off by default)', () => {
  test.each([
    [{ vendor: 'google', architecture: 'swiftshader', device: '', description: '' }, true],
    [{ vendor: '', architecture: '', device: '', description: 'SwiftShader Device (Subzero)' }, true],
    [{ vendor: '', architecture: '', device: '', description: '', isFallbackAdapter: true }, true],
    [{ vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200' }, false],
    [{ vendor: 'nvidia', architecture: 'hopper', isFallbackAdapter: false }, false],
    [undefined, false],
  ])('%o: %s', (adapterInfo, cpu) => {
    expect(runsOnCpu({ adapterInfo } as unknown as GPUDevice)).toBe(cpu);
  });
});
