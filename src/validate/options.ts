/**
 * The rules of ValidationOptions, checked before a run starts: a run that silently did nothing
 * (ops NaN, a seed of 1.5) would report a clean pass it never earned.
 */
import { D3D12Error } from '../api/errors.js';
import type { ValidationOptions } from './types.js';

const PLANTS = ['corrupt-entry', 'drop-write'];

/** Throws E_INVALIDARG naming `call` and the first option that breaks its rule. */
export function checkValidationOptions(
  call: string,
  options: Partial<ValidationOptions>,
  needs: { seed: boolean; ops: boolean },
): void {
  const fail = (argument: string, rule: string, value: unknown): never => {
    throw new D3D12Error(
      'E_INVALIDARG',
      call,
      `options.${argument}`,
      `${rule}, got ${typeof value === 'string' ? `'${value}'` : String(value)}`,
    );
  };
  if (typeof options !== 'object' || options === null) fail('', 'must be an object', options);
  if (typeof options.gpuDevice !== 'object' || options.gpuDevice === null)
    fail('gpuDevice', 'must be a WebGPU device', options.gpuDevice);
  const { seed, ops, tier, plant } = options;
  if (needs.seed || seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      fail('seed', 'must be an integer from 0 to 2^32 - 1', seed);
  }
  if (needs.ops && (typeof ops !== 'number' || !Number.isInteger(ops) || ops < 1))
    fail('ops', 'must be a positive integer', ops);
  if (tier !== undefined && ![1, 2, 3, 4].includes(tier))
    fail('tier', 'must be 1, 2, 3 or 4 (the tiled-resources tier)', tier);
  if (plant !== undefined && !PLANTS.includes(plant)) fail('plant', `must be one of ${PLANTS.join(', ')}`, plant);
}
