/**
 * Argument rules of GPU-side tile-mapping validation (Device.validateTileMappings) and of its
 * self-check hooks. Pure: objects arrive already resolved to the device's own (undefined if not).
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import { checkInteger } from './common.js';

interface Checkable {
  readonly label: string;
  readonly released: boolean;
}

/**
 * `resources` of validateTileMappings: left out (undefined or null: every live resource) or an
 * array of this device's live resources, each once. `own` is the array resolved element by element.
 */
export function validateResourceList<R extends Checkable>(
  call: string,
  resources: unknown,
  own: (value: unknown) => R | undefined,
): Checked<R[] | undefined> {
  if (resources === undefined || resources === null) return undefined;
  if (!Array.isArray(resources))
    return invalidArg(
      call,
      'resources',
      `must be an array of resources (or left out for every live resource), got ${show(resources)}`,
    );
  const list: R[] = [];
  const seen = new Set<R>();
  for (let i = 0; i < resources.length; i++) {
    const resource = own(resources[i]);
    if (!resource)
      return invalidArg(
        call,
        `resources[${i}]`,
        `must be a resource created by this device, got ${show(resources[i])}`,
      );
    if (resource.released) return invalidArg(call, `resources[${i}]`, `${resource.label} was released`);
    if (seen.has(resource)) return invalidArg(call, `resources[${i}]`, `${resource.label} is listed twice`);
    seen.add(resource);
    list.push(resource);
  }
  return list;
}

/** corruptPageTableEntryForTesting(resource, page, entry?): a live resource, a page of its range, a u32. */
export function validateCorruptEntry<R extends Checkable>(
  resource: R | undefined,
  pageCount: number | undefined,
  page: unknown,
  entry: unknown,
): Checked<R> {
  const call = 'corruptPageTableEntryForTesting';
  if (!resource || pageCount === undefined)
    return invalidArg(call, 'resource', 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, 'resource', `${resource.label} was released`);
  const problem =
    checkInteger(call, 'page', page, 0, pageCount - 1) ??
    (entry === undefined ? undefined : checkInteger(call, 'entry', entry, 0, 0xffffffff));
  return problem ?? resource;
}
