/**
 * discardResource(resource, region), checked: the subresources it names and the state they must be in.
 *
 * Rules and their sources:
 *   - DiscardResource remarks: not on COPY lists; on DIRECT lists a render target must be in
 *     RENDER_TARGET, a depth-stencil texture in DEPTH_WRITE; on COMPUTE lists the resource needs
 *     ALLOW_UNORDERED_ACCESS and UNORDERED_ACCESS. D3D12_DISCARD_REGION: rectangles need 2D
 *     subresources of one size. **Chosen**, as the debug layer reports INVALID_SUBRESOURCE_STATE
 *     otherwise (o3de PR #20073): on DIRECT lists a UAV resource that is neither must be in
 *     UNORDERED_ACCESS, and a resource with none of the three flags cannot be discarded; a
 *     rectangle is non-empty and inside the subresource; numSubresources is at least 1.
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import { RESOURCE_STATE_BITS, type CommandListType } from '../api/types.js';
import { mipSize } from '../memory/tiling.js';
import { checkInteger, isObject, type Problem } from './common.js';
import type { ResourceView } from './tile-mappings.js';

const S = RESOURCE_STATE_BITS;

/** discardResource(resource, region): the subresources it names and the state they must be in. */
export function validateDiscardResource(
  resource: ResourceView | undefined,
  region: unknown,
  listType: CommandListType,
): Checked<{ subresources: number[]; state: number }> {
  const call = 'discardResource';
  if (listType === 'COPY')
    return invalidArg(
      call,
      'this',
      'a COPY list cannot discard resources (DiscardResource is not supported on COPY and BUNDLE lists)',
    );
  if (!resource) return invalidArg(call, 'resource', 'must be a resource created by this device');
  if (resource.released) return invalidArg(call, 'resource', `${resource.label} was released`);
  const flags = resource.desc.flags;
  let state: number;
  if (listType === 'COMPUTE') {
    if (!flags.includes('ALLOW_UNORDERED_ACCESS'))
      return invalidArg(
        call,
        'resource',
        `${resource.label} has no ALLOW_UNORDERED_ACCESS; a COMPUTE list discards only unordered-access resources (in UNORDERED_ACCESS)`,
      );
    state = S.UNORDERED_ACCESS;
  } else if (flags.includes('ALLOW_RENDER_TARGET')) state = S.RENDER_TARGET;
  else if (flags.includes('ALLOW_DEPTH_STENCIL')) state = S.DEPTH_WRITE;
  else if (flags.includes('ALLOW_UNORDERED_ACCESS')) state = S.UNORDERED_ACCESS;
  else
    return invalidArg(
      call,
      'resource',
      `${resource.label} has none of ALLOW_RENDER_TARGET, ALLOW_DEPTH_STENCIL, ALLOW_UNORDERED_ACCESS; only render targets, depth-stencil and unordered-access resources are discarded`,
    );
  const count = resource.layout.mipLevels * resource.layout.arraySize;
  if (region === null || region === undefined)
    return { subresources: Array.from({ length: count }, (_, i) => i), state };
  if (!isObject(region))
    return invalidArg(
      call,
      'region',
      `must be a D3D12_DISCARD_REGION {rects, firstSubresource, numSubresources} or null, got ${show(region)}`,
    );
  const problem =
    checkInteger(call, 'region.firstSubresource', region.firstSubresource, 0, count - 1) ??
    checkInteger(call, 'region.numSubresources', region.numSubresources, 1);
  if (problem) return problem;
  const [first, num] = [region.firstSubresource as number, region.numSubresources as number];
  if (first + num > count)
    return invalidArg(
      call,
      'region.numSubresources',
      `subresources [${first}, ${first + num}) run past ${resource.label}'s ${count}`,
    );
  const subresources = Array.from({ length: num }, (_, i) => first + i);
  const rectProblem = checkDiscardRects(call, region.rects, resource, subresources);
  return rectProblem ?? { subresources, state };
}

function checkDiscardRects(call: string, rects: unknown, resource: ResourceView, subresources: number[]): Problem {
  if (rects === null || rects === undefined) return undefined;
  if (!Array.isArray(rects))
    return invalidArg(call, 'region.rects', `must be an array of D3D12_RECT or null, got ${show(rects)}`);
  if (rects.length === 0) return undefined;
  if (resource.desc.dimension !== 'TEXTURE2D')
    return invalidArg(
      call,
      'region.rects',
      `rectangles need 2D subresources, and ${resource.label} is a ${resource.desc.dimension}`,
    );
  const sizeOf = (sub: number): [number, number] => [
    mipSize(resource.desc.width, sub % resource.layout.mipLevels),
    mipSize(resource.desc.height, sub % resource.layout.mipLevels),
  ];
  const [width, height] = sizeOf(subresources[0] as number);
  const other = subresources.find((sub) => sizeOf(sub)[0] !== width || sizeOf(sub)[1] !== height);
  if (other !== undefined)
    return invalidArg(
      call,
      'region.numSubresources',
      `with rectangles, every subresource must have one size; subresource ${other} is not ${width}×${height}`,
    );
  for (let i = 0; i < rects.length; i++) {
    const rect: unknown = rects[i];
    const at = `region.rects[${i}]`;
    if (!isObject(rect))
      return invalidArg(call, at, `must be a D3D12_RECT {left, top, right, bottom}, got ${show(rect)}`);
    for (const field of ['left', 'top', 'right', 'bottom'] as const) {
      const problem = checkInteger(
        call,
        `${at}.${field}`,
        rect[field],
        0,
        field === 'left' || field === 'right' ? width : height,
      );
      if (problem) return problem;
    }
    if ((rect.right as number) <= (rect.left as number))
      return invalidArg(call, `${at}.right`, `must be greater than left (${show(rect.left)}), got ${show(rect.right)}`);
    if ((rect.bottom as number) <= (rect.top as number))
      return invalidArg(call, `${at}.bottom`, `must be greater than top (${show(rect.top)}), got ${show(rect.bottom)}`);
  }
  return undefined;
}
