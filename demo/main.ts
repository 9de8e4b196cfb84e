// The demo index: says whether this browser gives WebGPU, and on which adapter.
import { formatAdapter, requestWebGPUDevice, summarizeAdapter } from '../src/index.js';

const status = document.querySelector<HTMLParagraphElement>('#gpu-status');

async function showAdapter(): Promise<void> {
  if (!status) return;
  if (!navigator.gpu) {
    status.dataset.state = 'failed';
    status.textContent = 'This browser has no WebGPU (navigator.gpu is missing). Use a recent Chrome; on Linux start it with --enable-unsafe-webgpu.';
    return;
  }
  try {
    const device = await requestWebGPUDevice(navigator.gpu);
    const limits = device.limits;
    status.dataset.state = 'ready';
    status.textContent = `WebGPU ready: ${formatAdapter(summarizeAdapter(device.adapterInfo))}; largest buffer ${(limits.maxBufferSize / 2 ** 20).toFixed(0)} MiB.`;
    device.destroy();
  } catch (error) {
    status.dataset.state = 'failed';
    status.textContent = `WebGPU failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

void showAdapter();
