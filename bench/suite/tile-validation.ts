/**
 * Tile-validation cost: milliseconds for device.validateTileMappings([buffer]) to check every page
 * of a 2 GiB reserved buffer (32,768 tiles of 64 KiB, all mapped), from the call until its result
 * is back on the CPU, and of a 64 MiB one (1,024 tiles).
 *
 * The baseline is the same GPU work written in raw WebGPU: the expected entries, prepared before the
 * clock starts, are uploaded with one writeBuffer, the same kernel (shaders/validate_tile_mappings.wgsl)
 * compares them with a storage buffer holding the same entries, and the mismatch count comes back
 * through one copy and one map. So the ratio is what the library adds: computing each page's
 * expected entry from the CPU authority, building the buffers and bind group, decoding the result.
 * Both sides are timed the same way, performance.now() around call and readback.
 */
import validateWgsl from '../../shaders/validate_tile_mappings.wgsl?raw';
import { TILE_SIZE, createDevice, type Device, type Resource } from '../../src/index.js';
import { liveRecorder, row, type BenchContext, type Figure, type FigureRow, type FigureRunner } from './figure.js';

/** 2 GiB and 64 MiB of virtual address space (quick mode: 2,048 and 256 tiles). */
const SIZES = [32768, 1024];
const QUICK_SIZES = [2048, 256];
/** The mismatch log of the raw side: count, capacity, and room for a few records (none expected). */
const RAW_LOG_BYTES = 8 + 16 * 8;

interface Raw {
  pipeline: GPUComputePipeline;
  expected: GPUBuffer;
  table: GPUBuffer;
  log: GPUBuffer;
  staging: GPUBuffer;
  entries: Uint32Array;
}

function rawSetup(gpuDevice: GPUDevice, tiles: number): Raw {
  const module = gpuDevice.createShaderModule({ label: 'tile-validation raw', code: validateWgsl });
  const pipeline = gpuDevice.createComputePipeline({
    label: 'tile-validation raw',
    layout: 'auto',
    compute: { module, entryPoint: 'd3d12_validate_tile_mappings', constants: { d3d12_unowned: 0 } },
  });
  // Resident entries of consecutive pages: what the library's table holds for the mapped buffer.
  const entries = new Uint32Array(tiles * 2);
  for (let i = 0; i < tiles; i++) {
    entries[i * 2] = i;
    entries[i * 2 + 1] = ((i << 2) | 2) >>> 0;
  }
  const table = gpuDevice.createBuffer({
    label: 'tile-validation raw page table',
    size: tiles * 4,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  gpuDevice.queue.writeBuffer(
    table,
    0,
    entries.filter((_, i) => i % 2 === 1),
  );
  return {
    pipeline,
    entries,
    table,
    expected: gpuDevice.createBuffer({
      label: 'tile-validation raw expected',
      size: entries.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    }),
    log: gpuDevice.createBuffer({
      label: 'tile-validation raw log',
      size: RAW_LOG_BYTES,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    }),
    staging: gpuDevice.createBuffer({
      label: 'tile-validation raw staging',
      size: RAW_LOG_BYTES,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }),
  };
}

/** One raw check: upload, dispatch, read the count back. Returns milliseconds; throws on a mismatch. */
async function rawCheck(gpuDevice: GPUDevice, raw: Raw, tiles: number): Promise<number> {
  await gpuDevice.queue.onSubmittedWorkDone();
  const start = performance.now();
  gpuDevice.queue.writeBuffer(raw.expected, 0, raw.entries);
  gpuDevice.queue.writeBuffer(raw.log, 0, new Uint32Array([0, 16]));
  const bindGroup = gpuDevice.createBindGroup({
    layout: raw.pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: raw.table } },
      { binding: 1, resource: { buffer: raw.expected } },
      { binding: 2, resource: { buffer: raw.log } },
    ],
  });
  const encoder = gpuDevice.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(raw.pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(tiles / 64));
  pass.end();
  encoder.copyBufferToBuffer(raw.log, 0, raw.staging, 0, RAW_LOG_BYTES);
  gpuDevice.queue.submit([encoder.finish()]);
  await raw.staging.mapAsync(GPUMapMode.READ);
  const count = new Uint32Array(raw.staging.getMappedRange(0, 4))[0];
  raw.staging.unmap();
  const ms = performance.now() - start;
  if (count !== 0) throw new Error(`tile-validation: the raw check found ${count} mismatches`);
  return ms;
}

async function libraryCheck(device: Device, buffer: Resource, tiles: number): Promise<number> {
  const gpuDevice = device.gpuDevice as GPUDevice;
  await gpuDevice.queue.onSubmittedWorkDone();
  const start = performance.now();
  const result = await device.validateTileMappings([buffer]);
  const ms = performance.now() - start;
  if (result.pages !== tiles || result.mismatchCount !== 0)
    throw new Error(
      `tile-validation: ${result.pages} pages checked, ${result.mismatchCount} mismatches (expected ${tiles}, 0)`,
    );
  return ms;
}

export const tileValidation: FigureRunner = async (context: BenchContext): Promise<Figure> => {
  const sizes = context.quick ? QUICK_SIZES : SIZES;
  const rounds = context.quick ? 2 : 9;
  const warmup = 2;
  const { gpuDevice } = context;
  const device = await createDevice({ gpuDevice, localMemoryBytes: 16 * TILE_SIZE, nonLocalMemoryBytes: TILE_SIZE });
  const rows: FigureRow[] = [];
  try {
    const heap = device.createHeap({ sizeInBytes: 16 * TILE_SIZE, properties: { type: 'DEFAULT' } });
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const live = liveRecorder(context, 'tile-validation', 'ms');
    for (const tiles of sizes) {
      const name = `${tiles.toLocaleString('en-US')} tiles (${(tiles * TILE_SIZE) / 2 ** 20} MiB)`;
      const buffer = device.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE_SIZE }, 'COMMON');
      // Every tile mapped (16 heap tiles, reused): the check compares RESIDENT entries throughout.
      queue.updateTileMappings(
        buffer,
        null,
        null,
        heap,
        Array.from({ length: tiles / 16 }, () => 'NONE'),
        Array.from({ length: tiles / 16 }, () => 0),
        Array.from({ length: tiles / 16 }, () => 16),
      );
      const raw = rawSetup(gpuDevice, tiles);
      const library: number[] = [];
      const baseline: number[] = [];
      try {
        for (let i = 0; i < warmup + rounds; i++) {
          context.progress(
            `tile-validation: ${tiles} tiles, ${i < warmup ? 'warm-up' : `round ${i - warmup + 1}/${rounds}`}`,
          );
          const l = await libraryCheck(device, buffer, tiles);
          const r = await rawCheck(gpuDevice, raw, tiles);
          if (i >= warmup) {
            library.push(l);
            baseline.push(r);
            live.sample(name, 'measured', l);
            live.sample(name, 'baseline', r);
          }
        }
      } finally {
        for (const b of [raw.expected, raw.table, raw.log, raw.staging]) b.destroy();
      }
      rows.push(row(name, library, baseline, { tiles }));
      buffer.release();
    }
  } finally {
    device.destroy();
  }
  return {
    id: 'tile-validation',
    title: 'Tile validation: validateTileMappings over a reserved buffer',
    unit: 'ms',
    baselineName: 'raw WebGPU: the same kernel over prepared expected entries (one upload, one dispatch, one map)',
    ratioMeaning: 'library ms ÷ raw ms (1 = no overhead over the GPU check itself)',
    rows,
    rounds,
    warmup,
    parameters: { tileBytes: TILE_SIZE, sizes: sizes.join(', ') },
    notes: [
      'Every tile is mapped (16 heap tiles reused), so every compared entry is RESIDENT; the raw side compares a table of the same size.',
    ],
  };
};
