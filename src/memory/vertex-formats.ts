/**
 * The formats the input assembler fetches (D3D12_INPUT_ELEMENT_DESC.Format): how many bytes an
 * element takes and what its shader input holds (`float`: vec4f, `uint`: vec4u, `sint`: vec4i), with
 * D3D's defaults for missing components (0, 0, 0, 1). The WGSL that decodes each is in
 * src/gpu/input-layout-wgsl.ts (a test keeps the two lists equal).
 */
export interface VertexFormat {
  bytes: number;
  type: 'float' | 'uint' | 'sint';
}

const entry = (bytes: number, type: VertexFormat['type']): VertexFormat => ({ bytes, type });

const VERTEX_FORMATS: Record<string, VertexFormat> = {
  R32G32B32A32_FLOAT: entry(16, 'float'),
  R32G32B32A32_UINT: entry(16, 'uint'),
  R32G32B32A32_SINT: entry(16, 'sint'),
  R32G32B32_FLOAT: entry(12, 'float'),
  R32G32B32_UINT: entry(12, 'uint'),
  R32G32B32_SINT: entry(12, 'sint'),
  R32G32_FLOAT: entry(8, 'float'),
  R32G32_UINT: entry(8, 'uint'),
  R32G32_SINT: entry(8, 'sint'),
  R32_FLOAT: entry(4, 'float'),
  R32_UINT: entry(4, 'uint'),
  R32_SINT: entry(4, 'sint'),
  R16G16B16A16_FLOAT: entry(8, 'float'),
  R16G16B16A16_UNORM: entry(8, 'float'),
  R16G16B16A16_SNORM: entry(8, 'float'),
  R16G16B16A16_UINT: entry(8, 'uint'),
  R16G16B16A16_SINT: entry(8, 'sint'),
  R16G16_FLOAT: entry(4, 'float'),
  R16G16_UNORM: entry(4, 'float'),
  R16G16_SNORM: entry(4, 'float'),
  R16G16_UINT: entry(4, 'uint'),
  R16G16_SINT: entry(4, 'sint'),
  R8G8B8A8_UNORM: entry(4, 'float'),
  R8G8B8A8_SNORM: entry(4, 'float'),
  R8G8B8A8_UINT: entry(4, 'uint'),
  R8G8B8A8_SINT: entry(4, 'sint'),
  B8G8R8A8_UNORM: entry(4, 'float'),
  R10G10B10A2_UNORM: entry(4, 'float'),
  R10G10B10A2_UINT: entry(4, 'uint'),
};

/** The vertex formats, in the order messages list them. */
export const VERTEX_FORMAT_NAMES: readonly string[] = Object.keys(VERTEX_FORMATS);

export function vertexFormat(format: string): VertexFormat | undefined {
  return Object.hasOwn(VERTEX_FORMATS, format) ? VERTEX_FORMATS[format] : undefined;
}
