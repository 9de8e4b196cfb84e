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
 * Milliseconds per dispatch; ratio library ÷ native. Each row runs on a device with the texture cache
 * and texture mirrors (src/gpu/texture-cache.ts, src/gpu/texture-mirrors.ts: the texture's
 * descriptor, in the root SRV, resolved to its mirror before the dispatch, and its valid tiles read
 * by the texture units; the rows the targets are for), and again on a device with both off (every
 * read through memory; each row's extras `cache off, …`: kept out of the rows so the page stays
 * short). One more row rewrites a tile of mip 0 with copyTiles before each submission's dispatches
 * (native: copyBufferToTexture of the same texels), so the mirror drops that tile in every
 * submission and refills it in the next: `sample_level, bilinear, a tile rewritten each submission`.
 *
 * Why the baseline is fair: same GPU device, same texels at every mip, same WGSL text for the kernels
 * (only the accessors differ), same invocation grid and workgroup size, one packed word written per
 * invocation on both sides. Timed as indirection-cost is: GPU timestamps around the dispatches
 * where the adapter has them (else one submission to completion), the dispatch count raised until a
 * submission runs long enough, every variant in every round in rotating order. Before timing, every
 * invocation's result is compared between the sides (below), and the figure throws on a mismatch:
 * a library that read the wrong texels (or none) would make the ratio meaningless. The cached rows
 * are compared twice (the second submission reads what the first filled), and the rewrite row after
 * its rewrite, so a stale copy cannot hide.
 *
 * What the ratio includes because the library imposes it: the texture is memory, so every read
 * first checks that its tiles' copies are current (a validity word per tile), behind a descriptor
 * the dispatch's pre-pass compared with memory; with the cache off, the descriptor (header and mip
 * entries) is read from memory through the page table for every read and every texel is translated
 * and filtered in the shader; root constants come from a dynamically offset uniform; every store
 * checks its page's tags; with gpuValidation on (the default) every submission also reads the fault
 * log back.
 */
import { TILE_SIZE } from '../../src/index.js';
import {
  interleaved,
  median,
  liveRecorder,
  row,
  timeRaw,
  type FigureRow,
  type FigureRunner,
  type FigureTarget,
} from './figure.js';
import { librarySide, type Kernel, type LibrarySide } from './texture-sample-library.js';
import { fullChain, mipChain, mipSide, patternTexel } from './texture-sample-texels.js';
import kernelsWgsl from './texture-sample.wgsl?raw';
import nativeWgsl from './texture-sample-native.wgsl?raw';

/** Texture side: 2048² RGBA8 is 16 MiB at mip 0, 342 tiles with its chain; quick: 256², 6 tiles, so SwiftShader runs it in seconds. */
const FULL_SIDE = 2048;
const QUICK_SIDE = 256;
/** Invocations per workgroup side, read from the WGSL so it is written once. */
const WORKGROUP_SIDE = Number(/const TS_WORKGROUP_SIDE: u32 = (\d+)u;/.exec(kernelsWgsl)?.[1] ?? NaN);
const RGBA8 = 4;
/** RGBA8 standard tiles are 128 × 128 texels. */
const TILE_TEXELS = 128;
/** The tile the rewrite row rewrites: an inner one of mip 0 (quick: the last of its 2 × 2). */
const REWRITTEN = { x: 1, y: 1 };
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

/** The targets of issue 35, for the cached rows: software virtual texturing's published cost is about 2× (docs/texture-cache.md). */
const TARGETS: Record<string, FigureTarget> = {
  textureLoad: { text: 'at most 1.3×', ratio: 1.3, direction: 'at-most' },
  'sample_level, bilinear': { text: 'at most 1.6×', ratio: 1.6, direction: 'at-most' },
  'sample_level, trilinear': { text: 'at most 2.0×', ratio: 2.0, direction: 'at-most' },
};

/** The cached side's cache: 64 MiB, createDevice's default on a GPU. */
const TEXTURE_CACHE_BYTES = 64 * 2 ** 20;
/** The cached side's texture mirrors: 256 MiB, createDevice's default on a GPU. */
const TEXTURE_MIRROR_BYTES = 256 * 2 ** 20;

type Cache = 'on' | 'off';
interface Spec {
  name: string;
  kernel: Kernel;
  lod: number;
  cache: Cache;
  /** Rewrites tile REWRITTEN of mip 0 before the dispatches of each submission. */
  rewrite?: boolean;
}
const READS: Omit<Spec, 'cache' | 'name'>[] = [
  { kernel: 'load_texels', lod: 0 },
  { kernel: 'sample_texels', lod: 0 },
  // Half way: mip 0 and mip 1 weigh alike, and 0.5 is exact in the 4 LOD fraction bits Vulkan guarantees.
  { kernel: 'sample_texels', lod: 0.5 },
];
const readName = (spec: Omit<Spec, 'cache' | 'name'>): string =>
  spec.kernel === 'load_texels' ? 'textureLoad' : spec.lod === 0 ? 'sample_level, bilinear' : 'sample_level, trilinear';
const ROWS: Spec[] = [
  ...READS.map((spec) => ({ ...spec, name: readName(spec), cache: 'on' as const })),
  ...READS.map((spec) => ({ ...spec, name: `${readName(spec)}, cache off`, cache: 'off' as const })),
  {
    kernel: 'sample_texels',
    lod: 0,
    cache: 'on',
    rewrite: true,
    name: 'sample_level, bilinear, a tile rewritten each submission',
  },
];

const withTarget = (r: FigureRow, target: FigureTarget | undefined): FigureRow => (target ? { ...r, target } : r);
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

/** The rewrite row's texels: one tile, row-major (as copyTiles and a 512-byte-pitch copy both lay it out), other than mip 0's. */
function rewriteTexels(): Uint8Array {
  const words = new Uint32Array(TILE_TEXELS * TILE_TEXELS);
  for (let i = 0; i < words.length; i++) words[i] = patternTexel(9, i % TILE_TEXELS, Math.floor(i / TILE_TEXELS) + 7);
  return new Uint8Array(words.buffer);
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
  const paramsOf = (spec: Spec, mip = 0): number[] => [
    mip,
    spec.kernel === 'load_texels' ? mipSide(side, mip) : side,
    floatBits(spec.lod),
    0,
  ];

  context.progress(`texture sample: making ${side}² × ${mips} mips of texels`);
  const chain = mipChain(side, mips);
  const rewrite = rewriteTexels();
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
  const rewriteSource = gpuDevice.createBuffer({
    label: 'texture-sample: native rewrite tile',
    size: TILE_SIZE,
    usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  gpuDevice.queue.writeBuffer(rewriteSource, 0, rewrite);
  const sides: Partial<Record<Cache, LibrarySide>> = {};
  try {
    context.progress(`texture sample: filling the reserved textures and ${mips} native mips`);
    for (const cache of ['on', 'off'] as const)
      sides[cache] = await librarySide(gpuDevice, {
        side,
        mips,
        chain,
        outputBytes,
        rewrite,
        // createDevice's default on a GPU, asked for so that a CPU adapter (default: none) measures it too.
        textureCacheBytes: cache === 'on' ? TEXTURE_CACHE_BYTES : 0,
        textureMirrorBytes: cache === 'on' ? TEXTURE_MIRROR_BYTES : 0,
      });
    const sideOf = (spec: Spec): LibrarySide => sides[spec.cache] as LibrarySide;
    for (const [mip, texels] of chain.entries()) {
      const s = mipSide(side, mip);
      gpuDevice.queue.writeTexture(
        { texture: native, mipLevel: mip },
        texels,
        { bytesPerRow: s * RGBA8, rowsPerImage: s },
        [s, s],
      );
    }

    // ---- the baseline's pipelines ----
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
    for (const kernel of ['load_texels', 'sample_texels'] as const)
      nativePipelines.set(
        kernel,
        await gpuDevice.createComputePipelineAsync({
          label: `texture-sample: native ${kernel}`,
          layout: 'auto',
          compute: { module, entryPoint: kernel },
        }),
      );
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
    const timer = (sides.on as LibrarySide).timer;
    // Workgroups per side of a dispatch of `mip` (timed dispatches read mip 0: the whole grid).
    const groupsFor = (mip: number): number => Math.ceil(mipSide(side, mip) / WORKGROUP_SIDE);
    const submitNative = (spec: Spec, group: GPUBindGroup, dispatches: number, groups = groupsFor(0)): void => {
      const encoder = gpuDevice.createCommandEncoder({ label: `texture-sample: native ${spec.kernel}` });
      if (spec.rewrite)
        encoder.copyBufferToTexture(
          { buffer: rewriteSource, bytesPerRow: TILE_TEXELS * RGBA8 },
          { texture: native, origin: [REWRITTEN.x * TILE_TEXELS, REWRITTEN.y * TILE_TEXELS] },
          [TILE_TEXELS, TILE_TEXELS],
        );
      const pass = encoder.beginComputePass(timer.rawPass);
      pass.setPipeline(nativePipelines.get(spec.kernel) as GPUComputePipeline);
      pass.setBindGroup(0, group);
      for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(groups, groups);
      pass.end();
      timer.resolveRaw(encoder);
      gpuDevice.queue.submit([encoder.finish()]);
    };
    const libraryList = (spec: Spec, constants: number[], dispatches: number, groups = groupsFor(0)) =>
      sideOf(spec).list(spec.kernel, constants, dispatches, groups, (list) => {
        if (spec.rewrite) sideOf(spec).rewriteTile(list, REWRITTEN);
      });

    // ---- check: every invocation's result on both sides, every mip for loads ----
    context.progress("texture sample: comparing every invocation's result");
    // The check's dispatches cover only the mip they read (a small mip's are its edge, repeated):
    // these are the bytes of their results.
    const resultBytes = (mip: number): number => (groupsFor(mip) * WORKGROUP_SIDE) ** 2 * 4;
    const nativeResults = async (spec: Spec, constants: number[], mip: number): Promise<Uint32Array> => {
      const uniform = uniforms[ROWS.length] as GPUBuffer;
      gpuDevice.queue.writeBuffer(uniform, 0, new Uint32Array(constants));
      submitNative(spec, bindGroup(spec.kernel, uniform), 1, groupsFor(mip));
      const encoder = gpuDevice.createCommandEncoder();
      encoder.copyBufferToBuffer(results, 0, staging, 0, resultBytes(mip));
      gpuDevice.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const values = new Uint32Array(staging.getMappedRange(0, resultBytes(mip)).slice(0));
      staging.unmap();
      return values;
    };
    const libraryResults = (spec: Spec, constants: number[], mip: number): Promise<Uint32Array> =>
      sideOf(spec).results([libraryList(spec, constants, 1, groupsFor(mip))], resultBytes(mip));
    const wrong: string[] = [];
    const worst = ROWS.map(() => 0);
    // The rewrite row last: after it, both sides hold the rewritten tile.
    for (const [r, spec] of ROWS.entries()) {
      // Loads: every mip (the timed row reads mip 0), so the whole chain's layout is checked.
      const checks =
        spec.kernel === 'load_texels'
          ? Array.from({ length: mips }, (_, mip) => paramsOf(spec, mip))
          : [paramsOf(spec)];
      const tolerance = spec.kernel === 'load_texels' ? LOAD_TOLERANCE : FILTERED_TOLERANCE;
      // With the cache and mirrors: twice, the second read served by what the first one filled.
      const passes = spec.cache === 'on' ? ['first', 'second'] : ['memory'];
      for (const constants of checks) {
        const mip = constants[0] as number;
        const expected = await nativeResults(spec, constants, mip);
        for (const pass of passes) {
          const difference = maxDifference(await libraryResults(spec, constants, mip), expected);
          worst[r] = Math.max(worst[r] as number, difference);
          if (difference > tolerance)
            wrong.push(
              `${spec.name}${spec.kernel === 'load_texels' ? ` (mip ${mip})` : ''}, ${pass} pass: a texel differs by ${difference}/255 in a channel (tolerance ${tolerance}/255)`,
            );
        }
      }
    }
    for (const cache of ['on', 'off'] as const) {
      const reason = (sides[cache] as LibrarySide).removedReason();
      if (reason !== 'S_OK')
        throw new Error(`texture-sample: the library device (cache ${cache}) was removed: ${reason}`);
    }
    if (wrong.length > 0)
      throw new Error(`texture-sample: the library's reads do not match the native texture's: ${wrong.join('; ')}`);

    // ---- timing ----
    ROWS.forEach((spec, r) =>
      gpuDevice.queue.writeBuffer(uniforms[r] as GPUBuffer, 0, new Uint32Array(paramsOf(spec))),
    );
    const nativeGroups = ROWS.map((spec, r) => bindGroup(spec.kernel, uniforms[r] as GPUBuffer));
    const timeNative = async (r: number, dispatches: number): Promise<number> =>
      timer.rawMs(dispatches, () => submitNative(ROWS[r] as Spec, nativeGroups[r] as GPUBindGroup, dispatches));
    const timeLibrary = async (spec: Spec, list: ReturnType<typeof libraryList>, dispatches: number): Promise<number> =>
      sideOf(spec).timer.libraryMs(dispatches, () => sideOf(spec).run(list));
    // Calibrate on the cheapest baseline, native loads (also a warm-up): doubling until a submission
    // lasts the target, since one cold dispatch is mostly submission latency.
    let dispatches = 1;
    let calibrationMs = 0;
    while (
      dispatches < MAX_DISPATCHES &&
      (calibrationMs = await timeRaw(gpuDevice, () =>
        submitNative(ROWS[0] as Spec, nativeGroups[0] as GPUBindGroup, dispatches),
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
    const lists = ROWS.map((spec) => libraryList(spec, paramsOf(spec), dispatches));
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
        // The cache-off and rewrite rows are their cached rows' extras, not rows of their own (below).
        show: (ms: number) =>
          spec.cache === 'on' && !spec.rewrite ? live.sample(spec.name, 'baseline', ms) : undefined,
      },
      {
        time: () => timeLibrary(spec, lists[r] as (typeof lists)[number], dispatches),
        into: librarySamples[r] as number[],
        show: (ms: number) =>
          spec.cache === 'on' && !spec.rewrite ? live.sample(spec.name, 'measured', ms) : undefined,
      },
    ]);
    await interleaved(variants, rounds, warmup);
    for (const cache of ['on', 'off'] as const) {
      const reason = (sides[cache] as LibrarySide).removedReason();
      if (reason !== 'S_OK')
        throw new Error(`texture-sample: the library device (cache ${cache}) was removed while timing: ${reason}`);
    }

    return {
      id: 'texture-sample',
      title: 'Texture sample: a tiled texture through the prelude against a native texture',
      unit: 'ms',
      baselineName:
        'the same kernel in raw WebGPU on a native rgba8unorm texture of the same texels: textureLoad; textureSampleLevel with linear filters and clamp-to-edge',
      ratioMeaning: 'library ms ÷ native ms',
      rows: ROWS.flatMap((spec, r) => {
        // The cache-off and rewrite rows are extras of their cached rows: the page stays as short as it was.
        if (spec.cache === 'off' || spec.rewrite) return [];
        // The same read on the device without the cache: its medians and ratio, as extras.
        const off = ROWS.findIndex(
          (o) => o.cache === 'off' && o.kernel === spec.kernel && o.lod === spec.lod && !spec.rewrite,
        );
        const offExtra: Record<string, number> =
          off < 0
            ? {}
            : {
                'cache off, ms': median(librarySamples[off] as number[]) ?? NaN,
                'cache off, native ms': median(nativeSamples[off] as number[]) ?? NaN,
                'cache off, ratio': median(librarySamples[off] as number[]) / median(nativeSamples[off] as number[]),
              };
        const rewrite = ROWS.findIndex((o) => o.rewrite === true && o.kernel === spec.kernel && o.lod === spec.lod);
        const rewriteExtra: Record<string, number> =
          rewrite < 0
            ? {}
            : {
                'a tile rewritten each submission, ms': median(librarySamples[rewrite] as number[]),
                'a tile rewritten each submission, native ms': median(nativeSamples[rewrite] as number[]),
                'a tile rewritten each submission, ratio':
                  median(librarySamples[rewrite] as number[]) / median(nativeSamples[rewrite] as number[]),
                'a tile rewritten each submission, max |Δ| per channel': worst[rewrite] as number,
              };
        return [
          withTarget(
            row(spec.name, librarySamples[r] as number[], nativeSamples[r] as number[], {
              'max |Δ| per channel, in 1/255': worst[r] as number,
              ...offExtra,
              ...rewriteExtra,
            }),
            TARGETS[spec.name],
          ),
        ];
      }),
      rounds,
      warmup,
      parameters: {
        textureSide: side,
        mipLevels: mips,
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
        "checked before timing: every invocation's packed result of the library agrees with the native one within the tolerances (loads at every mip; with the cache, once read from memory and once from the cache; the rewrite row after its rewrite); extra gives the largest difference seen",
        'rows: a device with the texture cache; extras "cache off, …": the same read on a device with textureCacheBytes 0 (every read through memory), timed in the same rounds against its own native dispatches',
        'library devices with gpuValidation on (the default): each submission also reads the fault log back before its fence completes',
      ],
    };
  } finally {
    native.destroy();
    results.destroy();
    rewriteSource.destroy();
    for (const uniform of uniforms) uniform.destroy();
    staging.destroy();
    sides.on?.destroy();
    sides.off?.destroy();
  }
};
