/**
 * Argument checks the d3dx12 helpers share: where d3dx12.h would compute garbage from a bad argument
 * (NaN offsets, a non-object handle), these throw E_INVALIDARG naming the helper and the argument.
 */
import { D3D12Error, Resource } from '../index.js';

export const fail = (call: string, argument: string, rule: string): D3D12Error =>
  new D3D12Error('E_INVALIDARG', call, argument, rule);

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return (value as { constructor?: { name?: string } }).constructor?.name ?? 'an object';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `string '${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${value.toString()}`;
  return typeof value;
}

/** An integer in [least, 2^32). */
export function uint(call: string, argument: string, value: unknown, least = 0): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least || value > 0xffffffff)
    throw fail(call, argument, `must be an integer in [${least}, 2^32), got ${describe(value)}`);
  return value;
}

/** A Resource not yet released. */
export function liveResource(call: string, argument: string, value: unknown): Resource {
  if (!(value instanceof Resource)) throw fail(call, argument, `must be a Resource, got ${describe(value)}`);
  if (value.released) throw fail(call, argument, `${value.label} was released`);
  return value;
}
