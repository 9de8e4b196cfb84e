/**
 * Residency manager overhead: ResidencyManager.executeCommandLists with a 1,000-object residency set
 * out of 10,000 tracked objects, when nothing needs paging, next to a plain queue.executeCommandLists
 * of the same (empty) command list on the same device. Reports microseconds per call (median of
 * rounds, after warm-up) and writes bench/results/residency-overhead-<adapter>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from 'vitest';
import { createDevice, createResidencyManager, formatAdapter, summarizeAdapter } from '../../src/index.js';
import { createNodeDevice } from '../../src/node/index.js';

const TRACKED = 10_000;
const IN_SET = 1_000;
const CALLS_PER_ROUND = 200;
const ROUNDS = 9;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

test('residency manager overhead', async () => {
  const gpuDevice = await createNodeDevice();
  const adapter = summarizeAdapter(gpuDevice.adapterInfo);
  const device = await createDevice({ gpuDevice, localMemoryBytes: 128 << 20, nonLocalMemoryBytes: 16 << 20 });
  const queue = device.createCommandQueue({ type: 'DIRECT' });
  const manager = createResidencyManager(device);
  // Heaps created not resident cost no memory; the 1,000 in the set are made resident once, in warm-up.
  const heaps = Array.from({ length: TRACKED }, () => device.createHeap({ sizeInBytes: 65536, properties: { type: 'DEFAULT' }, flags: ['CREATE_NOT_RESIDENT'] }));
  for (const heap of heaps) manager.beginTrackingObject(heap);
  const set = manager.createResidencySet();
  set.open();
  for (let i = 0; i < IN_SET; i++) set.insert(heaps[(i * 7919) % TRACKED]);
  set.close();
  const list = device.createCommandList('DIRECT');
  list.close();

  const time = (run: () => void): number => {
    const start = performance.now();
    for (let i = 0; i < CALLS_PER_ROUND; i++) run();
    return ((performance.now() - start) * 1000) / CALLS_PER_ROUND;
  };
  const managed = (): void => manager.executeCommandLists(queue, [list], [set]);
  const plain = (): void => queue.executeCommandLists([list]);
  // Warm-up: pages the set in, compiles everything, fills caches.
  time(managed);
  time(plain);
  const fence = device.createFence(0);
  const samples = { managed: [] as number[], plain: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    samples.managed.push(time(managed));
    samples.plain.push(time(plain));
    queue.signal(fence, round + 1);
    await fence.setEventOnCompletion(round + 1);
  }
  const stats = manager.getStats();
  const result = {
    benchmark: 'residency-manager-overhead',
    adapter,
    tracked: TRACKED,
    setSize: IN_SET,
    callsPerRound: CALLS_PER_ROUND,
    microsecondsPerCall: { managed: median(samples.managed), plain: median(samples.plain) },
    overheadMicroseconds: median(samples.managed) - median(samples.plain),
    pagingDuringMeasurement: stats.evictions,
    samples,
  };
  console.log(
    `residency manager overhead on ${formatAdapter(adapter)}: ${result.microsecondsPerCall.managed.toFixed(1)} µs/call managed, ` +
      `${result.microsecondsPerCall.plain.toFixed(1)} µs/call plain (overhead ${result.overheadMicroseconds.toFixed(1)} µs, ${IN_SET}/${TRACKED} objects, evictions ${stats.evictions})`,
  );
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/residency-overhead-${adapter.vendor || 'unknown'}-${adapter.architecture || 'unknown'}.json`, `${JSON.stringify(result, null, 2)}\n`);
  device.destroy();
  gpuDevice.destroy();
});
