/**
 * Page faults in draws: a fragment shader, and a vertex shader (through its replay, see
 * shaders/vertex_replay.wgsl), reading a buffer whose heap was evicted. For each stage and each
 * onPageFault mode it returns the removal reason, the first fault report (plain data) and a few drawn
 * pixels; plus controls: the same draws with the heap resident (no fault, the colour drawn) and with
 * gpuValidation off (nothing recorded).
 */
import { createDevice, type FaultReport } from '../../../src/index.js';
import { runList, TILE, uploadBuffer } from '../../shared/d3d12-helpers.js';
import { canvasSwapChain, readBackBuffer } from './read-back-buffer.js';

/**
 * Root SRV 1: the colour buffer; root constant 2: which stage reads it (0 fragment, 1 vertex); root
 * constant 3: 1 to read it through a page handle at an offset past the page (mode 'page-offset').
 * The fragment stage reads the colour per pixel; the vertex stage reads it per vertex and passes it on.
 */
const SHADER = `
struct VertexIn { @builtin(vertex_index) vertex: u32 }
struct VertexOut { @builtin(position) position: vec4f, @location(0) color: vec4f }

fn color_at(word: u32) -> vec4f {
  let base = d3d12_root_descriptor(1u);
  // Root constant 3 = 1: through a page handle, at an offset past its page (a page-offset fault; the
  // load reads the same word of the page).
  if (d3d12_root_constant(3u) == 1u) {
    return d3d12_unpack_unorm8(d3d12_page_load(d3d12_page(base), D3D12_PAGE_BYTES + word * 4u));
  }
  return d3d12_unpack_unorm8(d3d12_load(d3d12_address_add(base, word * 4u)));
}

@vertex fn vs(input: VertexIn) -> VertexOut {
  let i = input.vertex;
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  var out: VertexOut;
  out.position = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
  out.color = vec4f(0.0, 0.0, 0.0, 1.0);
  if (d3d12_root_constant(2u) == 1u) {
    out.color = color_at(i);
  }
  return out;
}

@fragment fn fs(in: VertexOut) -> @location(0) vec4f {
  if (d3d12_root_constant(2u) == 0u) {
    return color_at(0u);
  }
  return in.color;
}
`;

export interface DrawFaultCase {
  stage: 'fragment' | 'vertex';
  /** 'page-offset': resident memory, read through a page handle at a bad offset (reported). */
  mode: 'remove-device' | 'report' | 'resident' | 'no-validation' | 'page-offset';
  removedReason: string;
  /** Faults reported (getPageFaultReport when removed, else readFaults). */
  faultCount: number;
  fault?: FaultReport;
  /** The centre pixel, RGBA8. */
  pixel: number[];
  /** The fault report survives JSON unchanged. */
  jsonRoundTrip: boolean;
}

const COLOR = [0x20, 0x80, 0xc0, 0xff];

async function drawCase(
  gpuDevice: GPUDevice,
  stage: DrawFaultCase['stage'],
  mode: DrawFaultCase['mode'],
): Promise<DrawFaultCase> {
  const device = await createDevice({
    gpuDevice,
    localMemoryBytes: 4 << 20,
    nonLocalMemoryBytes: 4 << 20,
    onPageFault: mode === 'remove-device' ? 'remove-device' : 'report',
    gpuValidation: mode !== 'no-validation',
  });
  try {
    const { swapChain, queue } = canvasSwapChain(device);
    const heap = device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    heap.setName('color heap');
    const colors = device.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    colors.setName('colors');
    const words = new Uint8Array(16);
    for (let i = 0; i < 4; i++) words.set(COLOR, i * 4);
    await runList(device, queue, (list) => list.copyBufferRegion(colors, 0, uploadBuffer(device, words), 0, 16));
    if (mode !== 'resident' && mode !== 'page-offset') device.evict([heap]);
    const pso = await device.createGraphicsPipelineState({
      code: SHADER,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormat: swapChain.format,
      label: 'color reader',
    });
    const backBuffer = swapChain.getCurrentBackBuffer();
    const list = device.createCommandList('DIRECT');
    list.setName(`${stage} reads colors`);
    list.omSetRenderTargets([backBuffer]);
    list.clearRenderTargetView(backBuffer, [0, 0, 0, 1]);
    list.setPipelineState(pso);
    list.setGraphicsRootShaderResourceView(1, colors.getGPUVirtualAddress());
    list.setGraphicsRoot32BitConstants(0, [stage === 'vertex' ? 1 : 0, mode === 'page-offset' ? 1 : 0], 2);
    list.drawInstanced(3, 1);
    list.close();
    const fence = device.createFence(0);
    queue.executeCommandLists([list]);
    queue.signal(fence, 1);
    const pixels = await readBackBuffer(gpuDevice, backBuffer);
    swapChain.present();
    await fence.setEventOnCompletion(1);
    const report = device.getPageFaultReport();
    const faults = report ? report.faults : await device.readFaults();
    const centre = (32 * 64 + 32) * 4;
    return {
      stage,
      mode,
      removedReason: device.getDeviceRemovedReason(),
      faultCount: faults.length,
      fault: faults[0],
      pixel: Array.from(pixels.subarray(centre, centre + 4)),
      jsonRoundTrip: JSON.stringify(JSON.parse(JSON.stringify(faults))) === JSON.stringify(faults),
    };
  } finally {
    device.destroy();
  }
}

export default async function drawFaultsPage(gpuDevice: GPUDevice): Promise<DrawFaultCase[]> {
  const cases: DrawFaultCase[] = [];
  for (const stage of ['fragment', 'vertex'] as const) {
    for (const mode of ['remove-device', 'report', 'resident', 'no-validation', 'page-offset'] as const)
      cases.push(await drawCase(gpuDevice, stage, mode));
  }
  return cases;
}
