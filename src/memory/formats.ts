/**
 * The DXGI formats a resource description may name (the `DXGI_FORMAT_` suffix), with what memory
 * layout needs of them: bytes per element (a texel, or a 4×4 block for BC formats), block size,
 * and the family (the TYPELESS format the typed ones cast from, for clear-value compatibility).
 *
 * Not listed, so rejected as unknown: video and YUV formats, 4:2:2 packed formats (R8G8_B8G8…) and
 * R1_UNORM. Listed but refused for textures by validation: 96-bpp formats (no standard tile shape)
 * and the planar depth-stencil formats (D24S8 and D32S8X24 families: two planes each; depth buffers
 * in heap memory are out of scope).
 */

export interface FormatInfo {
  /** Bytes per texel, or per 4×4 block for block-compressed formats. */
  bytesPerElement: number;
  /** Texels per element along x and y: 4 for BC formats, else 1. */
  blockWidth: number;
  blockHeight: number;
  /** The TYPELESS format of this format's family. */
  family: string;
  kind: 'color' | 'bc' | 'depth';
  /** Two planes in D3D12 (depth and stencil). */
  planar: boolean;
  /** May back a depth-stencil view (a depth format, or the TYPELESS family of one). */
  depthStencilCapable: boolean;
  /** Has no type of its own (a family's TYPELESS format): views, and so clear values, cannot use it. */
  typeless: boolean;
}

type Kind = FormatInfo['kind'];

const table: Record<string, FormatInfo> = {};

function family(
  typeless: string,
  bytesPerElement: number,
  members: string[],
  options: { kind?: Kind; planar?: boolean; depthMembers?: string[] } = {},
): void {
  const kind = options.kind ?? 'color';
  const block = kind === 'bc' ? 4 : 1;
  const depthMembers = options.depthMembers ?? [];
  for (const name of [typeless, ...members]) {
    table[name] = {
      bytesPerElement,
      blockWidth: block,
      blockHeight: block,
      family: typeless,
      kind: depthMembers.includes(name) ? 'depth' : kind,
      planar: options.planar ?? false,
      depthStencilCapable: depthMembers.includes(name) || (name === typeless && depthMembers.length > 0),
      typeless: name.endsWith('_TYPELESS'),
    };
  }
}

// 128 and 96 bits per texel
family('R32G32B32A32_TYPELESS', 16, ['R32G32B32A32_FLOAT', 'R32G32B32A32_UINT', 'R32G32B32A32_SINT']);
family('R32G32B32_TYPELESS', 12, ['R32G32B32_FLOAT', 'R32G32B32_UINT', 'R32G32B32_SINT']);
// 64 bits
family('R16G16B16A16_TYPELESS', 8, [
  'R16G16B16A16_FLOAT',
  'R16G16B16A16_UNORM',
  'R16G16B16A16_UINT',
  'R16G16B16A16_SNORM',
  'R16G16B16A16_SINT',
]);
family('R32G32_TYPELESS', 8, ['R32G32_FLOAT', 'R32G32_UINT', 'R32G32_SINT']);
family('R32G8X24_TYPELESS', 8, ['D32_FLOAT_S8X24_UINT', 'R32_FLOAT_X8X24_TYPELESS', 'X32_TYPELESS_G8X24_UINT'], {
  planar: true,
  depthMembers: ['D32_FLOAT_S8X24_UINT'],
});
// 32 bits
family('R10G10B10A2_TYPELESS', 4, ['R10G10B10A2_UNORM', 'R10G10B10A2_UINT', 'R10G10B10_XR_BIAS_A2_UNORM']);
family('R11G11B10_FLOAT', 4, []);
family('R8G8B8A8_TYPELESS', 4, [
  'R8G8B8A8_UNORM',
  'R8G8B8A8_UNORM_SRGB',
  'R8G8B8A8_UINT',
  'R8G8B8A8_SNORM',
  'R8G8B8A8_SINT',
]);
family('R16G16_TYPELESS', 4, ['R16G16_FLOAT', 'R16G16_UNORM', 'R16G16_UINT', 'R16G16_SNORM', 'R16G16_SINT']);
family('R32_TYPELESS', 4, ['D32_FLOAT', 'R32_FLOAT', 'R32_UINT', 'R32_SINT'], { depthMembers: ['D32_FLOAT'] });
family('R24G8_TYPELESS', 4, ['D24_UNORM_S8_UINT', 'R24_UNORM_X8_TYPELESS', 'X24_TYPELESS_G8_UINT'], {
  planar: true,
  depthMembers: ['D24_UNORM_S8_UINT'],
});
family('R9G9B9E5_SHAREDEXP', 4, []);
family('B8G8R8A8_TYPELESS', 4, ['B8G8R8A8_UNORM', 'B8G8R8A8_UNORM_SRGB']);
family('B8G8R8X8_TYPELESS', 4, ['B8G8R8X8_UNORM', 'B8G8R8X8_UNORM_SRGB']);
// 16 bits
family('R8G8_TYPELESS', 2, ['R8G8_UNORM', 'R8G8_UINT', 'R8G8_SNORM', 'R8G8_SINT']);
family('R16_TYPELESS', 2, ['R16_FLOAT', 'D16_UNORM', 'R16_UNORM', 'R16_UINT', 'R16_SNORM', 'R16_SINT'], {
  depthMembers: ['D16_UNORM'],
});
family('B5G6R5_UNORM', 2, []);
family('B5G5R5A1_UNORM', 2, []);
family('B4G4R4A4_UNORM', 2, []);
// 8 bits
family('R8_TYPELESS', 1, ['R8_UNORM', 'R8_UINT', 'R8_SNORM', 'R8_SINT']);
family('A8_UNORM', 1, []);
// Block compressed: 8 bytes per 4×4 block (BC1, BC4), 16 bytes (BC2, BC3, BC5, BC6H, BC7)
family('BC1_TYPELESS', 8, ['BC1_UNORM', 'BC1_UNORM_SRGB'], { kind: 'bc' });
family('BC2_TYPELESS', 16, ['BC2_UNORM', 'BC2_UNORM_SRGB'], { kind: 'bc' });
family('BC3_TYPELESS', 16, ['BC3_UNORM', 'BC3_UNORM_SRGB'], { kind: 'bc' });
family('BC4_TYPELESS', 8, ['BC4_UNORM', 'BC4_SNORM'], { kind: 'bc' });
family('BC5_TYPELESS', 16, ['BC5_UNORM', 'BC5_SNORM'], { kind: 'bc' });
family('BC6H_TYPELESS', 16, ['BC6H_UF16', 'BC6H_SF16'], { kind: 'bc' });
family('BC7_TYPELESS', 16, ['BC7_UNORM', 'BC7_UNORM_SRGB'], { kind: 'bc' });

/** Every format name this emulator knows, plus UNKNOWN (buffers). */
export const FORMAT_NAMES: readonly string[] = ['UNKNOWN', ...Object.keys(table)];

/** The layout facts of a format, or undefined for UNKNOWN and names this emulator does not know. */
export function formatInfo(format: string): FormatInfo | undefined {
  return Object.hasOwn(table, format) ? table[format] : undefined;
}

/**
 * Families whose bytes a copy moves between though they differ: a block-compressed format and the
 * uncompressed ones whose texel is as large as its block (each texel one 4×4 block), and
 * R9G9B9E5_SHAREDEXP and R32 (1:1), as the D3D12 debug layer's CopyTextureRegion check accepts them
 * ("Some non-obvious formats are considered equivalent: BC[1|4] ~= R16G16B16A16|R32G32,
 * BC[2|3|5|6|7] ~= R32G32B32A32, and R9G9B9E5_SHAREDEXP ~= R32", comparing TYPELESS parents) and
 * CopyResource's "Reinterpret copy" documents (ID3D12GraphicsCommandList::CopyResource; "Format
 * Conversion using Direct3D 10.1", whose table lists the UINT and SINT members of these families).
 */
const REINTERPRETABLE: readonly (readonly [readonly string[], readonly string[]])[] = [
  [
    ['R16G16B16A16_TYPELESS', 'R32G32_TYPELESS'],
    ['BC1_TYPELESS', 'BC4_TYPELESS'],
  ],
  [['R32G32B32A32_TYPELESS'], ['BC2_TYPELESS', 'BC3_TYPELESS', 'BC5_TYPELESS', 'BC6H_TYPELESS', 'BC7_TYPELESS']],
  [['R32_TYPELESS'], ['R9G9B9E5_SHAREDEXP']],
];

/** Whether a copy may move bytes between the two formats: one family, or a reinterpreting pair (REINTERPRETABLE). */
export function copyCompatible(a: FormatInfo, b: FormatInfo): boolean {
  if (a.family === b.family) return true;
  return REINTERPRETABLE.some(
    ([plain, other]) =>
      (plain.includes(a.family) && other.includes(b.family)) || (plain.includes(b.family) && other.includes(a.family)),
  );
}

/** The equivalences of copyCompatible, for messages. */
export const REINTERPRET_RULE =
  'BC1, BC4 ~ R16G16B16A16, R32G32; BC2, BC3, BC5, BC6H, BC7 ~ R32G32B32A32; R9G9B9E5_SHAREDEXP ~ R32, each uncompressed texel one block';
