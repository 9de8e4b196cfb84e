/**
 * The per-dispatch constants buffer's bytes: one D3D12DispatchInfo (the prelude's struct) per
 * dispatch or draw, at a stride of the device's minUniformBufferOffsetAlignment, bound at a dynamic
 * offset per dispatch.
 */
import { memberOffset, preludeLayout } from '../prelude.js';
import type { UnmappedAccessBinding } from '../unmapped-access-log.js';
import type { DispatchConstants } from './encode-context.js';
import type { ExecutionSettings } from './executable-commands.js';

/** Word offsets of D3D12DispatchInfo's members (read once from the prelude's layout). */
type InfoWords = Record<
  | 'root'
  | 'commandList'
  | 'commandIndex'
  | 'tier'
  | 'validation'
  | 'draw'
  | 'drawIndexed'
  | 'unmappedAccess'
  | 'submission'
  | 'textureCache'
  | 'mirrorSet'
  | 'mirrorIds'
  | 'mirrorAddresses',
  number
>;
let infoWords: InfoWords | undefined;
function dispatchInfoWords(): InfoWords {
  if (infoWords) return infoWords;
  const at = preludeLayout().dispatchInfo;
  const word = (member: string): number => memberOffset(at, member) / 4;
  infoWords = {
    root: word('root'),
    commandList: word('command_list'),
    commandIndex: word('command_index'),
    tier: word('tiled_resources_tier'),
    validation: word('validation'),
    draw: word('draw'),
    drawIndexed: word('draw_indexed'),
    unmappedAccess: word('unmapped_access'),
    submission: word('submission'),
    textureCache: word('texture_cache'),
    mirrorSet: word('mirror_set'),
    mirrorIds: word('mirror_ids'),
    mirrorAddresses: word('mirror_addresses'),
  };
  return infoWords;
}

/**
 * Strides by device: a device's limits never change, and `device.limits` is a native getter that
 * builds a new object at each read (Dawn's Node.js binding), at every submission otherwise.
 */
const strides = new WeakMap<GPUDevice, number>();

/** Bytes between consecutive dispatches' constants on `device`. */
export function dispatchInfoStride(device: GPUDevice): number {
  let stride = strides.get(device);
  if (stride === undefined) {
    const alignment = device.limits.minUniformBufferOffsetAlignment;
    stride = Math.ceil(preludeLayout().dispatchInfo.size / alignment) * alignment;
    strides.set(device, stride);
  }
  return stride;
}

/** A dispatch's constants with the command they run for: the list's id and the command's index in it. */
export type PlannedDispatch = DispatchConstants & { list: number; index: number };

/**
 * Where the constants are packed, reused by every submission: a new ArrayBuffer per submission
 * took about 2 µs at the median in the submit-overhead figure's process (Node.js, Dawn on
 * SwiftShader), with outliers of milliseconds; filling this one takes well under one.
 */
let scratch = new Uint32Array(0);

/**
 * The constants buffer's bytes for `dispatches`, in order, at `stride`: a view of memory the next
 * call reuses, so it is valid until then (the queue write that sends it copies it at once).
 */
export function packDispatchInfo(
  dispatches: readonly PlannedDispatch[],
  stride: number,
  settings: ExecutionSettings,
  unmapped: UnmappedAccessBinding,
  /** Whether the texture cache has its atlas (src/gpu/texture-cache.ts). */
  textureCache: boolean,
): Uint8Array {
  const wordCount = (dispatches.length * stride) / 4;
  if (scratch.length < wordCount) scratch = new Uint32Array(Math.max(wordCount, 2 * scratch.length));
  const words = scratch.subarray(0, wordCount);
  // Members a dispatch does not set (a dispatch's draw words, padding) are zero, as in a new buffer.
  words.fill(0);
  const at = dispatchInfoWords();
  const tier = settings.tiledResourcesTier;
  const validation = settings.validation ? 1 : 0;
  const recording = unmapped.recording ? 1 : 0;
  const cache = textureCache ? 1 : 0;
  for (let i = 0; i < dispatches.length; i++) {
    const dispatch = dispatches[i] as PlannedDispatch;
    const base = (i * stride) / 4;
    // Root arguments (D3D12_ROOT_ARGUMENT_WORDS at most; a copy's four constants, say, are fewer).
    words.set(dispatch.root, base + at.root);
    words[base + at.commandList] = dispatch.list;
    words[base + at.commandIndex] = dispatch.index;
    words[base + at.tier] = tier;
    words[base + at.validation] = validation;
    if (dispatch.draw) words.set(dispatch.draw, base + at.draw);
    // draw_indexed, index_buffer and vertex_buffers follow each other (common.wgsl).
    if (dispatch.assembler) words.set(dispatch.assembler, base + at.drawIndexed);
    words[base + at.unmappedAccess] = recording;
    words[base + at.submission] = unmapped.submission;
    words[base + at.textureCache] = cache;
    const mirrors = dispatch.mirrors;
    if (mirrors) {
      words[base + at.mirrorSet] = mirrors.index;
      words.set(mirrors.ids, base + at.mirrorIds);
      words.set(mirrors.addresses, base + at.mirrorAddresses);
    }
  }
  return new Uint8Array(words.buffer, 0, wordCount * 4);
}
