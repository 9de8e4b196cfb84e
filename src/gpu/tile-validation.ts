/**
 * The GPU half of Device.validateTileMappings: one dispatch of shaders/validate_tile_mappings.wgsl
 * compares the page-table mirror with a list of expected entries, and the mismatches come back
 * through one map. It knows nothing of resources or heaps: the caller says which page should hold
 * which entry, and reads back which did not.
 *
 * Invariants: the comparison is submitted after every page-table write queued so far and before any
 * queued later, so it sees the table as of the call (queue order); the pipeline is compiled once per
 * GPUDevice; every buffer it makes is destroyed once the result is read.
 */
import validateWgsl from '../../shaders/validate_tile_mappings.wgsl?raw';
import type { GpuMemory } from './gpu-memory.js';
import { preludeConstant, requireStruct, requireWorkgroupSize } from './prelude.js';

const FILE = 'validate_tile_mappings.wgsl';
const ENTRY_POINT = 'd3d12_validate_tile_mappings';
const WORKGROUP = requireWorkgroupSize(validateWgsl, ENTRY_POINT, FILE);
const EXPECTED = requireStruct(validateWgsl, 'D3D12ExpectedEntry', FILE);
const LOG = requireStruct(validateWgsl, 'D3D12MismatchLog', FILE);
/** Bytes of one mismatch record (a vec2u: expected index, found entry). */
const RECORD_BYTES = 8;

const pipelines = new WeakMap<GPUDevice, GPUComputePipeline>();

function pipelineFor(device: GPUDevice): GPUComputePipeline {
  let pipeline = pipelines.get(device);
  if (!pipeline) {
    pipeline = device.createComputePipeline({
      label: 'd3d12 validate tile mappings',
      layout: 'auto',
      compute: {
        module: device.createShaderModule({ label: FILE, code: validateWgsl }),
        entryPoint: ENTRY_POINT,
        constants: { d3d12_unowned: preludeConstant('D3D12_PTE_UNOWNED') },
      },
    });
    pipelines.set(device, pipeline);
  }
  return pipeline;
}

export interface PageTableComparison {
  /** Entries that differ (all of them, also those past `capacity`). */
  count: number;
  /** The first min(count, capacity) mismatches: pairs of (index into `expected`, entry found). */
  records: Uint32Array;
}

/**
 * Compares the page table with `expected` (pairs of page index and entry, as D3D12ExpectedEntry
 * lays them out) on the GPU. At most `capacity` mismatches are described.
 */
export async function comparePageTable(
  memory: GpuMemory,
  expected: Uint32Array,
  capacity: number,
): Promise<PageTableComparison> {
  const wordsPerEntry = EXPECTED.size / 4;
  // More entries than one storage binding holds (only near a full 40-bit address space): in parts.
  const perPart = Math.floor(memory.device.limits.maxStorageBufferBindingSize / EXPECTED.size);
  if (expected.length / wordsPerEntry <= perPart) return compareOnce(memory, expected, capacity);
  // Every part is submitted before any is awaited (compareOnce submits before its first await), so
  // all of them see the table as of the call, not writes queued while an earlier part was read.
  const parts: { first: number; result: Promise<PageTableComparison> }[] = [];
  for (let first = 0; first * wordsPerEntry < expected.length; first += perPart) {
    parts.push({
      first,
      result: compareOnce(
        memory,
        expected.subarray(first * wordsPerEntry, (first + perPart) * wordsPerEntry),
        capacity,
      ),
    });
  }
  let count = 0;
  const records: number[] = [];
  for (const { first, result } of parts) {
    const part = await result;
    count += part.count;
    for (let i = 0; i < part.records.length && records.length < capacity * 2; i += 2)
      records.push((part.records[i] as number) + first, part.records[i + 1] as number);
  }
  return { count, records: Uint32Array.from(records) };
}

async function compareOnce(memory: GpuMemory, expected: Uint32Array, capacity: number): Promise<PageTableComparison> {
  const entries = expected.length / (EXPECTED.size / 4);
  if (entries === 0) return { count: 0, records: new Uint32Array(0) };
  const device = memory.device;
  const logBytes = (LOG.offsets.records as number) + capacity * RECORD_BYTES;
  const { log, staging } = memory.guard('validating tile mappings', () => {
    const expectedBuffer = memory.createBuffer({
      label: 'd3d12 expected page-table entries',
      size: expected.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(expectedBuffer, 0, expected);
    const log = memory.createBuffer({
      label: 'd3d12 page-table mismatches',
      size: logBytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    device.queue.writeBuffer(log, LOG.offsets.capacity as number, new Uint32Array([capacity]));
    const staging = memory.createBuffer({
      label: 'd3d12 page-table mismatch readback',
      size: logBytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const pipeline = pipelineFor(device);
    const bindGroup = device.createBindGroup({
      label: 'd3d12 validate tile mappings',
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: memory.pageTable.gpuBuffer } },
        { binding: 1, resource: { buffer: expectedBuffer } },
        { binding: 2, resource: { buffer: log } },
      ],
    });
    const groups = Math.ceil(entries / WORKGROUP);
    const encoder = device.createCommandEncoder({ label: 'd3d12 validate tile mappings' });
    const pass = encoder.beginComputePass({ label: 'd3d12 validate tile mappings' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    // Rows of the most workgroups one dimension allows (65,535 by default).
    const perRow = device.limits.maxComputeWorkgroupsPerDimension;
    pass.dispatchWorkgroups(Math.min(groups, perRow), Math.ceil(groups / perRow));
    pass.end();
    encoder.copyBufferToBuffer(log, 0, staging, 0, logBytes);
    // After the page-table changes made so far: the table compared is the one at this point in the queue.
    memory.submit([encoder.finish()]);
    expectedBuffer.destroy();
    return { log, staging };
  });
  try {
    await staging.mapAsync(GPUMapMode.READ);
    const words = new Uint32Array(staging.getMappedRange().slice(0));
    const count = words[(LOG.offsets.count as number) / 4] ?? 0;
    const first = (LOG.offsets.records as number) / 4;
    return { count, records: words.slice(first, first + Math.min(count, capacity) * 2) };
  } finally {
    log.destroy();
    staging.destroy();
  }
}
