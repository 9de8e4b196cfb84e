/**
 * Texture sample's library side (texture-sample.ts is the figure): an emulated device on the
 * figure's GPU device holding the texels as a reserved RGBA8 texture, every tile mapped in order onto
 * one heap and filled with copyTiles from UPLOAD, the texture's descriptor in a DEFAULT buffer, the
 * kernels of texture-sample.wgsl over the prelude, and command lists of their dispatches. The figure
 * makes two: one with the texture cache and texture mirrors (createDevice's defaults) and one with
 * both off (textureCacheBytes and textureMirrorBytes 0), so what they buy is measured in the same run.
 */
import { createDevice, TILE_SIZE, type GraphicsCommandList } from '../../src/index.js';
import { fencedQueue } from './figure.js';
import { mappedRgba8Texture } from './mapped-texture.js';
import { kernelTimer, type KernelTimer } from './kernel-timer.js';
import { tiledBytes } from './texture-sample-texels.js';
import kernelsWgsl from './texture-sample.wgsl?raw';
import d3d12Wgsl from './texture-sample-d3d12.wgsl?raw';

/** A timestamp query heap's result memory, and the descriptor's: one 64 KiB page each. */
const PAGE = TILE_SIZE;
const roundUp = (bytes: number): number => Math.ceil(bytes / PAGE) * PAGE;

export type Kernel = 'load_texels' | 'sample_texels';

export interface LibrarySide {
  timer: KernelTimer;
  /** A list of `dispatches` dispatches of `kernel` over `groups`² workgroups; `before` records first (timestamps after it). */
  list(
    kernel: Kernel,
    constants: number[],
    dispatches: number,
    groups: number,
    before?: (list: GraphicsCommandList) => void,
  ): GraphicsCommandList;
  /** Runs `lists`, then reads the first `bytes` of the results. */
  results(lists: GraphicsCommandList[], bytes: number): Promise<Uint32Array>;
  /** Records a copyTiles of the rewrite tile's texels over tile `tile` of mip 0. */
  rewriteTile(list: GraphicsCommandList, tile: { x: number; y: number }): void;
  /** Executes `list` and waits for its fence (timed rounds; every call before it has settled). */
  run(list: GraphicsCommandList): Promise<void>;
  removedReason(): string;
  destroy(): void;
}

export interface LibraryOptions {
  side: number;
  mips: number;
  /** The texels of every mip, mip 0 first. */
  chain: Uint8Array[];
  outputBytes: number;
  /** One tile of other texels (TILE_SIZE bytes) that rewriteTile copies over a tile. */
  rewrite: Uint8Array;
  /** createDevice's textureCacheBytes (0 for none): given, since a CPU adapter's default is none. */
  textureCacheBytes: number;
  /** createDevice's textureMirrorBytes (0 for none), given for the same reason. */
  textureMirrorBytes: number;
}

export async function librarySide(gpuDevice: GPUDevice, options: LibraryOptions): Promise<LibrarySide> {
  const { side, mips, chain, outputBytes } = options;
  // The pools are sized before the texture exists: its texels rounded up to tiles, and one tile more
  // for the mip tail's rounding (standard mips of a power-of-two texture fill whole tiles).
  const chainBytes = chain.reduce((sum, texels) => sum + texels.byteLength, 0);
  const textureBytesAtMost = roundUp(chainBytes) + PAGE;
  // Local: the heap, the descriptor, the results, a query heap. Non-local: the upload (texels,
  // descriptor and the rewrite tile), the results' readback, the timestamps' readback.
  const device = await createDevice({
    gpuDevice,
    localMemoryBytes: textureBytesAtMost + PAGE + roundUp(outputBytes) + PAGE,
    nonLocalMemoryBytes: textureBytesAtMost + 2 * PAGE + roundUp(outputBytes) + PAGE,
    textureCacheBytes: options.textureCacheBytes,
    textureMirrorBytes: options.textureMirrorBytes,
  });
  try {
    const { queue, settle } = fencedQueue(device);
    const { texture, tiles } = mappedRgba8Texture(device, queue, side, side, mips);
    const tiling = device.getResourceTiling(texture);
    const textureBytes = tiles * TILE_SIZE;
    const upload = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: textureBytes + 2 * PAGE },
      'GENERIC_READ',
    );
    const words = device.writeTextureDescriptor(texture);
    const mapped = upload.map();
    mapped.set(tiledBytes(tiling, chain, side, TILE_SIZE));
    mapped.set(new Uint8Array(words.buffer, words.byteOffset, words.byteLength), textureBytes);
    mapped.set(options.rewrite, textureBytes + PAGE);
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
    const readback = device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: outputBytes },
      'COPY_DEST',
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
    fill.close();
    queue.executeCommandLists([fill]);
    await settle();

    const psos = new Map<Kernel, Awaited<ReturnType<typeof device.createComputePipelineState>>>();
    for (const kernel of ['load_texels', 'sample_texels'] as const)
      psos.set(
        kernel,
        await device.createComputePipelineState({
          label: `texture-sample: ${kernel} through the prelude`,
          code: `${kernelsWgsl}\n${d3d12Wgsl}`,
          entryPoint: kernel,
        }),
      );
    const timer = kernelTimer(gpuDevice, device, 'texture-sample');
    return {
      timer,
      list(kernel, constants, dispatches, groups, before) {
        const list = device.createCommandList('COMPUTE');
        before?.(list);
        list.setPipelineState(psos.get(kernel) as NonNullable<ReturnType<typeof psos.get>>);
        list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
        list.setComputeRootUnorderedAccessView(2, output.getGPUVirtualAddress());
        list.setComputeRoot32BitConstants(0, constants, 0);
        timer.beginList(list);
        for (let i = 0; i < dispatches; i++) list.dispatch(groups, groups, 1);
        timer.endList(list);
        list.close();
        return list;
      },
      async results(lists, bytes) {
        const copy = device.createCommandList('COMPUTE');
        copy.copyBufferRegion(readback, 0, output, 0, bytes);
        copy.close();
        queue.executeCommandLists([...lists, copy]);
        await settle();
        const values = new Uint32Array(readback.map().slice(0, bytes).buffer);
        readback.unmap(0, { begin: 0, end: 0 });
        return values;
      },
      rewriteTile(list, tile) {
        list.copyTiles(
          texture,
          { ...tile, z: 0, subresource: 0 },
          { numTiles: 1 },
          upload,
          textureBytes + PAGE,
          'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE',
        );
      },
      async run(list) {
        queue.executeCommandLists([list]);
        await settle();
      },
      removedReason: () =>
        device.getDeviceRemovedReason() === 'S_OK'
          ? 'S_OK'
          : (device.getPageFaultReport()?.message ?? device.getDeviceRemovedReason()),
      destroy() {
        timer.destroy();
        device.destroy();
      },
    };
  } catch (error) {
    device.destroy();
    throw error;
  }
}
