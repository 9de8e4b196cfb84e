/**
 * Swap chain and drawing calls in a real canvas: clears, scissors, viewports, instanced draws with
 * start locations, alpha blending and graphics root constants drawn into a 64x64 back buffer, read
 * back before present; a frame recorded in one task and executed in another; and the state rules
 * that need a live list, pipeline or swap chain, each as a caught D3D12Error.
 */
import { createDevice, D3D12Error, type GraphicsCommandList } from '../../../src/index.js';
import { canvasSwapChain, readBackBuffer } from './read-back-buffer.js';

const SHADER = `
// Full-screen triangle; the colour is root constants 0..3 (0..255 each).
@vertex fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn solid() -> @location(0) vec4f {
  return vec4f(f32(d3d12_root_constant(0u)), f32(d3d12_root_constant(1u)), f32(d3d12_root_constant(2u)), f32(d3d12_root_constant(3u))) / 255.0;
}

// An 8x8-pixel quad per instance on a 64x64 target: column = instance_index, row = vertex_index / 6
// (WGSL's indices include startInstanceLocation and startVertexLocation).
struct Bar { @builtin(position) position: vec4f, @location(0) @interpolate(flat) instance: u32 }
@vertex fn bars(@builtin(vertex_index) v: u32, @builtin(instance_index) instance: u32) -> Bar {
  let corner = array(vec2f(0, 0), vec2f(1, 0), vec2f(0, 1), vec2f(0, 1), vec2f(1, 0), vec2f(1, 1))[v % 6u];
  let pixel = (vec2f(f32(instance), f32(v / 6u)) + corner) * 8.0;
  return Bar(vec4f(pixel.x / 32.0 - 1.0, 1.0 - pixel.y / 32.0, 0.0, 1.0), instance);
}
@fragment fn barColor(in: Bar) -> @location(0) vec4f {
  return vec4f(f32(in.instance) * 40.0 / 255.0, 1.0, 0.0, 1.0);
}
`;

export interface CaughtError {
  name: string;
  hresult: string;
  call: string;
  argument: string;
  message: string;
}

export interface SwapChainResult {
  width: number;
  height: number;
  /** The first frame, RGBA8, row-major. */
  frame: number[];
  /** A frame cleared in a list recorded before an await and executed after it. */
  acrossTasks: number[];
  frames: number[];
  sameBackBufferUntilPresent: boolean;
  /** Invalid calls, each expected to throw; `hresult` is 'none' if it did not. */
  errors: CaughtError[];
  /** Valid controls next to the invalid calls: each must not throw. */
  controls: { name: string; threw: string | null }[];
}

export default async function swapChainPage(gpuDevice: GPUDevice): Promise<SwapChainResult> {
  const device = await createDevice({ gpuDevice, localMemoryBytes: 4 << 20, nonLocalMemoryBytes: 4 << 20 });
  const { context, swapChain, queue } = canvasSwapChain(device);
  const psoDesc = { code: SHADER, rtvFormat: swapChain.format };
  const solid = await device.createGraphicsPipelineState({
    ...psoDesc,
    vertexEntryPoint: 'fullscreen',
    fragmentEntryPoint: 'solid',
    label: 'solid',
  });
  const blended = await device.createGraphicsPipelineState({
    ...psoDesc,
    vertexEntryPoint: 'fullscreen',
    fragmentEntryPoint: 'solid',
    blend: 'ALPHA_BLEND',
    label: 'blended',
  });
  const bars = await device.createGraphicsPipelineState({
    ...psoDesc,
    vertexEntryPoint: 'bars',
    fragmentEntryPoint: 'barColor',
    label: 'bars',
  });
  const compute = await device.createComputePipelineState({
    code: '@compute @workgroup_size(1) fn main() {}',
    entryPoint: 'main',
  });
  const bgra = await device.createGraphicsPipelineState({
    ...psoDesc,
    rtvFormat: 'B8G8R8A8_UNORM',
    vertexEntryPoint: 'fullscreen',
    fragmentEntryPoint: 'solid',
  });

  // Frame 0: see swap-chain.test.ts for the picture the CPU predicts.
  const backBuffer = swapChain.getCurrentBackBuffer();
  const sameBackBufferUntilPresent = swapChain.getCurrentBackBuffer() === backBuffer;
  const list = device.createCommandList('DIRECT');
  list.clearRenderTargetView(backBuffer, [0, 0, 1, 1]);
  list.omSetRenderTargets([backBuffer]);
  list.setPipelineState(solid);
  list.rsSetScissorRects([{ left: 16, top: 16, right: 48, bottom: 48 }]);
  list.setGraphicsRoot32BitConstants(0, [255, 0, 0, 255]);
  list.drawInstanced(3, 1);
  list.rsSetScissorRects([{ left: 0, top: 0, right: 64, bottom: 64 }]);
  list.rsSetViewports([{ topLeftX: 32, topLeftY: 0, width: 32, height: 32 }]);
  list.setGraphicsRoot32BitConstant(0, 0, 0);
  list.setGraphicsRoot32BitConstant(0, 255, 1);
  list.drawInstanced(3, 1);
  list.rsSetViewports([{ topLeftX: 0, topLeftY: 0, width: 64, height: 64 }]);
  list.setPipelineState(bars);
  list.drawInstanced(6, 3, 6 * 7, 2); // row 7, columns 2..4
  list.setPipelineState(blended);
  list.rsSetScissorRects([{ left: 0, top: 0, right: 8, bottom: 8 }]);
  list.setGraphicsRoot32BitConstants(0, [255, 255, 255, 128]);
  list.drawInstanced(3, 1);
  list.close();
  queue.executeCommandLists([list]);
  const frame = Array.from(await readBackBuffer(gpuDevice, backBuffer));
  swapChain.present();

  const errors: CaughtError[] = [];
  const controls: SwapChainResult['controls'] = [];
  const expectError = (name: string, action: () => unknown): void => {
    try {
      action();
      errors.push({ name, hresult: 'none', call: '', argument: '', message: 'did not throw' });
    } catch (error) {
      if (error instanceof D3D12Error)
        errors.push({
          name,
          hresult: error.hresult,
          call: error.call,
          argument: error.argument,
          message: error.message,
        });
      else errors.push({ name, hresult: 'not a D3D12Error', call: '', argument: '', message: String(error) });
    }
  };
  const control = (name: string, action: () => unknown): void => {
    try {
      action();
      controls.push({ name, threw: null });
    } catch (error) {
      controls.push({ name, threw: String(error) });
    }
  };
  const fresh = (type: 'DIRECT' | 'COMPUTE' | 'COPY' = 'DIRECT'): GraphicsCommandList => device.createCommandList(type);

  // Frame 1: presenting ended frame 0.
  const next = swapChain.getCurrentBackBuffer();
  const frames = [backBuffer.index, next.index];
  expectError('clear a presented back buffer', () => fresh().clearRenderTargetView(backBuffer, [0, 0, 0, 1]));
  expectError('set a presented back buffer', () => fresh().omSetRenderTargets([backBuffer]));
  control('clear the current back buffer', () => fresh().clearRenderTargetView(next, [0, 0, 0, 1]));

  const stale = fresh();
  stale.clearRenderTargetView(next, [1, 0, 0, 1]);
  stale.close();
  expectError('present: syncInterval 5', () => swapChain.present(5));
  control('present: syncInterval 0 (then a new frame)', () => swapChain.present(0));
  expectError('execute a list drawing into a presented back buffer', () => queue.executeCommandLists([stale]));

  const current = swapChain.getCurrentBackBuffer();
  const withPipeline = (pso: typeof solid | undefined, target = true): GraphicsCommandList => {
    const l = fresh();
    if (target) l.omSetRenderTargets([current]);
    if (pso) l.setPipelineState(pso);
    return l;
  };
  expectError('drawInstanced without a pipeline state', () => withPipeline(undefined).drawInstanced(3, 1));
  expectError('drawInstanced with a compute pipeline state', () => withPipeline(compute).drawInstanced(3, 1));
  expectError('drawInstanced without a render target', () => withPipeline(solid, false).drawInstanced(3, 1));
  expectError('drawInstanced with an RTV format mismatch', () => withPipeline(bgra).drawInstanced(3, 1));
  expectError('drawInstanced with a viewport outside the target', () => {
    const l = withPipeline(solid);
    l.rsSetViewports([{ topLeftX: 40, topLeftY: 0, width: 32, height: 32 }]);
    l.drawInstanced(3, 1);
  });
  control('drawInstanced with a viewport touching the target edges', () => {
    const l = withPipeline(solid);
    l.rsSetViewports([{ topLeftX: 32, topLeftY: 32, width: 32, height: 32 }]);
    l.drawInstanced(3, 1);
  });
  expectError('dispatch with a graphics pipeline state', () => withPipeline(solid).dispatch(1, 1, 1));
  expectError('clearRenderTargetView on a COPY list', () => fresh('COPY').clearRenderTargetView(current, [0, 0, 0, 1]));
  expectError('drawInstanced on a COMPUTE list', () => fresh('COMPUTE').drawInstanced(3, 1));
  expectError('setGraphicsRoot32BitConstants on a COMPUTE list', () =>
    fresh('COMPUTE').setGraphicsRoot32BitConstants(0, [1]),
  );
  expectError('setGraphicsRoot32BitConstants past 64 constants', () =>
    fresh().setGraphicsRoot32BitConstants(0, [1, 2], 63),
  );
  control('setGraphicsRoot32BitConstants at the last constant', () =>
    fresh().setGraphicsRoot32BitConstants(0, [1], 63),
  );
  const texture = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
    'COMMON',
  );
  expectError('clearRenderTargetView on a heap texture', () => fresh().clearRenderTargetView(texture, [0, 0, 0, 1]));
  expectError('omSetRenderTargets with two targets', () => fresh().omSetRenderTargets([current, current]));
  control('omSetRenderTargets with none (unbinds)', () => fresh().omSetRenderTargets([]));
  expectError('drawInstanced on a closed list', () => {
    const l = withPipeline(solid);
    l.close();
    l.drawInstanced(3, 1);
  });
  expectError('createSwapChain: not a canvas context', () => device.createSwapChain({} as GPUCanvasContext));
  expectError('createSwapChain: format R32_FLOAT', () => device.createSwapChain(context, { format: 'R32_FLOAT' }));
  expectError('createSwapChain: alphaMode', () =>
    device.createSwapChain(context, { alphaMode: 'straight' as GPUCanvasAlphaMode }),
  );
  expectError('createSwapChain: desc null', () => device.createSwapChain(context, null as never));
  try {
    await device.createGraphicsPipelineState({
      ...psoDesc,
      rtvFormat: 'R32_FLOAT',
      vertexEntryPoint: 'fullscreen',
      fragmentEntryPoint: 'solid',
    });
    errors.push({
      name: 'createGraphicsPipelineState: rtvFormat R32_FLOAT',
      hresult: 'none',
      call: '',
      argument: '',
      message: 'did not throw',
    });
  } catch (error) {
    const e = error as D3D12Error;
    errors.push({
      name: 'createGraphicsPipelineState: rtvFormat R32_FLOAT',
      hresult: e.hresult,
      call: e.call,
      argument: e.argument,
      message: e.message,
    });
  }
  try {
    await device.createGraphicsPipelineState({
      ...psoDesc,
      vertexEntryPoint: 'fullscreen',
      fragmentEntryPoint: 'missing',
    });
    errors.push({
      name: 'createGraphicsPipelineState: no such fragment entry point',
      hresult: 'none',
      call: '',
      argument: '',
      message: 'did not throw',
    });
  } catch (error) {
    const e = error as D3D12Error;
    errors.push({
      name: 'createGraphicsPipelineState: no such fragment entry point',
      hresult: e.hresult,
      call: e.call,
      argument: e.argument,
      message: e.message,
    });
  }

  // A frame recorded in one task and executed in another still lands in the live canvas texture.
  const later = fresh();
  later.clearRenderTargetView(current, [0, 1, 0, 1]);
  later.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  queue.executeCommandLists([later]);
  const acrossTasks = Array.from(await readBackBuffer(gpuDevice, current));
  swapChain.present();
  device.destroy();
  return { width: 64, height: 64, frame, acrossTasks, frames, sameBackBufferUntilPresent, errors, controls };
}
