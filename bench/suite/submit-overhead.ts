/**
 * Submit overhead: what one submission costs through the library against raw WebGPU, from the
 * call to knowing on the CPU that the GPU finished it. Case `empty list`: the library's
 * queue.executeCommandLists of one closed, empty command list plus queue.signal and the fence's
 * completion event; raw: queue.submit of an empty command buffer plus onSubmittedWorkDone. Both on
 * the same device, interleaved, µs per submission over CALLS_PER_SAMPLE submissions. Case `one
 * dispatch`: the same with one tiny compute dispatch (one workgroup writing one word), the library
 * through a pipeline over its prelude and root constants, raw through a plain pipeline and a bind
 * group: what a submission that does work pays for the per-dispatch constants and bind groups.
 * The device is created as createDevice makes it (gpuValidation on: faults recorded and read).
 *
 * Extras of `one dispatch`, each interleaved with the two sides, to say where a gap comes from:
 *   - `raw, done by a mapped readback µs`: the raw submission with a copy of READBACK_BYTES (about
 *     the fault log's size) into a MAP_READ buffer, known complete when that buffer's mapAsync
 *     resolves instead of by onSubmittedWorkDone: how the library learns that a submission ran when
 *     it reads the fault log, in raw WebGPU;
 *   - `gpuValidation off µs`: the library on a second device made with gpuValidation: false (no
 *     fault log copied or read; completion by onSubmittedWorkDone).
 *
 * Target: at most 1.2× raw (issue 35). A submission through the library is one WebGPU submission; what it adds
 * is bookkeeping (state checks, per-dispatch constants) and reading the fault log, which should cost
 * a fraction of the submission itself.
 */
import {
  createDevice,
  TILE_SIZE,
  type CommandQueue,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type Resource,
} from '../../src/index.js';
import { liveRecorder, median, row, type FigureRow, type FigureRunner } from './figure.js';

/** Submissions per sample: enough that 100 µs browser timers do not matter. */
const CALLS_PER_SAMPLE = 100;
/** The raw mapped readback's copy: about the fault log's size (header, stale-tile list, 256 records). */
const READBACK_BYTES = 8192;

const LIBRARY_KERNEL = /* wgsl */ `
@compute @workgroup_size(1) fn main() {
  d3d12_store(d3d12_root_descriptor(1), d3d12_root_constant(0));
}`;
const RAW_KERNEL = /* wgsl */ `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> value: vec4u;
@compute @workgroup_size(1) fn main() { out[0] = value.x; }`;

export const submitOverhead: FigureRunner = async (context) => {
  const { gpuDevice, quick } = context;
  const rounds = quick ? 2 : 9;
  const warmup = 1;
  const calls = quick ? 20 : CALLS_PER_SAMPLE;
  const live = liveRecorder(context, 'submit-overhead', 'µs/submit');
  const device = await createDevice({ gpuDevice, localMemoryBytes: 16 << 20, nonLocalMemoryBytes: 4 << 20 });
  const unchecked = await createDevice({
    gpuDevice,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 4 << 20,
    gpuValidation: false,
  });
  const rawReadback = gpuDevice.createBuffer({
    label: 'submit-overhead: raw readback',
    size: READBACK_BYTES,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const rawOut = gpuDevice.createBuffer({
    label: 'submit-overhead: raw out',
    size: READBACK_BYTES,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const rawValue = gpuDevice.createBuffer({
    label: 'submit-overhead: raw value',
    size: 16,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const fence = device.createFence(0);
    const empty = device.createCommandList('DIRECT');
    empty.close();
    const { out, list: dispatch } = await dispatchList(device);
    const library = fencedSubmissions(queue, fence);
    const uncheckedQueue = unchecked.createCommandQueue({ type: 'DIRECT' });
    const uncheckedRun = fencedSubmissions(uncheckedQueue, unchecked.createFence(0));
    const { list: uncheckedDispatch } = await dispatchList(unchecked);
    const rawPipeline = await gpuDevice.createComputePipelineAsync({
      label: 'submit-overhead: raw',
      layout: 'auto',
      compute: { module: gpuDevice.createShaderModule({ code: RAW_KERNEL }), entryPoint: 'main' },
    });
    gpuDevice.queue.writeBuffer(rawValue, 0, new Uint32Array([7, 0, 0, 0]));
    const rawGroup = gpuDevice.createBindGroup({
      layout: rawPipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: rawOut } },
        { binding: 1, resource: { buffer: rawValue } },
      ],
    });

    const raw = async (withDispatch: boolean, mappedReadback = false): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < calls; i++) {
        const encoder = gpuDevice.createCommandEncoder();
        if (withDispatch) {
          const pass = encoder.beginComputePass();
          pass.setPipeline(rawPipeline);
          pass.setBindGroup(0, rawGroup);
          pass.dispatchWorkgroups(1);
          pass.end();
        }
        if (mappedReadback) encoder.copyBufferToBuffer(rawOut, 0, rawReadback, 0, READBACK_BYTES);
        gpuDevice.queue.submit([encoder.finish()]);
        if (!mappedReadback) {
          await gpuDevice.queue.onSubmittedWorkDone();
          continue;
        }
        await rawReadback.mapAsync(GPUMapMode.READ);
        // The library reads the log's counters; so does this.
        if (new Uint32Array(rawReadback.getMappedRange(0, 16))[0] !== 7)
          throw new Error('submit-overhead: raw readback');
        rawReadback.unmap();
      }
      return ((performance.now() - start) * 1000) / calls;
    };

    const rows: FigureRow[] = [];
    for (const [name, list, withDispatch] of [
      ['empty list', empty, false],
      ['one dispatch', dispatch, true],
    ] as const) {
      context.progress(`submit-overhead: ${name}, ${rounds} rounds of ${calls} submissions`);
      const measured: number[] = [];
      const baseline: number[] = [];
      const mapped: number[] = [];
      const off: number[] = [];
      // Interleaved, so drift (clock, thermal, GC) hits both sides alike.
      for (let i = 0; i < warmup + rounds; i++) {
        const l = await library(list, calls);
        const r = await raw(withDispatch);
        const m = withDispatch ? await raw(true, true) : 0;
        const o = withDispatch ? await uncheckedRun(uncheckedDispatch, calls) : 0;
        if (i < warmup) continue;
        measured.push(l);
        baseline.push(r);
        mapped.push(m);
        off.push(o);
        live.sample(name, 'measured', l);
        live.sample(name, 'baseline', r);
      }
      const extra = withDispatch
        ? { 'raw, done by a mapped readback µs': median(mapped), 'gpuValidation off µs': median(off) }
        : undefined;
      rows.push(row(name, measured, baseline, extra));
    }
    if (device.getDeviceRemovedReason() !== 'S_OK')
      throw new Error(`submit-overhead: the device was removed: ${device.getDeviceRemovedReason()}`);
    // The dispatch ran: the word it stores is there (read back through the library).
    const readback = device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: 256 },
      'COPY_DEST',
    );
    const copy = device.createCommandList('DIRECT');
    copy.copyBufferRegion(readback, 0, out, 0, 4);
    copy.close();
    queue.executeCommandLists([copy]);
    const last = fence.getCompletedValue() + 1;
    queue.signal(fence, last);
    await fence.setEventOnCompletion(last);
    const word = new Uint32Array(readback.map().slice(0, 4).buffer)[0];
    readback.unmap();
    if (word !== 7) throw new Error(`submit-overhead: the dispatch's store did not land (read ${word}, expected 7)`);
    return {
      id: 'submit-overhead',
      title: 'Submit overhead: executeCommandLists + signal against queue.submit',
      unit: 'µs/submit',
      baselineName:
        'raw WebGPU: queue.submit of the same work (an empty command buffer; one dispatch of a plain pipeline) + onSubmittedWorkDone',
      ratioMeaning: 'library µs ÷ raw µs',
      target: { text: 'at most 1.2× raw', ratio: 1.2, direction: 'at-most' },
      rows,
      rounds,
      warmup,
      parameters: { callsPerSample: calls },
    };
  } finally {
    rawOut.destroy();
    rawValue.destroy();
    rawReadback.destroy();
    device.destroy();
    unchecked.destroy();
  }
};

/** A closed list of one dispatch of LIBRARY_KERNEL storing 7 into `out`. */
async function dispatchList(device: Device): Promise<{ out: Resource; list: GraphicsCommandList }> {
  const out = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: TILE_SIZE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'UNORDERED_ACCESS',
  );
  const pso = await device.createComputePipelineState({
    code: LIBRARY_KERNEL,
    entryPoint: 'main',
    label: 'submit-overhead',
  });
  const list = device.createCommandList('DIRECT');
  list.setPipelineState(pso);
  list.setComputeRoot32BitConstants(0, [7], 0);
  list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress());
  list.dispatch(1, 1, 1);
  list.close();
  return { out, list };
}

/** µs per submission of `calls` executions of a list on `queue`, each fenced and waited for. */
function fencedSubmissions(
  queue: CommandQueue,
  fence: Fence,
): (list: GraphicsCommandList, calls: number) => Promise<number> {
  let value = fence.getCompletedValue();
  return async (list, calls) => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) {
      queue.executeCommandLists([list]);
      queue.signal(fence, ++value);
      await fence.setEventOnCompletion(value);
    }
    return ((performance.now() - start) * 1000) / calls;
  };
}
