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
  | 'textureCache',
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
  };
  return infoWords;
}

/** Bytes between consecutive dispatches' constants on `device`. */
export function dispatchInfoStride(device: GPUDevice): number {
  const alignment = device.limits.minUniformBufferOffsetAlignment;
  return Math.ceil(preludeLayout().dispatchInfo.size / alignment) * alignment;
}

/** A dispatch's constants with the command they run for: the list's id and the command's index in it. */
export type PlannedDispatch = DispatchConstants & { list: number; index: number };

/** The constants buffer's bytes for `dispatches`, in order, at `stride`. */
export function packDispatchInfo(
  dispatches: readonly PlannedDispatch[],
  stride: number,
  settings: ExecutionSettings,
  unmapped: UnmappedAccessBinding,
  /** Whether the texture cache has its atlas (src/gpu/texture-cache.ts). */
  textureCache: boolean,
): ArrayBuffer {
  const info = new ArrayBuffer(dispatches.length * stride);
  const words = new Uint32Array(info);
  const at = dispatchInfoWords();
  dispatches.forEach((dispatch, i) => {
    const base = (i * stride) / 4;
    // Root arguments (D3D12_ROOT_ARGUMENT_WORDS at most; a copy's four constants, say, are fewer).
    words.set(dispatch.root, base + at.root);
    words[base + at.commandList] = dispatch.list;
    words[base + at.commandIndex] = dispatch.index;
    words[base + at.tier] = settings.tiledResourcesTier;
    words[base + at.validation] = settings.validation ? 1 : 0;
    if (dispatch.draw) words.set(dispatch.draw, base + at.draw);
    // draw_indexed, index_buffer and vertex_buffers follow each other (common.wgsl).
    if (dispatch.assembler) words.set(dispatch.assembler, base + at.drawIndexed);
    words[base + at.unmappedAccess] = unmapped.recording ? 1 : 0;
    words[base + at.submission] = unmapped.submission;
    words[base + at.textureCache] = textureCache ? 1 : 0;
  });
  return info;
}
