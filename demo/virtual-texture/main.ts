/**
 * Virtual texture streaming: see meta.ts. Per frame: read back an older frame's feedback, plan the
 * paging (TileCache), unmap evicted tiles, fill the new ones, then run this frame's feedback pass,
 * update the residency map and draw. New tiles are filled one of two ways (URL parameter `source`):
 *   cpu (default)  a Web Worker produces each tile's texels (tile-worker.ts); as they come back, the
 *                  TileStreamer (d3d12-webgpu/streaming) writes them into an UPLOAD ring, maps each
 *                  tile (updateTileMappings) right before the copy that fills it (URL parameter copy:
 *                  copyTiles, the default, or copyTextureRegion from a placed footprint per box:
 *                  the tile's texels, or each packed mip), and fences the copies. A tile being mapped
 *                  only then, every draw that can see it mapped comes after its copy in queue order;
 *                  the residency map counts it once that copy's fence completed;
 *   gpu            map the tiles, then a compute pass generates their texels in place (vt-generate.wgsl).
 *
 * URL parameters: source (cpu | gpu, above), copy (copyTiles | copyTextureRegion, above), ringSlots (64 KiB slots of the upload ring, default 32),
 * poolPages (heap pool in 64 KiB pages, default 384 = 24 MiB), maxNew (tiles paged in per frame,
 * default 24), views ("cx,cy,s;..." fixed views in mip-0 texels and texels per pixel, each held for
 * viewFrames frames, default 20), tint (1: tint by the mip shown), residencyMap
 * (off: leave the map at mip 0 everywhere, so every fallback goes through the mapped status),
 * unmapped (1: record accesses to NULL tiles and outline them on the tile map), texture (native: the
 * same camera path drawn from a native texture with every mip resident, the benchmark's baseline).
 */
import { TILE_SIZE, type Fence, type GraphicsCommandList, type Resource } from '../../src/index.js';
import { formatBytes, LiveChart } from '../common/live-chart.js';
import { section, StatTable, toggle } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import { f32Bits, flightView, parseViews, type View } from './camera-path.js';
import { CpuTiles, type CpuTileStats } from './cpu-tiles.js';
import type { CopyPath } from '../../src/streaming/index.js';
import { meta } from './meta.js';
import { VT_MIPS, VT_SIZE, VT_STANDARD_MIPS } from './procedural.js';
import { computeResidencyMap, REGIONS_PER_SIDE } from './residency-map.js';
import { TileCache, type TileInfo, type TileState } from './tile-cache.js';
import { TileMap } from './tile-map.js';
import { createNativeScene } from './native-scene.js';
import common from './vt-common.wgsl?raw';
import drawCode from './vt-draw.wgsl?raw';
import feedbackCode from './vt-feedback.wgsl?raw';
import generateCode from './vt-generate.wgsl?raw';
import { parentTile, TAIL_TILE, tileCoord, tileIndex, tilesPerSide } from './vt-layout.js';
import viewCode from './vt-view.wgsl?raw';

/** One word per tile of mips 0..7. */
const FEEDBACK_BYTES = TAIL_TILE * 4;
/** Feedback readbacks in flight: the CPU reads one that is a few frames old, never waiting. */
const READBACK_SLOTS = 3;
/** Jobs per generate dispatch: root constants 3..63. */
const JOBS_PER_DISPATCH = 60;
/** The coarse mips mapped for good, so every sample has a fallback (vt-draw.wgsl's VT_PINNED_MIP). */
const PINNED_FROM_MIP = 5;
const RESIDENCY_MAP_BYTES = REGIONS_PER_SIDE * REGIONS_PER_SIDE * 4;
/** Upload buffers for the residency map: one is written while older frames may still read others. */
const MAP_UPLOAD_SLOTS = 3;
/** Upload ring slots (source=cpu): more than a frame's maxNew, so one frame's tiles go in one batch. */
const DEFAULT_RING_SLOTS = 32;

export interface VirtualTextureSnapshot {
  frame: number;
  view: View & { lod: number };
  poolPages: number;
  residentTiles: number;
  pending: number;
  evictions: number;
  mappedTotal: number;
  mappedPerSecond: number;
  virtualBytes: number;
  /** With unmapped=1: accesses to NULL tiles recorded so far, and the tiles of the last report. */
  unmapped?: { accesses: number; tiles: number; maxTiles: number; reports: number };
  /** Where new tiles come from (URL parameter source). */
  source: 'cpu' | 'gpu';
  /** How the CPU source copies tiles from the ring (URL parameter copy). */
  copy: CopyPath;
  /** The CPU source's streaming numbers (source=cpu, or once switched to it): bytes, MB/s, latency. */
  streaming?: CpuTileStats;
}

/** Frames between unmapped-access reports (each waits for the GPU and reads the log back). */
const UNMAPPED_REPORT_FRAMES = 30;

async function createScene({ device, queue, swapChain, canvas, panel, params }: SceneContext) {
  const poolPages = Number(params.get('poolPages') ?? 384);
  const maxNew = Number(params.get('maxNew') ?? 24);
  const views = parseViews(params.get('views'));
  const viewFrames = Number(params.get('viewFrames') ?? 20);
  let tint = params.get('tint') === '1';
  // Off: every region claims mip 0, so the draw finds unmapped tiles by their status alone.
  const residencyMapOn = params.get('residencyMap') !== 'off';
  // unmapped=1: the device records accesses to NULL tiles (gpuValidation.unmappedAccess); the tile
  // map outlines the tiles the draw read while unmapped, refreshed every UNMAPPED_REPORT_FRAMES.
  const unmappedOn = params.get('unmapped') === '1';
  const sourceParam = params.get('source') ?? 'cpu';
  if (sourceParam !== 'cpu' && sourceParam !== 'gpu')
    throw new Error(`virtual-texture: source=${sourceParam}; use source=cpu or source=gpu`);
  let source: 'cpu' | 'gpu' = sourceParam;
  const copyParam = params.get('copy') ?? 'copyTiles';
  if (copyParam !== 'copyTiles' && copyParam !== 'copyTextureRegion')
    throw new Error(`virtual-texture: copy=${copyParam}; use copy=copyTiles or copy=copyTextureRegion`);
  let copy: CopyPath = copyParam;
  const ringSlots = Number(params.get('ringSlots') ?? DEFAULT_RING_SLOTS);

  const texture = device.createReservedResource(
    {
      dimension: 'TEXTURE2D',
      width: VT_SIZE,
      height: VT_SIZE,
      mipLevels: VT_MIPS,
      format: 'R8G8B8A8_UNORM',
      layout: '64KB_UNDEFINED_SWIZZLE',
    },
    'COMMON',
  );
  texture.setName('virtual texture 16384² RGBA8');
  const tiling = device.getResourceTiling(texture);
  const heap = device.createHeap({
    sizeInBytes: poolPages * TILE_SIZE,
    properties: { type: 'DEFAULT' },
    flags: ['ALLOW_ONLY_NON_RT_DS_TEXTURES'],
  });
  heap.setName(`tile pool (${poolPages} pages)`);
  const buffer = (name: string, bytes: number, type: 'DEFAULT' | 'READBACK' = 'DEFAULT'): Resource => {
    const resource = device.createCommittedResource(
      { type },
      [],
      { dimension: 'BUFFER', width: bytes },
      type === 'READBACK' ? 'COPY_DEST' : 'COMMON',
    );
    resource.setName(name);
    return resource;
  };
  const descriptor = buffer('texture descriptor', 4096);
  const feedback = buffer('feedback', FEEDBACK_BYTES);
  const slots = Array.from({ length: READBACK_SLOTS }, (_, i) => ({
    buffer: buffer(`feedback readback ${i}`, FEEDBACK_BYTES, 'READBACK'),
    fenceValue: 0,
    frame: -1,
    busy: false,
  }));
  const residencyMap = buffer('residency map', RESIDENCY_MAP_BYTES);
  const mapUploads = Array.from({ length: MAP_UPLOAD_SLOTS }, (_, i) => {
    const upload = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: RESIDENCY_MAP_BYTES },
      'GENERIC_READ',
    );
    upload.setName(`residency map upload ${i}`);
    return { buffer: upload, fenceValue: 0 };
  });
  const mapWords = new Uint32Array(REGIONS_PER_SIDE * REGIONS_PER_SIDE);
  let mapDirty = true;
  const fence: Fence = device.createFence(0);
  let fenceValue = 0;

  const [generate, feedbackPass, draw] = await Promise.all([
    device.createComputePipelineState({ code: common + generateCode, entryPoint: 'generate', label: 'generate tiles' }),
    device.createComputePipelineState({
      code: common + viewCode + feedbackCode,
      entryPoint: 'feedback',
      label: 'feedback',
    }),
    device.createGraphicsPipelineState({
      code: common + viewCode + drawCode,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormat: swapChain.format,
      label: 'virtual texture plane',
    }),
  ]);

  // source=cpu: created on first use, so source=gpu runs as it did without a worker.
  let cpuTiles: CpuTiles | undefined;
  const cpu = (): CpuTiles => (cpuTiles ??= new CpuTiles(device, queue, texture, heap, ringSlots, copy));
  /** Tiles on a page whose texels are there (generated, or streamed and fenced): what the residency map may claim. */
  const filled = new Set<number>();

  /**
   * Unmaps in one updateTileMappings call; then, for the new tiles, source=gpu maps them and
   * generates their texels, source=cpu asks the worker for them (stream() maps and copies them).
   */
  const applyPaging = (unmap: number[], map: { tile: number; page: number }[]): void => {
    if (unmap.length > 0 || map.length > 0) mapDirty = true;
    const coordinate = (tile: number) => {
      const { mip, x, y } = tileCoord(tile);
      return { x, y, z: 0, subresource: mip };
    };
    for (const tile of unmap) {
      filled.delete(tile);
      cpuTiles?.forget(tile);
    }
    if (unmap.length > 0) {
      queue.updateTileMappings(
        texture,
        unmap.map(coordinate),
        unmap.map(() => ({ numTiles: 1 })),
        null,
        ['NULL'],
        null,
        [unmap.length],
      );
    }
    if (map.length === 0) return;
    if (source === 'cpu') {
      for (const { tile } of map) cpu().request(tile);
      return;
    }
    for (const { tile } of map) filled.add(tile);
    queue.updateTileMappings(
      texture,
      map.map((m) => coordinate(m.tile)),
      map.map(() => ({ numTiles: 1 })),
      heap,
      map.map(() => 'NONE' as const),
      map.map((m) => m.page),
      map.map(() => 1),
    );
    const jobs = map.flatMap(({ tile }) => {
      if (tile === TAIL_TILE) return Array.from({ length: VT_MIPS - VT_STANDARD_MIPS }, (_, k) => VT_STANDARD_MIPS + k);
      const { mip, x, y } = tileCoord(tile);
      return [mip | (x << 4) | (y << 11)];
    });
    const list = device.createCommandList('DIRECT');
    list.setName('generate tiles');
    list.setPipelineState(generate);
    list.setComputeRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
    for (let first = 0; first < jobs.length; first += JOBS_PER_DISPATCH) {
      const batch = jobs.slice(first, first + JOBS_PER_DISPATCH);
      list.setComputeRoot32BitConstants(0, [batch.length, ...batch], 2);
      list.dispatch(256, batch.length, 1);
    }
    list.close();
    queue.executeCommandLists([list]);
  };

  // Start: the descriptor, then the pinned coarse mips and the tail, generated once.
  const cache = new TileCache(poolPages);
  {
    const upload = device.createCommittedResource(
      { type: 'UPLOAD' },
      [],
      { dimension: 'BUFFER', width: 4096 },
      'GENERIC_READ',
    );
    upload.map(0).set(new Uint8Array(device.writeTextureDescriptor(texture).buffer));
    upload.unmap(0);
    const list = device.createCommandList('DIRECT');
    list.copyBufferRegion(descriptor, 0, upload, 0, 4096);
    list.close();
    queue.executeCommandLists([list]);
    upload.release();
    const pinned: { tile: number; page: number }[] = [];
    for (let mip = PINNED_FROM_MIP; mip < VT_STANDARD_MIPS; mip++) {
      for (let y = 0; y < tilesPerSide(mip); y++)
        for (let x = 0; x < tilesPerSide(mip); x++) pinned.push({ tile: tileIndex(mip, x, y), page: 0 });
    }
    pinned.push({ tile: TAIL_TILE, page: 0 });
    for (const p of pinned) p.page = cache.pin(p.tile);
    if (source === 'cpu') {
      // Streamed and fenced before the first frame: every fallback needs them.
      await cpu().fill(pinned);
      for (const p of pinned) filled.add(p.tile);
    } else applyPaging([], pinned);
  }

  // Panel.
  const stats = new StatTable(section(panel, 'Memory'), [
    'virtual texture',
    'tile pool',
    'resident tiles',
    'waiting for a page',
    'mappings per second',
    'evictions',
    'view',
  ]);
  const mapBox = section(panel, 'Tile map');
  const tileMap = new TileMap(mapBox, unmappedOn);
  const unmapped = { touched: new Set<number>(), accesses: 0, reports: 0, maxTiles: 0, reading: false };
  const unmappedStats = unmappedOn
    ? new StatTable(section(panel, 'Unmapped accesses'), ['accesses to NULL tiles', 'tiles in the last report'])
    : undefined;
  const readUnmapped = (): void => {
    unmapped.reading = true;
    void device.readUnmappedAccesses().then((report) => {
      unmapped.touched = new Set();
      for (const resource of report.resources) {
        if (resource.resourceId !== texture.id) continue;
        // Standard mips only: the packed tail is pinned, never NULL.
        for (const t of resource.tiles)
          if (t.subresource < VT_STANDARD_MIPS) unmapped.touched.add(tileIndex(t.subresource, t.x, t.y));
      }
      unmapped.accesses += report.accessCount;
      unmapped.maxTiles = Math.max(unmapped.maxTiles, unmapped.touched.size);
      unmapped.reports++;
      unmapped.reading = false;
    });
  };
  const streamStats = new StatTable(section(panel, 'Streaming'), [
    'tile source',
    'streamed',
    'MB/s',
    'tile latency (median / p95)',
    'upload ring',
  ]);
  const chartBox = section(panel, 'Paging');
  const chart = new LiveChart(chartBox, 'Tiles per frame', [
    { label: 'mapped', color: '#5ad17f' },
    { label: 'unmapped', color: '#a8475a' },
    { label: 'waiting', color: '#f5c26b' },
  ]);
  const streamChart = new LiveChart(chartBox, 'Streamed MB/s (CPU source)', [{ label: 'MB/s', color: '#6bb6f5' }]);
  const controls = section(panel, 'Controls');
  toggle(controls, 'tint by the mip shown', tint, (on) => (tint = on));
  // Switching applies to tiles requested from then on; tiles already on their way still arrive.
  toggle(controls, 'generate tiles on the GPU', source === 'gpu', (on) => (source = on ? 'gpu' : 'cpu'));
  // Applies to tiles not yet in the ring; the texels that land are the same either way.
  toggle(controls, 'stream through copyTextureRegion (not copyTiles)', copy === 'copyTextureRegion', (on) => {
    copy = on ? 'copyTextureRegion' : 'copyTiles';
    if (cpuTiles) cpuTiles.copy = copy;
  });
  let auto = views.length === 0;
  const autoSwitch = toggle(controls, 'fly by itself', auto, (on) => (auto = on));

  // View: fixed views for tests, a flight path by default, the mouse once it moves.
  const view: View = views[0] ? { ...views[0] } : { cx: 8192, cy: 8192, s: 16 };
  const dpr = canvas.width / Math.max(canvas.clientWidth, 1);
  let drag: { x: number; y: number } | null = null;
  canvas.addEventListener('pointerdown', (event) => {
    drag = { x: event.clientX, y: event.clientY };
    auto = false;
    autoSwitch.checked = false;
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drag) return;
    view.cx -= (event.clientX - drag.x) * dpr * view.s;
    view.cy -= (event.clientY - drag.y) * dpr * view.s;
    drag = { x: event.clientX, y: event.clientY };
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      auto = false;
      autoSwitch.checked = false;
      const rect = canvas.getBoundingClientRect();
      const px = (event.clientX - rect.left) * dpr - canvas.width / 2;
      const py = (event.clientY - rect.top) * dpr - canvas.height / 2;
      const next = Math.min(Math.max(view.s * 2 ** (event.deltaY / 400), 0.25), 256);
      view.cx += px * (view.s - next);
      view.cy += py * (view.s - next);
      view.s = next;
    },
    { passive: false },
  );

  let frameNumber = 0;
  let mappedWindow: { time: number; count: number }[] = [];
  let lastPlan = { mapped: 0, unmapped: 0 };

  /** Tiles requested and without a page yet, plus (source=cpu) those on a page whose data is on its way. */
  const pendingTiles = (): number =>
    [...cache.states.values()].filter((s) => s === 'requested').length + (cpuTiles?.waiting ?? 0);
  const mappedPerSecond = (): number => mappedWindow.reduce((sum, m) => sum + m.count, 0);
  /** The tile map's states: a tile whose streamed data is still on its way shows as requested. */
  const tileStates = (): ReadonlyMap<number, TileState> => {
    if (!cpuTiles || cpuTiles.waiting === 0) return cache.states;
    const states = new Map(cache.states);
    for (const tile of states.keys()) if (cpuTiles.isWaiting(tile)) states.set(tile, 'requested');
    return states;
  };

  const readFeedback = (): TileInfo[] | null => {
    // The newest slot whose copy has completed; older ones are dropped (the view moved on).
    const done = slots
      .filter((s) => s.busy && fence.getCompletedValue() >= s.fenceValue)
      .sort((a, b) => b.frame - a.frame);
    const newest = done[0];
    if (!newest) return null;
    const data = new Uint32Array(newest.buffer.map(0).slice().buffer);
    newest.buffer.unmap(0, { begin: 0, end: 0 });
    for (const slot of done) slot.busy = false;
    const stamp = newest.frame + 1;
    const wanted = new Set<number>();
    for (let tile = 0; tile < data.length; tile++) {
      if (data[tile] !== stamp) continue;
      // The tile, and every coarser tile above it: the fallback chain and the trilinear partner.
      for (let t: number | undefined = tile; t !== undefined && !wanted.has(t); t = parentTile(t)) wanted.add(t);
    }
    return [...wanted].map((tile) => ({ tile, mip: tileCoord(tile).mip }));
  };

  return {
    frame(index: number, timeMs: number) {
      frameNumber = index;
      if (views.length > 0) Object.assign(view, views[Math.min(Math.floor(index / viewFrames), views.length - 1)]);
      else if (auto) Object.assign(view, flightView(timeMs));
      // Tiles whose copies completed count as resident from this frame's residency map on.
      for (const tile of cpuTiles?.collect() ?? []) {
        filled.add(tile);
        mapDirty = true;
      }
      const requested = readFeedback();
      lastPlan = { mapped: 0, unmapped: 0 };
      if (requested) {
        const plan = cache.update(requested, index, maxNew);
        applyPaging(
          plan.unmap.map((u) => u.tile),
          plan.map,
        );
        lastPlan = { mapped: plan.map.length, unmapped: plan.unmap.length };
        mappedWindow.push({ time: timeMs, count: plan.map.length });
      }
      mappedWindow = mappedWindow.filter((m) => timeMs - m.time < 1000);
      // After this frame's evictions, so no tile is mapped onto a page given away since it was asked for.
      cpuTiles?.stream((tile) => cache.pageOf(tile));

      // This frame: feedback, its readback (if a slot is free), the residency map (if it changed and
      // an upload buffer is free; a stale map only costs fallbacks), the draw; all in one list.
      const backBuffer = swapChain.getCurrentBackBuffer();
      const upload = mapDirty ? mapUploads.find((u) => fence.getCompletedValue() >= u.fenceValue) : undefined;
      if (upload) {
        if (residencyMapOn) computeResidencyMap((tile) => filled.has(tile), mapWords);
        upload.buffer.map(0).set(new Uint8Array(mapWords.buffer));
        upload.buffer.unmap(0);
        mapDirty = false;
      }
      const lod = Math.log2(view.s);
      const viewConstants = [
        f32Bits(view.cx),
        f32Bits(view.cy),
        f32Bits(view.s),
        f32Bits(lod),
        backBuffer.width,
        backBuffer.height,
      ];
      const list: GraphicsCommandList = device.createCommandList('DIRECT');
      list.setName(`frame ${index}`);
      list.setPipelineState(feedbackPass);
      list.setComputeRootUnorderedAccessView(1, feedback.getGPUVirtualAddress());
      list.setComputeRoot32BitConstants(0, [index + 1, ...viewConstants], 2);
      list.dispatch(Math.ceil(backBuffer.width / 64), Math.ceil(backBuffer.height / 64), 1);
      const slot = slots.find((s) => !s.busy);
      if (slot) list.copyBufferRegion(slot.buffer, 0, feedback, 0, FEEDBACK_BYTES);
      if (upload) list.copyBufferRegion(residencyMap, 0, upload.buffer, 0, RESIDENCY_MAP_BYTES);
      list.clearRenderTargetView(backBuffer, [0.063, 0.075, 0.09, 1]);
      list.omSetRenderTargets([backBuffer]);
      list.setPipelineState(draw);
      list.setGraphicsRootShaderResourceView(1, descriptor.getGPUVirtualAddress());
      list.setGraphicsRootShaderResourceView(2, residencyMap.getGPUVirtualAddress());
      list.setGraphicsRoot32BitConstants(0, [tint ? 1 : 0, ...viewConstants], 2);
      list.drawInstanced(3, 1);
      list.close();
      queue.executeCommandLists([list]);
      queue.signal(fence, ++fenceValue);
      if (slot) Object.assign(slot, { busy: true, fenceValue, frame: index });
      if (upload) upload.fenceValue = fenceValue;
      swapChain.present();

      // Overlay.
      const pending = pendingTiles();
      chart.push(index, [lastPlan.mapped, lastPlan.unmapped, pending]);
      const mip = Math.min(Math.max(Math.floor(lod), 0), VT_STANDARD_MIPS - 1);
      const halfW = (backBuffer.width / 2) * view.s;
      const halfH = (backBuffer.height / 2) * view.s;
      if (index % 4 === 0)
        tileMap.draw(
          mip,
          tileStates(),
          {
            u0: (view.cx - halfW) / VT_SIZE,
            v0: (view.cy - halfH) / VT_SIZE,
            u1: (view.cx + halfW) / VT_SIZE,
            v1: (view.cy + halfH) / VT_SIZE,
          },
          unmapped.touched,
        );
      if (unmappedOn && index % UNMAPPED_REPORT_FRAMES === 0 && !unmapped.reading) readUnmapped();
      unmappedStats?.set({
        'accesses to NULL tiles': unmapped.accesses.toLocaleString('en'),
        'tiles in the last report': `${unmapped.touched.size}`,
      });
      stats.set({
        'virtual texture': `${formatBytes(tiling.numTilesForEntireResource * TILE_SIZE)} (${tiling.numTilesForEntireResource.toLocaleString('en')} tiles, ${VT_MIPS} mips)`,
        'tile pool': `${formatBytes(poolPages * TILE_SIZE)}: ${poolPages - cache.freePages} of ${poolPages} pages used`,
        'resident tiles': `${cache.residentCount}`,
        'waiting for a page': `${pending}`,
        'mappings per second': `${mappedPerSecond()}`,
        evictions: `${cache.evictions}`,
        view: `lod ${lod.toFixed(2)}, ${view.s < 1 ? `${(1 / view.s).toFixed(1)} pixels per texel` : `${view.s.toFixed(1)} texels per pixel`}`,
      });
      const streaming = cpuTiles?.stats();
      streamChart.push(index, [(streaming?.bytesPerSecond ?? 0) / 1e6]);
      streamStats.set({
        'tile source': source === 'cpu' ? `CPU worker → upload ring → ${copy}` : 'GPU generation (compute pass)',
        streamed: streaming ? `${streaming.tiles.toLocaleString('en')} tiles, ${formatBytes(streaming.bytes)}` : '–',
        'MB/s': streaming ? (streaming.bytesPerSecond / 1e6).toFixed(1) : '–',
        'tile latency (median / p95)':
          streaming && streaming.tiles > 0
            ? `${streaming.latencyMedianMs.toFixed(1)} / ${streaming.latencyP95Ms.toFixed(1)} ms`
            : '–',
        'upload ring': streaming
          ? `${streaming.ringSlots} slots; ${streaming.waiting} tiles on their way, ${streaming.waitingForSlot} waiting for a slot`
          : '–',
      });
    },
    snapshot(): VirtualTextureSnapshot {
      return {
        frame: frameNumber,
        view: { ...view, lod: Math.log2(view.s) },
        poolPages,
        residentTiles: cache.residentCount,
        pending: pendingTiles(),
        evictions: cache.evictions,
        mappedTotal: cache.mapped,
        mappedPerSecond: mappedPerSecond(),
        virtualBytes: tiling.numTilesForEntireResource * TILE_SIZE,
        ...(unmappedOn
          ? {
              unmapped: {
                accesses: unmapped.accesses,
                tiles: unmapped.touched.size,
                maxTiles: unmapped.maxTiles,
                reports: unmapped.reports,
              },
            }
          : {}),
        source,
        copy,
        ...(cpuTiles ? { streaming: cpuTiles.stats() } : {}),
      };
    },
    stop() {
      cpuTiles?.release();
    },
  };
}

/** texture=native: the baseline drawn from a native texture (native-scene.ts); otherwise the virtual texture. */
const native = new URLSearchParams(location.search).get('texture') === 'native';
void runScene(
  meta,
  (params) =>
    native
      ? // The shell's device only: the baseline holds its texture outside the emulated memory.
        { localMemoryBytes: 64 * TILE_SIZE, nonLocalMemoryBytes: 64 * TILE_SIZE }
      : {
          localMemoryBytes: (Number(params.get('poolPages') ?? 384) + 64) * TILE_SIZE,
          // Readbacks and uploads of the residency map, plus the tile streamer's upload ring.
          nonLocalMemoryBytes: 16 * 2 ** 20 + Number(params.get('ringSlots') ?? DEFAULT_RING_SLOTS) * TILE_SIZE,
          ...(params.get('unmapped') === '1' ? { gpuValidation: { unmappedAccess: true } } : {}),
        },
  native ? createNativeScene : createScene,
);
