/**
 * Round 6 (issue 35): is a design that binds a mirror texture per dispatch within the targets? The
 * texture-sample figure's kernels (bench/suite/texture-sample.wgsl, the same text), each with
 * accessor files put in front, all raw WebGPU on one device:
 *   native                      textureLoad / textureSampleLevel of the texture, a plain store
 *                               (the figure's baseline);
 *   native read, library store  the same reads, the store as the prelude makes it (page-table
 *                               entry, cache tag read and cleared when set, pool word);
 *   mirror, tile bits           the design: the descriptor resolved into a uniform before the
 *                               dispatch (no open from memory), a validity bit per tile of the
 *                               footprint, then the hardware read of the bound mirror; library store;
 *   mirror, one word            the same with one validity word for the texture;
 *   mirror, tile bits, native store   the design's read alone;
 *   mirror, mip summary then tile bits  a word with a bit per fully valid mip read first (one
 *                               broadcast load while the mips read are whole), tile bits otherwise;
 *   mirror, tile bits, resolved store  the design: the root UAV resolved before the dispatch to a
 *                               window of pool words (no page-table read), the tag still checked;
 *   … resolved store, no tag    the same for a window the CPU knows holds no cacheable page;
 *   no read, library / native store    the kernel and its store alone (results not compared).
 * 2048² RGBA8 with its full chain, the figure's three reads (load, bilinear at lod 0, trilinear at
 * lod 0.5), GPU time from timestamps around a pass of DISPATCHES dispatches, median of ROUNDS
 * interleaved rounds; every variant's results are compared with native's (they must be equal).
 * Writes round6-<adapter>.json into --out (default .) and prints the table.
 *   vite build -c bench/experiments/texture-cache/round6/vite.config.ts && node bench/experiments/texture-cache/round6/dist/round6.mjs
 */
import { writeFileSync } from 'node:fs';
import { createNodeDevice } from '../../../../src/node/index.js';
import { fullChain, mipChain, mipSide } from '../../../suite/texture-sample-texels.js';
import kernelsWgsl from '../../../suite/texture-sample.wgsl?raw';
import resolvedWgsl from './resolved.wgsl?raw';
import readNative from './read-native.wgsl?raw';
import readMirrorCommon from './read-mirror.wgsl?raw';
import readMirrorTiles from './read-mirror-tiles.wgsl?raw';
import readMirrorSummary from './read-mirror-summary.wgsl?raw';
import readMirrorSummaryAccessors from './read-mirror-summary-accessors.wgsl?raw';
import readMirrorWord from './read-mirror-word.wgsl?raw';
import storeNative from './store-native.wgsl?raw';
import storeTranslated from './store-translated.wgsl?raw';
import storeResolved from './store-resolved.wgsl?raw';
import storeResolvedUntagged from './store-resolved-untagged.wgsl?raw';
import readNone from './read-none.wgsl?raw';

const SIDE = 2048;
const TILE = 128;
const PAGE = 65536;
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const DISPATCHES = Number(process.env.DISPATCHES ?? 256);
const WORKGROUP = 16;
const out = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? '.';

const readMirror = readMirrorCommon + readMirrorTiles;
const readSummary = readMirrorCommon + readMirrorSummary + readMirrorSummaryAccessors;
const VARIANTS = [
  { name: 'native', code: readNative + storeNative },
  { name: 'native read, library store', code: readNative + storeTranslated },
  { name: 'mirror, tile bits, library store', code: readMirror + storeTranslated },
  { name: 'mirror, one word, library store', code: readMirrorCommon + readMirrorWord + storeTranslated },
  { name: 'mirror, tile bits, native store', code: readMirror + storeNative },
  { name: 'mirror, mip summary then tile bits, library store', code: readSummary + storeTranslated },
  { name: 'mirror, tile bits, resolved store', code: readMirror + storeResolved },
  { name: 'mirror, tile bits, resolved store, no tag', code: readMirror + storeResolvedUntagged },
  { name: 'no read, library store', code: readNone + storeTranslated, inexact: true },
  { name: 'no read, native store', code: readNone + storeNative, inexact: true },
] as { name: string; code: string; inexact?: boolean }[];
const READS = [
  { name: 'textureLoad', entry: 'load_texels', lod: 0 },
  { name: 'bilinear', entry: 'sample_texels', lod: 0 },
  { name: 'trilinear', entry: 'sample_texels', lod: 0.5 },
] as const;

const device = await createNodeDevice();
const info = device.adapterInfo;
const adapter = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`.trim();
if (!device.features.has('timestamp-query')) throw new Error('round 6 needs timestamp queries');

const mips = fullChain(SIDE);
const texture = device.createTexture({
  size: [SIDE, SIDE],
  mipLevelCount: mips,
  format: 'rgba8unorm',
  usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
});
mipChain(SIDE, mips).forEach((bytes, mip) => {
  const s = mipSide(SIDE, mip);
  device.queue.writeTexture({ texture, mipLevel: mip }, bytes, { bytesPerRow: s * 4 }, [s, s]);
});
const sampler = device.createSampler({ minFilter: 'linear', magFilter: 'linear', mipmapFilter: 'linear' });

// Tiles: standard mips while a mip is at least a tile wide, then one tail tile.
const mipTiles: number[][] = [];
let tiles = 0;
for (let mip = 0; mip < mips; mip++) {
  const s = mipSide(SIDE, mip);
  if (s >= TILE) {
    mipTiles.push([tiles, s / TILE, 0, 0]);
    tiles += (s / TILE) ** 2;
  } else mipTiles.push([0, 0, 1, 0]);
}
const tailTile = tiles++;

// The pool: the results at page 0 on (16 MiB: 2048² words), page table entries = word base | RESIDENT.
const results = SIDE * SIDE;
const resultPages = (results * 4) / PAGE;
const pool = device.createBuffer({ size: results * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
const table = new Uint32Array(2048);
for (let p = 0; p < resultPages; p++) table[p] = ((p * PAGE) / 4) | 1;
for (let t = 0; t < tiles; t++) table[1024 + t] = 1;
const pageTable = device.createBuffer({
  size: table.byteLength,
  usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
});
device.queue.writeBuffer(pageTable, 0, table);
const tags = device.createBuffer({ size: 1024 * 4, usage: GPUBufferUsage.STORAGE });
const valid = device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(valid, 0, new Uint32Array(16).fill(0xffffffff));
const faults = device.createBuffer({ size: 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });

const layout = device.createBindGroupLayout({
  entries: [
    { binding: 0, visibility: GPUShaderStage.COMPUTE, texture: {} },
    { binding: 1, visibility: GPUShaderStage.COMPUTE, sampler: {} },
    { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
    { binding: 4, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
    { binding: 5, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    { binding: 7, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
    { binding: 8, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
  ],
});
const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });

function uniform(lod: number): GPUBuffer {
  const words = new Uint32Array(12 + 12 * 4);
  words.set([0, SIDE, new Uint32Array(new Float32Array([lod]).buffer)[0] as number, 0, 0, mips, tailTile, 0]);
  words.set([0, results * 4], 8);
  mipTiles.forEach((m, i) => words.set(m, 12 + 4 * i));
  const buffer = device.createBuffer({
    size: words.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, words);
  return buffer;
}

const queries = device.createQuerySet({ type: 'timestamp', count: 2 });
const resolvedTimes = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const times = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const readback = device.createBuffer({ size: results * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

async function runOnce(pipeline: GPUComputePipeline, group: GPUBindGroup, dispatches: number): Promise<number> {
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass({
    timestampWrites: { querySet: queries, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  for (let i = 0; i < dispatches; i++) pass.dispatchWorkgroups(SIDE / WORKGROUP, SIDE / WORKGROUP);
  pass.end();
  encoder.resolveQuerySet(queries, 0, 2, resolvedTimes, 0);
  encoder.copyBufferToBuffer(resolvedTimes, 0, times, 0, 16);
  device.queue.submit([encoder.finish()]);
  await times.mapAsync(GPUMapMode.READ);
  const view = new BigUint64Array(times.getMappedRange().slice(0));
  times.unmap();
  return Number((view[1] as bigint) - (view[0] as bigint)) / 1e6 / dispatches;
}

async function resultsOf(): Promise<Uint32Array> {
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(pool, 0, readback, 0, results * 4);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(readback.getMappedRange().slice(0));
  readback.unmap();
  return words;
}

const rows: { read: string; variant: string; ms: number; ratio: number; samples: number[] }[] = [];
device.pushErrorScope('validation');
for (const read of READS) {
  const params = uniform(read.lod);
  const group = device.createBindGroup({
    layout,
    entries: [
      { binding: 0, resource: texture.createView() },
      { binding: 1, resource: sampler },
      { binding: 2, resource: { buffer: pool } },
      { binding: 3, resource: { buffer: params } },
      { binding: 4, resource: { buffer: pageTable } },
      { binding: 5, resource: { buffer: tags } },
      { binding: 7, resource: { buffer: valid } },
      { binding: 8, resource: { buffer: faults } },
    ],
  });
  const pipelines = await Promise.all(
    VARIANTS.map((variant) =>
      device.createComputePipelineAsync({
        layout: pipelineLayout,
        compute: {
          module: device.createShaderModule({ code: resolvedWgsl + variant.code + kernelsWgsl }),
          entryPoint: read.entry,
        },
      }),
    ),
  );
  // Exactness: every variant writes what native writes.
  let reference: Uint32Array | undefined;
  for (const [i, pipeline] of pipelines.entries()) {
    await runOnce(pipeline, group, 1);
    const words = await resultsOf();
    if (!reference) reference = words;
    else if (!VARIANTS[i]?.inexact) {
      const bad = words.findIndex((w, j) => w !== reference?.[j]);
      if (bad >= 0)
        throw new Error(`${read.name}, ${VARIANTS[i]?.name}: result ${bad} is ${words[bad]}, native ${reference[bad]}`);
    }
  }
  const samples: number[][] = VARIANTS.map(() => []);
  for (let round = 0; round < ROUNDS + 1; round++)
    for (const [i, pipeline] of pipelines.entries()) {
      const ms = await runOnce(pipeline, group, DISPATCHES);
      if (round > 0) samples[i]?.push(ms);
    }
  const med = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1] as number;
  const native = med(samples[0] as number[]);
  VARIANTS.forEach((variant, i) => {
    const ms = med(samples[i] as number[]);
    rows.push({ read: read.name, variant: variant.name, ms, ratio: ms / native, samples: samples[i] as number[] });
  });
}
const error = await device.popErrorScope();
if (error) throw new Error(`WebGPU: ${error.message}`);

console.log(`round 6 on ${adapter} (${ROUNDS} rounds of ${DISPATCHES} dispatches; ms per dispatch, ÷ native)`);
for (const variant of VARIANTS)
  console.log(
    `${variant.name.padEnd(36)} ${READS.map((read) => {
      const r = rows.find((x) => x.read === read.name && x.variant === variant.name);
      return `${read.name} ${r?.ms.toFixed(4)} ms ${r?.ratio.toFixed(2)}x`;
    }).join('  ')}`,
  );
const file = `${out}/round6-${info.vendor || 'unknown'}.json`;
writeFileSync(
  file,
  JSON.stringify({ adapter, date: new Date().toISOString(), rounds: ROUNDS, dispatches: DISPATCHES, rows }, null, 1),
);
console.log(`wrote ${file}`);
process.exit(0);
