/**
 * The input assembler's calls (ID3D12GraphicsCommandList on DIRECT lists), checked as the runtime and
 * debug layer check them: IASetPrimitiveTopology, IASetVertexBuffers, IASetIndexBuffer and
 * DrawIndexedInstanced's counts. What needs the list (a pipeline whose topology type matches) stays
 * with it (src/commands/draw-state.ts).
 *
 * Rules: a topology of D3D_PRIMITIVE_TOPOLOGY the emulator draws (lists and strips of points, lines
 * and triangles, or UNDEFINED, which no draw takes); vertex buffer slots [StartSlot, StartSlot +
 * NumViews) within the 32; a view's BufferLocation a 64-bit address (0: the slot reads 0), its size a
 * UINT, its stride at most 2048 (D3D12_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES); an index buffer
 * view's format R16_UINT or R32_UINT and its address a multiple of the index size (or null: no index
 * buffer); DrawIndexedInstanced's counts UINTs and BaseVertexLocation an INT.
 */
import { invalidArg, show, type Checked } from '../api/errors.js';
import {
  PRIMITIVE_TOPOLOGY_NAMES,
  type IaPrimitiveTopology,
  type IndexBufferView,
  type VertexBufferView,
} from '../api/binding-types.js';
import { checkInteger, checkName, isObject, type Problem } from './common.js';
import { INPUT_SLOTS } from './input-layout.js';

/** D3D12_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES. */
const MAX_STRIDE = 2048;

export function validatePrimitiveTopology(topology: unknown): Checked<IaPrimitiveTopology> {
  return (
    checkName('iaSetPrimitiveTopology', 'primitiveTopology', topology, PRIMITIVE_TOPOLOGY_NAMES) ??
    (topology as IaPrimitiveTopology)
  );
}

function checkAddress(call: string, argument: string, value: unknown): Problem {
  return typeof value === 'bigint' && value >= 0n && value < 2n ** 64n
    ? undefined
    : invalidArg(call, argument, `must be a GPU virtual address, a bigint from 0 to 2^64 - 1, got ${show(value)}`);
}

/** IASetVertexBuffers(StartSlot, NumViews, pViews): the views by slot (null views: those slots unbound). */
export function validateVertexBuffers(
  startSlot: unknown,
  views: unknown,
): Checked<Map<number, VertexBufferView | null>> {
  const call = 'iaSetVertexBuffers';
  const slotProblem = checkInteger(call, 'startSlot', startSlot, 0, INPUT_SLOTS - 1);
  if (slotProblem) return slotProblem;
  if (!Array.isArray(views))
    return invalidArg(call, 'views', `must be an array of D3D12_VERTEX_BUFFER_VIEW (or nulls), got ${show(views)}`);
  if ((startSlot as number) + views.length > INPUT_SLOTS)
    return invalidArg(
      call,
      'views',
      `${views.length} views from slot ${startSlot as number} run past the ${INPUT_SLOTS} slots`,
    );
  const set = new Map<number, VertexBufferView | null>();
  for (let i = 0; i < views.length; i++) {
    const view: unknown = views[i];
    const at = `views[${i}]`;
    if (view === null) {
      set.set((startSlot as number) + i, null);
      continue;
    }
    if (!isObject(view)) return invalidArg(call, at, `must be a D3D12_VERTEX_BUFFER_VIEW or null, got ${show(view)}`);
    const problem =
      checkAddress(call, `${at}.bufferLocation`, view.bufferLocation) ??
      checkInteger(call, `${at}.sizeInBytes`, view.sizeInBytes, 0, 0xffffffff) ??
      checkInteger(call, `${at}.strideInBytes`, view.strideInBytes, 0, MAX_STRIDE);
    if (problem) return problem;
    set.set((startSlot as number) + i, view as unknown as VertexBufferView);
  }
  return set;
}

/** IASetIndexBuffer(pView): a view, or null (no index buffer). */
export function validateIndexBuffer(view: unknown): Checked<IndexBufferView | null> {
  const call = 'iaSetIndexBuffer';
  if (view === null || view === undefined) return null;
  if (!isObject(view)) return invalidArg(call, 'view', `must be a D3D12_INDEX_BUFFER_VIEW or null, got ${show(view)}`);
  const problem =
    checkAddress(call, 'view.bufferLocation', view.bufferLocation) ??
    checkInteger(call, 'view.sizeInBytes', view.sizeInBytes, 0, 0xffffffff) ??
    checkName(call, 'view.format', view.format, ['R16_UINT', 'R32_UINT'] as const);
  if (problem) return problem;
  const bytes = view.format === 'R16_UINT' ? 2n : 4n;
  if ((view.bufferLocation as bigint) % bytes !== 0n)
    return invalidArg(
      call,
      'view.bufferLocation',
      `must be a multiple of ${bytes} (the size of an ${view.format as string} index), got 0x${(view.bufferLocation as bigint).toString(16)}`,
    );
  return view as unknown as IndexBufferView;
}

/** DrawIndexedInstanced's arguments. */
export function validateDrawIndexed(
  indexCountPerInstance: unknown,
  instanceCount: unknown,
  startIndexLocation: unknown,
  baseVertexLocation: unknown,
  startInstanceLocation: unknown,
): Problem {
  const call = 'drawIndexedInstanced';
  return (
    checkInteger(call, 'indexCountPerInstance', indexCountPerInstance, 0, 0xffffffff) ??
    checkInteger(call, 'instanceCount', instanceCount, 0, 0xffffffff) ??
    checkInteger(call, 'startIndexLocation', startIndexLocation, 0, 0xffffffff) ??
    checkInteger(call, 'baseVertexLocation', baseVertexLocation, -(2 ** 31), 2 ** 31 - 1) ??
    checkInteger(call, 'startInstanceLocation', startInstanceLocation, 0, 0xffffffff)
  );
}
