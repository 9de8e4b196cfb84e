/**
 * The texture-cache scenario's CPU model (texture-cache.ts): a 2D texture of two standard mips with
 * 4-byte texels, as its tiles' bytes in CopyTiles' linear layout (each 128 × 128 tile's texels
 * row-major, tiles in GetResourceTiling's order; the layout the emulator keeps them in too, which
 * textures.wgsl documents), which tiles are NULL, and what the sampling shaders
 * (shaders/validate_texture_cache*.wgsl) must read from it: loads exactly, bilinear and trilinear
 * samples and gathers as D3D12 filters (clamp to the edge), CheckAccessFullyMapped of each.
 *
 * Invariants: the model changes only where a scenario step says D3D12 changed the texture; a NULL
 * tile reads 0 in every byte (Tier 2 and up), decoded by the format; filtered results are compared
 * within FILTERED_TOLERANCE and everything else exactly.
 */
import type { Device } from '../../d3d12/device.js';
import type { Resource } from '../../d3d12/resource.js';
import { TILE, type Check } from '../bytes.js';

export type CacheFormat = 'R8G8B8A8_UNORM' | 'B8G8R8A8_UNORM' | 'R32_FLOAT';

/** Words per thread the sampling shaders write (TC_OUT_WORDS). */
export const OUT_WORDS = 8;
/** Where in its texel a sample lands (TC_SAMPLE_OFFSET). */
const OFFSET = [0.75, 0.125] as const;
/** The standard tile of a 4-byte format. */
const TILE_SIDE = 128;
/**
 * Per channel, in 8-bit steps, how far a filtered read may lie from the CPU's exact blend: the
 * weights are exact (OFFSET), but a texture unit blends in fixed point and may round each of its
 * lerps, and both sides round to 8 bits (bench/suite/texture-sample.ts's reasoning). A stale texel
 * of these random patterns is off by far more.
 */
export const FILTERED_TOLERANCE = 2;

/** The word the store shader writes at a texel (tc_texel_word). */
export function textureCacheWord(x: number, y: number, seed: number): number {
  let h = (Math.imul(x, 0x9e3779b1) ^ Math.imul((y + Math.imul(seed, 0x10001)) >>> 0, 0x85ebca6b)) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  return (h ^ (h >>> 12)) >>> 0;
}

const unorm = (v: number): number => Math.round(Math.min(1, Math.max(0, v)) * 255);
/** pack4x8unorm of the four values from `at`. */
const packed = (c: ArrayLike<number>, at: number): number =>
  (unorm(c[at] as number) |
    (unorm(c[at + 1] as number) << 8) |
    (unorm(c[at + 2] as number) << 16) |
    (unorm(c[at + 3] as number) << 24)) >>>
  0;

export class CacheModel {
  /** The tiles' bytes, CopyTiles' linear layout. */
  readonly bytes: Uint8Array;
  readonly nullTiles = new Set<number>();
  readonly tiles: number;
  readonly width: number;
  readonly height: number;
  private readonly start: number[];
  private readonly across: number[];

  constructor(
    device: Device,
    readonly resource: Resource,
    readonly format: CacheFormat,
  ) {
    const desc = resource.getDesc();
    const tiling = device.getResourceTiling(resource);
    if (desc.mipLevels !== 2 || tiling.packedMipDesc.numPackedMips !== 0)
      throw new Error(`${resource.label}: the model holds two standard mips, not ${desc.mipLevels}`);
    this.width = desc.width;
    this.height = desc.height;
    this.tiles = tiling.numTilesForEntireResource;
    this.start = tiling.subresourceTilings.map((t) => t.startTileIndexInOverallResource);
    this.across = tiling.subresourceTilings.map((t) => t.widthInTiles);
    this.bytes = new Uint8Array(this.tiles * TILE);
  }

  mipSize(mip: number): [number, number] {
    return [Math.max(1, this.width >> mip), Math.max(1, this.height >> mip)];
  }

  tileOf(mip: number, x: number, y: number): number {
    return (
      (this.start[mip] as number) + Math.floor(x / TILE_SIDE) + Math.floor(y / TILE_SIDE) * (this.across[mip] as number)
    );
  }

  /** The byte offset of a texel in `bytes`. */
  offsetOf(mip: number, x: number, y: number): number {
    return this.tileOf(mip, x, y) * TILE + ((y % TILE_SIDE) * TILE_SIDE + (x % TILE_SIDE)) * 4;
  }

  tile(tile: number): Uint8Array {
    return this.bytes.subarray(tile * TILE, (tile + 1) * TILE);
  }

  word(mip: number, x: number, y: number): number {
    const at = this.offsetOf(mip, x, y);
    const b = this.bytes;
    return (
      ((b[at] as number) |
        ((b[at + 1] as number) << 8) |
        ((b[at + 2] as number) << 16) |
        ((b[at + 3] as number) << 24)) >>>
      0
    );
  }

  /** Writes a texel's word (a write to a NULL tile is dropped). */
  setWord(mip: number, x: number, y: number, word: number): void {
    if (!this.mapped(mip, x, y)) return;
    const at = this.offsetOf(mip, x, y);
    for (let i = 0; i < 4; i++) this.bytes[at + i] = (word >>> (8 * i)) & 0xff;
  }

  /** Sets `bytes` (a texel row-major box of w × h at (x0, y0), 4 bytes a texel, rows `pitch` apart). */
  setBox(mip: number, x0: number, y0: number, w: number, h: number, bytes: Uint8Array, pitch: number): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) this.setWord(mip, x0 + x, y0 + y, view.getUint32(y * pitch + x * 4, true));
  }

  mapped(mip: number, x: number, y: number): boolean {
    return !this.nullTiles.has(this.tileOf(mip, x, y));
  }

  /** What the bytes of every tile read as (NULL tiles: zeros), as CopyTiles reads them. */
  readable(): Uint8Array {
    const out = this.bytes.slice();
    for (const tile of this.nullTiles) out.fill(0, tile * TILE, (tile + 1) * TILE);
    return out;
  }

  /** Every texel of `mip` decoded as RGBA in [0, 1] (R32_FLOAT: its value), and whether it is mapped; a NULL texel decodes 0. */
  private decode(mip: number): Decoded {
    const [width, height] = this.mipSize(mip);
    const values = new Float64Array(width * height * 4);
    const mapped = new Uint8Array(width * height);
    const bits = new Uint32Array(1);
    const float = new Float32Array(bits.buffer);
    const [r, b] = this.format === 'B8G8R8A8_UNORM' ? [2, 0] : [0, 2];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        const on = this.mapped(mip, x, y);
        mapped[i] = on ? 1 : 0;
        const word = on ? this.word(mip, x, y) : 0;
        if (this.format === 'R32_FLOAT') {
          bits[0] = word;
          values[i * 4] = float[0] as number;
          values[i * 4 + 3] = 1;
        } else {
          values[i * 4 + r] = (word & 0xff) / 255;
          values[i * 4 + 1] = ((word >>> 8) & 0xff) / 255;
          values[i * 4 + b] = ((word >>> 16) & 0xff) / 255;
          values[i * 4 + 3] = (word >>> 24) / 255;
        }
      }
    return { width, height, values, mapped };
  }

  /**
   * What the sampling shaders write (shaders/validate_texture_cache*.wgsl), OUT_WORDS a thread, one
   * thread (qx, qy) per texel of mip 1: the loads of mip-0 texels (2qx + i % 2, 2qy + i / 2) and of
   * mip-1 texel (qx, qy); the sample at mip-0 texel (2qx + 1, 2qy), bilinear at lod 0 where qx + qy
   * is even, trilinear at lod 0.5 where odd; with `gather`, the Gather of red there; the status bits.
   */
  expected(gather: boolean): Uint32Array {
    const [fine, coarse] = [this.decode(0), this.decode(1)];
    const out = new Uint32Array(coarse.width * coarse.height * OUT_WORDS);
    const a = [0, 0, 0, 0];
    const b = [0, 0, 0, 0];
    for (let qy = 0; qy < coarse.height; qy++)
      for (let qx = 0; qx < coarse.width; qx++) {
        const at = (qy * coarse.width + qx) * OUT_WORDS;
        let status = 0;
        for (let i = 0; i < 4; i++) {
          const texel = (2 * qy + (i >> 1)) * fine.width + 2 * qx + (i & 1);
          out[at + i] = packed(fine.values, texel * 4);
          status |= (fine.mapped[texel] as number) << i;
        }
        out[at + 4] = packed(coarse.values, (qy * coarse.width + qx) * 4);
        status |= (coarse.mapped[qy * coarse.width + qx] as number) << 4;
        const [x, y] = [2 * qx + 1, 2 * qy];
        const u = (x + OFFSET[0]) / fine.width;
        const v = (y + OFFSET[1]) / fine.height;
        let mapped = bilinear(fine, u, v, a);
        if ((qx + qy) % 2 === 1) {
          mapped = bilinear(coarse, u, v, b) && mapped;
          for (let c = 0; c < 4; c++) a[c] = (a[c] as number) + ((b[c] as number) - (a[c] as number)) * 0.5;
        }
        out[at + 5] = packed(a, 0);
        if (gather) {
          const bx = Math.floor(u * fine.width - 0.5);
          const by = Math.floor(v * fine.height - 0.5);
          const red = (dx: number, dy: number): number =>
            fine.values[(clamp(by + dy, fine.height) * fine.width + clamp(bx + dx, fine.width)) * 4] as number;
          out[at + 6] = packed([red(0, 1), red(1, 1), red(1, 0), red(0, 0)], 0);
        }
        out[at + 7] = status | (mapped ? 32 : 0);
      }
    return out;
  }
}

interface Decoded {
  width: number;
  height: number;
  /** RGBA per texel. */
  values: Float64Array;
  /** 1 per texel whose tile is mapped. */
  mapped: Uint8Array;
}

const clamp = (c: number, n: number): number => Math.min(Math.max(c, 0), n - 1);

/** d3d12_tex2d_bilinear of a mip at uv, clamped to the edge, into `out`; whether all four taps were mapped. */
function bilinear(mip: Decoded, u: number, v: number, out: number[]): boolean {
  const px = u * mip.width - 0.5;
  const py = v * mip.height - 0.5;
  const [bx, by] = [Math.floor(px), Math.floor(py)];
  const [fx, fy] = [px - bx, py - by];
  const [x0, y0, x1, y1] = [
    clamp(bx, mip.width),
    clamp(by, mip.height),
    clamp(bx + 1, mip.width),
    clamp(by + 1, mip.height),
  ];
  const taps = [y0 * mip.width + x0, y0 * mip.width + x1, y1 * mip.width + x0, y1 * mip.width + x1];
  const weights = [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy];
  out.fill(0);
  let mapped = true;
  taps.forEach((tap, i) => {
    mapped = mapped && mip.mapped[tap] === 1;
    for (let c = 0; c < 4; c++)
      out[c] = (out[c] as number) + (weights[i] as number) * (mip.values[tap * 4 + c] as number);
  });
  return mapped;
}

/** The largest per-channel difference, in 8-bit steps, of two packed RGBA8 words. */
function channelDifference(a: number, b: number): number {
  let worst = 0;
  for (let s = 0; s < 32; s += 8) worst = Math.max(worst, Math.abs(((a >>> s) & 0xff) - ((b >>> s) & 0xff)));
  return worst;
}

const hex = (word: number): string => `0x${(word >>> 0).toString(16).padStart(8, '0')}`;

/** The words of sample_texels / sample_views, by what they hold: name, words, tolerance. */
const READS: { what: string; words: number[]; tolerance: number; gatherOnly?: boolean }[] = [
  { what: 'Load of every texel of both mips (exact)', words: [0, 1, 2, 3, 4], tolerance: 0 },
  {
    what: `SampleLevel over every texel, bilinear at lod 0 and trilinear at lod 0.5 in a checkerboard (within ${FILTERED_TOLERANCE}/255)`,
    words: [5],
    tolerance: FILTERED_TOLERANCE,
  },
  { what: 'Gather of red (exact)', words: [6], tolerance: 0, gatherOnly: true },
  { what: 'CheckAccessFullyMapped of each load and sample', words: [7], tolerance: 0 },
];

/** What word `word` of thread `thread` read, in words. */
function readOf(model: CacheModel, thread: number, word: number): string {
  const [width] = model.mipSize(1);
  const [qx, qy] = [thread % width, Math.floor(thread / width)];
  if (word < 4) return `the load of mip 0 texel (${2 * qx + (word & 1)}, ${2 * qy + (word >> 1)})`;
  if (word === 4) return `the load of mip 1 texel (${qx}, ${qy})`;
  const what = ['', 'sample', 'gather', 'statuses'][word - 4];
  return `the ${what} at mip 0 texel (${2 * qx + 1}, ${2 * qy}) (${(qx + qy) % 2 ? 'trilinear' : 'bilinear'})`;
}

/**
 * The sampling shader's output (OUT_WORDS words a thread) against the model: one check per kind of
 * read, each naming the first read off by more than its tolerance.
 */
export function sampleChecks(name: string, words: Uint32Array, model: CacheModel, gather: boolean): Check[] {
  const expected = model.expected(gather);
  const threads = expected.length / OUT_WORDS;
  return READS.filter((r) => gather || !r.gatherOnly).map(({ what, words: kinds, tolerance }) => {
    const check: Check = { name: `${name}: ${what}`, length: threads * kinds.length * 4, firstDifference: -1 };
    for (let i = 0; i < threads; i++)
      for (const word of kinds) {
        const [a, e] = [words[i * OUT_WORDS + word] as number, expected[i * OUT_WORDS + word] as number];
        if (a === e || (tolerance > 0 && channelDifference(a, e) <= tolerance)) continue;
        return {
          ...check,
          firstDifference: (i * OUT_WORDS + word) * 4,
          actual: a,
          expected: e,
          detail: `${readOf(model, i, word)} of ${model.resource.label} read ${hex(a)}, expected ${hex(e)}`,
        };
      }
    return check;
  });
}
