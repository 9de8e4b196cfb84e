/**
 * The frame around every scene: header (title, summary, D3D12 calls), a canvas with a swap chain, a
 * side panel for the scene's overlay, controls and charts, and the frame loop.
 *
 * The canvas fills the width the layout gives its stage and follows resizes (canvas-size.ts). When
 * WebGPU is missing, gives no adapter or loses its device, the stage shows why (webgpu-access.ts).
 *
 * URL parameters every scene takes: `frames=N` renders N frames and stops (the browser tests do),
 * `pauseEvery=K` (with `frames`) holds the loop after every K frames in the state 'paused' until
 * `window.d3d12Demo.resume()`, so a test captures several views in one page load (and
 * `window.d3d12Demo.pause()` holds it after the frame in progress, at any URL);
 * `width`/`height` fix the canvas size in CSS pixels, `dpr` the device pixels per CSS pixel;
 * `bench=N` runs the frame-time benchmark instead of the animation loop (scene-bench.ts: `warmup`
 * frames, then N measured; `benchSeconds`, `warmupSeconds`). For tests, `window.d3d12Demo` reports the loop's state ('loading' |
 * 'running' | 'paused' | 'done' | 'failed'), the frame count, the scene's snapshot() and a benchmark's result;
 * a failure is also logged with console.error so no test misses it.
 */
import { createDevice, type CommandQueue, type Device, type SwapChain } from '../../src/index.js';
import { CanvasSizer, canvasSizeParams } from './canvas-size.js';
import type { FrameTimer } from './frame-timer.js';
import { benchLength, createFrameTimer, runSceneBench, type SceneBenchResult } from './scene-bench.js';
import type { SceneMeta } from './scene-meta.js';
import { element, sceneHeader } from './dom.js';
import { openWebGPU, watchDeviceLoss } from './webgpu-access.js';

export interface SceneContext {
  device: Device;
  gpuDevice: GPUDevice;
  queue: CommandQueue;
  swapChain: SwapChain;
  canvas: HTMLCanvasElement;
  /** The side panel: scenes append their overlay, controls and charts. */
  panel: HTMLElement;
  params: URLSearchParams;
  /** Under `bench=N` only: the frame timer, for raw WebGPU passes' timestamps (rawPass()). */
  frameTimer?: FrameTimer;
}

export interface Scene {
  /**
   * Records, executes and presents one frame (the shell calls present() if the scene did not).
   * Returning false ends the loop (a removed device, say). Draws must be submitted in one task.
   */
  frame(index: number, timeMs: number): Promise<boolean | void> | boolean | void;
  /** What tests (and the JSON button) read: plain data. */
  snapshot(): unknown;
  /** Called once when the loop stops. */
  stop?(): void;
  /** Hooks the browser tests call through window.d3d12Demo.forTesting (readbacks, mappings). */
  forTesting?: Record<string, (...args: never[]) => unknown>;
}

export interface DemoStatus {
  state: 'loading' | 'running' | 'paused' | 'done' | 'failed';
  frames: number;
  /** Ends a pause (the loop goes on with its next frame). */
  resume(): void;
  /**
   * Holds the loop in the state 'paused' once the frame in progress is presented, until resume(): a
   * test then captures the page without the scene's frames competing for the GPU (on a software
   * adapter a screenshot otherwise waits several frames).
   */
  pause(): void;
  error?: string;
  snapshot(): unknown;
  forTesting: Record<string, (...args: never[]) => unknown>;
  /** Under `bench=N`, once done: the measured frames. */
  bench?: SceneBenchResult;
}

declare global {
  interface Window {
    d3d12Demo: DemoStatus;
  }
}

export interface SceneOptions {
  /** Emulated LOCAL / NON_LOCAL pool sizes for the scene's device. */
  localMemoryBytes: number;
  nonLocalMemoryBytes: number;
}

function layout(meta: SceneMeta): { canvas: HTMLCanvasElement; panel: HTMLElement; status: HTMLElement } {
  const header = sceneHeader(meta);
  const main = element('main', 'scene-main');
  const stage = element('div', 'stage');
  const canvas = element('canvas');
  canvas.id = 'scene-canvas';
  const status = element('p', 'scene-status', 'Starting WebGPU…');
  status.id = 'scene-status';
  stage.append(canvas, status);
  const panel = element('aside', 'panel');
  main.append(stage, panel);
  document.body.append(header, main);
  return { canvas, panel, status };
}

/** Holds the loop in the state 'paused' until `resume` runs (a failure meanwhile leaves the state as it is). */
async function pause(status: DemoStatus, onResume: (resume: () => void) => void): Promise<void> {
  if (status.state !== 'running') return;
  status.state = 'paused';
  await new Promise<void>((resolve) => onResume(resolve));
  if (status.state === 'paused') status.state = 'running';
}

/** Waits for the next animation frame; hidden tabs get no rAF, so fall back to a timer there. */
function nextFrame(): Promise<number> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') setTimeout(() => resolve(performance.now()), 16);
    else requestAnimationFrame(resolve);
  });
}

export async function runScene(
  meta: SceneMeta,
  options: SceneOptions | ((params: URLSearchParams) => SceneOptions),
  create: (context: SceneContext) => Promise<Scene>,
): Promise<void> {
  const params = new URLSearchParams(location.search);
  const frameLimit = params.has('frames') ? Number(params.get('frames')) : Infinity;
  const pauseEvery = Number(params.get('pauseEvery') ?? 0);
  const benchmark = params.has('bench');
  let scene: Scene | undefined;
  let sizer: CanvasSizer | undefined;
  let endPause: (() => void) | undefined;
  let pauseAsked = false;
  const status: DemoStatus = {
    state: 'loading',
    frames: 0,
    snapshot: () => scene?.snapshot() ?? null,
    forTesting: {},
    resume: () => {
      pauseAsked = false;
      endPause?.();
    },
    pause: () => {
      pauseAsked = true;
    },
  };
  window.d3d12Demo = status;
  const { canvas, panel, status: statusLine } = layout(meta);
  const fail = (error: unknown): void => {
    if (status.state === 'failed') return;
    status.state = 'failed';
    status.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    // The page shows the sentence; the state keeps the error's name for logs and tests.
    statusLine.textContent = error instanceof Error ? error.message : String(error);
    statusLine.dataset.state = 'failed';
    sizer?.disconnect();
    console.error(`${meta.name}: ${status.error}`);
  };
  try {
    const gpuDevice = await openWebGPU();
    gpuDevice.addEventListener('uncapturederror', (event) => fail(new Error(`WebGPU error: ${event.error.message}`)));
    watchDeviceLoss(gpuDevice, (message) => fail(new Error(message)));
    sizer = new CanvasSizer(canvas, {
      ...canvasSizeParams(params),
      maxDimension: gpuDevice.limits.maxTextureDimension2D,
    });
    sizer.apply();
    const device = await createDevice({ gpuDevice, ...(typeof options === 'function' ? options(params) : options) });
    const context = canvas.getContext('webgpu');
    if (!context) throw new Error('canvas.getContext("webgpu") returned null');
    const swapChain = device.createSwapChain(context);
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const frameTimer = benchmark ? createFrameTimer(device, gpuDevice, queue) : undefined;
    scene = await create({
      device,
      gpuDevice,
      queue,
      swapChain,
      canvas,
      panel,
      params,
      ...(frameTimer ? { frameTimer } : {}),
    });
    status.forTesting = scene.forTesting ?? {};
    if (status.state !== 'loading') return;
    status.state = 'running';
    statusLine.textContent = '';
    const current = scene;
    const frame = async (index: number, time: number): Promise<boolean | void> => {
      // A failure (a lost device, say) ends the animation loop and a benchmark alike.
      if (status.state !== 'running') return false;
      sizer?.apply();
      const before = swapChain.getCurrentBackBufferIndex();
      const goOn = await current.frame(index, time);
      // Only a frame the scene did not present: present() moves to the next back buffer, and a
      // scene that picks its target by getCurrentBackBufferIndex() (as D3D12 samples do) must find
      // the one it expects.
      if (swapChain.getCurrentBackBufferIndex() === before) swapChain.present();
      status.frames++;
      return goOn;
    };
    if (frameTimer) {
      const result = await runSceneBench({ timer: frameTimer, canvas, frame }, benchLength(params));
      if (status.state === 'running') status.bench = result;
    } else {
      while (status.state === 'running' && status.frames < frameLimit) {
        const time = await nextFrame();
        if ((await frame(status.frames, time)) === false) break;
        const held = pauseEvery > 0 && status.frames % pauseEvery === 0;
        if ((held || pauseAsked) && status.frames < frameLimit) await pause(status, (resume) => (endPause = resume));
      }
    }
    if (status.state === 'running') status.state = 'done';
    scene.stop?.();
  } catch (error) {
    fail(error);
  }
}
