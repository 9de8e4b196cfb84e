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

/** Longest rendering of a value in a message: a message names what was passed, it does not dump it. */
const MAX_SHOWN = 200;

const cut = (text: string): string => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);

/** How a non-plain object shows: its label (heaps, resources, lists...), or its class. */
function objectName(value: object): string {
  try {
    const label = (value as { label?: unknown }).label;
    if (typeof label === 'string') return label;
  } catch {
    // a throwing getter: fall back to the class
  }
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength} bytes)`;
  return Object.prototype.toString.call(value);
}

const plain = (value: object): boolean =>
  Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null;

/**
 * Renders a value for a message: strings quoted, plain objects and arrays as JSON, objects of the
 * API by their label (never their contents), the rest as they print; at most MAX_SHOWN characters.
 */
export function show(value: unknown): string {
  if (typeof value === 'string') return cut(`'${value}'`);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  if (!plain(value)) return cut(objectName(value));
  try {
    const json = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner === 'bigint') return `${inner}n`;
      if (typeof inner === 'object' && inner !== null && !plain(inner)) return objectName(inner);
      return inner;
    });
    return cut(json);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
