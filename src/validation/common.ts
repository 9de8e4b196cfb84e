/**
 * Building blocks of the validators: each checks one argument and returns the D3D12Error to throw,
 * or undefined when the argument is fine. Validators never throw and never change state.
 */
import type { D3D12Error } from '../api/errors.js';
import { invalidArg, show } from '../api/errors.js';

export type Problem = D3D12Error | undefined;

/** The first problem of a list of checks, evaluated lazily in order. */
export function firstProblem(...checks: (() => Problem)[]): Problem {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An integer in [min, max] (both inclusive). */
export function checkInteger(
  call: string,
  argument: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): Problem {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    return invalidArg(call, argument, `must be an integer, got ${show(value)}`);
  }
  if (value < min) return invalidArg(call, argument, `must be at least ${min}, got ${value}`);
  if (value > max) return invalidArg(call, argument, `must be at most ${max}, got ${value}`);
  return undefined;
}

/** One of the names in `allowed`. */
export function checkName<T extends string>(
  call: string,
  argument: string,
  value: unknown,
  allowed: readonly T[],
): Problem {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    return invalidArg(call, argument, `must be one of ${allowed.join(', ')}; got ${show(value)}`);
  }
  return undefined;
}

/** An array of names from `allowed` (flags). */
export function checkNames<T extends string>(
  call: string,
  argument: string,
  value: unknown,
  allowed: readonly T[],
): Problem {
  if (!Array.isArray(value)) return invalidArg(call, argument, `must be an array of flag names, got ${show(value)}`);
  for (let i = 0; i < value.length; i++) {
    const problem = checkName(call, `${argument}[${i}]`, value[i], allowed);
    if (problem) return problem;
  }
  return undefined;
}

/** A name or an array of names (flag sets D3D12 ORs together), as an array. */
export function asNameList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

export function checkBoolean(call: string, argument: string, value: unknown): Problem {
  return typeof value === 'boolean'
    ? undefined
    : invalidArg(call, argument, `must be true or false, got ${show(value)}`);
}

/** Null, undefined or an array. */
export function checkOptionalArray(call: string, argument: string, value: unknown): Problem {
  return value === null || value === undefined || Array.isArray(value)
    ? undefined
    : invalidArg(call, argument, `must be an array or null, got ${show(value)}`);
}
