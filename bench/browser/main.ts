// The benchmark page: runs the suite on navigator.gpu and leaves the result in window.benchState,
// where bench/node/run-browser.ts (npm run bench) picks it up; progress shows on the page too.
import { requestWebGPUDevice } from '../../src/index.js';
import { runSuite, type SuiteResult } from '../suite/suite.js';

declare global {
  interface Window {
    benchState: { progress: string[]; result?: SuiteResult; error?: string };
  }
}

const state: Window['benchState'] = { progress: [] };
window.benchState = state;
const params = new URLSearchParams(location.search);
const log = document.querySelector('#progress');
const started = performance.now();

function progress(message: string): void {
  const line = `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}`;
  state.progress.push(line);
  if (log) log.textContent += `${line}\n`;
}

async function main(): Promise<void> {
  try {
    if (!navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu is missing)');
    const gpuDevice = await requestWebGPUDevice(navigator.gpu);
    const only = params.get('only')?.split(',');
    state.result = await runSuite({
      gpuDevice,
      quick: params.get('quick') === '1',
      runtime: 'browser',
      commit: params.get('commit') ?? 'unknown',
      host: navigator.userAgent,
      ...(only ? { only } : {}),
      progress,
    });
    gpuDevice.destroy();
    progress('done');
  } catch (error) {
    state.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    progress(`failed: ${state.error}`);
  }
}

void main();
