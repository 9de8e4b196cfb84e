/**
 * The D3D12Residency page: sample.ts (the sample itself, free of the DOM) wired to the scene shell
 * (demo/common/scene-shell.ts), which creates the device (with the sample's deviceOptions), the
 * DIRECT queue and the swap chain (2 buffers, in the canvas's format). The sample presents each
 * frame itself, as its OnRender does, so the shell does not.
 *
 * The page adds what the sample's window has and more: the window title's text, a table of what
 * the frame drew and paged, charts of memory and paging, and a slider for the debug budget.
 *
 * URL parameters (besides the shell's): textures (count; default 512, 96 on a software adapter),
 * textureSize (texels a side; default 256, 32 on a software adapter), localMiB (the LOCAL pool,
 * which is the budget; default 64), budgetMiB (the debug budget override, UE's
 * D3D12.ResidencyDebugBudgetMB, which the panel's slider sets too; none by default, 4 on a software
 * adapter), loaders (concurrent texture loaders; default FrameCount + 1, the sample's
 * MaxResidencyLatency + 1).
 */
import { formatBytes, LiveChart } from '../common/live-chart.js';
import { section, slider, StatTable } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import { isSoftwareAdapter } from '../common/webgpu-access.js';
import { meta } from './meta.js';
import { D3D12Residency, DEFAULT_LOCAL_MIB, deviceOptions, type ResidencyFrame } from './sample.js';

const MiB = 2 ** 20;
/** Defaults on a GPU, and on a CPU rasterizer (SwiftShader), where each draw costs far more. */
const DEFAULTS = { textures: 512, textureSize: 256, budgetMiB: 0 };
const SOFTWARE_DEFAULTS = { textures: 96, textureSize: 32, budgetMiB: 4 };

function numberParam(params: URLSearchParams, name: string, fallback: number): number {
  const value = Number(params.get(name));
  return params.has(name) && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The panel: the sample's window title, what the last frame did, charts, and the budget slider. */
function createPanel(panel: HTMLElement, sample: D3D12Residency): (entry: ResidencyFrame) => void {
  const { device } = sample;
  const title = document.createElement('p');
  title.className = 'window-title';
  section(panel, 'Window title').append(title);
  const now = new StatTable(section(panel, 'Now'), [
    'textures',
    'budget (LOCAL)',
    'usage (LOCAL)',
    'resident',
    'evicted',
    'drawn this frame',
    'this frame',
    'since start',
  ]);
  const charts = section(panel, 'Live');
  const memoryChart = new LiveChart(charts, 'Memory (MiB)', [
    { label: 'budget', color: '#f0776b', dash: true },
    { label: 'usage', color: '#5ad17f' },
    { label: 'drawn', color: '#7fb4ff' },
  ]);
  const pagingChart = new LiveChart(charts, 'Per frame', [
    { label: 'evicted', color: '#f5c26b' },
    { label: 'made resident', color: '#7fb4ff' },
  ]);
  const controls = section(panel, 'Controls');
  const poolMiB = Math.floor(device.getMemoryStats().segments.LOCAL.poolBytes / MiB);
  slider(
    controls,
    'budget (debug override)',
    {
      min: 1,
      max: poolMiB,
      step: 1,
      value: Math.min(poolMiB, Math.round(device.queryVideoMemoryInfo('LOCAL').budget / MiB)),
    },
    (v) => (v >= poolMiB ? `${v} MiB (the pool: no override)` : `${v} MiB`),
    (v) => device.setResidencyDebugBudget(v >= poolMiB ? null : v * MiB),
  );

  return (entry) => {
    title.textContent = sample.windowText;
    const loaded = sample.loadedTextureCount;
    const total = sample.residencyManager.getStats();
    const loadMs = sample.loadMs;
    memoryChart.push(entry.frame, [entry.budget / MiB, entry.usage / MiB, entry.drawnBytes / MiB]);
    pagingChart.push(entry.frame, [entry.evictions, entry.madeResident]);
    now.set({
      textures: `${loaded} of ${sample.numTextures} loaded, ${sample.textureWidth}² each (${formatBytes(sample.totalAllocations)})`,
      'budget (LOCAL)': formatBytes(entry.budget),
      'usage (LOCAL)': `${formatBytes(entry.usage)}${entry.overBudget ? ' (over budget: the batch does not fit)' : ''}`,
      resident: `${entry.resident} textures`,
      evicted: `${loaded - entry.resident} textures (${formatBytes(sample.residencyManager.queryResidencyStats().evictedMemoryInBytes)})`,
      'drawn this frame': `${entry.drawn.length} textures, ${formatBytes(entry.drawnBytes)}, from texture ${entry.windowStart}`,
      'this frame': `${entry.evictions} evicted, ${entry.madeResident} made resident`,
      'since start': `${total.evictions} evicted, ${total.madeResident} made resident${loadMs === null ? '' : `; loaded in ${(loadMs / 1000).toFixed(1)} s`}`,
    });
  };
}

async function createScene({ device, gpuDevice, queue, swapChain, panel, params }: SceneContext) {
  const defaults = isSoftwareAdapter(gpuDevice) ? SOFTWARE_DEFAULTS : DEFAULTS;
  const budgetMiB = numberParam(params, 'budgetMiB', defaults.budgetMiB);
  const sample = await D3D12Residency.create(
    { device, queue, swapChain },
    {
      textures: Math.floor(numberParam(params, 'textures', defaults.textures)),
      textureSize: Math.floor(numberParam(params, 'textureSize', defaults.textureSize)),
      ...(budgetMiB > 0 ? { debugBudgetBytes: Math.round(budgetMiB * MiB) } : {}),
      ...(params.has('loaders') ? { loaders: Math.floor(numberParam(params, 'loaders', 1)) } : {}),
    },
  );
  const showFrame = createPanel(panel, sample);

  return {
    async frame(): Promise<boolean> {
      if (device.getDeviceRemovedReason() !== 'S_OK')
        throw new Error(`the device was removed (${device.getDeviceRemovedReason()})`);
      showFrame(await sample.onRender());
      return true;
    },
    snapshot: () => sample.snapshot(),
    stop() {
      // OnDestroy: the loaders stop after the texture in hand, and the GPU finishes its frames.
      void sample.onDestroy();
    },
    forTesting: sample.forTesting,
  };
}

void runScene(meta, (params) => deviceOptions(numberParam(params, 'localMiB', DEFAULT_LOCAL_MIB)), createScene);
