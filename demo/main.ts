// The demo index: a card per scene (from each scene's meta.ts: what it shows, which D3D12 calls
// drive it), and whether this browser gives WebGPU, on which adapter, with the library's self-test
// (shaders/smoke_pattern.wgsl, checked word by word against the CPU).
import {
  formatAdapter,
  requestWebGPUDevice,
  runSmokePattern,
  smokePatternReference,
  summarizeAdapter,
} from '../src/index.js';
import { SCENES } from './scenes.js';

const status = document.querySelector<HTMLParagraphElement>('#gpu-status');
/** Words the self-test writes: 256 KiB, enough to cross many workgroups. */
const SELF_TEST_WORDS = 65_536;

function show(state: 'ready' | 'failed', text: string): void {
  if (!status) return;
  status.dataset.state = state;
  status.textContent = text;
}

async function showAdapter(): Promise<void> {
  if (!navigator.gpu) {
    show('failed', 'This browser has no WebGPU (navigator.gpu is missing). Use a recent Chrome; on Linux start it with --enable-unsafe-webgpu.');
    return;
  }
  try {
    const device = await requestWebGPUDevice(navigator.gpu);
    const args = { count: SELF_TEST_WORDS, seed: 0x2a };
    const words = await runSmokePattern(device, args);
    const expected = smokePatternReference(args);
    const wrong = words.findIndex((word, i) => word !== expected[i]);
    const adapter = formatAdapter(summarizeAdapter(device.adapterInfo));
    const largest = `${(device.limits.maxBufferSize / 2 ** 20).toFixed(0)} MiB`;
    device.destroy();
    if (wrong >= 0) {
      show('failed', `WebGPU on ${adapter} failed the self-test: word ${wrong} is wrong.`);
    } else {
      show('ready', `WebGPU ready: ${adapter}; largest buffer ${largest}; self-test passed (${SELF_TEST_WORDS.toLocaleString('en')} words).`);
    }
  } catch (error) {
    show('failed', `WebGPU failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function showScenes(): void {
  const cards = document.querySelector<HTMLDivElement>('#scene-cards');
  if (!cards) return;
  for (const scene of SCENES) {
    const card = document.createElement('a');
    card.className = 'card';
    card.href = `./${scene.name}/`;
    card.dataset.scene = scene.name;
    const title = document.createElement('h3');
    title.textContent = scene.title;
    const summary = document.createElement('p');
    summary.textContent = scene.summary;
    const calls = document.createElement('p');
    calls.className = 'calls';
    calls.append(Object.assign(document.createElement('span'), { className: 'calls-label', textContent: 'D3D12 calls: ' }));
    for (const call of scene.calls) calls.append(Object.assign(document.createElement('code'), { textContent: call }), ' ');
    card.append(title, summary, calls);
    cards.append(card);
  }
}

showScenes();
void showAdapter();
