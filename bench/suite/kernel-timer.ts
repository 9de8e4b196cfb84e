/**
 * GPU time of a kernel figure's two sides (indirection-cost, texture-sample): a raw WebGPU pass and
 * a library command list, each a run of dispatches. Where the adapter has timestamp queries, both
 * are GPU time: the raw pass's timestampWrites, and the library's EndQuery before and after the
 * dispatches, resolved with ResolveQueryData into a READBACK buffer. Elsewhere, wall time from
 * submission to completion. Milliseconds per dispatch.
 */
import type { Device, GraphicsCommandList } from '../../src/index.js';
import { timeRaw } from './figure.js';

export interface KernelTimer {
  /** The raw pass's descriptor: it writes the timestamps. */
  readonly rawPass: GPUComputePassDescriptor;
  /** After the raw pass: resolves its timestamps for rawMs. */
  resolveRaw(encoder: GPUCommandEncoder): void;
  /** Around a list's dispatches: its timestamps, resolved for libraryMs. */
  beginList(list: GraphicsCommandList): void;
  endList(list: GraphicsCommandList): void;
  /** Per dispatch: `submit` submits a raw pass of `dispatches` (made with rawPass and resolveRaw). */
  rawMs(dispatches: number, submit: () => void): Promise<number>;
  /** Per dispatch: `run` executes a list of `dispatches` (made with beginList and endList) and waits for it. */
  libraryMs(dispatches: number, run: () => Promise<void>): Promise<number>;
  destroy(): void;
}

/** Two 64-bit timestamps, begin and end, as milliseconds between them. */
function elapsedMs(bytes: ArrayBuffer | Uint8Array): number {
  const view = bytes instanceof Uint8Array ? new DataView(bytes.buffer, bytes.byteOffset, 16) : new DataView(bytes);
  return Number(view.getBigUint64(8, true) - view.getBigUint64(0, true)) / 1e6;
}

export function kernelTimer(gpuDevice: GPUDevice, device: Device, label: string): KernelTimer {
  const timestamps = gpuDevice.features.has('timestamp-query');
  const rawQueries = timestamps
    ? gpuDevice.createQuerySet({ label: `${label}: raw timestamps`, type: 'timestamp', count: 2 })
    : undefined;
  const rawResolved = gpuDevice.createBuffer({
    label: `${label}: raw timestamps`,
    size: 16,
    usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
  });
  const rawTimes = gpuDevice.createBuffer({
    label: `${label}: raw timestamps readback`,
    size: 16,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const libraryQueries = timestamps ? device.createQueryHeap({ type: 'TIMESTAMP', count: 2 }) : undefined;
  const libraryTimes = device.createCommittedResource(
    { type: 'READBACK' },
    [],
    { dimension: 'BUFFER', width: 16 },
    'COPY_DEST',
  );
  return {
    rawPass: rawQueries
      ? { timestampWrites: { querySet: rawQueries, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } }
      : {},
    resolveRaw(encoder) {
      if (!rawQueries) return;
      encoder.resolveQuerySet(rawQueries, 0, 2, rawResolved, 0);
      encoder.copyBufferToBuffer(rawResolved, 0, rawTimes, 0, 16);
    },
    beginList(list) {
      if (libraryQueries) list.endQuery(libraryQueries, 'TIMESTAMP', 0);
    },
    endList(list) {
      if (!libraryQueries) return;
      list.endQuery(libraryQueries, 'TIMESTAMP', 1);
      list.resolveQueryData(libraryQueries, 'TIMESTAMP', 0, 2, libraryTimes, 0);
    },
    async rawMs(dispatches, submit) {
      const wallMs = await timeRaw(gpuDevice, submit);
      if (!rawQueries) return wallMs / dispatches;
      await rawTimes.mapAsync(GPUMapMode.READ);
      const ms = elapsedMs(rawTimes.getMappedRange());
      rawTimes.unmap();
      return ms / dispatches;
    },
    async libraryMs(dispatches, run) {
      const start = performance.now();
      await run();
      const wallMs = performance.now() - start;
      if (!libraryQueries) return wallMs / dispatches;
      const ms = elapsedMs(libraryTimes.map(0).slice(0, 16));
      libraryTimes.unmap(0, { begin: 0, end: 0 });
      return ms / dispatches;
    },
    destroy() {
      rawQueries?.destroy();
      rawResolved.destroy();
      rawTimes.destroy();
    },
  };
}
