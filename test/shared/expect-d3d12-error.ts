/**
 * The one shared assertion for D3D12 errors (unit and GPU tests alike): a call must throw a
 * D3D12Error with the expected HRESULT, call, argument path and rule; expectD3D12Rejection does the
 * same for a promise. Tests take it from here rather than writing their own try/catch check
 * (test/unit/validation/source/test-helpers.test.ts checks that no other file defines one).
 *
 *   expectD3D12Error(() => device.createHeap(desc), {
 *     call: 'createHeap', argument: 'desc.sizeInBytes', message: /at least 1/,
 *   });
 *
 * `hresult` defaults to 'E_INVALIDARG' (the common case); `call`, `argument` and `message` are
 * checked when given. Besides the expected fields, the helper checks the API contract that every
 * D3D12Error's message names the call, the argument and the rule: `call: argument: rule (HRESULT)`.
 * Returns the error for further assertions.
 */
import { expect } from 'vitest';
import { D3D12Error } from '../../src/index.js';

export interface ExpectedD3D12Error {
  /** The HRESULT name; default 'E_INVALIDARG'. */
  hresult?: string;
  /** The API call named by the error, e.g. 'createPlacedResource'. */
  call?: string;
  /** The argument path, e.g. 'desc.width' (exact), or a pattern it must match. */
  argument?: string | RegExp;
  /** A pattern the message (which contains the rule) must match. */
  message?: RegExp;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: string } }).constructor?.name;
    return `an object (${name ?? Object.prototype.toString.call(value)})`;
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}

/** Checks an error thrown (or rejected with) against the expectation. */
function checkError(thrown: unknown, expected: ExpectedD3D12Error): D3D12Error {
  if (!(thrown instanceof D3D12Error)) {
    const what = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : describeValue(thrown);
    expect.unreachable(`expected a D3D12Error, got ${what}`);
  }
  const error = thrown;
  const context = `D3D12Error "${error.message}"`;
  expect(error.hresult, `${context}: hresult`).toBe(expected.hresult ?? 'E_INVALIDARG');
  if (expected.call !== undefined) expect(error.call, `${context}: call`).toBe(expected.call);
  if (expected.argument instanceof RegExp) expect(error.argument, `${context}: argument`).toMatch(expected.argument);
  else if (expected.argument !== undefined) expect(error.argument, `${context}: argument`).toBe(expected.argument);
  if (expected.message !== undefined) expect(error.message, `${context}: message`).toMatch(expected.message);
  // The contract: the message names the call, the argument and the rule, and ends with the HRESULT.
  expect(error.message, `${context}: message format`).toBe(
    `${error.call}: ${error.argument}: ${error.rule} (${error.hresult})`,
  );
  expect(error.rule.length, `${context}: rule`).toBeGreaterThan(0);
  return error;
}

/** Runs `fn`, which must throw a D3D12Error matching `expected` synchronously. */
export function expectD3D12Error(fn: () => unknown, expected: ExpectedD3D12Error): D3D12Error {
  let result: unknown;
  try {
    result = fn();
  } catch (thrown) {
    return checkError(thrown, expected);
  }
  if (result instanceof Promise) {
    // Keep the rejection (if any) from going unhandled; the caller should have awaited it.
    result.catch(() => undefined);
    expect.unreachable(
      'expected a D3D12Error to be thrown, but the call returned a Promise (use expectD3D12Rejection)',
    );
  }
  return expect.unreachable(`expected a D3D12Error to be thrown, but the call returned ${describeValue(result)}`);
}

/** Awaits `promise`, which must reject with a D3D12Error matching `expected`. */
export async function expectD3D12Rejection(
  promise: Promise<unknown>,
  expected: ExpectedD3D12Error,
): Promise<D3D12Error> {
  let result: unknown;
  try {
    result = await promise;
  } catch (thrown) {
    return checkError(thrown, expected);
  }
  return expect.unreachable(
    `expected a rejection with a D3D12Error, but the promise resolved to ${describeValue(result)}`,
  );
}
