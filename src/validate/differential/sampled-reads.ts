/**
 * A checkpoint's sampled reads: texels of the standard mips of each live 2D R8G8B8A8_UNORM reserved
 * texture, loaded by a shader through the prelude's d3d12_tex2d_load
 * (shaders/validate_sampled_reads.wgsl: the texel, and whether it was fully mapped), twice. The first
 * pass runs in the checkpoint's read-back submission: pages the texture cache
 * (docs/texture-cache.md) still holds from an earlier checkpoint are read from their copies, so a
 * write since then that left a copy stale shows here. The second runs in a submission of its own,
 * which starts by filling the cache with the pages the first requested: every texel from a copy.
 * Both are compared with the CPU reference (the texture's tiles as CopyTiles lays them out: each
 * tile's texels row-major), so random write sequences are checked through the cache as well as
 * through copies.
 *
 * Which texels: all of them, up to SAMPLED_TEXELS a pass; past it every `stride`-th texel (row-major,
 * mip by mip) from a first one that moves with each checkpoint. A stale copy stays stale until its
 * page is written again, so the checkpoints after it read its texels in turn.
 *
 * Invariants: the reads run while every memory is resident (the checkpoint made them so) and
 * change nothing the run models (their output buffer and descriptors are the checkpoint's own);
 * they draw nothing from the run's generator, so a seed replays the same operations with or
 * without them.
 */
import type { Device } from '../../d3d12/device.js';
import type { GraphicsCommandList } from '../../d3d12/command-list.js';
import type { PipelineState } from '../../d3d12/pipeline-state.js';
import type { Resource } from '../../d3d12/resource.js';
import SAMPLED_READS from '../../../shaders/validate_sampled_reads.wgsl?raw';
import { roundUp, TILE } from '../bytes.js';
import { uploadBuffer } from '../d3d12-io.js';
import type { Findings } from '../findings.js';
import type { RunnerState } from './runner.js';
import type { ResourceEntry, Slots } from './world.js';

/** Bytes a thread of validate_sampled_reads.wgsl writes: the packed texel, then 1 when fully mapped. */
const TEXEL_BYTES = 8;
/** Texels a pass reads at most (tens of milliseconds on SwiftShader). */
const SAMPLED_TEXELS = 8192;

const pipelines = new WeakMap<Device, Promise<PipelineState>>();

/** The load shader for `device`, compiled the first time a checkpoint has a texture to read. */
function pipelineFor(device: Device): Promise<PipelineState> {
  let pipeline = pipelines.get(device);
  if (!pipeline) {
    pipeline = device.createComputePipelineState({
      code: SAMPLED_READS,
      entryPoint: 'main',
      label: 'differential sampled reads',
    });
    pipelines.set(device, pipeline);
  }
  return pipeline;
}

interface MipRead {
  mip: number;
  width: number;
  /** The texels read: first, first + stride, ... (row-major), `threads` of them. */
  threads: number;
  /** Byte offset of its first texel in a pass's output. */
  offset: number;
}

interface TextureRead {
  entry: ResourceEntry;
  descriptor: Resource;
  tile: { width: number; height: number };
  mips: MipRead[];
}

const isRgba8Texture2D = (entry: ResourceEntry): boolean => {
  const desc = entry.resource.getDesc();
  return (
    entry.kind === 'texture' &&
    desc.dimension === 'TEXTURE2D' &&
    desc.format === 'R8G8B8A8_UNORM' &&
    (entry.grid?.standard.length ?? 0) > 0
  );
};

export class SampledReads {
  private constructor(
    private readonly pipeline: PipelineState,
    private readonly textures: TextureRead[],
    private readonly stride: number,
    private readonly first: number,
    /** Both passes' output, the second from `bytes` on. */
    readonly out: Resource,
    /** Bytes of one pass's output. */
    readonly bytes: number,
  ) {}

  /**
   * The reads of the live RGBA8 2D textures at checkpoint `checkpoint` (which texels, when they are
   * more than a pass reads), or undefined when there is none.
   */
  static async plan(s: RunnerState, checkpoint: number): Promise<SampledReads | undefined> {
    const entries = s.live(isRgba8Texture2D);
    if (entries.length === 0) return undefined;
    const sizes = entries.map((entry) => {
      const desc = entry.resource.getDesc();
      return (entry.grid?.standard ?? []).map((_, mip) => ({
        width: Math.max(1, desc.width >> mip),
        height: Math.max(1, desc.height >> mip),
      }));
    });
    const texels = sizes.flat().reduce((sum, { width, height }) => sum + width * height, 0);
    const stride = Math.ceil(texels / SAMPLED_TEXELS);
    const first = checkpoint % stride;
    const pipeline = await pipelineFor(s.device);
    let bytes = 0;
    const textures = entries.map((entry, e): TextureRead => {
      const shape = s.device.getResourceTiling(entry.resource).standardTileShapeForNonPackedMips;
      const words = s.device.writeTextureDescriptor(entry.resource);
      const mips = (sizes[e] ?? []).map(({ width, height }, mip): MipRead => {
        const threads = Math.max(0, Math.ceil((width * height - first) / stride));
        const read = { mip, width, threads, offset: bytes };
        bytes += roundUp(Math.max(threads, 1) * TEXEL_BYTES, 256);
        return read;
      });
      return {
        entry,
        descriptor: uploadBuffer(s.device, new Uint8Array(words.buffer, words.byteOffset, words.byteLength)),
        tile: { width: shape.widthInTexels, height: shape.heightInTexels },
        mips,
      };
    });
    const out = s.device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 2 * bytes, flags: ['ALLOW_UNORDERED_ACCESS'] },
      'COMMON',
    );
    out.setName('checkpoint sampled reads');
    return new SampledReads(pipeline, textures, stride, first, out, bytes);
  }

  /** Records pass `pass` (0 or 1): one dispatch per mip of each texture. */
  record(list: GraphicsCommandList, pass: 0 | 1): void {
    list.setPipelineState(this.pipeline);
    for (const { descriptor, mips } of this.textures) {
      for (const { mip, width, threads, offset } of mips) {
        if (threads === 0) continue;
        list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
        list.setComputeRootUnorderedAccessView(2, this.out.getGPUVirtualAddress() + BigInt(pass * this.bytes + offset));
        list.setComputeRoot32BitConstants(0, [mip, width, threads, this.stride, this.first]);
        list.dispatch(Math.ceil(threads / 64));
      }
    }
  }

  /**
   * The second pass in a submission of its own (which fills the cache first), then both passes'
   * output copied into `readback` from `at` on.
   */
  submitSecondPass(s: RunnerState, readback: Resource, at: number): void {
    const list = s.batch.takeList();
    this.record(list, 1);
    list.resourceBarrier([{ type: 'UAV', uav: { resource: this.out } }]);
    list.copyBufferRegion(readback, at, this.out, 0, 2 * this.bytes);
    list.close();
    s.queue.executeCommandLists([list]);
    s.batch.giveBack(list);
    s.count('checkpoint: sampled reads (RGBA8 2D texture)');
  }

  /** Both passes' output (`bytes`: 2 × this.bytes) against the CPU reference; the first difference of each pass is a finding. */
  compare(s: RunnerState, f: Findings, index: number, operation: string, bytes: Uint8Array): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const texture of this.textures) {
      const tiles = new Map<number, DataView>();
      const tileBytes = (tile: number): DataView => {
        let read = tiles.get(tile);
        if (!read) {
          const bytes = s.cpu.read(texture.entry, tile * TILE, TILE);
          tiles.set(tile, (read = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
        }
        return read;
      };
      for (const pass of [0, 1] as const) {
        const difference = this.firstDifference(texture, tileBytes, view, pass * this.bytes);
        f.bytesCompared += texture.mips.reduce((sum, m) => sum + m.threads * TEXEL_BYTES, 0);
        if (difference)
          f.add(
            index,
            operation,
            `texels of ${texture.entry.name} (${texture.entry.resource.label}) read by d3d12_tex2d_load ${pass === 0 ? 'in the read-back submission (from the texture cache where it still held their pages)' : 'in the next submission (from the texture cache)'}`,
            difference,
          );
      }
    }
  }

  /** The first texel of a pass (its output from `base`) that differs from the reference, in words. */
  private firstDifference(
    { entry, tile, mips }: TextureRead,
    tileBytes: (tile: number) => DataView,
    view: DataView,
    base: number,
  ): string | undefined {
    const hex = (word: number): string => `0x${word.toString(16).padStart(8, '0')}`;
    for (const { mip, width, threads, offset } of mips) {
      const sub = entry.grid?.standard[mip];
      if (!sub) continue;
      for (let thread = 0; thread < threads; thread++) {
        const i = this.first + thread * this.stride;
        const [x, y] = [i % width, Math.floor(i / width)];
        const t = sub.start + Math.floor(x / tile.width) + Math.floor(y / tile.height) * sub.width;
        const at = ((y % tile.height) * tile.width + (x % tile.width)) * 4;
        const expected = tileBytes(t).getUint32(at, true);
        const mapped = (entry.slots as Slots)[t] ? 1 : 0;
        const out = base + offset + thread * TEXEL_BYTES;
        const [actual, status] = [view.getUint32(out, true), view.getUint32(out + 4, true)];
        if (actual !== expected || status !== mapped)
          return `mip ${mip} texel (${x}, ${y}) (tile ${t}): read ${hex(actual)}, fully mapped ${status}; expected ${hex(expected)}, ${mapped}`;
      }
    }
    return undefined;
  }

  release(): void {
    for (const { descriptor } of this.textures) descriptor.release();
    this.out.release();
  }
}
