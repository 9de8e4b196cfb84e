/**
 * The D3D12ReservedResources sample (demo/reserved-resources/sample.ts) in Node.js with Dawn, no
 * DOM: the device made as the page's shell makes it (the sample's DEVICE_OPTIONS), a DIRECT queue
 * and a 2-buffer R8G8B8A8_UNORM swap chain over createOffscreenCanvasContext at the browser test's
 * 512 × 320. The sample is driven as the sample's OnRender drives itself (onRender, present,
 * moveToNextFrame), started at mip 5 and stepped with its OnKeyDown rule through the browser test's
 * holds (packed mips 5 → 10, standard 6 → 0 through the tail, back to 4), and after each hold's
 * frame judged as the browser test judges the canvas:
 *
 * - readPixels() against the CPU model of test/shared/reserved-resources-model.ts, equal where the
 *   model's 8-bit value is determined (every channel at mip 3, all but under 1 % of the quad's
 *   elsewhere);
 * - the tile mappings (getTileMappingForTesting through forTesting.tileMappings()): only the shown
 *   mip's heap mapped, tile for tile; and the uploads: none between packed mips, the whole tail
 *   again on the way back to them.
 *
 * Then the back buffer changes shape (the canvas's size, as a page resize would): the sample
 * uploads the quad's vertices again, and at 256 × 256 mip 4 lands one texel on each pixel.
 */
import { expect } from 'vitest';
import { D3D12ReservedResources, DEVICE_OPTIONS } from '../../../../demo/reserved-resources/sample.js';
import { createOffscreenCanvasContext, type Device, type OffscreenCanvasContext } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import {
  expectedMappings,
  HEAPS,
  heapOfMip,
  PACKED_MIP_DESC,
  pixelMismatches,
} from '../../../shared/reserved-resources-model.js';

const test = d3dTest(DEVICE_OPTIONS);

const WIDTH = 512;
const HEIGHT = 320;

/** The browser test's holds: the mip shown, and the steps (OnKeyDown's -1 or +1, times) to the next. */
const HOLDS: { mip: number; then?: [delta: -1 | 1, times: number] }[] = [
  { mip: 5, then: [1, 5] },
  { mip: 10, then: [-1, 4] },
  { mip: 6, then: [-1, 2] },
  { mip: 4, then: [-1, 1] },
  { mip: 3, then: [-1, 1] },
  { mip: 2, then: [-1, 2] },
  { mip: 0, then: [1, 4] },
  { mip: 4 },
];
/** [first subresource, count] of each texture upload so far, once each hold is drawn: packed mips move nothing. */
const TAIL: [number, number] = [4, 7];
const UPLOADS: [number, number][][] = [
  [TAIL],
  [TAIL],
  [TAIL],
  [TAIL],
  [TAIL, [3, 1]],
  [TAIL, [3, 1], [2, 1]],
  [TAIL, [3, 1], [2, 1], [0, 1]],
  [TAIL, [3, 1], [2, 1], [0, 1], TAIL],
];

interface Run {
  sample: D3D12ReservedResources;
  context: OffscreenCanvasContext;
  /** One frame as the sample's OnRender makes it, then the GPU drained and the frame read back. */
  frame: () => Promise<Uint8Array>;
}

async function startSample(d3d: Device, startMip: number): Promise<Run> {
  const context = createOffscreenCanvasContext(WIDTH, HEIGHT);
  const swapChain = d3d.createSwapChain(context, { format: 'R8G8B8A8_UNORM' });
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const sample = await D3D12ReservedResources.create({ device: d3d, queue, swapChain }, { startMip });
  return {
    sample,
    context,
    frame: async () => {
      await sample.onRender();
      swapChain.present();
      await sample.moveToNextFrame();
      // The frame just presented is done once the GPU is idle (every back buffer is the context's one texture).
      await sample.waitForGpu();
      return context.readPixels();
    },
  };
}

/** The frame's pixels against the model at `mip`: equal where determined; how many channels went unjudged. */
function expectPixels(pixels: Uint8Array, width: number, height: number, mip: number, name: string): number {
  expect(pixels.length, name).toBe(width * height * 4);
  const { mismatches, mismatched, compared, skipped } = pixelMismatches({ width, height, pixels }, mip);
  expect(mismatches, `${name}: pixels against the model (${mismatched} channels differ)`).toEqual([]);
  expect(compared + skipped, name).toBe(width * height * 3);
  return skipped;
}

test('each mip stepped to is the only one mapped, and readPixels() is what the model samples, exactly', async ({
  d3d,
}) => {
  const { sample, frame } = await startSample(d3d, HOLDS[0]?.mip ?? 0);
  const tiling = sample.forTesting.tiling();
  expect(tiling.packedMipDesc).toEqual(PACKED_MIP_DESC);
  for (const [hold, { mip, then }] of HOLDS.entries()) {
    const name = `hold ${hold} (mip ${mip})`;
    const pixels = await frame();
    const snapshot = sample.snapshot();
    expect(snapshot.activeMip, name).toBe(mip);
    expect(snapshot.frames, name).toBe(hold + 1);
    expect(snapshot.backBuffer, name).toEqual({ width: WIDTH, height: HEIGHT });
    expect(
      snapshot.heaps.map((h) => [h.tiles, h.mips]),
      name,
    ).toEqual(HEAPS);
    expect(
      snapshot.heaps.map((h) => h.mapped),
      name,
    ).toEqual(snapshot.heaps.map((_, n) => n === heapOfMip(mip)));
    expect(sample.forTesting.tileMappings(), `${name}: tile mappings`).toEqual(
      expectedMappings(tiling, mip, snapshot.numTilesForEntireResource),
    );
    expect(
      snapshot.uploads.map((u) => [u.firstSubresource, u.count]),
      `${name}: uploads`,
    ).toEqual(UPLOADS[hold]);

    const skipped = expectPixels(pixels, WIDTH, HEIGHT, mip, name);
    const quadChannels = (WIDTH / 4) * (WIDTH / 4) * 3;
    if (mip === 3) expect(skipped, name).toBe(0);
    else expect(skipped, `${name}: channels left unjudged`).toBeLessThan(quadChannels * 0.01);

    if (then) for (let i = 0; i < then[1]; i++) sample.stepMip(then[0]);
  }
  // OnKeyDown stops at the chain's ends.
  expect(sample.stepMip(1)).toBe(true);
  for (let mip = 5; mip < 10; mip++) sample.stepMip(1);
  expect(sample.activeMip).toBe(10);
  expect(sample.stepMip(1)).toBe(false);
  await sample.onDestroy();
});

test('a back buffer that changes shape gets the quad uploaded again, square: 256 × 256 at mip 4 is one texel a pixel', async ({
  d3d,
}) => {
  const { sample, context, frame } = await startSample(d3d, 4);
  expectPixels(await frame(), WIDTH, HEIGHT, 4, 'at 512 × 320');
  expect(sample.snapshot().aspectRatio).toBe(Math.fround(WIDTH / HEIGHT));
  // As a resized canvas: the swap chain's back buffers follow the context's size.
  context.canvas.width = 256;
  context.canvas.height = 256;
  const pixels = await frame();
  const snapshot = sample.snapshot();
  expect(snapshot.backBuffer).toEqual({ width: 256, height: 256 });
  expect(snapshot.aspectRatio).toBe(1);
  expect(expectPixels(pixels, 256, 256, 4, 'at 256 × 256'), 'channels left unjudged').toBe(0);
  // The same mip: nothing mapped or uploaded again.
  expect(snapshot.uploads.map((u) => [u.firstSubresource, u.count])).toEqual([[4, 7]]);
  await sample.onDestroy();
});
