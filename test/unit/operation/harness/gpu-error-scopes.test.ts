/**
 * The rules of runInGpuErrorScopes, checked against a fake device so that every path (including a
 * lost device, which a real device cannot be made to do on demand) is exercised.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GpuTestFailure, runInGpuErrorScopes } from '../../../harness/gpu-error-scopes.js';

class FakeValidationError {
  constructor(readonly message: string) {}
}
class FakeOutOfMemoryError {
  constructor(readonly message: string) {}
}

/** Just the part of GPUDevice the harness uses: error scopes, the event target and `lost`. */
class FakeDevice extends EventTarget {
  readonly scopes: { filter: GPUErrorFilter; error: unknown }[] = [];
  private resolveLost!: (info: { reason: string; message: string }) => void;
  readonly lost = new Promise<{ reason: string; message: string }>((resolve) => (this.resolveLost = resolve));

  pushErrorScope(filter: GPUErrorFilter): void {
    this.scopes.push({ filter, error: null });
  }
  popErrorScope(): Promise<unknown> {
    const scope = this.scopes.pop();
    return scope ? Promise.resolve(scope.error) : Promise.reject(new Error('OperationError: no error scope'));
  }
  /** Reports an error the way WebGPU does: to the innermost scope of its filter, else uncaptured. */
  raise(filter: GPUErrorFilter, error: unknown): void {
    const scope = [...this.scopes].reverse().find((s) => s.filter === filter);
    if (scope) {
      scope.error ??= error;
    } else {
      this.dispatchEvent(Object.assign(new Event('uncapturederror'), { error }));
    }
  }
  lose(reason: string, message: string): void {
    this.resolveLost({ reason, message });
  }
}

const asDevice = (fake: FakeDevice): GPUDevice => fake as unknown as GPUDevice;

beforeAll(() => {
  Object.assign(globalThis, { GPUValidationError: FakeValidationError, GPUOutOfMemoryError: FakeOutOfMemoryError });
});
afterAll(() => {
  Reflect.deleteProperty(globalThis, 'GPUValidationError');
  Reflect.deleteProperty(globalThis, 'GPUOutOfMemoryError');
});

describe('runInGpuErrorScopes', () => {
  test('control: a clean body returns its value and leaves no scope behind', async () => {
    const device = new FakeDevice();
    await expect(runInGpuErrorScopes(asDevice(device), 'clean', () => Promise.resolve(42))).resolves.toBe(42);
    expect(device.scopes).toEqual([]);
  });

  test('a validation error fails the test, naming it and quoting WebGPU', async () => {
    const device = new FakeDevice();
    const run = runInGpuErrorScopes(asDevice(device), 'my test', () => {
      device.raise('validation', new FakeValidationError('Buffer usages (MapRead|Storage) is invalid.'));
      return Promise.resolve();
    });
    await expect(run).rejects.toThrow(GpuTestFailure);
    await expect(run).rejects.toThrow(
      'GPU test "my test" failed:\nWebGPU validation error: Buffer usages (MapRead|Storage) is invalid.',
    );
  });

  test('an out-of-memory error fails the test', async () => {
    const device = new FakeDevice();
    const run = runInGpuErrorScopes(asDevice(device), 'oom', () => {
      device.raise('out-of-memory', new FakeOutOfMemoryError('Allocation failed'));
      return Promise.resolve();
    });
    await expect(run).rejects.toThrow('WebGPU out-of-memory error: Allocation failed');
  });

  test('an uncaptured error while the body runs fails the test', async () => {
    const device = new FakeDevice();
    const run = runInGpuErrorScopes(asDevice(device), 'uncaptured', () => {
      device.raise('internal', new FakeValidationError('internal trouble'));
      return Promise.resolve();
    });
    await expect(run).rejects.toThrow('uncaptured WebGPU validation error: internal trouble');
  });

  test('an uncaptured error after a test does not count against the next one', async () => {
    const device = new FakeDevice();
    await runInGpuErrorScopes(asDevice(device), 'first', () => Promise.resolve());
    device.raise('internal', new FakeValidationError('between the tests'));
    await expect(runInGpuErrorScopes(asDevice(device), 'second', () => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  test('a lost device fails the test', async () => {
    const device = new FakeDevice();
    const run = runInGpuErrorScopes(asDevice(device), 'lost', () => {
      device.lose('unknown', 'GPU hung');
      return Promise.resolve();
    });
    await expect(run).rejects.toThrow('device lost (unknown): GPU hung');
  });

  test('control: a device the test destroys on purpose does not fail it', async () => {
    const device = new FakeDevice();
    await expect(
      runInGpuErrorScopes(asDevice(device), 'destroyed', () => {
        device.lose('destroyed', 'Device was destroyed.');
        return Promise.resolve('ok');
      }),
    ).resolves.toBe('ok');
  });

  test('a body that unbalances the scopes fails the test', async () => {
    const device = new FakeDevice();
    const run = runInGpuErrorScopes(asDevice(device), 'unbalanced', async () => {
      await device.popErrorScope();
    });
    await expect(run).rejects.toThrow(/error scopes unbalanced/);
  });

  test("a body's own exception passes through unchanged when WebGPU reported nothing", async () => {
    const device = new FakeDevice();
    const thrown = new Error('assertion failed');
    await expect(runInGpuErrorScopes(asDevice(device), 'throws', () => Promise.reject(thrown))).rejects.toBe(thrown);
  });

  test("a WebGPU error and the body's exception are reported together", async () => {
    const device = new FakeDevice();
    const run = runInGpuErrorScopes(asDevice(device), 'both', () => {
      device.raise('validation', new FakeValidationError('bad shader'));
      return Promise.reject(new Error('words differ'));
    });
    await expect(run).rejects.toThrow(
      /WebGPU validation error: bad shader\n\(the test body also threw: words differ\)/,
    );
  });
});
