/**
 * The WGSL an input layout becomes (the vertex stage and its replay): struct D3D12VertexInput, one
 * member per element named after its semantic and index (POSITION0, TEXCOORD0), and
 * d3d12_vertex_input(vertex_index, instance_index), which fetches them through the page table
 * (shaders/prelude/input-assembler.wgsl) from the vertex buffers the draw set, decoding each format
 * as D3D's input assembler does: float formats to vec4f, UINT to vec4u, SINT to vec4i, missing
 * components (0, 0, 0, 1). Per-instance elements advance every `instanceDataStepRate` instances
 * from StartInstanceLocation (rate 0: never).
 */
export interface InputLayoutElements {
  elements: readonly {
    semanticName: string;
    semanticIndex: number;
    format: string;
    fetch: { bytes: number; type: 'float' | 'uint' | 'sint' };
    slot: number;
    offset: number;
    perInstance: boolean;
    stepRate: number;
  }[];
  slots: readonly number[];
}

/** Each vertex format's decoding of `raw` (the element's words, vec4u) into its shader input. */
export const VERTEX_DECODE: Record<string, string> = {
  R32G32B32A32_FLOAT: 'bitcast<vec4f>(raw)',
  R32G32B32A32_UINT: 'raw',
  R32G32B32A32_SINT: 'bitcast<vec4i>(raw)',
  R32G32B32_FLOAT: 'vec4f(bitcast<vec3f>(raw.xyz), 1.0)',
  R32G32B32_UINT: 'vec4u(raw.xyz, 1u)',
  R32G32B32_SINT: 'vec4i(bitcast<vec3i>(raw.xyz), 1)',
  R32G32_FLOAT: 'vec4f(bitcast<vec2f>(raw.xy), 0.0, 1.0)',
  R32G32_UINT: 'vec4u(raw.xy, 0u, 1u)',
  R32G32_SINT: 'vec4i(bitcast<vec2i>(raw.xy), 0, 1)',
  R32_FLOAT: 'vec4f(bitcast<f32>(raw.x), 0.0, 0.0, 1.0)',
  R32_UINT: 'vec4u(raw.x, 0u, 0u, 1u)',
  R32_SINT: 'vec4i(bitcast<i32>(raw.x), 0, 0, 1)',
  R16G16B16A16_FLOAT: 'vec4f(unpack2x16float(raw.x), unpack2x16float(raw.y))',
  R16G16B16A16_UNORM: 'vec4f(unpack2x16unorm(raw.x), unpack2x16unorm(raw.y))',
  R16G16B16A16_SNORM: 'vec4f(unpack2x16snorm(raw.x), unpack2x16snorm(raw.y))',
  R16G16B16A16_UINT: 'vec4u(raw.x & 0xffffu, raw.x >> 16u, raw.y & 0xffffu, raw.y >> 16u)',
  R16G16B16A16_SINT: 'vec4i(d3d12_ia_sext16(raw.x), d3d12_ia_sext16(raw.y))',
  R16G16_FLOAT: 'vec4f(unpack2x16float(raw.x), 0.0, 1.0)',
  R16G16_UNORM: 'vec4f(unpack2x16unorm(raw.x), 0.0, 1.0)',
  R16G16_SNORM: 'vec4f(unpack2x16snorm(raw.x), 0.0, 1.0)',
  R16G16_UINT: 'vec4u(raw.x & 0xffffu, raw.x >> 16u, 0u, 1u)',
  R16G16_SINT: 'vec4i(d3d12_ia_sext16(raw.x), 0, 1)',
  R8G8B8A8_UNORM: 'unpack4x8unorm(raw.x)',
  R8G8B8A8_SNORM: 'unpack4x8snorm(raw.x)',
  R8G8B8A8_UINT: '(vec4u(raw.x) >> vec4u(0u, 8u, 16u, 24u)) & vec4u(0xffu)',
  R8G8B8A8_SINT:
    'vec4i(extractBits(bitcast<i32>(raw.x), 0u, 8u), extractBits(bitcast<i32>(raw.x), 8u, 8u), extractBits(bitcast<i32>(raw.x), 16u, 8u), extractBits(bitcast<i32>(raw.x), 24u, 8u))',
  B8G8R8A8_UNORM: 'unpack4x8unorm(raw.x).bgra',
  R10G10B10A2_UNORM:
    'vec4f(f32(raw.x & 1023u) / 1023.0, f32((raw.x >> 10u) & 1023u) / 1023.0, f32((raw.x >> 20u) & 1023u) / 1023.0, f32(raw.x >> 30u) / 3.0)',
  R10G10B10A2_UINT: 'vec4u(raw.x & 1023u, (raw.x >> 10u) & 1023u, (raw.x >> 20u) & 1023u, raw.x >> 30u)',
};

const TYPES = { float: 'vec4f', uint: 'vec4u', sint: 'vec4i' } as const;

/** The vertex input struct and fetch function of `layout` (no elements: an empty fetch all the same). */
export function inputLayoutWgsl(layout: InputLayoutElements): string {
  const members = layout.elements.map(
    (element) => `  ${element.semanticName}${element.semanticIndex}: ${TYPES[element.fetch.type]},`,
  );
  const fetches = layout.elements.map((element) => {
    const buffer = layout.slots.indexOf(element.slot);
    const which = element.perInstance
      ? element.stepRate === 0
        ? 'd3d12_dispatch.draw.w'
        : `d3d12_dispatch.draw.w + (instance_index - d3d12_dispatch.draw.w) / ${element.stepRate}u`
      : 'vertex';
    const decode = VERTEX_DECODE[element.format] ?? 'raw';
    return `  {\n    let raw = d3d12_ia_fetch(${buffer}u, ${which}, ${element.offset}u, ${element.fetch.bytes}u);\n    input.${element.semanticName}${element.semanticIndex} = ${decode};\n  }`;
  });
  return [
    "// The pipeline's input layout (src/gpu/input-layout-wgsl.ts).",
    `struct D3D12VertexInput {\n${members.join('\n')}${members.length === 0 ? '  unused: u32,' : ''}\n}`,
    'fn d3d12_vertex_input(vertex_index: u32, instance_index: u32) -> D3D12VertexInput {',
    '  var input: D3D12VertexInput;',
    '  let vertex = d3d12_ia_vertex(vertex_index);',
    ...fetches,
    '  return input;',
    '}',
  ].join('\n');
}
