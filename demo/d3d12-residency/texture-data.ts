/**
 * The texels of the scene's textures, made on the CPU as the sample makes its own (the browser test's
 * CPU model reads the same function). The sample fills texture n with one colour, HSV(hue, 0.75,
 * 0.85) stored as bytes by truncation; here each texture also carries its number in a 3 × 5 pixel
 * font and a darker frame, so the screen shows which textures the frame drew and point sampling can
 * be checked texel for texel.
 *
 * The sample's quad maps texture coordinate v = 0 to the bottom of its viewport, so the picture is
 * stored bottom-up: memory row 0 is the picture's bottom row, and the number reads upright on screen.
 */

/** Bytes per texel (R8G8B8A8_UNORM). */
export const TEXEL_BYTES = 4;

/** XMColorHSVToRGB: hue, saturation and value in [0, 1] to linear RGB in [0, 1]. */
export function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  const h6 = (h - Math.floor(h)) * 6;
  const sector = Math.floor(h6);
  const f = h6 - sector;
  const p = v * (1 - s);
  const q = v * (1 - s * f);
  const t = v * (1 - s * (1 - f));
  switch (sector) {
    case 0:
      return [v, t, p];
    case 1:
      return [q, v, p];
    case 2:
      return [p, v, t];
    case 3:
      return [p, q, v];
    case 4:
      return [t, p, v];
    default:
      return [v, p, q];
  }
}

/** Digits 0-9, 3 × 5 pixels each, one row of 3 bits per entry (bit 2 is the left pixel), top row first. */
const FONT: readonly (readonly number[])[] = [
  [7, 5, 5, 5, 7],
  [2, 6, 2, 2, 7],
  [7, 1, 7, 4, 7],
  [7, 1, 7, 1, 7],
  [5, 5, 7, 1, 1],
  [7, 4, 7, 1, 7],
  [7, 4, 7, 5, 7],
  [7, 1, 2, 2, 2],
  [7, 5, 7, 5, 7],
  [7, 5, 7, 1, 7],
];

/** Bytes of an R8G8B8A8 colour from RGB in [0, 1], truncated as the sample's static_cast<UINT8>(c * 255.0f). */
const bytes = ([r, g, b]: [number, number, number]): [number, number, number, number] => [
  Math.floor(r * 255),
  Math.floor(g * 255),
  Math.floor(b * 255),
  0xff,
];

/** What every texel of one texture is made of: its colours and where its number sits. */
interface Picture {
  fill: [number, number, number, number];
  frame: [number, number, number, number];
  ink: [number, number, number, number];
  digits: string;
  /** Font pixels are `scale` texels a side; the number's top left texel (picture coordinates, y down). */
  scale: number;
  left: number;
  top: number;
  border: number;
}

function picture(index: number, count: number, size: number): Picture {
  // The sample's hue steps by texture; here it goes once round the wheel over all the textures.
  const hue = index / Math.max(count, 1);
  const digits = String(index);
  // One font size for every texture: the one the longest number fits.
  const longest = String(Math.max(count - 1, 0)).length;
  const scale = Math.max(1, Math.floor(size / (4 * longest + 4)));
  const width = (4 * digits.length - 1) * scale;
  return {
    fill: bytes(hsvToRgb(hue, 0.75, 0.85)),
    frame: bytes(hsvToRgb(hue, 0.75, 0.5)),
    ink: bytes(hsvToRgb(hue, 0.12, 1)),
    digits,
    scale,
    left: Math.floor((size - width) / 2),
    top: Math.floor((size - 5 * scale) / 2),
    border: Math.max(1, Math.floor(size / 32)),
  };
}

function texelOf(p: Picture, size: number, x: number, y: number): [number, number, number, number] {
  if (x < p.border || y < p.border || x >= size - p.border || y >= size - p.border) return p.frame;
  const fx = Math.floor((x - p.left) / p.scale);
  const fy = Math.floor((y - p.top) / p.scale);
  if (x >= p.left && y >= p.top && fy < 5 && fx < 4 * p.digits.length) {
    const digit = FONT[Number(p.digits[Math.floor(fx / 4)])];
    const column = fx % 4;
    if (digit && column < 3 && ((digit[fy] ?? 0) >> (2 - column)) & 1) return p.ink;
  }
  return p.fill;
}

/**
 * Texel (x, row) of texture `index` of `count`, `size` texels a side, as stored: row 0 is the
 * bottom of the picture. RGBA bytes.
 */
export function texel(index: number, count: number, size: number, x: number, row: number): number[] {
  return texelOf(picture(index, count, size), size, x, size - 1 - row);
}

/** Texture `index`'s texels, rows of `size` texels, tightly packed (the sample's RowPitch = width × 4). */
export function textureTexels(index: number, count: number, size: number): Uint8Array {
  const p = picture(index, count, size);
  const out = new Uint8Array(size * size * TEXEL_BYTES);
  for (let row = 0; row < size; row++) {
    const y = size - 1 - row;
    for (let x = 0; x < size; x++) out.set(texelOf(p, size, x, y), (row * size + x) * TEXEL_BYTES);
  }
  return out;
}
