/**
 * LazyScopes (src/gpu/error-guard.ts): per section, error scopes opened at the first open() and
 * closed once, and GpuMemory.guardAllocations' rule that a guard inside the section opens the
 * section's scopes first (scopes are a stack: the inner pair must be popped before the outer one).
 */
import { describe, expect, it } from 'vitest';
import { guard, LazyScopes, type GuardedError } from '../../../../src/gpu/error-guard.js';

/** A device that records scope calls and lets a test say what the next pops report. */
class ScopeDevice {
  readonly calls: string[] = [];
  /** What popErrorScope returns, innermost first (null: nothing caught). */
  errors: (GPUError | null)[] = [];

  pushErrorScope(filter: GPUErrorFilter): void {
    this.calls.push(`push ${filter}`);
  }

  popErrorScope(): Promise<GPUError | null> {
    this.calls.push('pop');
    return Promise.resolve(this.errors.shift() ?? null);
  }
}

const flushPromises = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** LazyScopes on `device` with a section for `what` begun. */
function section(
  device: ScopeDevice,
  what: string | (() => string),
  onError: (error: GuardedError) => void,
): LazyScopes {
  const scopes = new LazyScopes(device as unknown as GPUDevice, onError);
  scopes.begin(what);
  return scopes;
}

describe('LazyScopes', () => {
  it('makes no scope when nothing opens it', async () => {
    const device = new ScopeDevice();
    const reported: GuardedError[] = [];
    const scopes = section(device, 'executeCommandLists', (e) => reported.push(e));
    scopes.close();
    await flushPromises();
    expect(device.calls).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('opens one pair however often it is opened, and pops it once', async () => {
    const device = new ScopeDevice();
    const reported: GuardedError[] = [];
    const scopes = section(device, 'executeCommandLists', (e) => reported.push(e));
    scopes.open();
    scopes.open();
    scopes.close();
    scopes.close();
    await flushPromises();
    expect(device.calls).toEqual(['push out-of-memory', 'push validation', 'pop', 'pop']);
    expect(reported).toEqual([]);
  });

  it('reports what its scopes caught under its name: out-of-memory before validation', async () => {
    const device = new ScopeDevice();
    const reported: GuardedError[] = [];
    const scopes = section(
      device,
      () => 'evicting heap #3',
      (e) => reported.push(e),
    );
    scopes.open();
    device.errors = [{ message: 'bad copy' }, { message: 'no memory' }];
    scopes.close();
    await flushPromises();
    expect(reported).toEqual([{ what: 'evicting heap #3', outOfMemory: true, message: 'no memory' }]);
  });

  it('reports a validation error alone as one', async () => {
    const device = new ScopeDevice();
    const reported: GuardedError[] = [];
    const scopes = section(device, 'executeCommandLists', (e) => reported.push(e));
    scopes.open();
    device.errors = [{ message: 'bad copy' }, null];
    scopes.close();
    await flushPromises();
    expect(reported).toEqual([{ what: 'executeCommandLists', outOfMemory: false, message: 'bad copy' }]);
  });

  it('is reused section after section: each reports under its own name; open outside a section does nothing', async () => {
    const device = new ScopeDevice();
    const reported: GuardedError[] = [];
    const scopes = section(device, 'first', (e) => reported.push(e));
    scopes.close();
    scopes.open();
    scopes.begin('second');
    scopes.open();
    device.errors = [{ message: 'bad copy' }, null];
    scopes.close();
    await flushPromises();
    expect(device.calls).toEqual(['push out-of-memory', 'push validation', 'pop', 'pop']);
    expect(reported).toEqual([{ what: 'second', outOfMemory: false, message: 'bad copy' }]);
  });

  it('a guard inside an opened section nests inside its scopes', async () => {
    const device = new ScopeDevice();
    const scopes = section(device, 'outer', () => undefined);
    scopes.open();
    guard(
      device as unknown as GPUDevice,
      'inner',
      () => undefined,
      () => undefined,
    );
    scopes.close();
    await flushPromises();
    expect(device.calls).toEqual([
      'push out-of-memory',
      'push validation',
      'push out-of-memory',
      'push validation',
      'pop',
      'pop',
      'pop',
      'pop',
    ]);
  });
});
