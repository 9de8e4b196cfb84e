// The demo index: whether this browser gives WebGPU, on which adapter, with the library's self-test
// (shaders/smoke_pattern.wgsl, checked word by word against the CPU); then a card per scene with its
// picture and tagline, and each scene's paragraph and D3D12 calls below (index-scenes.ts).
import { formatAdapter, runSmokePattern, smokePatternReference, summarizeAdapter } from '../src/index.js';
import { openWebGPU, WebGPUUnavailable } from './common/webgpu-access.js';
import { showScenes } from './index-scenes.js';
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
  try {
    const device = await openWebGPU();
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
      show(
        'ready',
        `WebGPU ready: ${adapter}; largest buffer ${largest}; self-test passed (${SELF_TEST_WORDS.toLocaleString('en')} words).`,
      );
    }
  } catch (error) {
    show(
      'failed',
      error instanceof WebGPUUnavailable
        ? error.message
        : `WebGPU failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const cards = document.querySelector<HTMLElement>('#scene-cards');
const about = document.querySelector<HTMLElement>('#scene-about');
if (cards && about) showScenes(SCENES, cards, about);
void showAdapter();
