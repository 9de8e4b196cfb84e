/**
 * Residency under pressure: see meta.ts. URL parameters: baseTiles (world scale, default 16: about
 * 130 MiB of heaps), budgetMiB (debug budget, default a third of the world), speed (camera), forgetAt
 * (turn the forget switch on at that frame), latency (frames in flight, default 2).
 */
import {
  TILE_SIZE,
  createResidencyManager,
  type FaultReport,
  type GraphicsCommandList,
  type Heap,
  type Resource,
} from '../../src/index.js';
import { formatBytes, LiveChart } from '../common/live-chart.js';
import { button, section, slider, StatTable, toggle } from '../common/panel.js';
import { runScene, type SceneContext } from '../common/scene-shell.js';
import fillCode from './fill.wgsl?raw';
import mapCode from './map.wgsl?raw';
import { meta } from './meta.js';
import common from './object-common.wgsl?raw';
import shadeCode from './shade.wgsl?raw';
import { cameraAt, createWorld, objectToForget, pcg, visibleObjects } from './world.js';

const MiB = 2 ** 20;

export interface PressureFrame {
  frame: number;
  usage: number;
  budget: number;
  /** The manager reported this frame's batch over budget (it could not evict enough). */
  overBudget: boolean;
  evictions: number;
  visible: number[];
}

export interface PressureReport {
  /** Faults in the report (the first 64 are kept below). */
  total: number;
  reason: string;
  message: string;
  /** The device's fault reports (plain data), the first 64. */
  faults: FaultReport[];
}

const f32Bits = (value: number): number => new Uint32Array(new Float32Array([value]).buffer)[0] ?? 0;

async function createScene({ device, queue, swapChain, canvas, panel, params }: SceneContext) {
  const world = createWorld(Number(params.get('baseTiles') ?? 16));
  const worldBytes = world.reduce((sum, o) => sum + o.tiles * TILE_SIZE, 0);
  const latency = Number(params.get('latency') ?? 2);
  let speed = Number(params.get('speed') ?? 1);
  const forgetAt = params.has('forgetAt') ? Number(params.get('forgetAt')) : null;
  let budget = Number(params.get('budgetMiB') ?? Math.round(worldBytes / 3 / MiB)) * MiB;
  device.setResidencyDebugBudget(budget);
  const manager = createResidencyManager(device);

  // Always-used buffers: the object table (addresses, sizes, seeds) and the shade pass's output.
  const buffer = (name: string, bytes: number): Resource => {
    const resource = device.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: bytes },
      'COMMON',
    );
    resource.setName(name);
    manager.beginTrackingObject(resource);
    return resource;
  };
  const table = buffer('object table', world.length * 16);
  const frameData = buffer('frame data', world.length * 16);
  const objects = world.map((o) => {
    const heap = device.createHeap({
      sizeInBytes: o.tiles * TILE_SIZE,
      properties: { type: 'DEFAULT' },
      flags: ['ALLOW_ONLY_BUFFERS', 'CREATE_NOT_RESIDENT'],
    });
    const name = `${o.kind} ${String(o.index).padStart(2, '0')}`;
    heap.setName(`${name} heap`);
    const resource = device.createPlacedResource(
      heap,
      0,
      { dimension: 'BUFFER', width: o.tiles * TILE_SIZE },
      'COMMON',
    );
    resource.setName(`${name} ${o.kind === 'mesh' ? 'vertices' : 'texels'}`);
    manager.beginTrackingObject(heap);
    return { ...o, heap, resource, name };
  });

  const fence = device.createFence(0);
  let fenceValue = 0;
  const settle = async (): Promise<void> => {
    queue.signal(fence, ++fenceValue);
    await fence.setEventOnCompletion(fenceValue);
  };
  const setOf = (heaps: (Heap | Resource)[]) => {
    const set = manager.createResidencySet();
    set.open();
    for (const object of heaps) set.insert(object);
    set.close();
    return set;
  };

  // Load: the table through an upload buffer, then every object's content, the manager paging as it goes.
  const [fill, shade, map] = await Promise.all([
    device.createComputePipelineState({ code: common + fillCode, entryPoint: 'fill', label: 'object fill' }),
    device.createComputePipelineState({
      code: common + shadeCode,
      entryPoint: 'shade',
      label: 'shade visible objects',
    }),
    device.createGraphicsPipelineState({
      code: mapCode,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormat: swapChain.format,
      label: 'world map',
    }),
  ]);
  const upload = device.createCommittedResource(
    { type: 'UPLOAD' },
    [],
    { dimension: 'BUFFER', width: world.length * 16 },
    'GENERIC_READ',
  );
  // The object table (object-common.wgsl): per object its address (a UINT64), size in words, seed.
  const tableBytes = new DataView(new ArrayBuffer(world.length * 16));
  for (const o of objects) {
    tableBytes.setBigUint64(o.index * 16, o.resource.getGPUVirtualAddress(), true);
    tableBytes.setUint32(o.index * 16 + 8, (o.tiles * TILE_SIZE) / 4, true);
    tableBytes.setUint32(o.index * 16 + 12, o.seed, true);
  }
  upload.map(0).set(new Uint8Array(tableBytes.buffer));
  upload.unmap(0);
  {
    const list = device.createCommandList('DIRECT');
    list.setName('load object table');
    list.copyBufferRegion(table, 0, upload, 0, world.length * 16);
    list.close();
    manager.executeCommandLists(queue, [list], [setOf([table])]);
  }
  for (const o of objects) {
    const list = device.createCommandList('DIRECT');
    list.setName(`load ${o.name}`);
    const groups = Math.ceil((o.tiles * TILE_SIZE) / 4 / 64);
    const perRow = Math.min(groups, 65535);
    list.setPipelineState(fill);
    list.setComputeRootShaderResourceView(1, table.getGPUVirtualAddress());
    list.setComputeRoot32BitConstants(0, [o.index, perRow], 2);
    list.dispatch(perRow, Math.ceil(groups / perRow), 1);
    list.close();
    manager.executeCommandLists(queue, [list], [setOf([table, o.heap])]);
  }
  await settle();
  upload.release();

  // Panel.
  const now = new StatTable(section(panel, 'Now'), [
    'world',
    'budget',
    'usage (LOCAL)',
    'resident heaps',
    'in view',
    'evictions',
    'paged',
    'forgotten',
  ]);
  const charts = section(panel, 'Live');
  const memoryChart = new LiveChart(charts, 'Memory (MiB)', [
    { label: 'budget', color: '#f0776b', dash: true },
    { label: 'usage', color: '#5ad17f' },
  ]);
  const pagingChart = new LiveChart(charts, 'Paging (MB/s)', [{ label: 'evicted + restored', color: '#7fb4ff' }]);
  const evictionChart = new LiveChart(charts, 'Evictions per frame', [{ label: 'evictions', color: '#f5c26b' }]);
  const frameChart = new LiveChart(charts, 'Frame time (ms)', [{ label: 'frame', color: '#d9dde4' }]);
  const controls = section(panel, 'Controls');
  slider(
    controls,
    'budget (debug override)',
    { min: 1, max: Math.ceil(worldBytes / MiB) + 2, step: 1, value: budget / MiB },
    (v) => `${v} MiB`,
    (v) => {
      budget = v * MiB;
      device.setResidencyDebugBudget(budget);
    },
  );
  slider(
    controls,
    'camera speed',
    { min: 0, max: 4, step: 0.25, value: speed },
    (v) => `${v}×`,
    (v) => (speed = v),
  );
  let forgotten: (typeof objects)[number] | undefined;
  const forgetSwitch = toggle(controls, "forget one object's registration", false, (on) => {
    forgotten = on ? objects[objectToForget(world, cameraFrame, speed)?.index ?? 0] : undefined;
  });
  const reportBox = section(panel, 'Device');
  const reportText = document.createElement('div');
  reportText.textContent = 'S_OK: no page fault.';
  reportBox.append(reportText);
  button(reportBox, 'restart', () => location.reload());

  const history: PressureFrame[] = [];
  let report: PressureReport | null = null;
  let cameraFrame = 0;
  let lastTime = 0;
  let lastPaged = 0;
  const frameFences: number[] = [];

  const showReport = (): void => {
    const raw = device.getPageFaultReport();
    const faults: FaultReport[] = raw?.faults ?? [];
    report = {
      total: faults.length,
      reason: device.getDeviceRemovedReason(),
      message: raw?.message ?? 'the device was removed',
      faults: faults.slice(0, 64),
    };
    reportText.className = 'report';
    const shown = report.faults.slice(0, 3).map((f) => f.message);
    if (report.total > shown.length) shown.push(`… and ${report.total - shown.length} more faults`);
    reportText.textContent = `device removed (GetDeviceRemovedReason: ${report.reason})\n\n${shown.join('\n\n') || report.message}`;
    reportText.dataset.state = 'removed';
    const banner = document.createElement('div');
    banner.className = 'stage-label';
    banner.style.left = '0.5rem';
    banner.style.color = '#ffb4ab';
    banner.textContent = `device removed: ${report.faults[0]?.message ?? report.message}`;
    canvas.parentElement?.append(banner);
  };

  return {
    async frame(index: number, timeMs: number): Promise<boolean> {
      if (device.getDeviceRemovedReason() !== 'S_OK') {
        showReport();
        return false;
      }
      if (forgetAt !== null && index === forgetAt && !forgetSwitch.checked) {
        forgetSwitch.checked = true;
        forgetSwitch.dispatchEvent(new Event('change'));
      }
      // At most `latency` frames in flight, as an engine would keep.
      const waitFor = frameFences[index - latency];
      if (waitFor !== undefined) await fence.setEventOnCompletion(waitFor);
      if (device.getDeviceRemovedReason() !== 'S_OK') {
        showReport();
        return false;
      }
      cameraFrame += speed;
      const camera = cameraAt(cameraFrame);
      const visible = visibleObjects(world, camera).map((o) => objects[o.index] as (typeof objects)[number]);
      const set = setOf([table, frameData, ...visible.filter((o) => o !== forgotten).map((o) => o.heap)]);

      const statsBefore = manager.getStats();
      const shadeList: GraphicsCommandList = device.createCommandList('DIRECT');
      shadeList.setName(`frame ${index}: shade visible objects`);
      shadeList.setPipelineState(shade);
      shadeList.setComputeRootShaderResourceView(1, table.getGPUVirtualAddress());
      shadeList.setComputeRootUnorderedAccessView(2, frameData.getGPUVirtualAddress());
      shadeList.setComputeRoot32BitConstants(0, [index, visible.length, ...visible.map((o) => o.index)], 4);
      shadeList.dispatch(Math.max(visible.length, 1), 1, 1);
      shadeList.close();
      manager.executeCommandLists(queue, [shadeList], [set]);

      // The map is recorded after the manager paged, so its residency bits are this frame's: what the
      // device's memory statistics say of each object's heap (by its name).
      const residentHeaps = new Set(
        device
          .getMemoryStats()
          .heaps.filter((h) => h.resident)
          .map((h) => h.name),
      );
      const isResident = (o: (typeof objects)[number]): boolean => residentHeaps.has(`${o.name} heap`);
      const bits = (pick: (o: (typeof objects)[number]) => boolean): [number, number] => {
        const out: [number, number] = [0, 0];
        for (const o of objects)
          if (pick(o)) out[o.index >> 5] = ((out[o.index >> 5] ?? 0) | (1 << (o.index & 31))) >>> 0;
        return out;
      };
      const inView = new Set(visible);
      const backBuffer = swapChain.getCurrentBackBuffer();
      const drawList: GraphicsCommandList = device.createCommandList('DIRECT');
      drawList.setName(`frame ${index}: draw the map`);
      drawList.clearRenderTargetView(backBuffer, [0.063, 0.075, 0.09, 1]);
      drawList.omSetRenderTargets([backBuffer]);
      drawList.setPipelineState(map);
      drawList.setGraphicsRootShaderResourceView(1, table.getGPUVirtualAddress());
      drawList.setGraphicsRootShaderResourceView(2, frameData.getGPUVirtualAddress());
      drawList.setGraphicsRoot32BitConstants(
        0,
        [
          index,
          f32Bits(camera.x),
          f32Bits(camera.y),
          f32Bits(camera.radius),
          ...bits(isResident),
          ...bits((o) => inView.has(o)),
          forgotten?.index ?? 0xffffffff,
          Math.max(...world.map((o) => o.tiles)),
          backBuffer.width,
          backBuffer.height,
        ],
        4,
      );
      drawList.drawInstanced(3, 1);
      drawList.close();
      manager.executeCommandLists(queue, [drawList], [setOf([table, frameData])]);
      queue.signal(fence, ++fenceValue);
      frameFences[index] = fenceValue;

      const stats = manager.getStats();
      const info = device.queryVideoMemoryInfo('LOCAL');
      const paging = device.getPagingStats();
      const paged = paging.evictedBytes + paging.restoredBytes;
      const dt = lastTime ? timeMs - lastTime : 16.7;
      lastTime = timeMs;
      const entry: PressureFrame = {
        frame: index,
        usage: info.currentUsage,
        budget: info.budget,
        overBudget: stats.overBudgetBatches > statsBefore.overBudgetBatches,
        evictions: stats.evictions - statsBefore.evictions,
        visible: visible.map((o) => o.index),
      };
      history.push(entry);
      if (history.length > 5000) history.shift();
      memoryChart.push(index, [info.budget / MiB, info.currentUsage / MiB]);
      pagingChart.push(index, [(paged - lastPaged) / 1e6 / (dt / 1000)]);
      evictionChart.push(index, [entry.evictions]);
      frameChart.push(index, [dt]);
      lastPaged = paged;
      now.set({
        world: `${world.length} heaps, ${formatBytes(worldBytes)}`,
        budget: formatBytes(info.budget),
        'usage (LOCAL)': `${formatBytes(info.currentUsage)}${entry.overBudget ? ' (over budget: the view does not fit)' : ''}`,
        'resident heaps': `${objects.filter(isResident).length} of ${objects.length}`,
        'in view': `${visible.length} objects, ${formatBytes(visible.reduce((s, o) => s + o.tiles * TILE_SIZE, 0))}`,
        evictions: `${stats.evictions} (${stats.trimmed} by the grace period)`,
        paged: `${formatBytes(paging.evictedBytes)} out, ${formatBytes(paging.restoredBytes)} in`,
        forgotten: forgotten ? `${forgotten.heap.label} is no longer inserted into the residency set` : 'none',
      });
      return true;
    },
    snapshot() {
      return {
        worldBytes,
        history,
        report,
        forgotten: forgotten
          ? { index: forgotten.index, heap: forgotten.heap.label, resource: forgotten.resource.label }
          : null,
        stats: manager.getStats(),
      };
    },
    forTesting: {
      /** The shade pass's output for every object: [samples, mismatches, frame, content word]. */
      async readFrameData(): Promise<number[][]> {
        return (await readBack(frameData, world.length * 16)).reduce<number[][]>(
          (rows, word, i) => (i % 4 === 0 ? [...rows, [word]] : (rows.at(-1)?.push(word), rows)),
          [],
        );
      },
      /** Every object's content read back (each paged in by the manager in turn), compared on the CPU: mismatching words per object. */
      async verifyAllObjects(): Promise<number[]> {
        const wrong: number[] = [];
        for (const o of objects) {
          const data = await readBack(o.resource, o.tiles * TILE_SIZE, o.heap);
          let bad = 0;
          for (let j = 0; j < data.length; j++) if (data[j] !== pcg((o.seed ^ j) >>> 0)) bad++;
          wrong.push(bad);
        }
        return wrong;
      },
    },
  };

  async function readBack(source: Resource, bytes: number, heap: Heap | Resource = source): Promise<Uint32Array> {
    const readback = device.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: bytes },
      'COPY_DEST',
    );
    const list = device.createCommandList('DIRECT');
    list.setName(`read back ${source.label}`);
    list.copyBufferRegion(readback, 0, source, 0, bytes);
    list.close();
    manager.executeCommandLists(queue, [list], [setOf([heap])]);
    await settle();
    const out = new Uint32Array(readback.map(0).slice().buffer);
    readback.unmap(0);
    readback.release();
    return out;
  }
}

// The pool holds the whole world, so the budget slider can go from heavy paging to none.
void runScene(
  meta,
  (params) => ({
    localMemoryBytes:
      Math.ceil(
        createWorld(Number(params.get('baseTiles') ?? 16)).reduce((sum, o) => sum + o.tiles * TILE_SIZE, 0) / MiB + 8,
      ) * MiB,
    nonLocalMemoryBytes: 64 * MiB,
  }),
  createScene,
);
