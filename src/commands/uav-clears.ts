/**
 * ClearUnorderedAccessViewUint / Float as a recorded command: what validation planned
 * (src/validation/uav-clear.ts: byte ranges and a pattern, or a mip, slices, rectangles and a texel's
 * bits) as the clear kernel's dispatches against the resource's address and layout
 * (src/gpu/uav-clear.ts). The queue runs them as dispatches of the device's clear kernel, each
 * carrying the clear's command index, so faults and unmapped accesses name the clear.
 */
import { bufferClearDispatches, textureClearDispatches } from '../gpu/uav-clear.js';
import { formatInfo } from '../memory/formats.js';
import type { UavClearPlan } from '../validation/uav-clear.js';
import type { CpuVisibleWrite, RecordedCommand } from './recorded-commands.js';
import type { Resource } from '../d3d12/resource.js';

/** The clear `name` of `resource` as planned; `cpuVisible(offset, length)` names the bytes read back when the buffer is CPU-accessible. */
export function uavClearCommand(
  name: string,
  resource: Resource,
  plan: UavClearPlan,
  cpuVisible: (offset: number, length: number) => CpuVisibleWrite[],
): RecordedCommand {
  const address = resource.virtualRange.address;
  if (plan.kind === 'buffer') {
    const start = Math.min(...plan.ranges.map((range) => range.start));
    const end = Math.max(...plan.ranges.map((range) => range.end));
    return {
      kind: 'uavClear',
      name,
      dispatches: bufferClearDispatches({ address, ranges: plan.ranges, pattern: plan.pattern }),
      writes: plan.ranges.length > 0 ? cpuVisible(start, end - start) : [],
    };
  }
  const { desc, layout } = resource;
  const dispatches = textureClearDispatches({
    address,
    layout,
    width: desc.width,
    height: desc.dimension === 'TEXTURE1D' ? 1 : desc.height,
    bytesPerTexel: formatInfo(desc.format)?.bytesPerElement ?? plan.element.length,
    mip: plan.mip,
    firstSlice: plan.firstSlice,
    sliceCount: plan.sliceCount,
    rects: plan.rects,
    element: plan.element,
  });
  // Textures are not mapped (map() takes buffers): nothing to read back.
  return { kind: 'uavClear', name, dispatches, writes: [] };
}
