/**
 * Argument values for the API fuzzer (api-fuzz): how an argument is judged, the invalid values each
 * kind of parameter gets, and how a value is written in a reproduction.
 *
 * Invariants: a value tagged 'invalid' is one no D3D12 call could accept for that parameter (wrong
 * type, NaN, ±Infinity, negative or fractional for a UINT, beyond the parameter's range, an unknown
 * enum name, a released object or another device's): a call that returns normally with one is a
 * defect. 'maybe' is contextually wrong or outside what the emulator chose to support (a state that
 * does not match, 2^53 for a UINT64, an empty array): it may succeed or throw. Nothing here reads
 * GPU-timing dependent state, so a seed always produces the same values.
 */
import type { Random } from '../../../src/validate/random.js';

export type Validity = 'valid' | 'maybe' | 'invalid';

export interface Arg {
  value: unknown;
  validity: Validity;
}

export const valid = (value: unknown): Arg => ({ value, validity: 'valid' });
export const maybe = (value: unknown): Arg => ({ value, validity: 'maybe' });
export const invalid = (value: unknown): Arg => ({ value, validity: 'invalid' });

/** Never a UINT of any width. */
const NOT_UINTS: readonly number[] = [
  NaN,
  Infinity,
  -Infinity,
  -1,
  -65536,
  -(2 ** 31),
  0.5,
  1.5,
  65536.25,
  -0.0001,
  Number.MIN_VALUE,
  1e300,
  Number.MAX_VALUE,
  2 ** 64,
];

/** Values of the wrong JavaScript type for a number, a name, an array or a struct. */
function wrongTypes(): unknown[] {
  return [
    '1',
    '',
    'NaN',
    true,
    false,
    1n,
    Symbol('fuzz'),
    () => 0,
    new Date(0),
    Object.create(null) as object,
    { valueOf: () => 1 },
  ];
}

/** Enum names no D3D12 enum has, including Object.prototype's (a lookup by `in` or `[]` accepts those). */
const UNKNOWN_NAMES: readonly string[] = [
  '',
  'FUZZ_UNKNOWN',
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'NONE|NULL',
  '0',
  ' DEFAULT',
];

export interface UintOptions {
  /** Inclusive maximum D3D12 allows (UINT: 0xffffffff). Values above it are invalid. */
  max?: number;
  /** A UINT64 (offsets, sizes, fence values): 2^53 and above is representable in D3D12, so 'maybe'. */
  wide?: boolean;
  /** The parameter may be left out (its default applies), so undefined is valid. */
  optional?: boolean;
  /** null means "none" for this parameter. */
  nullable?: boolean;
  /** Smallest value D3D12 allows (e.g. 1 for sizes): values below are invalid. */
  min?: number;
}

/** A value that is not a UINT in the parameter's range. */
export function badUint(rng: Random, options: UintOptions = {}): Arg {
  const r = rng.float();
  if (r < 0.45) return invalid(rng.pick(NOT_UINTS));
  if (r < 0.7) {
    const value = rng.pick(wrongTypes());
    return invalid(value);
  }
  if (r < 0.8) return absent(rng, options);
  if (r < 0.9 && options.min !== undefined && options.min > 0) return invalid(rng.int(0, options.min - 1));
  const max = options.max ?? 0xffffffff;
  if (options.wide) return maybe(rng.pick([2 ** 53, 2 ** 53 + 2, 2 ** 60, Number.MAX_SAFE_INTEGER, 2 ** 40]));
  return invalid(rng.pick([max + 1, max + 2 ** 20, 2 ** 32, 2 ** 53]));
}

/**
 * undefined or null: valid for a parameter that may be left out (undefined) or that takes null;
 * null for an optional one is the emulator's to take or refuse ('maybe'); both are wrong otherwise.
 */
function absent(rng: Random, options: { optional?: boolean; nullable?: boolean }): Arg {
  const value = rng.chance(0.5) ? undefined : null;
  if (value === null && options.nullable) return valid(null);
  if (value === undefined && options.optional) return valid(undefined);
  if (options.optional || options.nullable) return maybe(value);
  return invalid(value);
}

/** An enum name that is not one of `names`, or a value that is not a name at all. */
export function badEnum(
  rng: Random,
  names: readonly string[],
  options: { optional?: boolean; nullable?: boolean } = {},
): Arg {
  const r = rng.float();
  if (r < 0.5) return invalid(rng.pick(UNKNOWN_NAMES));
  if (r < 0.65) {
    // A real name in the wrong case, or two names run together.
    const name = rng.pick(names);
    return invalid(rng.chance(0.5) ? name.toLowerCase() : `${name}|${name}`);
  }
  if (r < 0.8) return invalid(rng.pick([0, 1, NaN, -1, 1.5]));
  if (r < 0.9) return absent(rng, options);
  // Not [names[0]]: flag parameters take arrays of names.
  return invalid(
    rng.pick([
      ...wrongTypes().filter((value) => typeof value !== 'string'),
      [names[0], `${String(names[0])}_FUZZ`],
      {},
    ]),
  );
}

/** Not a boolean. */
export function badBoolean(rng: Random): Arg {
  // null for an optional flag is the emulator's to read as false or refuse.
  if (rng.chance(0.1)) return maybe(null);
  return invalid(rng.pick([0, 1, 'true', 'false', {}, NaN, 1n]));
}

/** Not a string (setName coerces; these show whether coercion can throw). */
export function oddString(rng: Random): Arg {
  return maybe(
    rng.pick([
      42,
      null,
      undefined,
      {},
      [],
      Symbol('name'),
      Object.create(null) as object,
      1n,
      'ünïcødé ✓',
      'x'.repeat(600),
    ]),
  );
}

/** A value that is not an array (for a parameter taking one). */
export function notAnArray(rng: Random): Arg {
  return invalid(rng.pick([null, undefined, {}, 'array', 1, NaN, { length: 1, 0: null }, Symbol('array'), () => []]));
}

/** A value that is not a struct (for a required D3D12_*_DESC-like parameter). */
export function notAStruct(rng: Random): Arg {
  return invalid(rng.pick([null, undefined, 0, NaN, 'desc', [], [{}], true, Symbol('desc'), () => ({}), 1n]));
}

/** `desc` with one field replaced (a shallow copy; nested fields use their own corruptions). */
export function withField(desc: object, field: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...(desc as Record<string, unknown>) };
  if (value === DELETE) delete copy[field];
  else copy[field] = value;
  return copy;
}

/** Marks a field to be left out by withField. */
export const DELETE = Symbol('delete field');

/** Corrupts one field of a struct, each field with its own bad-value generator. */
export function badField(rng: Random, desc: object, fields: Record<string, (rng: Random) => Arg>): Arg {
  const names = Object.keys(fields);
  const name = rng.pick(names);
  const bad = (fields[name] as (rng: Random) => Arg)(rng);
  return { value: withField(desc, name, bad.value), validity: bad.validity };
}

// ---- Describing values for reproductions -------------------------------------------------------

/** Names the fuzzer gives pool objects (heap#3, other.fence#1, ...). */
export type Namer = (value: object) => string | undefined;

/** A value as JavaScript source, as far as it can be: what a reproduction prints. */
export function describeValue(value: unknown, name: Namer, depth = 0): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0)
        ? '-0'
        : Number.isInteger(value) && Math.abs(value) >= 2 ** 20
          ? bigNumber(value)
          : String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return value.length > 40
        ? `${JSON.stringify(value.slice(0, 24))}…(${value.length} chars)`
        : JSON.stringify(value);
    case 'boolean':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return '() => …';
    default:
      break;
  }
  const object = value;
  const named = name(object);
  if (named) return named;
  if (depth > 3) return '…';
  if (Array.isArray(object)) return `[${object.map((item) => describeValue(item, name, depth + 1)).join(', ')}]`;
  if (ArrayBuffer.isView(object))
    return `${object.constructor.name}(${(object as unknown as ArrayLike<number>).length})`;
  if (object instanceof Date) return 'new Date(0)';
  const prototype: unknown = Object.getPrototypeOf(object);
  if (prototype === null) return 'Object.create(null)';
  if (prototype !== Object.prototype)
    return `<${(object as { constructor?: { name?: string } }).constructor?.name ?? 'object'}>`;
  const entries = Object.entries(object).map(([key, item]) => `${key}: ${describeValue(item, name, depth + 1)}`);
  return `{ ${entries.join(', ')} }`.replace('{  }', '{}');
}

function bigNumber(value: number): string {
  const exponent = Math.log2(Math.abs(value));
  if (Number.isInteger(exponent)) return `${value < 0 ? '-' : ''}2**${exponent}`;
  if (value === Number.MAX_SAFE_INTEGER) return 'Number.MAX_SAFE_INTEGER';
  return String(value);
}
