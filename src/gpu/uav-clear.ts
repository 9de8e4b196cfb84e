/**
 * The UAV clear kernel (shaders/uav_clear.wgsl): the dispatches a clearUnorderedAccessView* becomes,
 * as root constants and workgroup counts (GPU-free arithmetic, from the kernel's reflected constants),
 * and its pipeline, created when a clear is first executed on a device.
 *
 * Invariants: every destination word of a clear is written by exactly one invocation of one
 * dispatch (texels of 4 bytes and more one each; smaller texels, and buffer bytes, a word's worth
 * each; a 3D packed mip's depth slices share words, so its words run over all of them in one
 * dispatch), so partial words merge without races; no dispatch exceeds WebGPU's 65535 workgroups
 * per dimension; buffer runs start 16-byte aligned, so the pattern's word i lands on words i mod 4.
 */
import clearWgsl from '../../shaders/uav_clear.wgsl?raw';
import type { Rect } from '../api/types.js';
import type { ResourceLayout } from '../memory/tiling.js';
import { kernelPipelineNow } from './pipelines.js';
import { preludeConstant, requireConstant, requireWorkgroupSize } from './prelude.js';
import { mipEntry, slicePitchUnits } from './texture-words.js';

const constant = (name: string): number => requireConstant(clearWgsl, name, 'uav_clear.wgsl');

const WORKGROUP = requireWorkgroupSize(clearWgsl, 'd3d12_clear', 'uav_clear.wgsl');
const MODE = {
  texels: constant('D3D12_CLEAR_MODE_TEXELS'),
  wordTexels: constant('D3D12_CLEAR_MODE_WORD_TEXELS'),
  tailWords: constant('D3D12_CLEAR_MODE_TAIL_WORDS'),
  buffer: constant('D3D12_CLEAR_MODE_BUFFER'),
};
const AT = {
  mode: constant('D3D12_CLEAR_MODE'),
  base: constant('D3D12_CLEAR_BASE'),
  bits: constant('D3D12_CLEAR_BITS'),
  rect: constant('D3D12_CLEAR_RECT'),
  firstSlice: constant('D3D12_CLEAR_FIRST_SLICE'),
  level: constant('D3D12_CLEAR_LEVEL'),
  firstWord: constant('D3D12_CLEAR_FIRST_WORD'),
  mip: constant('D3D12_CLEAR_MIP'),
  texture: constant('D3D12_CLEAR_TEXTURE'),
  volume: constant('D3D12_CLEAR_VOLUME'),
};
/** WebGPU's floor for maxComputeWorkgroupsPerDimension. */
const MAX_GROUPS = 65535;
/** Words one dispatch of a 1D mode covers (a multiple of 4: runs keep the pattern's phase). */
const WORDS_PER_DISPATCH = MAX_GROUPS * WORKGROUP;

export interface ClearDispatch {
  root: Uint32Array;
  groups: [number, number, number];
}

export interface TextureClear {
  /** The texture's GPU virtual address. */
  address: bigint;
  layout: ResourceLayout;
  /** Mip 0's size (height 1 for a 1D texture). */
  width: number;
  height: number;
  bytesPerTexel: number;
  mip: number;
  /** Array slices; for a 3D texture (a TEXTURE3D layout), depth slices of the mip. */
  firstSlice: number;
  sliceCount: number;
  /** Inside the mip, none empty. */
  rects: readonly Rect[];
  /** One texel's bits. */
  element: Uint8Array;
}

export interface BufferClear {
  /** The buffer's GPU virtual address (64 KiB aligned). */
  address: bigint;
  /** Byte ranges [start, end) of the buffer. */
  ranges: readonly { start: number; end: number }[];
  /** What each 16-byte-aligned 16 bytes receive. */
  pattern: Uint8Array;
}

function words(bytes: Uint8Array): Uint32Array {
  const padded = new Uint8Array(16);
  padded.set(bytes.subarray(0, 16));
  return new Uint32Array(padded.buffer);
}

function rootWith(mode: number, address: bigint, bits: Uint32Array): Uint32Array {
  const root = new Uint32Array(preludeConstant('D3D12_ROOT_CONSTANT_COUNT'));
  root[AT.mode] = mode;
  root[AT.base] = Number(address & 0xffffffffn);
  root[AT.base + 1] = Number(address >> 32n);
  root.set(bits, AT.bits);
  return root;
}

/** The dispatches of a texture clear: per rectangle, one over every slice of the view (runs of a large packed mip split). */
export function textureClearDispatches(clear: TextureClear): ClearDispatch[] {
  const { layout, bytesPerTexel: bpt } = clear;
  const mip = layout.mips[clear.mip];
  if (!mip) throw new RangeError(`mip ${clear.mip} is not in the layout`);
  const bits = words(clear.element);
  const perWord = Math.max(1, 4 / bpt);
  const volume = layout.dimension === 'TEXTURE3D';
  const dispatches: ClearDispatch[] = [];
  const add = (mode: number, rect: Rect, groups: [number, number, number], firstWord = 0): void => {
    const root = rootWith(mode, clear.address, bits);
    root.set([rect.left, rect.top, rect.right, rect.bottom], AT.rect);
    root[AT.firstSlice] = clear.firstSlice;
    root[AT.level] = clear.mip;
    root[AT.firstWord] = firstWord;
    root.set(mipEntry(mip), AT.mip);
    root.set(
      [
        clear.width,
        clear.height,
        layout.mipLevels,
        bpt,
        layout.tileShape.widthInTexels,
        layout.tileShape.heightInTexels,
        layout.standardTilesPerSlice,
        layout.arraySize,
        slicePitchUnits(layout),
      ],
      AT.texture,
    );
    if (volume)
      root.set(
        [layout.tileShape.depthInTexels, mip.heightInTiles, mip.depthPitch, clear.firstSlice + clear.sliceCount],
        AT.volume,
      );
    dispatches.push({ root, groups });
  };
  for (const rect of clear.rects) {
    const rows = rect.bottom - rect.top;
    if (bpt >= 4) {
      add(MODE.texels, rect, [Math.ceil((rect.right - rect.left) / WORKGROUP), rows, clear.sliceCount]);
    } else if (!mip.packed) {
      const groupsOfWord = Math.floor((rect.right - 1) / perWord) - Math.floor(rect.left / perWord) + 1;
      add(MODE.wordTexels, rect, [Math.ceil(groupsOfWord / WORKGROUP), rows, clear.sliceCount]);
    } else {
      // The words holding the rectangle's rows, counted from the packed mip's first byte; in a 3D
      // mip, from the first depth slice's to the last's, one run over them all.
      const [firstDepth, lastDepth] = volume
        ? [clear.firstSlice * mip.depthPitch, (clear.firstSlice + clear.sliceCount - 1) * mip.depthPitch]
        : [0, 0];
      const first = Math.floor((firstDepth + rect.top * mip.rowPitch + rect.left * bpt) / 4);
      const end = Math.ceil((lastDepth + (rect.bottom - 1) * mip.rowPitch + rect.right * bpt) / 4);
      for (let word = first; word < end; word += WORDS_PER_DISPATCH) {
        add(
          MODE.tailWords,
          rect,
          [Math.ceil(Math.min(WORDS_PER_DISPATCH, end - word) / WORKGROUP), 1, volume ? 1 : clear.sliceCount],
          word,
        );
      }
    }
  }
  return dispatches;
}

/** The dispatches of a buffer clear: per range, runs of at most WORDS_PER_DISPATCH words from a 16-byte boundary. */
export function bufferClearDispatches(clear: BufferClear): ClearDispatch[] {
  const bits = words(clear.pattern);
  const dispatches: ClearDispatch[] = [];
  for (const { start, end } of clear.ranges) {
    for (let run = Math.floor(start / 16) * 16; run < end; run += WORDS_PER_DISPATCH * 4) {
      const root = rootWith(MODE.buffer, clear.address + BigInt(run), bits);
      root.set([Math.max(0, start - run), Math.min(end - run, WORDS_PER_DISPATCH * 4)], AT.rect);
      dispatches.push({
        root,
        groups: [Math.ceil(Math.min(WORDS_PER_DISPATCH, Math.ceil((end - run) / 4)) / WORKGROUP), 1, 1],
      });
    }
  }
  return dispatches;
}

/** The clear kernel of a device (the prelude variant that records unmapped accesses, when the device does). */
export function uavClearKernel(device: GPUDevice, unmappedAccess: boolean): GPUComputePipeline {
  return kernelPipelineNow(device, 'uav clear', clearWgsl, 'd3d12_clear', unmappedAccess);
}
