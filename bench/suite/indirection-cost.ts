/**
 * Figure 2, indirection cost: what it costs a memory-bound shader to read through the emulated page
 * table. Kernels stream 256 MiB (bench/suite/indirection-cost.wgsl), each row a library variant
 * against a direct kernel of the same load width and order, with the same arithmetic:
 *   - placed resource: every word a d3d12_load through a placed buffer in one heap, against a plain
 *     `array<u32>` storage buffer binding (grid-stride sum of 4-byte words);
 *   - reserved, scattered pages: d3d12_load through a reserved buffer whose 64 KiB tiles map to the
 *     same heap's pages in a shuffled (seeded) order, so consecutive virtual pages land on physically
 *     scattered ones; against the same direct kernel;
 *   - 16-byte loads: d3d12_load4 through the reserved buffer against `array<vec4u>` (grid-stride sum
 *     of 16-byte vectors);
 *   - page handle: d3d12_page once per 64 KiB page of the reserved buffer, then d3d12_page_load4 by
 *     offset, against `array<vec4u>` read page by page in the same order.
 * Milliseconds per dispatch; ratio library ÷ direct.
 *
 * Why the baseline is fair: same GPU device, same bytes (the reserved buffer maps the very pages the
 * placed one covers), same WGSL text for the loop (only the three accessors differ), same workgroup
 * count, each variant's output one word per invocation. Each sample is one submission of the same
 * number of dispatches, timed from submission to completion the way each side knows completion (the
 * raw queue's onSubmittedWorkDone, the library's queue fence), after the queue has gone idle; the
 * dispatch count is raised until a submission runs long enough that this latency is a few percent.
 * The three variants run interleaved in every round (in rotating order), so drift hits them alike. Before timing, each
 * variant's sum is checked against the sum of the pattern computed on the CPU: a variant that read
 * the wrong bytes (or none) would make the figure meaningless, so the figure throws instead.
 *
 * What the ratio includes besides address translation, because the library imposes it: the pools
 * are bound read_write (stores go through them too) where the baseline binds its words read-only;
 * root constants come from a dynamically offset uniform; and with gpuValidation on (the default,
 * what applications run) every submission also reads the fault log back before its fence completes.
 */
import { createDevice, TILE_SIZE, type Resource } from '../../src/index.js';
import { Random } from '../../src/validate/random.js';
import { kernelTimer } from './kernel-timer.js';
import { fencedQueue, interleaved, liveRecorder, row, timeRaw, type FigureRunner } from './figure.js';
import sumWgsl from './indirection-cost.wgsl?raw';
import directWgsl from './indirection-cost-direct.wgsl?raw';
import d3d12Wgsl from './indirection-cost-d3d12.wgsl?raw';
import d3d12WideWgsl from './indirection-cost-d3d12-wide.wgsl?raw';
import wideWgsl from './indirection-cost-wide.wgsl?raw';

const MIB = 2 ** 20;
/** Bytes streamed per dispatch: far past any GPU's last-level cache, so the figure measures memory. */
const FULL_BYTES = 256 * MIB;
/** Quick (a smoke check, not a measurement): 4 MiB, one dispatch per submission (QUICK_TARGET_SUBMISSION_MS). */
const QUICK_BYTES = 4 * MIB;
/**
 * Workgroups per dispatch. 1024 × 256 = 262,144 invocations: more threads than current GPUs keep
 * resident (an H100 holds 132 SMs × 2,048), so memory, not occupancy, bounds the kernel; each
 * invocation then reads 256 words of 256 MiB. Well below every adapter's 65,535 per dimension.
 */
const WORKGROUPS = 1024;
/** Invocations per workgroup, read from the WGSL so it is written once. */
const WORKGROUP_SIZE = Number(/const SUM_WORKGROUP_SIZE: u32 = (\d+)u;/.exec(sumWgsl)?.[1] ?? NaN);
/**
 * Dispatches per submission, at least (each sample is one submission). One: on a CPU adapter a single
 * 256 MiB dispatch already runs for seconds (SwiftShader: 0.5 s direct, 5 s through the page table),
 * far past TARGET_SUBMISSION_MS, and more would push the suite past its 10-minute budget.
 */
const MIN_DISPATCHES = 1;
/** A submission should run at least this long, so that submission and completion latency (well under a millisecond) stays within a few percent. */
const TARGET_SUBMISSION_MS = 50;
const QUICK_TARGET_SUBMISSION_MS = 1;
/** And at most this many dispatches: enough for 50 ms at several TB/s, small enough that a list records in no time. */
const MAX_DISPATCHES = 1024;
/** A timestamp query heap's result memory: one 64 KiB page of LOCAL (see QueryHeap). */
const QUERY_HEAP_BYTES = TILE_SIZE;
/** The kernels (entry points of indirection-cost.wgsl) and the rows they make: library source, direct kernel. */
const KERNELS = ['sum_words', 'sum_vec4s', 'sum_pages'] as const;
type Kernel = (typeof KERNELS)[number];
const ROWS: { name: string; kernel: Kernel; source: 'placed' | 'reserved' }[] = [
  { name: 'placed resource', kernel: 'sum_words', source: 'placed' },
  { name: 'reserved, scattered pages', kernel: 'sum_words', source: 'reserved' },
  { name: '16-byte loads', kernel: 'sum_vec4s', source: 'reserved' },
  { name: 'page handle', kernel: 'sum_pages', source: 'reserved' },
];
/** Bytes of pattern per upload while filling: bounds the UPLOAD buffer in the NON_LOCAL pool. */
const UPLOAD_CHUNK = 16 * MIB;
/** Seeds the word pattern and the tile shuffle (fixed, so every run reads and maps the same way). */
const SEED = 0x1d1ec7;

/** The pattern's word i (lowbias32 of i and the seed): every word different, none systematically zero. */
function patternWord(i: number): number {
  let x = (i ^ SEED) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** 0 .. count-1 shuffled (Fisher–Yates over the project's seeded generator, src/validate/random.ts). */
function shuffled(count: number, seed: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = new Random(seed);
  for (let i = count - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/** The wrapping u32 sum of the words (what the kernel's outputs add up to). */
function sumWords(words: Uint32Array): number {
  let sum = 0;
  for (const word of words) sum = (sum + word) >>> 0;
  return sum;
}

export const indirectionCost: FigureRunner = async (context) => {
  const { gpuDevice, quick } = context;
  // Five rounds after one warm-up: the three variants interleave, so drift hits all alike, and the
  // suite stays within its time budget on a CPU adapter.
  const rounds = quick ? 2 : 5;
  const warmup = 1;
  const notes: string[] = [];
  if (!Number.isInteger(WORKGROUP_SIZE)) throw new Error('indirection-cost.wgsl lost its SUM_WORKGROUP_SIZE line');
  const invocations = WORKGROUPS * WORKGROUP_SIZE;
  const outputBytes = invocations * 4;

  // The library's LOCAL pool holds the words' heap, an output buffer per row and a query heap, and is one storage
  // binding; the baseline binds its words whole. Both bounds are the adapter's binding and buffer
  // limits: halve the size until it fits (both sizes are powers of two, so tiles stay whole).
  const limits = gpuDevice.limits;
  const largestBinding =
    Math.floor(Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) / TILE_SIZE) * TILE_SIZE;
  const wanted = quick ? QUICK_BYTES : FULL_BYTES;
  let bytes = wanted;
  while (bytes > TILE_SIZE && bytes + ROWS.length * outputBytes + QUERY_HEAP_BYTES > largestBinding) bytes /= 2;
  if (bytes + ROWS.length * outputBytes + QUERY_HEAP_BYTES > largestBinding)
    throw new Error(
      `indirection-cost: the adapter's largest storage binding (${largestBinding} bytes) cannot hold even one tile and the outputs`,
    );
  if (bytes < wanted) {
    notes.push(
      `streamed ${bytes / MIB} MiB instead of ${wanted / MIB} MiB: maxStorageBufferBindingSize ${limits.maxStorageBufferBindingSize} / maxBufferSize ${limits.maxBufferSize} cannot hold the pool`,
    );
  }
  const wordCount = bytes / 4;
  const tiles = bytes / TILE_SIZE;
  const chunkBytes = Math.min(UPLOAD_CHUNK, bytes);

  const device = await createDevice({
    gpuDevice,
    localMemoryBytes: bytes + ROWS.length * outputBytes + QUERY_HEAP_BYTES,
    nonLocalMemoryBytes: chunkBytes + outputBytes,
  });
  // The baseline's buffers, on the same raw device.
  const words = gpuDevice.createBuffer({
    label: 'indirection-cost: direct words',
    size: bytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  const partials = gpuDevice.createBuffer({
    label: 'indirection-cost: direct partial sums',
    size: outputBytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const params = gpuDevice.createBuffer({
    label: 'indirection-cost: direct word count',
    size: 16,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  try {
    const { queue, settle } = fencedQueue(device);

    // ---- the words: one heap behind a placed buffer and behind a reserved buffer, scattered ----
    const heap = device.createHeap({ sizeInBytes: bytes, properties: { type: 'DEFAULT' } });
    const placed = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: bytes }, 'COMMON');
    const reserved = device.createReservedResource({ dimension: 'BUFFER', width: bytes }, 'COMMON');
    // Tile t of the reserved buffer → heap tile order[t]: one region, one single-tile range per tile.
    const order = shuffled(tiles, SEED);
    queue.updateTileMappings(
      reserved,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: tiles }],
      heap,
      new Array<'NONE'>(tiles).fill('NONE'),
      order,
      new Array<number>(tiles).fill(1),
    );
    // One output buffer per row: each row's sums are checked on their own.
    const outputs = ROWS.map(() =>
      device.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: outputBytes }, 'COMMON'),
    );
    const sources = { placed, reserved };

    // Fill both sides with the same pattern, chunk by chunk, summing it on the CPU on the way.
    context.progress(`indirection cost: filling ${bytes / MIB} MiB`);
    const upload = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: chunkBytes },
      'GENERIC_READ',
    );
    const chunk = new Uint32Array(chunkBytes / 4);
    let expectedSum = 0;
    for (let offset = 0; offset < bytes; offset += chunkBytes) {
      const firstWord = offset / 4;
      for (let k = 0; k < chunk.length; k++) chunk[k] = patternWord(firstWord + k);
      expectedSum = (expectedSum + sumWords(chunk)) >>> 0;
      gpuDevice.queue.writeBuffer(words, offset, chunk);
      upload.map().set(new Uint8Array(chunk.buffer));
      upload.unmap();
      const list = device.createCommandList('COMPUTE');
      list.copyBufferRegion(placed, offset, upload, 0, chunkBytes);
      list.close();
      queue.executeCommandLists([list]);
      // The upload buffer is rewritten next: wait until this copy has read it.
      await settle();
    }
    upload.release();
    gpuDevice.queue.writeBuffer(params, 0, new Uint32Array([wordCount, 0, 0, 0]));

    // ---- pipelines ----
    const module = gpuDevice.createShaderModule({
      label: 'indirection-cost: direct',
      code: `${directWgsl}\n${sumWgsl}\n${wideWgsl}`,
    });
    const direct = new Map<Kernel, { pipeline: GPUComputePipeline; bindGroup: GPUBindGroup }>();
    for (const kernel of KERNELS) {
      const pipeline = await gpuDevice.createComputePipelineAsync({
        label: `indirection-cost: direct ${kernel}`,
        layout: 'auto',
        compute: { module, entryPoint: kernel },
      });
      // Each kernel's automatic layout has the bindings it uses: words as u32 (0) or as vec4u (3).
      const wordsBinding = kernel === 'sum_words' ? 0 : 3;
      const bindGroup = gpuDevice.createBindGroup({
        label: `indirection-cost: direct ${kernel}`,
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: wordsBinding, resource: { buffer: words } },
          { binding: 1, resource: { buffer: partials } },
          { binding: 2, resource: { buffer: params } },
        ],
      });
      direct.set(kernel, { pipeline, bindGroup });
    }
    const psos = new Map<Kernel, Awaited<ReturnType<typeof device.createComputePipelineState>>>();
    // The 4-byte kernel in a module of its own, as a shader making only 4-byte accesses is: the
    // library binds its pools by the widest access in the code (src/gpu/prelude.ts, poolViewFor).
    for (const kernel of KERNELS) {
      const code =
        kernel === 'sum_words' ? `${d3d12Wgsl}\n${sumWgsl}` : `${d3d12Wgsl}\n${d3d12WideWgsl}\n${sumWgsl}\n${wideWgsl}`;
      psos.set(
        kernel,
        await device.createComputePipelineState({
          label: `indirection-cost: ${kernel} through the page table`,
          code,
          entryPoint: kernel,
        }),
      );
    }

    // GPU time from timestamp queries where the adapter has them: the raw pass's timestampWrites,
    // and the library's EndQuery before and after the dispatches, resolved with ResolveQueryData.
    const timestamps = gpuDevice.features.has('timestamp-query');
    const timer = kernelTimer(gpuDevice, device, 'indirection-cost');

    const submitDirect = (dispatches: number, kernel: Kernel = 'sum_words'): void => {
      const { pipeline, bindGroup } = direct.get(kernel) as { pipeline: GPUComputePipeline; bindGroup: GPUBindGroup };
      const encoder = gpuDevice.createCommandEncoder({ label: `indirection-cost: direct ${kernel}` });
      const pass = encoder.beginComputePass(timer.rawPass);
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(WORKGROUPS);
      pass.end();
      timer.resolveRaw(encoder);
      gpuDevice.queue.submit([encoder.finish()]);
    };
    const libraryList = (source: Resource, output: Resource, dispatches: number, kernel: Kernel) => {
      const list = device.createCommandList('COMPUTE');
      list.setPipelineState(psos.get(kernel) as NonNullable<ReturnType<typeof psos.get>>);
      list.setComputeRootShaderResourceView(1, source.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(2, output.getGPUVirtualAddress());
      list.setComputeRoot32BitConstant(0, wordCount, 4);
      timer.beginList(list);
      for (let i = 0; i < dispatches; i++) list.dispatch(WORKGROUPS);
      timer.endList(list);
      list.close();
      return list;
    };

    // ---- check once that every variant sums the pattern ----
    context.progress("indirection cost: checking every variant's sum");
    const directSum = async (kernel: Kernel): Promise<number> => {
      submitDirect(1, kernel);
      const staging = gpuDevice.createBuffer({
        label: 'indirection-cost: direct sums readback',
        size: outputBytes,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const encoder = gpuDevice.createCommandEncoder();
      encoder.copyBufferToBuffer(partials, 0, staging, 0, outputBytes);
      gpuDevice.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const sum = sumWords(new Uint32Array(staging.getMappedRange()));
      staging.destroy();
      return sum;
    };
    const librarySum = async (source: Resource, output: Resource, kernel: Kernel): Promise<number> => {
      const readback = device.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: outputBytes },
        'COPY_DEST',
      );
      const copy = device.createCommandList('COMPUTE');
      copy.copyBufferRegion(readback, 0, output, 0, outputBytes);
      copy.close();
      queue.executeCommandLists([libraryList(source, output, 1, kernel), copy]);
      await settle();
      const mapped = readback.map();
      const sum = sumWords(new Uint32Array(mapped.buffer, mapped.byteOffset, outputBytes / 4));
      readback.unmap();
      readback.release();
      return sum;
    };
    const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;
    const wrong: string[] = [];
    for (const kernel of KERNELS) {
      const sum = await directSum(kernel);
      if (sum !== expectedSum) wrong.push(`direct ${kernel} ${hex(sum)}`);
    }
    for (const [r, spec] of ROWS.entries()) {
      const sum = await librarySum(sources[spec.source], outputs[r] as Resource, spec.kernel);
      if (sum !== expectedSum) wrong.push(`${spec.name} ${hex(sum)}`);
    }
    if (device.getDeviceRemovedReason() !== 'S_OK')
      throw new Error(
        `indirection-cost: the library device was removed: ${device.getPageFaultReport()?.message ?? device.getDeviceRemovedReason()}`,
      );
    if (wrong.length > 0)
      throw new Error(
        `indirection-cost: variants do not sum the pattern (expected ${hex(expectedSum)}): ${wrong.join(', ')}`,
      );

    // ---- timing ----
    const timeDirect = async (dispatches: number, kernel: Kernel): Promise<number> => {
      return timer.rawMs(dispatches, () => submitDirect(dispatches, kernel));
    };
    const timeLibrary = async (list: ReturnType<typeof libraryList>, dispatches: number): Promise<number> => {
      await settle();
      return timer.libraryMs(dispatches, async () => {
        queue.executeCommandLists([list]);
        await settle();
      });
    };
    // Calibrate on the baseline (also a warm-up): enough dispatches per submission to amortize its
    // latency. Doubling until a submission lasts TARGET_SUBMISSION_MS: one cold dispatch is mostly
    // submission latency and would make the estimate far too small on a fast GPU.
    let dispatches = MIN_DISPATCHES;
    while (
      dispatches < MAX_DISPATCHES &&
      (await timeRaw(gpuDevice, () => submitDirect(dispatches))) <
        (quick ? QUICK_TARGET_SUBMISSION_MS : TARGET_SUBMISSION_MS)
    )
      dispatches *= 2;
    dispatches = Math.min(dispatches, MAX_DISPATCHES);
    // Recorded once and executed every round, as D3D12 applications reuse bundles of work.
    const lists = ROWS.map((spec, r) =>
      libraryList(sources[spec.source], outputs[r] as Resource, dispatches, spec.kernel),
    );
    context.progress(
      `indirection cost: ${bytes / MIB} MiB per dispatch, ${dispatches} dispatches per submission, ${rounds} rounds`,
    );
    const directSamples = new Map<Kernel, number[]>(KERNELS.map((k) => [k, []]));
    const librarySamples = ROWS.map(() => [] as number[]);
    const live = liveRecorder(context, 'indirection-cost', 'ms');
    const variants = [
      ...KERNELS.map((kernel) => ({
        time: () => timeDirect(dispatches, kernel),
        into: directSamples.get(kernel) as number[],
        show: (ms: number) => {
          for (const spec of ROWS) if (spec.kernel === kernel) live.sample(spec.name, 'baseline', ms);
        },
      })),
      ...ROWS.map((spec, r) => ({
        time: () => timeLibrary(lists[r] as (typeof lists)[number], dispatches),
        into: librarySamples[r] as number[],
        show: (ms: number) => live.sample(spec.name, 'measured', ms),
      })),
    ];
    await interleaved(variants, rounds, warmup);
    if (device.getDeviceRemovedReason() !== 'S_OK')
      throw new Error(
        `indirection-cost: the library device was removed while timing: ${device.getDeviceRemovedReason()}`,
      );
    timer.destroy();

    const gbPerSecond = (ms: number): number => bytes / (ms / 1000) / 1e9;
    const rowFor = (name: string, library: number[], kernel: Kernel) => {
      const measured = row(name, library, directSamples.get(kernel) as number[]);
      measured.extra = {
        'library GB/s': gbPerSecond(measured.value),
        'direct GB/s': gbPerSecond(measured.baseline ?? NaN),
      };
      return measured;
    };
    return {
      id: 'indirection-cost',
      title: 'Indirection cost of a memory-bound kernel',
      unit: 'ms',
      baselineName:
        'the same kernel in raw WebGPU, reading a plain storage buffer binding with loads of the same width in the same order (array<u32>; array<vec4u> for 16-byte loads and page handles)',
      ratioMeaning: 'library ms ÷ direct ms',
      target: { text: 'at most 1.10× the direct time on a real GPU', ratio: 1.1, direction: 'at-most' },
      rows: ROWS.map((spec, r) => rowFor(spec.name, librarySamples[r] as number[], spec.kernel)),
      rounds,
      warmup,
      parameters: {
        streamedMiB: bytes / MIB,
        workgroups: WORKGROUPS,
        workgroupSize: WORKGROUP_SIZE,
        wordsPerInvocation: wordCount / invocations,
        dispatchesPerSubmission: dispatches,
        timing: timestamps ? 'timestamp queries' : 'submission to completion',
        tiles,
        seed: SEED,
      },
      notes: [
        ...notes,
        timestamps
          ? "ms per dispatch: GPU time between timestamps around dispatchesPerSubmission dispatches (raw: the pass's timestampWrites; library: EndQuery before and after, ResolveQueryData), divided"
          : 'ms per dispatch: one submission of dispatchesPerSubmission dispatches, timed to completion and divided (no timestamp queries on this adapter)',
        'library device with gpuValidation on (the default): each submission also reads the fault log back before its fence completes',
        'the library binds its pools read_write; the baseline binds its words read-only, as an application would',
      ],
    };
  } finally {
    words.destroy();
    partials.destroy();
    params.destroy();
    device.destroy();
  }
};
