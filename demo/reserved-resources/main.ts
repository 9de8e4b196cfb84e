/**
 * The D3D12ReservedResources page: sample.ts (the sample itself, free of the DOM) wired to the
 * scene shell (demo/common/scene-shell.ts), which creates the device (with the sample's
 * DEVICE_OPTIONS), the DIRECT queue and the swap chain (2 buffers, in the canvas's format), and
 * presents each frame when frame() returns. So the sample's Present and MoveToNextFrame, which
 * follow ExecuteCommandLists, run in that order here too: the shell's present, then
 * moveToNextFrame at the start of the next frame() (and before onDestroy when the loop stops).
 *
 * The page adds what the sample's window has: the title bar's "Mip Level: N" is the side panel,
 * which also has buttons for the arrow keys (onKeyDown's mip step). The canvas resizes; the sample
 * follows its back buffer's size each frame.
 *
 * URL parameters (besides the shell's): `mip` (the mip shown first; default the least detailed, as
 * in the sample).
 */
import { TILE_SIZE } from '../../src/index.js';
import { formatBytes } from '../common/live-chart.js';
import { button, section, StatTable } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import { meta } from './meta.js';
import { D3D12ReservedResources, DEVICE_OPTIONS } from './sample.js';
import { MIP_LEVELS, mipSize, TEXTURE_PIXEL_SIZE_IN_BYTES } from './texture-data.js';

function startMip(params: URLSearchParams): number {
  if (!params.has('mip')) return MIP_LEVELS - 1;
  const mip = Number(params.get('mip'));
  if (!Number.isInteger(mip) || mip < 0 || mip >= MIP_LEVELS)
    throw new Error(`URL parameter mip must be an integer from 0 to ${MIP_LEVELS - 1}, got '${params.get('mip')}'`);
  return mip;
}

async function createScene({ device, queue, swapChain, panel, params }: SceneContext) {
  const sample = await D3D12ReservedResources.create({ device, queue, swapChain }, { startMip: startMip(params) });
  const mipLevels = sample.mipLevels;
  const packedMipInfo = sample.packedMipInfo;
  const tileShape = sample.tileShape;
  const totalTiles = sample.numTilesForEntireResource;
  const heapIndices = Array.from({ length: sample.heapCount }, (_, n) => n);

  /** OnKeyDown's rule, for the keys and the panel's buttons: one mip at a time, within the chain. */
  const stepMip = (delta: -1 | 1): void => {
    sample.stepMip(delta);
    showMip();
  };

  // ---- The side panel ---------------------------------------------------------------------------
  const heapKey = (n: number): string => {
    const covered = sample.heapMips(n);
    return covered.length === 1
      ? `heap ${n} · mip ${covered[0]}`
      : `heap ${n} · mips ${covered[0]}–${covered.at(-1)} (packed)`;
  };
  const mipSection = section(panel, 'Mip level');
  const mipStats = new StatTable(mipSection, ['mip shown', 'size', 'its tiles']);
  const controls = document.createElement('div');
  controls.className = 'controls';
  const finer = button(controls, 'more detail (mip − 1)', () => stepMip(-1));
  finer.id = 'mip-finer';
  const coarser = button(controls, 'less detail (mip + 1)', () => stepMip(1));
  coarser.id = 'mip-coarser';
  const hint = document.createElement('p');
  hint.className = 'legend';
  hint.textContent = 'Or the arrow keys, as in the sample: left or up for more detail, right or down for less.';
  mipSection.append(controls, hint);
  const heapStats = new StatTable(section(panel, 'Heaps mapped into the texture'), heapIndices.map(heapKey));
  const memoryStats = new StatTable(section(panel, 'Memory'), [
    'tiles mapped',
    'heaps',
    'LOCAL in use',
    'NON_LOCAL in use',
    'uploads',
  ]);

  function showMip(): void {
    const activeMip = sample.activeMip;
    const mip = sample.mip(activeMip);
    const { width, height } = mipSize(activeMip);
    mipStats.set({
      'mip shown': `${activeMip} of 0–${mipLevels - 1}${activeMip === mipLevels - 1 ? ' (least detailed)' : ''}`,
      size: `${width} × ${height} texels · ${formatBytes(width * height * TEXTURE_PIXEL_SIZE_IN_BYTES)}`,
      'its tiles': mip.packedMip
        ? `packed: mips ${packedMipInfo.numStandardMips}–${mipLevels - 1} share ${mip.regionSize.numTiles} tile, in heap ${mip.heapIndex}`
        : `${mip.regionSize.width} × ${mip.regionSize.height} tiles of ${tileShape.widthInTexels} × ${tileShape.heightInTexels} texels, in heap ${mip.heapIndex}`,
    });
    finer.disabled = activeMip === 0;
    coarser.disabled = activeMip === mipLevels - 1;
  }

  const showMemory = (): void => {
    // Heap n backs mip n (a standard mip) or, the last, the packed tail whose first mip is n.
    const heapTiles = (n: number): number => sample.mip(n).regionSize.numTiles;
    const heapMapped = (n: number): boolean => sample.mip(n).mapped;
    heapStats.set(
      Object.fromEntries(
        heapIndices.map((n) => {
          const tiles = heapTiles(n);
          return [heapKey(n), `${tiles} tile${tiles === 1 ? '' : 's'} · ${heapMapped(n) ? 'mapped' : 'unmapped'}`];
        }),
      ),
    );
    const mappedTiles = heapIndices.reduce((sum, n) => sum + (heapMapped(n) ? heapTiles(n) : 0), 0);
    const allHeapTiles = heapIndices.reduce((sum, n) => sum + heapTiles(n), 0);
    const uploads = sample.uploads;
    const lastUpload = uploads.at(-1);
    memoryStats.set({
      'tiles mapped': `${mappedTiles} of ${totalTiles} (${formatBytes(mappedTiles * TILE_SIZE)} of ${formatBytes(totalTiles * TILE_SIZE)} reserved)`,
      heaps: `${heapIndices.length}, ${allHeapTiles} tiles: ${formatBytes(allHeapTiles * TILE_SIZE)}`,
      'LOCAL in use': formatBytes(device.queryVideoMemoryInfo('LOCAL').currentUsage),
      'NON_LOCAL in use': `${formatBytes(device.queryVideoMemoryInfo('NON_LOCAL').currentUsage)} (upload buffer ${formatBytes(sample.uploadBufferSize)})`,
      uploads: `${uploads.length}, last ${lastUpload ? formatBytes(lastUpload.bytes) : '—'}`,
    });
  };
  showMip();
  showMemory();

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement | null;
    if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    const delta = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key] as -1 | 1 | undefined;
    if (delta === undefined) return;
    event.preventDefault();
    stepMip(delta);
  };
  window.addEventListener('keydown', onKeyDown);

  let presentedOnce = false;
  return {
    async frame() {
      // The previous frame was presented by the shell after frame() returned: finish it as the sample does.
      if (presentedOnce) await sample.moveToNextFrame();
      await sample.onRender();
      presentedOnce = true;
      showMemory();
    },
    snapshot: () => sample.snapshot(),
    stop() {
      window.removeEventListener('keydown', onKeyDown);
      // OnDestroy: nothing may still use the objects once the page lets them go.
      void (presentedOnce ? sample.moveToNextFrame() : Promise.resolve()).then(() => sample.onDestroy());
    },
    forTesting: sample.forTesting,
  };
}

void runScene(meta, DEVICE_OPTIONS, createScene);
