/**
 * Growable reserved buffer scene: a reserved instance buffer committed by CommitWatermark next to the
 * classic reallocate-and-copy path, both following one Population. See meta.ts for the summary.
 *
 * URL parameters: stepFrames (frames between resizes, default 45), seed, maxCount (default
 * 2.5M instances), drawLimit (instances drawn per side, default 60,000; 6,000 on a software adapter,
 * where each frame's 720,000 vertex invocations would take seconds).
 */
import { TILE_SIZE, type Fence, type Heap, type PipelineState, type Resource } from '../../src/index.js';
import { LiveChart, formatBytes } from '../common/live-chart.js';
import { section, slider, StatTable, toggle } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import { isSoftwareAdapter } from '../common/webgpu-access.js';
import { ClassicBuffer, type ClassicResize } from './classic-buffer.js';
import { CommitWatermark, type CommitStep } from './commit-watermark.js';
import { meta } from './meta.js';
import common from './particle-common.wgsl?raw';
import drawCode from './particle-draw.wgsl?raw';
import initCode from './particle-init.wgsl?raw';
import { INSTANCE_BYTES, Population, RESERVED_BYTES, tilesFor } from './population.js';
import { getTileMappingForTesting } from '../../src/testing/index.js';

/** Heaps the draw shader can colour apart (root constants 7..22). */
const MAX_HEAP_HUES = 16;

export interface GrowableStep {
  step: number;
  count: number;
  watermark: CommitStep;
  watermarkMs: number;
  /** Heap bytes after the step; the watermark path's peak is the larger of before and after. */
  watermarkBytes: number;
  classic: ClassicResize;
}

function label(canvas: HTMLCanvasElement, text: string, side: 'left' | 'right'): void {
  const node = document.createElement('span');
  node.className = 'stage-label';
  node.textContent = text;
  node.style[side] = '0.5rem';
  canvas.parentElement?.append(node);
}

/** Instances drawn per side by default: every stride-th instance of the population is drawn. */
const DRAW_LIMIT = 60_000;
/** On a CPU rasterizer: a tenth, so a frame takes a fraction of a second there. */
const SOFTWARE_DRAW_LIMIT = 6_000;

/** Every stride-th of `count` instances is drawn, at most `limit` of them. */
function drawSample(count: number, limit: number): { stride: number; drawn: number } {
  const stride = Math.max(1, Math.ceil(count / limit));
  return { stride, drawn: count === 0 ? 0 : Math.floor((count - 1) / stride) + 1 };
}

async function createScene({ device, gpuDevice, queue, swapChain, canvas, panel, params }: SceneContext) {
  label(canvas, 'reserved buffer + watermark (colour = backing heap)', 'left');
  label(canvas, 'classic: new buffer + copy + release', 'right');
  const stepFrames = Number(params.get('stepFrames') ?? 45);
  const population = new Population(Number(params.get('seed') ?? 7), Number(params.get('maxCount') ?? 2_500_000));
  const drawLimit = Number(
    params.get('drawLimit') ?? (isSoftwareAdapter(gpuDevice) ? SOFTWARE_DRAW_LIMIT : DRAW_LIMIT),
  );

  const reserved = device.createReservedResource(
    { dimension: 'BUFFER', width: RESERVED_BYTES, layout: 'ROW_MAJOR' },
    'COMMON',
  );
  reserved.setName('reserved instance buffer (2 GiB virtual)');
  const heaps: Heap[] = [];
  let heapSerial = 0;
  const watermark = new CommitWatermark<Heap>(
    {
      createHeap(tiles) {
        const heap = device.createHeap({
          sizeInBytes: tiles * TILE_SIZE,
          properties: { type: 'DEFAULT' },
          flags: ['ALLOW_ONLY_BUFFERS'],
        });
        heap.setName(`backing heap ${heapSerial++} (${tiles} tiles)`);
        heaps.push(heap);
        return heap;
      },
      releaseHeap(heap) {
        heaps.splice(heaps.indexOf(heap), 1);
        heap.release();
      },
      map(bufferTile, heap, heapTile, count) {
        queue.updateTileMappings(
          reserved,
          [{ x: bufferTile, y: 0, z: 0, subresource: 0 }],
          [{ numTiles: count }],
          heap,
          ['NONE'],
          [heapTile],
          [count],
        );
      },
      unmap(bufferTile, count) {
        queue.updateTileMappings(
          reserved,
          [{ x: bufferTile, y: 0, z: 0, subresource: 0 }],
          [{ numTiles: count }],
          null,
          ['NULL'],
          null,
          [count],
        );
      },
    },
    RESERVED_BYTES / TILE_SIZE,
  );
  const fence: Fence = device.createFence(0);
  let fenceValue = 0;
  const classic = new ClassicBuffer(device, queue, device.createFence(0));

  const [init, draw] = await Promise.all([
    device.createComputePipelineState({ code: common + initCode, entryPoint: 'init', label: 'particle init' }),
    device.createGraphicsPipelineState({
      code: common + drawCode,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormat: swapChain.format,
      blend: 'ALPHA_BLEND',
      label: 'particles',
    }),
  ]);

  /** Writes instances [first, first + count) of `buffer` (its new tail). */
  const initialize = (buffer: Resource, first: number, count: number, pipeline: PipelineState): void => {
    if (count <= 0) return;
    const groups = Math.ceil(count / 64);
    const perRow = Math.min(groups, 65535);
    const list = device.createCommandList('DIRECT');
    list.setPipelineState(pipeline);
    list.setComputeRootUnorderedAccessView(1, buffer.getGPUVirtualAddress());
    list.setComputeRoot32BitConstants(0, [first, count, perRow], 2);
    list.dispatch(perRow, Math.ceil(groups / perRow), 1);
    list.close();
    queue.executeCommandLists([list]);
  };

  // Panel: what each path holds now, then the charts.
  const stats = new StatTable(section(panel, 'Now'), [
    'instances',
    'committed (watermark)',
    'backing heaps',
    'slack in last heap',
    'classic buffer',
    'last resize',
  ]);
  const charts = section(panel, 'Memory and resize time');
  const memoryChart = new LiveChart(charts, 'Memory (MiB)', [
    { label: 'watermark heaps', color: '#5ad17f' },
    { label: 'classic buffer', color: '#d9dde4' },
    { label: 'classic peak (old + new)', color: '#f0776b', dash: true },
  ]);
  const timeChart = new LiveChart(
    charts,
    'Resize time (ms)',
    [
      { label: 'watermark', color: '#5ad17f' },
      { label: 'classic', color: '#f0776b' },
    ],
    60,
    '',
    'resize',
  );
  const controls = section(panel, 'Controls');
  let paused = false;
  let manualCount: number | null = null;
  toggle(controls, 'pause the population', false, (on) => (paused = on));
  slider(
    controls,
    'set instances by hand',
    { min: 0, max: population.maxCount, step: 2048, value: 0 },
    (v) => (v === 0 ? 'population' : v.toLocaleString('en')),
    (v) => (manualCount = v === 0 ? null : v),
  );

  const steps: GrowableStep[] = [];
  let count = 0;
  let stepIndex = 0;
  let lastClassic: ClassicResize = { bytes: 0, peakBytes: 0, ms: 0 };

  const drain = async (): Promise<void> => {
    queue.signal(fence, ++fenceValue);
    await fence.setEventOnCompletion(fenceValue);
  };

  const resize = async (next: number): Promise<void> => {
    const tiles = tilesFor(next);
    // Each path is timed from an idle queue, so neither pays for the frames before it.
    await drain();
    const start = performance.now();
    const step = watermark.commit(tiles);
    queue.signal(fence, ++fenceValue);
    await fence.setEventOnCompletion(fenceValue);
    const watermarkMs = performance.now() - start;
    await drain();
    lastClassic = await classic.resize(next * INSTANCE_BYTES, count * INSTANCE_BYTES);
    if (next > count) {
      initialize(reserved, count, next - count, init);
      if (classic.buffer) initialize(classic.buffer, count, next - count, init);
    }
    steps.push({
      step: stepIndex,
      count: next,
      watermark: step,
      watermarkMs,
      watermarkBytes: watermark.heapTiles * TILE_SIZE,
      classic: lastClassic,
    });
    timeChart.push(stepIndex, [watermarkMs, lastClassic.ms]);
    count = next;
    stepIndex++;
  };

  const drawSide = (
    list: ReturnType<typeof device.createCommandList>,
    buffer: Resource | null,
    side: number,
    time: number,
    width: number,
    height: number,
  ): void => {
    if (!buffer || count === 0) return;
    const { stride, drawn } = drawSample(count, drawLimit);
    const heapStarts: number[] = [];
    let tile = 0;
    for (const heap of steps.at(-1)?.watermark.heaps ?? []) {
      heapStarts.push(tile);
      tile += heap.used;
    }
    const root = new Uint32Array(24);
    root.set([
      drawn,
      stride,
      new Uint32Array(new Float32Array([time]).buffer)[0] ?? 0,
      side,
      Math.min(heapStarts.length, MAX_HEAP_HUES),
    ]);
    root.set(heapStarts.slice(0, MAX_HEAP_HUES), 5);
    root.set([width, height], 22);
    list.setGraphicsRootShaderResourceView(1, buffer.getGPUVirtualAddress());
    list.setGraphicsRoot32BitConstants(0, root, 2);
    list.drawInstanced(6, drawn);
  };

  return {
    async frame(index: number, timeMs: number) {
      if (manualCount !== null && manualCount !== count) await resize(manualCount);
      else if (manualCount === null && !paused && index % stepFrames === 0) await resize(population.next(stepIndex));
      // Everything below runs in one task, so the frame lands in one canvas texture.
      const backBuffer = swapChain.getCurrentBackBuffer();
      const list = device.createCommandList('DIRECT');
      list.setName(`frame ${index}`);
      list.clearRenderTargetView(backBuffer, [0.063, 0.075, 0.09, 1]);
      list.omSetRenderTargets([backBuffer]);
      list.setPipelineState(draw);
      drawSide(list, reserved, 0, timeMs / 1000, backBuffer.width, backBuffer.height);
      drawSide(list, classic.buffer, 1, timeMs / 1000, backBuffer.width, backBuffer.height);
      list.close();
      queue.executeCommandLists([list]);
      swapChain.present();
      const last = steps.at(-1);
      const heapList = last?.watermark.heaps.map((h) => `${h.used}/${h.tiles}`).join(' · ') ?? '';
      const lastHeap = last?.watermark.heaps.at(-1);
      stats.set({
        instances: `${count.toLocaleString('en')} (${drawSample(count, drawLimit).drawn.toLocaleString('en')} drawn per side)`,
        'committed (watermark)': `${formatBytes(watermark.committedTiles * TILE_SIZE)} (${watermark.committedTiles} tiles)`,
        'backing heaps': `${watermark.heapCount}: ${heapList} tiles used`,
        'slack in last heap': `${lastHeap ? lastHeap.tiles - lastHeap.used : 0} tiles`,
        'classic buffer': formatBytes(classic.bytes),
        'last resize': last
          ? `watermark ${last.watermarkMs.toFixed(2)} ms · classic ${last.classic.ms.toFixed(2)} ms`
          : '—',
      });
      memoryChart.push(index, [
        (watermark.heapTiles * TILE_SIZE) / 2 ** 20,
        classic.bytes / 2 ** 20,
        lastClassic.peakBytes / 2 ** 20,
      ]);
    },
    snapshot() {
      return { count, committedTiles: watermark.committedTiles, heapCount: watermark.heapCount, steps };
    },
    forTesting: {
      /** Words 4..7 (seed, index, tag, check) of each instance, from both buffers, read back through a READBACK buffer. */
      async readInstances(indices: number[]): Promise<{ reserved: number[][]; classic: number[][] }> {
        const readback = device.createCommittedResource(
          { type: 'READBACK' },
          [],
          { dimension: 'BUFFER', width: indices.length * 32 },
          'COPY_DEST',
        );
        const list = device.createCommandList('DIRECT');
        const sources = [reserved, classic.buffer];
        sources.forEach((buffer, side) => {
          indices.forEach((index, k) => {
            if (buffer)
              list.copyBufferRegion(
                readback,
                (side * indices.length + k) * 16,
                buffer,
                index * INSTANCE_BYTES + 16,
                16,
              );
          });
        });
        list.close();
        queue.executeCommandLists([list]);
        queue.signal(fence, ++fenceValue);
        await fence.setEventOnCompletion(fenceValue);
        const words = new Uint32Array(readback.map(0).slice().buffer);
        readback.unmap(0);
        readback.release();
        const pick = (side: number): number[][] =>
          indices.map((_, k) =>
            Array.from(words.subarray((side * indices.length + k) * 4, (side * indices.length + k) * 4 + 4)),
          );
        return { reserved: pick(0), classic: pick(1) };
      },
      /** For buffer tiles [0, upTo): [index of the backing heap among the live heaps, heap tile] or null. */
      mapping(upTo: number): ([number, number] | null)[] {
        return Array.from({ length: upTo }, (_, tile) => {
          const mapping = getTileMappingForTesting(reserved, tile);
          return mapping ? [heaps.indexOf(mapping.heap), mapping.heapTileOffset] : null;
        });
      },
    },
  };
}

void runScene(meta, { localMemoryBytes: 512 * 2 ** 20, nonLocalMemoryBytes: 64 * 2 ** 20 }, createScene);
