/**
 * D3D12Error: what every failing call throws. It carries the HRESULT real D3D12 returns for the
 * mistake and a message naming the call, the argument and the broken rule, e.g.
 *   createHeap: desc.sizeInBytes: must be a positive integer, got 0 (E_INVALIDARG)
 * For void methods (updateTileMappings, copyTileMappings) the HRESULT is the one the debug layer's
 * report would correspond to: E_INVALIDARG.
 */

export type HResult =
  | 'E_INVALIDARG'
  | 'E_OUTOFMEMORY'
  | 'E_NOTIMPL'
  | 'E_FAIL'
  | 'DXGI_ERROR_DEVICE_REMOVED'
  | 'DXGI_ERROR_DEVICE_HUNG'
  | 'DXGI_ERROR_UNSUPPORTED'
  | 'DXGI_ERROR_INVALID_CALL';

export class D3D12Error extends Error {
  override name = 'D3D12Error';

  constructor(
    readonly hresult: HResult,
    /** The API call that failed, e.g. `createPlacedResource`. */
    readonly call: string,
    /** The argument at fault, as a path into the call's arguments, e.g. `desc.width`. */
    readonly argument: string,
    /** The rule that was broken, in words. */
    readonly rule: string,
  ) {
    super(`${call}: ${argument}: ${rule} (${hresult})`);
  }
}

/** The common case: an invalid argument. */
export function invalidArg(call: string, argument: string, rule: string): D3D12Error {
  return new D3D12Error('E_INVALIDARG', call, argument, rule);
}

/** A value or the error that validation found; validators return this instead of throwing. */
export type Checked<T> = T | D3D12Error;

/** Throws the error a validator returned, else hands its value on. */
export function orThrow<T>(checked: Checked<T>): T {
  if (checked instanceof D3D12Error) throw checked;
  return checked;
}

/** Renders a value for a message: strings quoted, objects as JSON, the rest as they print. */
export function show(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
