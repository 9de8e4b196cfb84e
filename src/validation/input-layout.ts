/**
 * A graphics pipeline state's input layout (D3D12_INPUT_LAYOUT_DESC), checked as the runtime checks
 * it, with each element's offset resolved (APPEND_ALIGNED_ELEMENT: after the element before it in
 * its slot, aligned to 4 bytes) and the slots it reads listed in order.
 *
 * Rules: at most 32 elements (D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT); a semantic name is an
 * identifier, SV_ names excepted (system values are not vertex inputs), and no name and index pair
 * appears twice (names compare without case, as HLSL's); a format the input assembler fetches
 * (src/memory/vertex-formats.ts); slots 0 to 31; offsets multiples of 4 (every vertex format is
 * made of 4-byte words) that fit the 2048-byte vertex; per-vertex elements step at rate 0, and one
 * slot holds elements of one classification.
 */
import { D3D12Error, invalidArg, show, type Checked } from '../api/errors.js';
import { APPEND_ALIGNED_ELEMENT, INPUT_CLASSIFICATIONS } from '../api/binding-types.js';
import { VERTEX_FORMAT_NAMES, vertexFormat, type VertexFormat } from '../memory/vertex-formats.js';
import { checkInteger, checkName, isObject } from './common.js';

/** D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT and D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT. */
export const MAX_INPUT_ELEMENTS = 32;
export const INPUT_SLOTS = 32;
/** D3D12_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES: the largest vertex. */
const MAX_VERTEX_BYTES = 2048;

export interface CheckedInputElement {
  semanticName: string;
  semanticIndex: number;
  format: string;
  fetch: VertexFormat;
  slot: number;
  /** Byte offset within the slot's vertex (APPEND resolved). */
  offset: number;
  perInstance: boolean;
  stepRate: number;
}

export interface CheckedInputLayout {
  elements: CheckedInputElement[];
  /** The slots the elements read, ascending: a draw's vertex buffers are packed in this order. */
  slots: number[];
}

/** desc.inputLayout of createGraphicsPipelineState (left out or empty: vertices come from memory by address). */
export function validateInputLayout(call: string, layout: unknown): Checked<CheckedInputLayout> {
  if (layout === undefined || layout === null) return { elements: [], slots: [] };
  if (!isObject(layout) || !Array.isArray(layout.inputElementDescs))
    return invalidArg(
      call,
      'desc.inputLayout',
      `must be { inputElementDescs: [...] } (D3D12_INPUT_LAYOUT_DESC), got ${show(layout)}`,
    );
  const descs = layout.inputElementDescs as unknown[];
  if (descs.length > MAX_INPUT_ELEMENTS)
    return invalidArg(
      call,
      'desc.inputLayout.inputElementDescs',
      `holds ${descs.length} elements, over D3D12's ${MAX_INPUT_ELEMENTS}`,
    );
  const elements: CheckedInputElement[] = [];
  const ends = new Map<number, number>();
  const classes = new Map<number, boolean>();
  const seen = new Set<string>();
  for (let i = 0; i < descs.length; i++) {
    const element = checkElement(call, `desc.inputLayout.inputElementDescs[${i}]`, descs[i], ends, classes, seen);
    if (element instanceof D3D12Error) return element;
    elements.push(element);
  }
  return { elements, slots: [...new Set(elements.map((e) => e.slot))].sort((a, b) => a - b) };
}

function checkElement(
  call: string,
  at: string,
  desc: unknown,
  ends: Map<number, number>,
  classes: Map<number, boolean>,
  seen: Set<string>,
): Checked<CheckedInputElement> {
  if (!isObject(desc)) return invalidArg(call, at, `must be a D3D12_INPUT_ELEMENT_DESC object, got ${show(desc)}`);
  const name = desc.semanticName;
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return invalidArg(call, `${at}.semanticName`, `must be an identifier (a letter or _ first), got ${show(name)}`);
  if (/^SV_/i.test(name))
    return invalidArg(call, `${at}.semanticName`, `${name} is a system value, not a vertex input`);
  const index = desc.semanticIndex ?? 0;
  const indexProblem = checkInteger(call, `${at}.semanticIndex`, index, 0, 0xffffffff);
  if (indexProblem) return indexProblem;
  const key = `${name.toUpperCase()}${index as number}`;
  if (seen.has(key))
    return invalidArg(
      call,
      `${at}.semanticName`,
      `${name}${index as number} appears twice (semantics compare without case)`,
    );
  seen.add(key);
  if (typeof desc.format !== 'string' || !vertexFormat(desc.format))
    return new D3D12Error(
      'DXGI_ERROR_UNSUPPORTED',
      call,
      `${at}.format`,
      `the input assembler fetches ${VERTEX_FORMAT_NAMES.join(', ')}; got ${show(desc.format)}`,
    );
  const fetch = vertexFormat(desc.format) as VertexFormat;
  const slot = desc.inputSlot ?? 0;
  const slotProblem = checkInteger(call, `${at}.inputSlot`, slot, 0, INPUT_SLOTS - 1);
  if (slotProblem) return slotProblem;
  const classification = desc.inputSlotClass ?? 'PER_VERTEX_DATA';
  const classProblem = checkName(call, `${at}.inputSlotClass`, classification, INPUT_CLASSIFICATIONS);
  if (classProblem) return classProblem;
  const perInstance = classification === 'PER_INSTANCE_DATA';
  if (classes.has(slot as number) && classes.get(slot as number) !== perInstance)
    return invalidArg(
      call,
      `${at}.inputSlotClass`,
      `slot ${slot as number} holds elements of both classifications; one slot steps per vertex or per instance`,
    );
  classes.set(slot as number, perInstance);
  const stepRate = desc.instanceDataStepRate ?? 0;
  const stepProblem = checkInteger(call, `${at}.instanceDataStepRate`, stepRate, 0, perInstance ? 0xffffffff : 0);
  if (stepProblem)
    return perInstance
      ? stepProblem
      : invalidArg(call, `${at}.instanceDataStepRate`, `must be 0 for PER_VERTEX_DATA, got ${show(stepRate)}`);
  const offsetValue = desc.alignedByteOffset ?? APPEND_ALIGNED_ELEMENT;
  const offsetProblem = checkInteger(call, `${at}.alignedByteOffset`, offsetValue, 0, 0xffffffff);
  if (offsetProblem) return offsetProblem;
  const offset = offsetValue === APPEND_ALIGNED_ELEMENT ? (ends.get(slot as number) ?? 0) : (offsetValue as number);
  if (offset % 4 !== 0) return invalidArg(call, `${at}.alignedByteOffset`, `must be a multiple of 4, got ${offset}`);
  if (offset + fetch.bytes > MAX_VERTEX_BYTES)
    return invalidArg(
      call,
      `${at}.alignedByteOffset`,
      `${offset} + ${fetch.bytes} bytes runs past the ${MAX_VERTEX_BYTES}-byte vertex`,
    );
  ends.set(slot as number, Math.max(ends.get(slot as number) ?? 0, offset + fetch.bytes));
  return {
    semanticName: name,
    semanticIndex: index as number,
    format: desc.format,
    fetch,
    slot: slot as number,
    offset,
    perInstance,
    stepRate: stepRate as number,
  };
}
