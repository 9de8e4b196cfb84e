/**
 * The test harness's PNG decoder against PNGs encoded here with every row filter (PNG spec §9.2),
 * in RGB and RGBA, compared with the source pixels; and its refusals.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../../harness/png.js';
import { Random } from '../../../../src/validate/random.js';

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  out.set(data, 8);
  return out; // the decoder does not check CRCs: left 0
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Encodes `rows` (channels bytes per pixel), row y with filter filters[y % filters.length]. */
function encode(
  width: number,
  height: number,
  channels: 3 | 4,
  rows: Uint8Array,
  filters: number[],
  header: Partial<{ depth: number; colorType: number; interlace: number }> = {},
): Uint8Array {
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const filter = filters[y % filters.length] ?? 0;
    raw[y * (stride + 1)] = filter;
    for (let i = 0; i < stride; i++) {
      const x = rows[y * stride + i] ?? 0;
      const a = i >= channels ? (rows[y * stride + i - channels] ?? 0) : 0;
      const b = y > 0 ? (rows[(y - 1) * stride + i] ?? 0) : 0;
      const c = y > 0 && i >= channels ? (rows[(y - 1) * stride + i - channels] ?? 0) : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter] ?? 0;
      raw[y * (stride + 1) + 1 + i] = (x - predictor) & 255;
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([header.depth ?? 8, header.colorType ?? (channels === 4 ? 6 : 2), 0, 0, header.interlace ?? 0], 8);
  const compressed = deflateSync(raw);
  // Two IDAT chunks: the decoder must concatenate them.
  const half = compressed.length >> 1;
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', compressed.subarray(0, half)),
    chunk('IDAT', compressed.subarray(half)),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function pattern(width: number, height: number, channels: number): Uint8Array {
  const rows = new Uint8Array(width * height * channels);
  const random = new Random(12345);
  for (let i = 0; i < rows.length; i++) rows[i] = random.next() >>> 24;
  return rows;
}

describe('decodePng', () => {
  for (const channels of [3, 4] as const) {
    for (const filter of [0, 1, 2, 3, 4]) {
      it(`decodes ${channels === 4 ? 'RGBA' : 'RGB'} rows with filter ${filter}`, () => {
        const [width, height] = [7, 5];
        const rows = pattern(width, height, channels);
        const png = decodePng(encode(width, height, channels, rows, [filter]));
        expect([png.width, png.height]).toEqual([width, height]);
        const want = new Uint8Array(width * height * 4);
        for (let p = 0; p < width * height; p++) {
          for (let c = 0; c < 4; c++) want[p * 4 + c] = c < channels ? (rows[p * channels + c] ?? 0) : 255;
        }
        expect(png.pixels).toEqual(want);
      });
    }
  }

  it('decodes rows with mixed filters', () => {
    const rows = pattern(9, 10, 4);
    expect(decodePng(encode(9, 10, 4, rows, [4, 0, 3, 1, 2])).pixels).toEqual(rows);
  });

  it('rejects a file that is not a PNG', () => {
    expect(() => decodePng(new Uint8Array(16))).toThrow(/not a PNG/);
  });

  for (const [name, header] of [
    ['16-bit depth', { depth: 16 }],
    ['palette colour', { colorType: 3 }],
    ['Adam7 interlacing', { interlace: 1 }],
  ] as const) {
    it(`rejects ${name}`, () => {
      expect(() => decodePng(encode(2, 2, 4, pattern(2, 2, 4), [0], header))).toThrow(/unsupported PNG/);
    });
  }

  it('rejects an unknown row filter', () => {
    expect(() => decodePng(encode(2, 2, 4, pattern(2, 2, 4), [5]))).toThrow(/bad PNG filter 5/);
  });
});
