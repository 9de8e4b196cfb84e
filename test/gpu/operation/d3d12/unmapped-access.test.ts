/**
 * The unmapped-access report (gpuValidation: { unmappedAccess: true }, Device.readUnmappedAccesses):
 * every access, read or write, to a NULL tile of a reserved resource is recorded on the GPU (a page
 * bitmap and the first maxUnmappedAccessRecords records) and read back as plain data, compared here
 * with a CPU model of what each test touched: dispatches through root descriptors (loads and
 * stores), copies into and out of NULL tiles (the copy kernel), texel loads and samples of a tiled
 * texture, draws (the fragment stage, and the vertex stage through its replay), at Tier 1 too.
 * Accesses to mapped tiles are not recorded; a read clears the log; more accesses than records are
 * counted; a resource freed and its addresses reused is never blamed for its successor; the bitmap
 * follows the page table as it grows. With the option off nothing is recorded, and every result is
 * what it is with the option on.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandQueue,
  type Device,
  type DeviceOptions,
  type GraphicsCommandList,
  type PipelineState,
  type Resource,
  type UnmappedAccess,
  type UnmappedAccessReport,
} from '../../../../src/index.js';
import { MAX_SUBMISSIONS_PER_DRAIN } from '../../../../src/emulator/unmapped-access.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';
import { deviceContext } from '../../../shared/device-context.js';
import { textureSwapChain } from '../../../shared/texture-swap-chain.js';

const TIER1_NULL_READ = 0xdeadbeef;

/**
 * Thread t runs op t of root SRV 2 (two words: a byte offset into root UAV 1, and 0 to read or 1 to
 * write there); a read's value goes to word t of root UAV 3. Root constant 0: how many ops.
 */
const ACCESS = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(0u)) {
    return;
  }
  let op = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 8u);
  let va = d3d12_address_add(d3d12_root_descriptor(1u), d3d12_load(op));
  if (d3d12_load(d3d12_address_add(op, 4u)) == 0u) {
    d3d12_store(d3d12_address_add(d3d12_root_descriptor(3u), id.x * 4u), d3d12_load(va));
  } else {
    d3d12_store(va, 0xabc00000u + id.x);
  }
}
`;

/**
 * Texture reads through the descriptor at root SRV 1. Root constant 0: threads; thread t loads the
 * texel at (constant 2 + 3t, 3 + 3t) of mip constant 1 + 3t, or, when root constant 63 is 1, samples
 * at the centre of that texel (SampleLevel, lod 0); its status and colour go to root UAV 2.
 */
const TEXTURE = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= d3d12_root_constant(0u)) {
    return;
  }
  let texture = d3d12_tex2d(d3d12_root_descriptor(1u));
  let mip = d3d12_root_constant(1u + 3u * id.x);
  let texel = vec2u(d3d12_root_constant(2u + 3u * id.x), d3d12_root_constant(3u + 3u * id.x));
  var status = 0u;
  var color: vec4f;
  if (d3d12_root_constant(63u) == 1u) {
    let uv = (vec2f(texel) + 0.5) / vec2f(d3d12_tex2d_mip_size(texture, mip));
    color = d3d12_tex2d_sample_level(texture, uv, f32(mip), 0.0, &status);
  } else {
    color = d3d12_tex2d_load(texture, mip, texel, &status);
  }
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 8u);
  d3d12_store(out, status);
  d3d12_store(d3d12_address_add(out, 4u), pack4x8unorm(color));
}
`;

const ORIGIN = { x: 0, y: 0, z: 0, subresource: 0 };

interface Scene {
  d3d: Device;
  queue: CommandQueue;
  /** 4 tiles: 0 and 2 mapped, 1 and 3 NULL. */
  buffer: Resource;
  /** 512² RGBA8, 3 mips: 21 tiles (mip 0: 4×4 tiles 0-15, mip 1: 2×2 tiles 16-19, mip 2: tile 20); tiles 0 and 16 mapped. */
  texture: Resource;
  /** The texture's descriptor, in a buffer. */
  descriptor: Resource;
  access: PipelineState;
  textureReader: PipelineState;
  /** Bytes of the mapped tiles as written. */
  data: Uint8Array;
}

const uav = (d3d: Device, width: number): Resource =>
  d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );

async function scene(gpuDevice: GPUDevice, options: DeviceOptions): Promise<Scene> {
  const d3d = await createDevice({ gpuDevice, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20, ...options });
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const heap = d3d.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
  const buffer = d3d.createReservedResource({ dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
  buffer.setName('sparse buffer');
  queue.updateTileMappings(
    buffer,
    [{ ...ORIGIN }, { ...ORIGIN, x: 2 }],
    [{ numTiles: 1 }, { numTiles: 1 }],
    heap,
    ['NONE', 'NONE'],
    [0, 1],
    [1, 1],
  );
  const texture = d3d.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: 512,
      height: 512,
      mipLevels: 3,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    'COMMON',
  );
  texture.setName('sparse texture');
  queue.updateTileMappings(
    texture,
    [{ ...ORIGIN }, { ...ORIGIN, subresource: 1 }],
    [{ numTiles: 1 }, { numTiles: 1 }],
    heap,
    ['NONE', 'NONE'],
    [2, 3],
    [1, 1],
  );
  const descriptor = uav(d3d, 512);
  const data = pattern(2 * TILE, 7);
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, data.subarray(0, TILE)), 0, TILE);
  list.copyBufferRegion(buffer, 2 * TILE, uploadBuffer(d3d, data.subarray(TILE)), 0, TILE);
  list.copyBufferRegion(
    descriptor,
    0,
    uploadBuffer(d3d, new Uint8Array(d3d.writeTextureDescriptor(texture).buffer)),
    0,
    288,
  );
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
  const access = await d3d.createComputePipelineState({ code: ACCESS, entryPoint: 'main', label: 'access' });
  const textureReader = await d3d.createComputePipelineState({
    code: TEXTURE,
    entryPoint: 'main',
    label: 'texture reader',
  });
  return { d3d, queue, buffer, texture, descriptor, access, textureReader, data };
}

/** Records with `record` into a list named `name`, executes it and waits; returns the list. */
async function run(s: Scene, name: string, record: (list: GraphicsCommandList) => void): Promise<GraphicsCommandList> {
  const list = s.d3d.createCommandList('DIRECT');
  list.setName(name);
  record(list);
  list.close();
  s.queue.executeCommandLists([list]);
  await flush(s.d3d, s.queue);
  return list;
}

/** What the CPU model expects of one access. */
interface Expected {
  resource: Resource;
  tileIndex: number;
  list: GraphicsCommandList;
  index: number;
  name: string;
  access: 'read' | 'write';
}

/** Runs `ops` ([byte offset into the sparse buffer, 'read' | 'write']) in one dispatch; returns the words read (per op) and the model's accesses. */
async function accessOps(
  s: Scene,
  name: string,
  ops: readonly (readonly [number, 'read' | 'write'])[],
): Promise<{ words: Uint32Array; expected: Expected[]; list: GraphicsCommandList }> {
  const opWords = new Uint32Array(ops.flatMap(([offset, kind]) => [offset, kind === 'read' ? 0 : 1]));
  const opBuffer = uav(s.d3d, opWords.byteLength);
  const out = uav(s.d3d, ops.length * 4);
  await run(s, 'upload ops', (list) =>
    list.copyBufferRegion(opBuffer, 0, uploadBuffer(s.d3d, new Uint8Array(opWords.buffer)), 0, opWords.byteLength),
  );
  let index = -1;
  const list = await run(s, name, (l) => {
    l.setPipelineState(s.access);
    l.setComputeRootUnorderedAccessView(1, s.buffer.getGPUVirtualAddress());
    l.setComputeRootShaderResourceView(2, opBuffer.getGPUVirtualAddress());
    l.setComputeRootUnorderedAccessView(3, out.getGPUVirtualAddress());
    l.setComputeRoot32BitConstant(0, ops.length, 0);
    index = l.commands.length;
    l.dispatch(Math.ceil(ops.length / 64));
  });
  const words = new Uint32Array((await readBuffer(s.d3d, s.queue, out, 0, ops.length * 4)).buffer);
  const expected = ops
    .filter(([offset]) => Math.floor(offset / TILE) % 2 === 1)
    .map(([offset, access]): Expected => ({
      resource: s.buffer,
      tileIndex: Math.floor(offset / TILE),
      list,
      index,
      name: 'dispatch',
      access,
    }));
  return { words, expected, list };
}

/** Texel loads (or samples) of the sparse texture, [mip, x, y] per thread; returns [status, packed colour] per thread. */
async function readTexels(
  s: Scene,
  name: string,
  texels: readonly (readonly [number, number, number])[],
  sample = false,
): Promise<{ results: Uint32Array; list: GraphicsCommandList; index: number }> {
  const out = uav(s.d3d, texels.length * 8);
  let index = -1;
  const list = await run(s, name, (l) => {
    l.setPipelineState(s.textureReader);
    l.setComputeRootShaderResourceView(1, s.descriptor.getGPUVirtualAddress());
    l.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress());
    l.setComputeRoot32BitConstants(0, [texels.length, ...texels.flat()], 0);
    l.setComputeRoot32BitConstant(0, sample ? 1 : 0, 63);
    index = l.commands.length;
    l.dispatch(1);
  });
  return {
    results: new Uint32Array((await readBuffer(s.d3d, s.queue, out, 0, texels.length * 8)).buffer),
    list,
    index,
  };
}

/** The texture's tile index of texel (x, y) of `mip` (128×128-texel tiles; mip 0 is 4 tiles wide, mip 1 2, from tile 16; mip 2 is tile 20). */
const textureTile = (mip: number, x: number, y: number): number =>
  [0, 16, 20][mip]! + Math.floor(x / 128) + Math.floor(y / 128) * [4, 2, 1][mip]!;

/** An access as the model expects it, in the report's terms. */
function modelAccess(d3d: Device, e: Expected): UnmappedAccess {
  const tiling = d3d.getResourceTiling(e.resource, 0, 16);
  const coordinate = tileCoordinateOf(tiling, e.tileIndex);
  return {
    resourceId: e.resource.id,
    resource: e.resource.label,
    subresource: coordinate.subresource,
    tile: coordinate,
    tileIndex: e.tileIndex,
    commandList: { id: e.list.id, label: e.list.label },
    command: { index: e.index, name: e.name },
    access: e.access,
  };
}

/** GetResourceTiling's view of tile `tile` (standard mips only): its subresource and x, y, z. */
function tileCoordinateOf(
  tiling: ReturnType<Device['getResourceTiling']>,
  tile: number,
): { x: number; y: number; z: number; subresource: number } {
  for (let subresource = tiling.subresourceTilings.length - 1; subresource >= 0; subresource--) {
    const s = tiling.subresourceTilings[subresource]!;
    if (tile < s.startTileIndexInOverallResource) continue;
    const local = tile - s.startTileIndexInOverallResource;
    return {
      x: local % s.widthInTiles,
      y: Math.floor(local / s.widthInTiles) % s.heightInTiles,
      z: Math.floor(local / (s.widthInTiles * s.heightInTiles)),
      subresource,
    };
  }
  throw new Error(`no subresource holds tile ${tile}`);
}

const key = (a: UnmappedAccess): string => JSON.stringify(a);

/** The report the model predicts: every expected access (when they fit), each touched tile once per resource. */
function modelReport(d3d: Device, expected: readonly Expected[]): UnmappedAccessReport {
  const accesses = expected.map((e) => modelAccess(d3d, e));
  const byResource = new Map<Resource, Set<number>>();
  for (const e of expected) {
    if (!byResource.has(e.resource)) byResource.set(e.resource, new Set());
    byResource.get(e.resource)!.add(e.tileIndex);
  }
  const resources = [...byResource]
    .sort(([a], [b]) => a.id - b.id)
    .map(([resource, tiles]) => {
      const tiling = d3d.getResourceTiling(resource, 0, 16);
      const sorted = [...tiles].sort((a, b) => a - b);
      const tileBitmap = new Array<number>(Math.ceil(tiling.numTilesForEntireResource / 32)).fill(0);
      for (const t of sorted) tileBitmap[t >> 5] = (tileBitmap[t >> 5]! | (1 << (t & 31))) >>> 0;
      return {
        resourceId: resource.id,
        resource: resource.label,
        tiles: sorted.map((tile) => ({ tile, ...tileCoordinateOf(tiling, tile) })),
        tileBitmap,
      };
    });
  return { resources, accesses, accessCount: accesses.length, lost: 0 };
}

/** The report, its accesses in a canonical order (the GPU records them in whatever order its threads ran). */
function canonical(report: UnmappedAccessReport): UnmappedAccessReport {
  return { ...report, accesses: [...report.accesses].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

const ON: DeviceOptions = { gpuValidation: { unmappedAccess: true } };

/** Reads and writes of both NULL tiles (1 and 3) and of both mapped ones (0 and 2), some tiles twice. */
const OPS = [
  [TILE + 16, 'read'],
  [TILE + 0x100, 'write'],
  [TILE + 0x200, 'read'],
  [4 * TILE - 4, 'read'],
  [3 * TILE, 'write'],
  [8, 'read'],
  [2 * TILE + 12, 'write'],
  [2 * TILE + 40, 'read'],
] as const;

describe('readUnmappedAccesses: dispatches through root descriptors', () => {
  gpuTest(
    'reads and writes of NULL tiles are recorded with resource, tile, list and command; mapped tiles are not; a second read is empty',
    async ({ device }) => {
      const s = await scene(device, ON);
      try {
        // The scene's own copies touched only mapped tiles.
        expect(await s.d3d.readUnmappedAccesses()).toEqual({ resources: [], accesses: [], accessCount: 0, lost: 0 });
        const { words, expected } = await accessOps(s, 'mixed accesses', OPS);
        // Tier 3: NULL reads give 0; mapped reads give the data.
        const dataWord = (offset: number): number =>
          new DataView(s.data.buffer).getUint32(offset < TILE ? offset : offset - TILE, true);
        expect(Array.from(words)).toEqual(
          OPS.map(([offset, kind]) =>
            kind === 'write' ? 0 : Math.floor(offset / TILE) % 2 === 1 ? 0 : dataWord(offset),
          ),
        );
        const report = await s.d3d.readUnmappedAccesses();
        expect(canonical(report)).toEqual(canonical(modelReport(s.d3d, expected)));
        expect(report.resources).toEqual([
          {
            resourceId: s.buffer.id,
            resource: s.buffer.label,
            tiles: [
              { tile: 1, x: 1, y: 0, z: 0, subresource: 0 },
              { tile: 3, x: 3, y: 0, z: 0, subresource: 0 },
            ],
            tileBitmap: [0b1010],
          },
        ]);
        expect(report.accessCount).toBe(5);
        expect(report.accesses.filter((a) => a.access === 'write')).toHaveLength(2);
        expect(
          report.accesses.every(
            (a) => a.command.name === 'dispatch' && a.commandList.label.endsWith("'mixed accesses'"),
          ),
        ).toBe(true);
        expect(JSON.parse(JSON.stringify(report))).toEqual(report);
        // Cleared: nothing more happened since.
        expect(await s.d3d.readUnmappedAccesses()).toEqual({ resources: [], accesses: [], accessCount: 0, lost: 0 });
        // NULL tiles are not faults.
        expect(await s.d3d.readFaults()).toEqual([]);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest('Tier 1: a NULL read gives the poison value and is still recorded', async ({ device }) => {
    const s = await scene(device, { ...ON, tiledResourcesTier: 1 });
    try {
      const { words, expected } = await accessOps(s, 'tier 1 reads', [
        [TILE + 4, 'read'],
        [3 * TILE + 8, 'write'],
        [4, 'read'],
      ]);
      expect(words[0]).toBe(TIER1_NULL_READ);
      expect(words[2]).toBe(new DataView(s.data.buffer).getUint32(4, true));
      const report = await s.d3d.readUnmappedAccesses();
      expect(canonical(report)).toEqual(canonical(modelReport(s.d3d, expected)));
      expect(report.accessCount).toBe(2);
    } finally {
      s.d3d.destroy();
    }
  });

  gpuTest('faults off, unmapped accesses on: still recorded', async ({ device }) => {
    const s = await scene(device, { gpuValidation: { faults: false, unmappedAccess: true } });
    try {
      const { expected } = await accessOps(s, 'no fault log', OPS);
      expect(canonical(await s.d3d.readUnmappedAccesses())).toEqual(canonical(modelReport(s.d3d, expected)));
    } finally {
      s.d3d.destroy();
    }
  });
});

describe('readUnmappedAccesses: copies and textures', () => {
  gpuTest(
    'copyBufferRegion into a NULL tile records a write per word, out of one a read per word; copyTiles too',
    async ({ device }) => {
      const s = await scene(device, ON);
      try {
        const upload = uploadBuffer(s.d3d, pattern(256, 3));
        let index = -1;
        const into = await run(s, 'copy into NULL', (l) => {
          index = l.commands.length;
          l.copyBufferRegion(s.buffer, TILE + 64, upload, 0, 256);
        });
        const dst = uav(s.d3d, 64);
        let outIndex = -1;
        const out = await run(s, 'copy out of NULL', (l) => {
          // A mapped source word first: copied, not recorded.
          l.copyBufferRegion(dst, 0, s.buffer, 2 * TILE, 16);
          outIndex = l.commands.length;
          l.copyBufferRegion(dst, 16, s.buffer, 3 * TILE + 128, 32);
        });
        const expected: Expected[] = [
          ...Array.from({ length: 64 }, (): Expected => ({
            resource: s.buffer,
            tileIndex: 1,
            list: into,
            index,
            name: 'copyBufferRegion',
            access: 'write',
          })),
          ...Array.from({ length: 8 }, (): Expected => ({
            resource: s.buffer,
            tileIndex: 3,
            list: out,
            index: outIndex,
            name: 'copyBufferRegion',
            access: 'read',
          })),
        ];
        const report = await s.d3d.readUnmappedAccesses();
        expect(canonical(report)).toEqual(canonical(modelReport(s.d3d, expected)));
        const copied = await readBuffer(s.d3d, s.queue, dst, 0, 48);
        expect(Array.from(copied.subarray(0, 16))).toEqual(Array.from(s.data.subarray(TILE, TILE + 16)));
        expect(Array.from(copied.subarray(16, 48))).toEqual(new Array(32).fill(0));
        // readBuffer copied only from a committed buffer: nothing new.
        expect((await s.d3d.readUnmappedAccesses()).accessCount).toBe(0);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    'texel loads and a bilinear sample of NULL texture tiles name the subresource and tile; the mapped tiles are not recorded',
    async ({ device }) => {
      const s = await scene(device, ON);
      try {
        // Mapped: mip 0 tile 0, mip 1 tile 16. NULL: mip 0 tile 5 (x 1, y 1), mip 1 tile 19 (x 1, y 1), mip 2 tile 20.
        const texels = [
          [0, 5, 9],
          [0, 130, 200],
          [1, 3, 3],
          [1, 200, 150],
          [2, 64, 64],
          [0, 250, 250],
        ] as const;
        const loads = await readTexels(s, 'texel loads', texels);
        const statuses = Array.from({ length: texels.length }, (_, i) => loads.results[2 * i]);
        expect(statuses).toEqual(texels.map(([mip, x, y]) => ([0, 16].includes(textureTile(mip, x, y)) ? 1 : 0)));
        const expected: Expected[] = texels
          .map(([mip, x, y]) => textureTile(mip, x, y))
          .filter((tile) => tile !== 0 && tile !== 16)
          .map((tileIndex) => ({
            resource: s.texture,
            tileIndex,
            list: loads.list,
            index: loads.index,
            name: 'dispatch',
            access: 'read',
          }));
        const report = await s.d3d.readUnmappedAccesses();
        expect(canonical(report)).toEqual(canonical(modelReport(s.d3d, expected)));
        expect(report.resources[0]?.tiles).toEqual([
          { tile: 5, x: 1, y: 1, z: 0, subresource: 0 },
          { tile: 19, x: 1, y: 1, z: 0, subresource: 1 },
          { tile: 20, x: 0, y: 0, z: 0, subresource: 2 },
        ]);
        // SampleLevel at lod 0 in the middle of tile 5 (texel 192, 192): four texel loads of tile 5.
        const sample = await readTexels(s, 'sample', [[0, 192, 192]], true);
        expect(sample.results[0]).toBe(0);
        const sampled = await s.d3d.readUnmappedAccesses();
        expect(canonical(sampled)).toEqual(
          canonical(
            modelReport(
              s.d3d,
              Array.from({ length: 4 }, (): Expected => ({
                resource: s.texture,
                tileIndex: 5,
                list: sample.list,
                index: sample.index,
                name: 'dispatch',
                access: 'read',
              })),
            ),
          ),
        );
      } finally {
        s.d3d.destroy();
      }
    },
  );
});

describe('readUnmappedAccesses: counts, clearing and lifetimes', () => {
  gpuTest(
    'more accesses than records: the first N are kept, every access is counted, lost says how many were not kept',
    async ({ device }) => {
      const records = 8;
      const s = await scene(device, { gpuValidation: { unmappedAccess: true, maxUnmappedAccessRecords: records } });
      try {
        // copyTiles of one NULL texture tile (tile 5) out to a buffer: a read of each of its 16,384 words.
        const dst = uav(s.d3d, TILE);
        let index = -1;
        const list = await run(s, 'copy tiles out', (l) => {
          index = l.commands.length;
          l.copyTiles(
            s.texture,
            { x: 1, y: 1, z: 0, subresource: 0 },
            { numTiles: 1 },
            dst,
            0,
            'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
          );
        });
        // And, in a second submission, three NULL buffer accesses.
        const { expected } = await accessOps(s, 'after the copy', [
          [TILE, 'read'],
          [TILE + 4, 'read'],
          [3 * TILE, 'write'],
        ]);
        const report = await s.d3d.readUnmappedAccesses();
        const words = TILE / 4;
        expect(report.accessCount).toBe(words + 3);
        expect(report.accesses).toHaveLength(records);
        expect(report.lost).toBe(words + 3 - records);
        // The first records are the copy's (its submission came first).
        const copyAccess = modelAccess(s.d3d, {
          resource: s.texture,
          tileIndex: 5,
          list,
          index,
          name: 'copyTiles',
          access: 'read',
        });
        expect(report.accesses).toEqual(new Array(records).fill(copyAccess));
        // The bitmap has every tile touched, records or not.
        expect(s.buffer.id).toBeLessThan(s.texture.id);
        expect(report.resources.map((r) => [r.resourceId, r.tiles.map((t) => t.tile)])).toEqual([
          [s.buffer.id, [1, 3]],
          [s.texture.id, [5]],
        ]);
        expect(expected).toHaveLength(3);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    `over ${MAX_SUBMISSIONS_PER_DRAIN} submissions between reads: every access keeps its list and command names`,
    async ({ device }) => {
      const s = await scene(device, ON);
      try {
        const submissions = MAX_SUBMISSIONS_PER_DRAIN + 6;
        const expected: Expected[] = [];
        const upload = uploadBuffer(s.d3d, pattern(4, 1));
        for (let i = 0; i < submissions; i++) {
          const list = s.d3d.createCommandList('DIRECT');
          list.setName(`writer ${i}`);
          list.copyBufferRegion(s.buffer, (i % 2 === 0 ? TILE : 3 * TILE) + 4 * i, upload, 0, 4);
          list.close();
          s.queue.executeCommandLists([list]);
          expected.push({
            resource: s.buffer,
            tileIndex: i % 2 === 0 ? 1 : 3,
            list,
            index: 0,
            name: 'copyBufferRegion',
            access: 'write',
          });
        }
        await flush(s.d3d, s.queue);
        const report = await s.d3d.readUnmappedAccesses();
        expect(canonical(report)).toEqual(canonical(modelReport(s.d3d, expected)));
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    'a released reserved resource: reported while reachable; once freed, its addresses reused, the new resource is not blamed',
    async ({ device }) => {
      const s = await scene(device, ON);
      try {
        const first = s.d3d.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
        first.setName('first');
        const upload = uploadBuffer(s.d3d, pattern(16, 2));
        const list = await run(s, 'touch first', (l) => l.copyBufferRegion(first, TILE, upload, 0, 16));
        const va = first.getGPUVirtualAddress();
        first.release();
        await flush(s.d3d, s.queue);
        // Its memory and addresses are free now; a new resource of its size gets its addresses.
        const second = s.d3d.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
        second.setName('second');
        expect(second.getGPUVirtualAddress()).toBe(va);
        // Work on another resource, then the report: the first resource's accesses, none of the second's.
        await run(s, 'touch second tile 0', (l) => l.copyBufferRegion(second, 0, upload, 0, 4));
        const report = await s.d3d.readUnmappedAccesses();
        // (The first resource is released: GetResourceTiling refuses it, so its access is written out here.)
        const firstAccess: UnmappedAccess = {
          resourceId: first.id,
          resource: first.label,
          subresource: 0,
          tile: { x: 1, y: 0, z: 0, subresource: 0 },
          tileIndex: 1,
          commandList: { id: list.id, label: list.label },
          command: { index: 0, name: 'copyBufferRegion' },
          access: 'write',
        };
        expect(report.accesses.filter((a) => a.resourceId === first.id)).toEqual(new Array(4).fill(firstAccess));
        expect(report.accesses.filter((a) => a.resourceId === second.id).map((a) => a.tileIndex)).toEqual([0]);
        expect(report.resources.map((r) => [r.resource, r.tiles.map((t) => t.tile), r.tileBitmap])).toEqual([
          [first.label, [1], [0b10]],
          [second.label, [0], [0b1]],
        ]);
        expect(report.accessCount).toBe(5);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest('the bitmap grows with the page table and keeps what it held', async ({ device }) => {
    const s = await scene(device, ON);
    try {
      const upload = uploadBuffer(s.d3d, pattern(16, 2));
      await run(s, 'before growth', (l) => l.copyBufferRegion(s.buffer, TILE, upload, 0, 4));
      // 20 GiB of addresses, past the first page table's 16 GiB: the table (and the bitmap) grow.
      const huge = s.d3d.createReservedResource({ dimension: 'BUFFER', width: 20 * 2 ** 30 }, 'COMMON');
      huge.setName('huge');
      const far = (20 * 2 ** 30) / TILE - 1;
      const list = await run(s, 'after growth', (l) => l.copyBufferRegion(huge, far * TILE + 8, upload, 0, 8));
      const report = await s.d3d.readUnmappedAccesses();
      expect(report.resources.map((r) => [r.resourceId, r.tiles.map((t) => t.tile)])).toEqual([
        [s.buffer.id, [1]],
        [huge.id, [far]],
      ]);
      expect(report.accessCount).toBe(3);
      const farAccesses = report.accesses.filter((a) => a.resourceId === huge.id);
      expect(farAccesses).toEqual(
        new Array(2).fill(
          modelAccess(s.d3d, {
            resource: huge,
            tileIndex: far,
            list,
            index: 0,
            name: 'copyBufferRegion',
            access: 'write',
          }),
        ),
      );
    } finally {
      s.d3d.destroy();
    }
  });
});

/** Root SRV 1 read per fragment (root constant 2 == 0) or per vertex (== 1). */
const DRAW = `
struct VertexOut { @builtin(position) position: vec4f, @location(0) color: vec4f }

@vertex fn vs(@builtin(vertex_index) i: u32) -> VertexOut {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  var out: VertexOut;
  out.position = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
  out.color = vec4f(0.0, 0.0, 0.0, 1.0);
  if (d3d12_root_constant(2u) == 1u) {
    out.color = d3d12_unpack_unorm8(d3d12_load(d3d12_address_add(d3d12_root_descriptor(1u), i * 4u)));
  }
  return out;
}

@fragment fn fs(in: VertexOut) -> @location(0) vec4f {
  if (d3d12_root_constant(2u) == 0u) {
    return d3d12_unpack_unorm8(d3d12_load(d3d12_root_descriptor(1u)));
  }
  return in.color;
}
`;

describe('readUnmappedAccesses: draws', () => {
  gpuTest(
    'a fragment shader reading a NULL tile records one read per fragment; a vertex shader, through its replay, one per vertex',
    async ({ device }) => {
      const s = await scene(device, ON);
      const { target, swapChain } = textureSwapChain(s.d3d, device, 8, 8, 'B8G8R8A8_UNORM');
      try {
        const pso = await s.d3d.createGraphicsPipelineState({
          code: DRAW,
          vertexEntryPoint: 'vs',
          fragmentEntryPoint: 'fs',
          rtvFormat: swapChain.format,
          label: 'null reader',
        });
        for (const stage of ['fragment', 'vertex'] as const) {
          const backBuffer = swapChain.getCurrentBackBuffer();
          let index = -1;
          const list = await run(s, `${stage} reads`, (l) => {
            l.omSetRenderTargets([backBuffer]);
            l.setPipelineState(pso);
            l.setGraphicsRootShaderResourceView(1, s.buffer.getGPUVirtualAddress() + BigInt(3 * TILE));
            l.setGraphicsRoot32BitConstant(0, stage === 'vertex' ? 1 : 0, 2);
            index = l.commands.length;
            l.drawInstanced(3, 1);
          });
          const count = stage === 'fragment' ? 8 * 8 : 3;
          const report = await s.d3d.readUnmappedAccesses();
          expect(canonical(report), stage).toEqual(
            canonical(
              modelReport(
                s.d3d,
                Array.from({ length: count }, (): Expected => ({
                  resource: s.buffer,
                  tileIndex: 3,
                  list,
                  index,
                  name: 'drawInstanced',
                  access: 'read',
                })),
              ),
            ),
          );
        }
      } finally {
        target.destroy();
        s.d3d.destroy();
      }
    },
  );

  for (const gpuValidation of [true, false]) {
    gpuTest(
      `gpuValidation ${gpuValidation}: the same draws run (fragment stage without the recording code, the placeholder bound), and record nothing`,
      async ({ device }) => {
        const s = await scene(device, { gpuValidation });
        const { target, swapChain } = textureSwapChain(s.d3d, device, 8, 8, 'B8G8R8A8_UNORM');
        try {
          const pso = await s.d3d.createGraphicsPipelineState({
            code: DRAW,
            vertexEntryPoint: 'vs',
            fragmentEntryPoint: 'fs',
            rtvFormat: swapChain.format,
            label: 'null reader',
          });
          for (const stage of [0, 1]) {
            const backBuffer = swapChain.getCurrentBackBuffer();
            await run(s, 'draw', (l) => {
              l.omSetRenderTargets([backBuffer]);
              l.clearRenderTargetView(backBuffer, [1, 1, 1, 1]);
              l.setPipelineState(pso);
              l.setGraphicsRootShaderResourceView(1, s.buffer.getGPUVirtualAddress() + BigInt(3 * TILE));
              l.setGraphicsRoot32BitConstant(0, stage, 2);
              l.drawInstanced(3, 1);
            });
          }
          expect(s.d3d.getDeviceRemovedReason()).toBe('S_OK');
          expect(await s.d3d.readFaults()).toEqual([]);
          await expectD3D12Rejection(s.d3d.readUnmappedAccesses(), {
            hresult: 'DXGI_ERROR_INVALID_CALL',
            call: 'readUnmappedAccesses',
          });
        } finally {
          target.destroy();
          s.d3d.destroy();
        }
      },
    );
  }
});

describe('unmappedAccess off', () => {
  gpuTest(
    'readUnmappedAccesses is DXGI_ERROR_INVALID_CALL; nothing is written to the placeholder; every result is what it is with the option on',
    async ({ device }) => {
      const results: unknown[] = [];
      for (const gpuValidation of [true, { unmappedAccess: true }] as const) {
        const s = await scene(device, { gpuValidation });
        try {
          const { words } = await accessOps(s, 'mixed accesses', OPS);
          const texels = await readTexels(s, 'texel loads', [
            [0, 5, 9],
            [0, 130, 200],
            [1, 200, 150],
          ]);
          const upload = uploadBuffer(s.d3d, pattern(256, 3));
          await run(s, 'copy into NULL', (l) => l.copyBufferRegion(s.buffer, TILE + 64, upload, 0, 256));
          const tiles = await readBuffer(s.d3d, s.queue, s.buffer, 0, 4 * TILE);
          results.push({ words: Array.from(words), texels: Array.from(texels.results), tiles: Array.from(tiles) });
          if (gpuValidation === true) {
            await expectD3D12Rejection(s.d3d.readUnmappedAccesses(), {
              hresult: 'DXGI_ERROR_INVALID_CALL',
              call: 'readUnmappedAccesses',
              argument: 'this',
            });
            // The placeholder bound in the log's place is untouched.
            const placeholder = (deviceContext(s.d3d).backend as unknown as { unmappedPlaceholder: GPUBuffer })
              .unmappedPlaceholder;
            const staging = device.createBuffer({
              size: placeholder.size,
              usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
            });
            const encoder = device.createCommandEncoder();
            encoder.copyBufferToBuffer(placeholder, 0, staging, 0, placeholder.size);
            device.queue.submit([encoder.finish()]);
            await staging.mapAsync(GPUMapMode.READ);
            expect(Array.from(new Uint32Array(staging.getMappedRange().slice(0)))).toEqual(
              new Array(placeholder.size / 4).fill(0),
            );
            staging.destroy();
          } else {
            expect((await s.d3d.readUnmappedAccesses()).accessCount).toBeGreaterThan(0);
          }
        } finally {
          s.d3d.destroy();
        }
      }
      expect(results[0]).toEqual(results[1]);
    },
  );

  gpuTest(
    'a destroyed device returns an empty report; a removed one still reports what it recorded',
    async ({ device }) => {
      const s = await scene(device, { gpuValidation: { unmappedAccess: true }, onPageFault: 'remove-device' });
      await accessOps(s, 'null reads', [[TILE, 'read']]);
      // A read past the buffer's end (its guard page) faults and removes the device.
      const reader = await s.d3d.createComputePipelineState({
        code: '@compute @workgroup_size(1) fn main() { _ = d3d12_load(d3d12_root_descriptor(1u)); }',
        entryPoint: 'main',
      });
      await run(s, 'fault', (l) => {
        l.setPipelineState(reader);
        l.setComputeRootShaderResourceView(1, s.buffer.getGPUVirtualAddress() + BigInt(4 * TILE));
        l.dispatch(1);
      });
      await s.d3d.readFaults();
      expect(s.d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_HUNG');
      expect((await s.d3d.readUnmappedAccesses()).accessCount).toBe(1);
      s.d3d.destroy();
      expect(await s.d3d.readUnmappedAccesses()).toEqual({ resources: [], accesses: [], accessCount: 0, lost: 0 });
    },
  );
});
