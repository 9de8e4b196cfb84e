/**
 * Figure 9, texture sample: what it costs a shader to read a tiled (reserved) texture through the
 * prelude (d3d12_tex2d, d3d12_tex2d_load, d3d12_tex2d_sample_level: a descriptor in memory, texel
 * addresses by the 64KB_UNDEFINED_SWIZZLE layout, every word through the page table, filtering in
 * the shader) against a native WebGPU texture of the same texels read by the texture units. An RGBA8
 * 2048² texture with its full mip chain (quick: 256²), every tile mapped to one heap and filled with
 * copyTiles; the native rgba8unorm texture gets the identical texels by writeTexture, mip by mip, all
 * made on the CPU by one pattern function (texture-sample-texels.ts). Rows, each a compute kernel of
 * texture-sample.wgsl with one invocation per texel of mip 0, neighbours reading neighbours (a
 * full-screen pass's coalesced 2D pattern), each writing what it read packed to one word:
 *   - textureLoad: d3d12_tex2d_load against textureLoad, mip 0;
 *   - sample_level, bilinear: d3d12_tex2d_sample_level against textureSampleLevel (linear filters,
 *     clamp-to-edge) at lod 0, one mip;
 *   - sample_level, trilinear: the same at lod 0.5, two mips blended.
 * Milliseconds per dispatch; ratio library ÷ native.
 *
 * Why the baseline is fair: same GPU device, same texels at every mip, same WGSL text for the kernels
 * (only the accessors differ), same invocation grid and workgroup size, one packed word written per
 * invocation on both sides. Timed as indirection-cost is: GPU timestamps around the dispatches
 * where the adapter has them (else one submission to completion), the dispatch count raised until a
 * submission runs long enough, every variant in every round in rotating order. Before timing, every
 * invocation's result is compared between the sides (below), and the figure throws on a mismatch:
 * a library that read the wrong texels (or none) would make the ratio meaningless.
 *
 * What the ratio includes because the library imposes it: the texture is memory, not a texture
 * object, so there is no texture cache layout, no filtering hardware and no format decode in hardware;
 * the descriptor (header and mip entries) is read from memory through the page table for every read,
 * since each invocation makes one (as a fragment shader opens its texture per pixel); root constants
 * come from a dynamically offset uniform; with gpuValidation on (the default) every submission also
 * reads the fault log back.
 */
import { createDevice, TILE_SIZE } from '../../src/index.js';
import { kernelTimer } from './kernel-timer.js';
import { fencedQueue, interleaved, liveRecorder, row, timeRaw, type FigureRunner } from './figure.js';
import { fullChain, mipChain, mipSide, tiledBytes } from './texture-sample-texels.js';
import kernelsWgsl from './texture-sample.wgsl?raw';
import nativeWgsl from './texture-sample-native.wgsl?raw';
import d3d12Wgsl from './texture-sample-d3d12.wgsl?raw';

/** Texture side: 2048² RGBA8 is 16 MiB at mip 0, 342 tiles with its chain; quick: 256², 6 tiles, so SwiftShader runs it in seconds. */
const FULL_SIDE = 2048;
const QUICK_SIDE = 256;
/** Invocations per workgroup side, read from the WGSL so it is written once. */
const WORKGROUP_SIDE = Number(/const TS_WORKGROUP_SIDE: u32 = (\d+)u;/.exec(kernelsWgsl)?.[1] ?? NaN);
const RGBA8 = 4;
/** A submission should run at least this long, so that submission and completion latency (well under a millisecond) stays within a few percent. */
const TARGET_SUBMISSION_MS = 50;
/** Quick runs are smoke runs: on SwiftShader one native dispatch already takes longer, so a submission is one dispatch. */
const QUICK_TARGET_SUBMISSION_MS = 1;
/** At most this many dispatches a submission: enough for 50 ms of a fast GPU's native loads, small enough that a list records in no time. */
const MAX_DISPATCHES = 1024;
/**
 * Per channel, in 8-bit steps of the packed results, how far a filtered sample of the library may lie
 * from the texture unit's. The weights are exact on both sides (texture-sample.wgsl's
 * TS_SAMPLE_OFFSET), but hardware blends in fixed point of about 8 fractional bits and may round each
 * of its two (bilinear) or three (trilinear) lerps, and then both sides round to 8 bits: 2 steps
 * (2/255) bounds that. A sample of a wrong texel, mip or weight is off by about a third of the range
 * on this noise.
 */
const FILTERED_TOLERANCE = 2;
/** Loads are exact: both sides decode the same byte, and packing it again gives that byte back. */
const LOAD_TOLERANCE = 0;
/** A timestamp query heap's result memory, and the descriptor's: one 64 KiB page each. */
const PAGE = TILE_SIZE;

type Kernel = 'load_texels' | 'sample_texels';
const ROWS: { name: string; kernel: Kernel; lod: number }[] = [
  { name: 'textureLoad', kernel: 'load_texels', lod: 0 },
  { name: 'sample_level, bilinear', kernel: 'sample_texels', lod: 0 },
  // Half way: mip 0 and mip 1 weigh alike, and 0.5 is exact in the 4 LOD fraction bits Vulkan guarantees.
  { name: 'sample_level, trilinear', kernel: 'sample_texels', lod: 0.5 },
];

const roundUp = (bytes: number): number => Math.ceil(bytes / PAGE) * PAGE;
const floatBits = (value: number): number => new Uint32Array(new Float32Array([value]).buffer)[0] as number;

/** The largest per-channel difference, in 8-bit steps, between two sets of packed RGBA8 results. */
function maxDifference(a: Uint32Array, b: Uint32Array): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x === y) continue;
    for (let shift = 0; shift < 32; shift += 8)
      worst = Math.max(worst, Math.abs(((x >>> shift) & 0xff) - ((y >>> shift) & 0xff)));
  }
  return worst;
}

export const textureSample: FigureRunner = async (context) => {
  const { gpuDevice, quick } = context;
  // As indirection-cost: the variants interleave, so drift hits all alike, within the suite's budget.
  // Fewer on an adapter where one dispatch runs for seconds (set after calibration, below).
  let rounds = quick ? 2 : 5;
  let warmup = 1;
  if (!Number.isInteger(WORKGROUP_SIDE)) throw new Error('texture-sample.wgsl lost its TS_WORKGROUP_SIDE line');
  const side = quick ? QUICK_SIDE : FULL_SIDE;
  const mips = fullChain(side);
  const invocations = side * side;
  const outputBytes = invocations * 4;
  const targetMs = quick ? QUICK_TARGET_SUBMISSION_MS : TARGET_SUBMISSION_MS;
  const paramsOf = (spec: { kernel: Kernel; lod: number }, mip = 0): number[] => [
    mip,
    spec.kernel === 'load_texels' ? mipSide(side, mip) : side,
    floatBits(spec.lod),
    0,
  ];

  context.progress(`texture sample: making ${side}² × ${mips} mips of texels`);
  const chain = mipChain(side, mips);

  const textureDesc = {
    dimension: 'TEXTURE2D',
    width: side,
    height: side,
    mipLevels: mips,
    format: 'R8G8B8A8_UNORM',
    layout: '64KB_UNDEFINED_SWIZZLE',
  } as const;
  // The pools are sized before the texture exists: its texels rounded up to tiles, and one tile more
  // for the mip tail's rounding (standard mips of a power-of-two texture fill whole tiles).
  const chainBytes = chain.reduce((sum, texels) => sum + texels.byteLength, 0);
  const textureBytesAtMost = roundUp(chainBytes) + PAGE;
  // Local: the heap, the descriptor, the results, a query heap. Non-local: the upload (texels and
  // descriptor), the results' readback, the timestamps' readback.
  const device = await createDevice({
    gpuDevice,
    localMemoryBytes: textureBytesAtMost + PAGE + roundUp(outputBytes) + PAGE,
    nonLocalMemoryBytes: textureBytesAtMost + PAGE + roundUp(outputBytes) + PAGE,
  });
  // The baseline's texture and buffers, on the same raw device.
  const native = gpuDevice.createTexture({
    label: 'texture-sample: native texture',
    size: [side, side],
    mipLevelCount: mips,
    format: 'rgba8unorm',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  const results = gpuDevice.createBuffer({
    label: 'texture-sample: native results',
    size: outputBytes,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  // One uniform per row and one for the check's per-mip loads.
  const uniforms = Array.from({ length: ROWS.length + 1 }, () =>
    gpuDevice.createBuffer({
      label: 'texture-sample: native params',
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    }),
  );
  const staging = gpuDevice.createBuffer({
    label: 'texture-sample: native results readback',
    size: outputBytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const { queue, settle } = fencedQueue(device);

    // ---- the texels: a reserved texture, every tile mapped in order onto one heap, copyTiles from UPLOAD ----
    const texture = device.createReservedResource(textureDesc, 'COMMON');
    const tiling = device.getResourceTiling(texture);
    const tiles = tiling.numTilesForEntireResource;
    const textureBytes = tiles * TILE_SIZE;
    const heap = device.createHeap({
      sizeInBytes: textureBytes,
      properties: { type: 'DEFAULT' },
      flags: ['ALLOW_ONLY_NON_RT_DS_TEXTURES'],
    });
    queue.updateTileMappings(
      texture,
      [{ x: 0, y: 0, z: 0, subresource: 0 }],
      [{ numTiles: tiles }],
      heap,
      ['NONE'],
      [0],
      [tiles],
    );
    context.progress(`texture sample: filling ${tiles} tiles and ${mips} native mips`);
    const upload = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: textureBytes + PAGE },
      'GENERIC_READ',
    );
    const words = device.writeTextureDescriptor(texture);
    const mapped = upload.map();
    mapped.set(tiledBytes(tiling, chain, side, TILE_SIZE));
    mapped.set(new Uint8Array(words.buffer, words.byteOffset, words.byteLength), textureBytes);
    upload.unmap();
    const descriptor = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: PAGE },
      'COMMON',
    );
    const output = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: outputBytes, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    const fill = device.createCommandList('COMPUTE');
    fill.copyTiles(
      texture,
      { x: 0, y: 0, z: 0, subresource: 0 },
      { numTiles: tiles },
      upload,
      0,
      'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
    );
    fill.copyBufferRegion(descriptor, 0, upload, textureBytes, words.byteLength);
    fill.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: texture, stateBefore: 'COPY_DEST', stateAfter: 'NON_PIXEL_SHADER_RESOURCE' },
      },
    ]);
    fill.close();
    queue.executeCommandLists([fill]);
    await settle();
    upload.release();
    for (const [mip, texels] of chain.entries()) {
      const s = mipSide(side, mip);
      gpuDevice.queue.writeTexture(
        { texture: native, mipLevel: mip },
        texels,
        { bytesPerRow: s * RGBA8, rowsPerImage: s },
        [s, s],
      );
    }

    // ---- pipelines ----
    const module = gpuDevice.createShaderModule({
      label: 'texture-sample: native',
      code: `${kernelsWgsl}\n${nativeWgsl}`,
    });
    const sampler = gpuDevice.createSampler({
      label: 'texture-sample: linear, clamp to edge',
      magFilter: 'linear',
      minFilter: 'linear',
      mipmapFilter: 'linear',
      addressModeU: 'clamp-to-edge',
      addressModeV: 'clamp-to-edge',
    });
    const nativePipelines = new Map<Kernel, GPUComputePipeline>();
    const psos = new Map<Kernel, Awaited<ReturnType<typeof device.createComputePipelineState>>>();
    for (const kernel of ['load_texels', 'sample_texels'] as const) {
      nativePipelines.set(
        kernel,
        await gpuDevice.createComputePipelineAsync({
          label: `texture-sample: native ${kernel}`,
          layout: 'auto',
          compute: { module, entryPoint: kernel },
        }),
      );
      psos.set(
        kernel,
        await device.createComputePipelineState({
          label: `texture-sample: ${kernel} through the prelude`,
          code: `${kernelsWgsl}\n${d3d12Wgsl}`,
          entryPoint: kernel,
        }),
      );
    }
    const bindGroup = (kernel: Kernel, uniform: GPUBuffer): GPUBindGroup =>
      gpuDevice.createBindGroup({
        label: `texture-sample: native ${kernel}`,
        layout: (nativePipelines.get(kernel) as GPUComputePipeline).getBindGroupLayout(0),
        // The automatic layout has only what the entry point uses: loads take no sampler.
        entries: [
          { binding: 0, resource: native.createView() },
          ...(kernel === 'sample_texels' ? [{ binding: 1, resource: sampler }] : []),
          { binding: 2, resource: { buffer: results } },
          { binding: 3, resource: { buffer: uniform } },
        ],
      });

    // GPU time from timestamp queries where the adapter has them, as indirection-cost reads it.
    const timestamps = gpuDevice.features.has('timestamp-query');
    const timer = kernelTimer(gpuDevice, device, 'texture-sample');
    const readback = device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: outputBytes },
      'COPY_DEST',
    );

    // Workgroups per side of a dispatch of `mip` (timed dispatches read mip 0: the whole grid).
    const groupsFor = (mip: number): number => Math.ceil(mipSide(side, mip) / WORKGROUP_SIDE);
    const submitNative = (kernel: Kernel, group: GPUBindGroup, dispatches: number, groups = groupsFor(0)): void => {
      const encoder = gpuDevice.createCommandEncoder({ label: `texture-sample: native ${kernel}` });
      const pass = encoder.beginComputePass(timer.rawPass);
      pass.setPipeline(nativePipelines.get(kernel) as GPUComputePipeline);
      pass.setBindGroup(0, group);
      for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(groups, groups);
      pass.end();
      timer.resolveRaw(encoder);
      gpuDevice.queue.submit([encoder.finish()]);
    };
    const libraryList = (kernel: Kernel, constants: number[], dispatches: number, groups = groupsFor(0)) => {
      const list = device.createCommandList('COMPUTE');
      list.setPipelineState(psos.get(kernel) as NonNullable<ReturnType<typeof psos.get>>);
      list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
      list.setComputeRootUnorderedAccessView(2, output.getGPUVirtualAddress());
      list.setComputeRoot32BitConstants(0, constants, 0);
      timer.beginList(list);
      for (let i = 0; i < dispatches; i++) list.dispatch(groups, groups, 1);
      timer.endList(list);
      list.close();
      return list;
    };

    // ---- check: every invocation's result on both sides, every mip for loads ----
    context.progress("texture sample: comparing every invocation's result");
    // The check's dispatches cover only the mip they read (a small mip's are its edge, repeated):
    // these are the bytes of their results.
    const resultBytes = (mip: number): number => (groupsFor(mip) * WORKGROUP_SIDE) ** 2 * 4;
    const nativeResults = async (kernel: Kernel, constants: number[], mip: number): Promise<Uint32Array> => {
      const uniform = uniforms[ROWS.length] as GPUBuffer;
      gpuDevice.queue.writeBuffer(uniform, 0, new Uint32Array(constants));
      submitNative(kernel, bindGroup(kernel, uniform), 1, groupsFor(mip));
      const encoder = gpuDevice.createCommandEncoder();
      encoder.copyBufferToBuffer(results, 0, staging, 0, resultBytes(mip));
      gpuDevice.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const values = new Uint32Array(staging.getMappedRange(0, resultBytes(mip)).slice(0));
      staging.unmap();
      return values;
    };
    const libraryResults = async (kernel: Kernel, constants: number[], mip: number): Promise<Uint32Array> => {
      const copy = device.createCommandList('COMPUTE');
      copy.copyBufferRegion(readback, 0, output, 0, resultBytes(mip));
      copy.close();
      queue.executeCommandLists([libraryList(kernel, constants, 1, groupsFor(mip)), copy]);
      await settle();
      const bytes = readback.map();
      const values = new Uint32Array(bytes.slice(0, resultBytes(mip)).buffer);
      readback.unmap(0, { begin: 0, end: 0 });
      return values;
    };
    const wrong: string[] = [];
    const worst = ROWS.map(() => 0);
    for (const [r, spec] of ROWS.entries()) {
      // Loads: every mip (the timed row reads mip 0), so the whole chain's layout is checked.
      const checks =
        spec.kernel === 'load_texels'
          ? Array.from({ length: mips }, (_, mip) => paramsOf(spec, mip))
          : [paramsOf(spec)];
      const tolerance = spec.kernel === 'load_texels' ? LOAD_TOLERANCE : FILTERED_TOLERANCE;
      for (const constants of checks) {
        const mip = constants[0] as number;
        const difference = maxDifference(
          await libraryResults(spec.kernel, constants, mip),
          await nativeResults(spec.kernel, constants, mip),
        );
        worst[r] = Math.max(worst[r] as number, difference);
        if (difference > tolerance)
          wrong.push(
            `${spec.name}${spec.kernel === 'load_texels' ? ` (mip ${mip})` : ''}: a texel differs by ${difference}/255 in a channel (tolerance ${tolerance}/255)`,
          );
      }
    }
    if (device.getDeviceRemovedReason() !== 'S_OK')
      throw new Error(
        `texture-sample: the library device was removed: ${device.getPageFaultReport()?.message ?? device.getDeviceRemovedReason()}`,
      );
    if (wrong.length > 0)
      throw new Error(`texture-sample: the library's reads do not match the native texture's: ${wrong.join('; ')}`);

    // ---- timing ----
    ROWS.forEach((spec, r) =>
      gpuDevice.queue.writeBuffer(uniforms[r] as GPUBuffer, 0, new Uint32Array(paramsOf(spec))),
    );
    const nativeGroups = ROWS.map((spec, r) => bindGroup(spec.kernel, uniforms[r] as GPUBuffer));
    const timeNative = async (r: number, dispatches: number): Promise<number> => {
      const kernel = (ROWS[r] as (typeof ROWS)[number]).kernel;
      return timer.rawMs(dispatches, () => submitNative(kernel, nativeGroups[r] as GPUBindGroup, dispatches));
    };
    const timeLibrary = async (list: ReturnType<typeof libraryList>, dispatches: number): Promise<number> => {
      await settle();
      return timer.libraryMs(dispatches, async () => {
        queue.executeCommandLists([list]);
        await settle();
      });
    };
    // Calibrate on the cheapest baseline, native loads (also a warm-up): doubling until a submission
    // lasts the target, since one cold dispatch is mostly submission latency.
    let dispatches = 1;
    let calibrationMs = 0;
    while (
      dispatches < MAX_DISPATCHES &&
      (calibrationMs = await timeRaw(gpuDevice, () =>
        submitNative('load_texels', nativeGroups[0] as GPUBindGroup, dispatches),
      )) < targetMs
    )
      dispatches *= 2;
    dispatches = Math.min(dispatches, MAX_DISPATCHES);
    // One native dispatch already past the target: a CPU adapter (SwiftShader: 0.1 s a native
    // dispatch, 5-15 s through the prelude; a GPU reads 16 MiB in microseconds). Two rounds and no
    // warm-up round keep the figure near a minute instead of six; a dispatch of seconds has no
    // warm-up to speak of.
    if (dispatches === 1 && calibrationMs >= targetMs) {
      rounds = Math.min(rounds, 2);
      warmup = 0;
    }
    // Recorded once and executed every round, as D3D12 applications reuse bundles of work.
    const lists = ROWS.map((spec) => libraryList(spec.kernel, paramsOf(spec), dispatches));
    context.progress(
      `texture sample: ${side}², ${invocations} invocations, ${dispatches} dispatches per submission, ${rounds} rounds`,
    );
    const live = liveRecorder(context, 'texture-sample', 'ms');
    const nativeSamples = ROWS.map(() => [] as number[]);
    const librarySamples = ROWS.map(() => [] as number[]);
    const variants = ROWS.flatMap((spec, r) => [
      {
        time: () => timeNative(r, dispatches),
        into: nativeSamples[r] as number[],
        show: (ms: number) => live.sample(spec.name, 'baseline', ms),
      },
      {
        time: () => timeLibrary(lists[r] as (typeof lists)[number], dispatches),
        into: librarySamples[r] as number[],
        show: (ms: number) => live.sample(spec.name, 'measured', ms),
      },
    ]);
    await interleaved(variants, rounds, warmup);
    if (device.getDeviceRemovedReason() !== 'S_OK')
      throw new Error(
        `texture-sample: the library device was removed while timing: ${device.getDeviceRemovedReason()}`,
      );
    timer.destroy();

    return {
      id: 'texture-sample',
      title: 'Texture sample: a tiled texture through the prelude against a native texture',
      unit: 'ms',
      baselineName:
        'the same kernel in raw WebGPU on a native rgba8unorm texture of the same texels: textureLoad; textureSampleLevel with linear filters and clamp-to-edge',
      ratioMeaning: 'library ms ÷ native ms',
      rows: ROWS.map((spec, r) =>
        row(spec.name, librarySamples[r] as number[], nativeSamples[r] as number[], {
          'max |Δ| per channel, in 1/255': worst[r] as number,
        }),
      ),
      rounds,
      warmup,
      parameters: {
        textureSide: side,
        mipLevels: mips,
        tiles,
        invocations,
        workgroupSide: WORKGROUP_SIDE,
        dispatchesPerSubmission: dispatches,
        timing: timestamps ? 'timestamp queries' : 'submission to completion',
        filteredTolerance: `${FILTERED_TOLERANCE}/255 per channel`,
        loadTolerance: `${LOAD_TOLERANCE}/255 per channel (exact)`,
      },
      notes: [
        timestamps
          ? "ms per dispatch: GPU time between timestamps around dispatchesPerSubmission dispatches (native: the pass's timestampWrites; library: EndQuery before and after, ResolveQueryData), divided"
          : 'ms per dispatch: one submission of dispatchesPerSubmission dispatches, timed to completion and divided (no timestamp queries on this adapter)',
        "checked before timing: every invocation's packed result of the library agrees with the native one within the tolerances (loads at every mip); extra gives the largest difference seen",
        'library device with gpuValidation on (the default): each submission also reads the fault log back before its fence completes',
      ],
    };
  } finally {
    native.destroy();
    results.destroy();
    for (const uniform of uniforms) uniform.destroy();
    staging.destroy();
    device.destroy();
  }
};
