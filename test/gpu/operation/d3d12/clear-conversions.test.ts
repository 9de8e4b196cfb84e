/**
 * Float clears beyond each format's range, on Node.js + Dawn, read back from memory: what
 * ClearUnorderedAccessViewFloat writes into typed buffer views, and what ClearRenderTargetView leaves
 * in a back buffer of every back-buffer format. The expected bits are written out here from D3D's
 * Data Conversion rules (16-bit and R11G11B10 floats rounded toward zero, so past the largest finite
 * value is that value, INF and NaN kept; UNORM and SNORM with NaN as 0, clamped) and from
 * vkd3d-proton's tests/d3d12_clear.c, and compared with the CPU reference (clear-values.ts) as well.
 *
 * The render-target rows would fail without the conversion in memory/render-target-clear.ts: WebGPU
 * converts a raw clear colour on the GPU, where 65520 rounds to INF and 1 + 3 × 2^-11 to 0x3c02.
 */
import { describe, expect } from 'vitest';
import { createDevice, createOffscreenCanvasContext, type Device } from '../../../../src/index.js';
import { clearChannels, clearElementBytes } from '../../../../src/memory/clear-values.js';
import { readBuffer, runList, uploadBuffer } from '../../../../src/validate/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';

const le16 = (half: number): number[] => [half & 0xff, half >>> 8];
const le32 = (word: number): number[] => [word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, word >>> 24];
/** A float given by its bits (how vkd3d-proton's tests write them). */
const f = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0] as number;

interface UavCase {
  format: string;
  values: [number, number, number, number];
  /** One element's bytes, as D3D12 writes them. */
  element: number[];
}

const UAV_CASES: UavCase[] = [
  {
    format: 'R16G16B16A16_FLOAT',
    values: [65520, -1e6, Infinity, NaN],
    element: [...le16(0x7bff), ...le16(0xfbff), ...le16(0x7c00), ...le16(0x7e00)],
  },
  {
    format: 'R16G16B16A16_FLOAT',
    values: [1 + 3 * 2 ** -11, 2049.5, 7 * 2 ** -26, -1e-40],
    element: [...le16(0x3c01), ...le16(0x6800), ...le16(0x0001), ...le16(0x8000)],
  },
  { format: 'R16G16_FLOAT', values: [f(0x7f7fffff), -Infinity, 0, 0], element: le32(0xfc007bff) },
  // vkd3d-proton: 0.5 + epsilon is 0x3800.
  { format: 'R16_FLOAT', values: [f(0x3f000080), 0, 0, 0], element: le16(0x3800) },
  { format: 'R11G11B10_FLOAT', values: [1e6, Infinity, NaN, 0], element: le32(0xfffe07bf) },
  { format: 'R11G11B10_FLOAT', values: [-Infinity, 1 + 3 * 2 ** -7, 64511, 0], element: le32(0xf79e0800) },
  // vkd3d-proton: 0.5, 0, -1 are 0x380, 0, 0.
  { format: 'R11G11B10_FLOAT', values: [0.5, 0, -1, 1], element: le32(0x00000380) },
  { format: 'R8G8B8A8_UNORM', values: [NaN, Infinity, -Infinity, 0.1], element: [0, 0xff, 0, 26] },
  { format: 'R8G8B8A8_SNORM', values: [NaN, -Infinity, Infinity, -1e-40], element: [0, 0x81, 0x7f, 0] },
  // vkd3d-proton: 0.50000762951 is 0x8000; 2 saturates.
  { format: 'R16G16_UNORM', values: [f(0x3f000080), 2, 0, 0], element: le32(0xffff8000) },
  { format: 'R10G10B10A2_UNORM', values: [Infinity, NaN, f(0x3f002008), -1], element: le32(0x200003ff) },
  { format: 'R32_FLOAT', values: [NaN, 0, 0, 0], element: le32(0x7fc00000) },
  { format: 'R32G32_FLOAT', values: [-Infinity, -1e-40, 0, 0], element: [...le32(0xff800000), ...le32(0x80000000)] },
];

async function uavClears(device: Device): Promise<void> {
  const queue = device.createCommandQueue({ type: 'COMPUTE' });
  const width = 4096;
  const buffer = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  const upload = uploadBuffer(device, new Uint8Array(width).fill(0xa5));
  await runList(device, queue, (list) => list.copyBufferRegion(buffer, 0, upload, 0, width), 'COMPUTE');
  for (const [i, c] of UAV_CASES.entries()) {
    const name = `${c.format} ${JSON.stringify(c.values.map(String))}`;
    const reference = clearElementBytes(clearChannels(c.format) ?? [], c.values, 'Float');
    expect([...reference], `${name}: the CPU reference`).toEqual(c.element);
    // Each case two elements of its own 64-byte stretch, the element before them left as it was.
    const size = c.element.length;
    const firstElement = ((i + 1) * 64) / size;
    await runList(
      device,
      queue,
      (list) =>
        list.clearUnorderedAccessViewFloat(buffer, c.values, null, { format: c.format, firstElement, numElements: 2 }),
      'COMPUTE',
    );
    const bytes = await readBuffer(device, queue, buffer, (i + 1) * 64 - size, 3 * size);
    expect([...bytes], name).toEqual([...new Array<number>(size).fill(0xa5), ...c.element, ...c.element]);
  }
  buffer.release();
  upload.release();
}

interface TargetCase {
  format: 'R8G8B8A8_UNORM' | 'B8G8R8A8_UNORM' | 'R16G16B16A16_FLOAT';
  color: [number, number, number, number];
  /** One texel's bytes in the format's byte order. */
  texel: number[];
}

const TARGET_CASES: TargetCase[] = [
  // vkd3d-proton's test_clear_render_target_view colour; D3D's FLOAT -> UNORM (+ 0.5, truncated in FLOAT arithmetic).
  { format: 'R8G8B8A8_UNORM', color: [0.1, 0.5, 0.3, 0.75], texel: [26, 128, 77, 191] },
  { format: 'R8G8B8A8_UNORM', color: [1, -1, -0.5, -2], texel: [255, 0, 0, 0] },
  { format: 'R8G8B8A8_UNORM', color: [2, 1e30, -1e30, f(0x3f000080)], texel: [255, 255, 0, 0x80] },
  { format: 'B8G8R8A8_UNORM', color: [0.1, 0.5, 0.3, 0.75], texel: [77, 128, 26, 191] },
  {
    format: 'R16G16B16A16_FLOAT',
    color: [65520, -1e6, f(0x7f7fffff), 65504],
    texel: [...le16(0x7bff), ...le16(0xfbff), ...le16(0x7bff), ...le16(0x7bff)],
  },
  {
    format: 'R16G16B16A16_FLOAT',
    color: [1 + 3 * 2 ** -11, 2049.5, 7 * 2 ** -26, -(2 ** -25)],
    texel: [...le16(0x3c01), ...le16(0x6800), ...le16(0x0001), ...le16(0x8000)],
  },
];

async function renderTargetClears(device: Device): Promise<void> {
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const rtvHeap = device.createDescriptorHeap({ type: 'RTV', numDescriptors: 1 });
  const rtv = rtvHeap.getCPUDescriptorHandleForHeapStart();
  for (const c of TARGET_CASES) {
    const context = createOffscreenCanvasContext(4, 2);
    const swapChain = device.createSwapChain(context, { format: c.format });
    const backBuffer = swapChain.getCurrentBackBuffer();
    device.createRenderTargetView(backBuffer, null, rtv);
    await runList(device, queue, (list) => {
      const transition = (stateBefore: 'PRESENT' | 'RENDER_TARGET', stateAfter: 'PRESENT' | 'RENDER_TARGET') =>
        list.resourceBarrier([{ type: 'TRANSITION', transition: { resource: backBuffer, stateBefore, stateAfter } }]);
      transition('PRESENT', 'RENDER_TARGET');
      list.clearRenderTargetView(rtv, c.color);
      transition('RENDER_TARGET', 'PRESENT');
    });
    const pixels = await context.readPixels();
    const name = `${c.format} ${JSON.stringify(c.color)}`;
    expect(pixels.length, name).toBe(8 * c.texel.length);
    for (let t = 0; t < 8; t++)
      expect([...pixels.subarray(t * c.texel.length, (t + 1) * c.texel.length)], `${name}, texel ${t}`).toEqual(
        c.texel,
      );
    context.unconfigure();
  }
}

describe('Float clears beyond the range, as D3D12 converts them (Node.js + Dawn)', () => {
  gpuTest('ClearUnorderedAccessViewFloat of typed buffer views: every kind of channel', async ({ device }) => {
    const d3d = await createDevice({ gpuDevice: device });
    try {
      await uavClears(d3d);
    } finally {
      d3d.destroy();
    }
  });

  gpuTest('ClearRenderTargetView of every back-buffer format', async ({ device }) => {
    const d3d = await createDevice({ gpuDevice: device });
    try {
      await renderTargetClears(d3d);
    } finally {
      d3d.destroy();
    }
  });
});
