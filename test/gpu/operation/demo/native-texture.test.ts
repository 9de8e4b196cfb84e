/**
 * The virtual texture scene's native baseline (demo/virtual-texture/native-texture.ts) outside the
 * browser: the plain texture's mips, filled on the GPU, read back with copyTextureToBuffer and
 * compared texel by texel with the CPU's procedural colours (procedural.ts) at procedural mip
 * level + mipOffset; then frames drawn at views whose pixel centres fall on texel centres of one
 * level (bilinear weights 0 or 1), compared pixel by pixel with the same colours, the clear colour
 * outside the texture and the mip tint; and one frame between texel centres and levels, against the
 * CPU's bilinear filter of two mips (the trilinear sampler).
 */
import { expect } from 'vitest';
import {
  NATIVE_CLEAR_COLOR,
  NativeVirtualTexture,
  nativeMipOffset,
  type NativeView,
} from '../../../../demo/virtual-texture/native-texture.js';
import {
  MIP_COLORS,
  proceduralBilinear,
  proceduralTexel,
  VT_MIPS,
  VT_SIZE,
} from '../../../../demo/virtual-texture/procedural.js';
import { gpuTest } from '../../../harness/gpu-test.js';

const ROW = 256;

interface Rect {
  level: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

async function readBack(device: GPUDevice, buffer: GPUBuffer): Promise<Uint8Array> {
  const staging = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const bytes = new Uint8Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return bytes;
}

/** Bytes per row of a rect's copy: copyTextureToBuffer wants a multiple of 256. */
const pitch = (r: Rect): number => Math.ceil((r.w * 4) / ROW) * ROW;

/** Copies each rect into its own block of rows; returns the bytes and each block's offset. */
async function readRects(
  device: GPUDevice,
  texture: GPUTexture,
  rects: Rect[],
): Promise<{ bytes: Uint8Array; offsets: number[] }> {
  const offsets: number[] = [];
  let size = 0;
  for (const r of rects) {
    offsets.push(size);
    size += r.h * pitch(r);
  }
  const buffer = device.createBuffer({ size, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  rects.forEach((r, i) => {
    encoder.copyTextureToBuffer(
      { texture, mipLevel: r.level, origin: [r.x, r.y] },
      { buffer, offset: offsets[i] ?? 0, bytesPerRow: pitch(r), rowsPerImage: r.h },
      [r.w, r.h],
    );
  });
  device.queue.submit([encoder.finish()]);
  const bytes = await readBack(device, buffer);
  buffer.destroy();
  return { bytes, offsets };
}

/** Texels of `rects` that differ from procedural mip level + offset, as readable lines. */
function wrongTexels(bytes: Uint8Array, offsets: number[], rects: Rect[], offset: number): string[] {
  const wrong: string[] = [];
  rects.forEach((r, i) => {
    for (let y = 0; y < r.h; y++) {
      for (let x = 0; x < r.w; x++) {
        const want = proceduralTexel(r.level + offset, r.x + x, r.y + y);
        const at = (offsets[i] ?? 0) + y * pitch(r) + x * 4;
        const got = Array.from(bytes.subarray(at, at + 4));
        if (want.some((v, c) => got[c] !== v))
          wrong.push(`level ${r.level} (${r.x + x}, ${r.y + y}): ${got.join(',')} vs ${want.join(',')}`);
      }
    }
  });
  return wrong;
}

let logged = false;

gpuTest(
  'the native texture holds the procedural texels of every mip; its draw shows them at texel centres, filtered trilinearly between them',
  async ({ device }) => {
    const t0 = performance.now();
    const native = await NativeVirtualTexture.create(device, 'rgba8unorm');
    const ms = performance.now() - t0;
    try {
      const k = native.mipOffset;
      if (!logged)
        console.log(
          `NativeVirtualTexture.create: ${ms.toFixed(0)} ms for ${native.size}x${native.size}, ${native.mipLevels} mips, mipOffset ${k} (maxTextureDimension2D ${device.limits.maxTextureDimension2D})`,
        );
      logged = true;
      expect(k).toBe(nativeMipOffset(device.limits.maxTextureDimension2D));
      expect(native.size).toBe(VT_SIZE >> k);
      expect(native.size).toBeLessThanOrEqual(device.limits.maxTextureDimension2D);
      expect(native.size * 2 > device.limits.maxTextureDimension2D || k === 0).toBe(true);
      expect(native.mipLevels).toBe(VT_MIPS - k);
      expect([nativeMipOffset(16384), nativeMipOffset(16383), nativeMipOffset(8192), nativeMipOffset(4096)]).toEqual([
        0, 1, 1, 2,
      ]);

      // The finest level (tile edges at x = 0 / 127 / 128, the far corner), a middle one, the last
      // tiled mip and the packed tail's (procedural mips 7, 8, 14) whole, where the texture has them.
      const last = native.mipLevels - 1;
      const whole = (level: number): Rect => ({
        level,
        x: 0,
        y: 0,
        w: Math.max(native.size >> level, 1),
        h: Math.max(native.size >> level, 1),
      });
      const rects: Rect[] = [
        { level: 0, x: 0, y: 0, w: 8, h: 4 },
        { level: 0, x: 120, y: 126, w: 16, h: 4 },
        { level: 0, x: 5000, y: 3071, w: 64, h: 3 },
        { level: 0, x: native.size - 8, y: native.size - 2, w: 8, h: 2 },
        { level: 3, x: 250, y: 380, w: 12, h: 8 },
        ...[7, 8, VT_MIPS - 1]
          .map((mip) => mip - k)
          .filter((level) => level >= 0 && level <= last)
          .map(whole),
      ];
      const { bytes, offsets } = await readRects(device, native.texture, rects);
      const wrong = wrongTexels(bytes, offsets, rects, k);
      expect(wrong.slice(0, 6), `${wrong.length} texels differ`).toEqual([]);
      // The comparison tells mips apart: with the offset one off either way, it would fail.
      expect(wrongTexels(bytes, offsets, rects, k + 1).length).toBeGreaterThan(100);
      if (k > 0) expect(wrongTexels(bytes, offsets, rects, k - 1).length).toBeGreaterThan(100);

      // Frames: pixel (i, j) shows texel (originX + i, originY + j) of `level` (s = 2^(level + k),
      // the centre a whole number of that level's texels), so each sample lands on one texel centre
      // of one level. (s = 1, lod 0 where the texture has mip 0.)
      const width = 64;
      const height = 40;
      const target = device.createTexture({
        size: [width, height],
        format: 'rgba8unorm',
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
      });
      const clear = NATIVE_CLEAR_COLOR.map((v) => Math.round(v * 255));
      const render = async (view: NativeView, tint: boolean): Promise<(i: number, j: number) => number[]> => {
        const encoder = device.createCommandEncoder();
        native.draw(encoder, target.createView(), view, tint);
        const buffer = device.createBuffer({
          size: ROW * height,
          usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
        });
        encoder.copyTextureToBuffer({ texture: target }, { buffer, bytesPerRow: ROW }, [width, height]);
        device.queue.submit([encoder.finish()]);
        const pixels = await readBack(device, buffer);
        buffer.destroy();
        return (i, j) => Array.from(pixels.subarray(j * ROW + i * 4, j * ROW + i * 4 + 4));
      };
      const differs = (got: number[], want: number[], tolerance: number): boolean =>
        want.some((v, c) => Math.abs((got[c] ?? -999) - v) > tolerance);
      const frame = async (level: number, originX: number, originY: number, tint: boolean): Promise<string[]> => {
        const s = 2 ** (level + k);
        const pixel = await render(
          { cx: (originX + width / 2) * s, cy: (originY + height / 2) * s, s, lod: level + k, width, height },
          tint,
        );
        const side = native.size >> level;
        const mipColor = MIP_COLORS[(level + k) & 7] ?? [0, 0, 0];
        const wrong: string[] = [];
        let inside = 0;
        let outside = 0;
        for (let j = 0; j < height; j++) {
          for (let i = 0; i < width; i++) {
            const tx = originX + i;
            const ty = originY + j;
            const inTexture = tx >= 0 && ty >= 0 && tx < side && ty < side;
            let want = inTexture ? proceduralTexel(level + k, tx, ty) : clear;
            if (inTexture && tint)
              want = want.map((v, c) => (c === 3 ? 255 : Math.round(v * 0.55 + (mipColor[c] ?? 0) * 0.45)));
            if (inTexture) inside++;
            else outside++;
            const got = pixel(i, j);
            if (differs(got, want, 1))
              wrong.push(`pixel (${i}, ${j}) texel (${tx}, ${ty}): ${got.join(',')} vs ${want.join(',')}`);
          }
        }
        expect(inside, 'pixels inside the texture').toBeGreaterThan(0);
        if (originX < 0 || originY < 0) expect(outside, 'pixels outside the texture').toBeGreaterThan(0);
        return wrong;
      };
      try {
        // The finest level, the texture's top-left corner in view (the tile edges at x = 0 and y = 0):
        // 12 columns and 4 rows of the clear colour.
        const corner = await frame(0, -12, -4, false);
        expect(corner.slice(0, 6), `${corner.length} pixels differ (level 0, corner)`).toEqual([]);
        // Two levels coarser, inside: the level the lod selects (lod - mipOffset) and its tint.
        const coarse = await frame(2, 600, 990, false);
        expect(coarse.slice(0, 6), `${coarse.length} pixels differ (level 2)`).toEqual([]);
        const tinted = await frame(2, 600, 990, true);
        expect(tinted.slice(0, 6), `${tinted.length} pixels differ (level 2, tinted)`).toEqual([]);

        // Off texel centres: halfway between levels 1 and 2 (minification, the mip blend) and
        // magnified (lod below level 0's, 2.8 pixels per texel) over the top-left corner (clamped to
        // the edge; the clear colour outside), against proceduralBilinear of the level(s) the lod
        // selects (a few 1/255 for the sampler's fixed-point weights). A nearest sample of the finer
        // level (a point filter, no mip blend) gets many pixels far off.
        for (const [lod, cx, cy] of [
          [k + 1.5, 3000.3, 5000.7],
          [k - 1.5, 20.4, 12.8],
        ] as const) {
          const view: NativeView = { cx, cy, s: 2 ** lod, lod, width, height };
          const pixel = await render(view, false);
          const level = Math.max(lod - k, 0);
          const finer = Math.floor(level);
          const blend = level - finer;
          const filtered: string[] = [];
          let nearestOff = 0;
          for (let j = 0; j < height; j++) {
            for (let i = 0; i < width; i++) {
              const u = (view.cx + (i + 0.5 - width / 2) * view.s) / VT_SIZE;
              const v = (view.cy + (j + 0.5 - height / 2) * view.s) / VT_SIZE;
              const fine = proceduralBilinear(finer + k, u, v);
              const coarse = proceduralBilinear(finer + 1 + k, u, v);
              const outside = u < 0 || v < 0;
              const want = outside ? clear : fine.map((f, c) => f * (1 - blend) + (coarse[c] ?? 0) * blend);
              const got = pixel(i, j);
              if (differs(got, want, 3))
                filtered.push(
                  `pixel (${i}, ${j}) uv (${u}, ${v}): ${got.join(',')} vs ${want.map((w) => w.toFixed(1)).join(',')}`,
                );
              const side = VT_SIZE >> (finer + k);
              if (!outside && differs(got, proceduralTexel(finer + k, Math.floor(u * side), Math.floor(v * side)), 3))
                nearestOff++;
            }
          }
          expect(filtered.slice(0, 6), `${filtered.length} pixels differ (filtered, lod ${lod})`).toEqual([]);
          expect(nearestOff, `pixels a nearest sample would get wrong (lod ${lod})`).toBeGreaterThan(
            (width * height) / 20,
          );
        }
      } finally {
        target.destroy();
      }
    } finally {
      native.destroy();
    }
  },
);

gpuTest(
  'create rejects with a clear error when WebGPU refuses it (a depth format as the draw target)',
  async ({ device }) => {
    await expect(NativeVirtualTexture.create(device, 'depth32float')).rejects.toThrow(
      /^NativeVirtualTexture\.create \(\d+x\d+, \d+ mips, mipOffset \d+\) failed: ./,
    );
  },
);
