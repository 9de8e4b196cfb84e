/**
 * The frame around every scene: header (title, summary, D3D12 calls), a canvas with a swap chain, a
 * side panel for the scene's overlay, controls and charts, and the frame loop.
 *
 * URL parameters every scene takes: `frames=N` renders N frames and stops (the browser tests do),
 * `width`/`height` fix the canvas size in CSS pixels. For tests, `window.d3d12Demo` reports the
 * loop's state ('loading' | 'running' | 'done' | 'failed'), the frame count and the scene's
 * snapshot(); a failure is also logged with console.error so no test misses it.
 */
import { createDevice, requestWebGPUDevice, type CommandQueue, type Device, type SwapChain } from '../../src/index.js';
import type { SceneMeta } from './scene-meta.js';
import { element, sceneHeader } from './dom.js';

export interface SceneContext {
  device: Device;
  gpuDevice: GPUDevice;
  queue: CommandQueue;
  swapChain: SwapChain;
  canvas: HTMLCanvasElement;
  /** The side panel: scenes append their overlay, controls and charts. */
  panel: HTMLElement;
  params: URLSearchParams;
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
  state: 'loading' | 'running' | 'done' | 'failed';
  frames: number;
  error?: string;
  snapshot(): unknown;
  forTesting: Record<string, (...args: never[]) => unknown>;
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

/** Waits for the next animation frame; hidden tabs get no rAF, so fall back to a timer there. */
function nextFrame(): Promise<number> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') setTimeout(() => resolve(performance.now()), 16);
    else requestAnimationFrame(resolve);
  });
}

export async function runScene(meta: SceneMeta, options: SceneOptions | ((params: URLSearchParams) => SceneOptions), create: (context: SceneContext) => Promise<Scene>): Promise<void> {
  const params = new URLSearchParams(location.search);
  const frameLimit = params.has('frames') ? Number(params.get('frames')) : Infinity;
  let scene: Scene | undefined;
  const status: DemoStatus = { state: 'loading', frames: 0, snapshot: () => scene?.snapshot() ?? null, forTesting: {} };
  window.d3d12Demo = status;
  const { canvas, panel, status: statusLine } = layout(meta);
  const fail = (error: unknown): void => {
    status.state = 'failed';
    status.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    statusLine.textContent = status.error;
    statusLine.dataset.state = 'failed';
    console.error(`${meta.name}: ${status.error}`);
  };
  try {
    if (!navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu is missing); use a recent Chrome (on Linux with --enable-unsafe-webgpu)');
    const gpuDevice = await requestWebGPUDevice(navigator.gpu);
    gpuDevice.addEventListener('uncapturederror', (event) => fail((event).error.message));
    void gpuDevice.lost.then((info) => {
      if (info.reason !== 'destroyed') fail(new Error(`WebGPU device lost: ${info.message}`));
    });
    const cssWidth = Number(params.get('width') ?? 0) || Math.min(960, canvas.parentElement?.clientWidth ?? 960);
    const cssHeight = Number(params.get('height') ?? 0) || Math.round(cssWidth * 0.625);
    canvas.style.width = `${cssWidth}px`;
    canvas.style.height = `${cssHeight}px`;
    canvas.width = Math.round(cssWidth * devicePixelRatio);
    canvas.height = Math.round(cssHeight * devicePixelRatio);
    const device = await createDevice({ gpuDevice, ...(typeof options === 'function' ? options(params) : options) });
    const context = canvas.getContext('webgpu');
    if (!context) throw new Error('canvas.getContext("webgpu") returned null');
    const swapChain = device.createSwapChain(context);
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    scene = await create({ device, gpuDevice, queue, swapChain, canvas, panel, params });
    status.forTesting = scene.forTesting ?? {};
    status.state = 'running';
    statusLine.textContent = '';
    while (status.state === 'running' && status.frames < frameLimit) {
      const time = await nextFrame();
      const goOn = await scene.frame(status.frames, time);
      // A scene may have presented already; a second present of the same frame is harmless.
      swapChain.present();
      status.frames++;
      if (goOn === false) break;
    }
    if (status.state === 'running') status.state = 'done';
    scene.stop?.();
  } catch (error) {
    fail(error);
  }
}
