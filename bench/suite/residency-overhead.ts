/**
 * Figure 4, residency manager overhead: ResidencyManager.executeCommandLists with a 1,000-object
 * residency set out of 10,000 tracked objects, when nothing needs paging, next to a plain
 * queue.executeCommandLists of the same (empty) command list on the same device: the CPU cost the
 * manager adds per submission (µs per call; ratio managed ÷ plain).
 */
import { createDevice, createResidencyManager } from '../../src/index.js';
import { liveRecorder, row, type FigureRunner } from './figure.js';

const TRACKED = 10_000;
const IN_SET = 1_000;
/** Calls per sample: enough that performance.now's resolution (0.1 ms in browsers) does not matter. */
const CALLS_PER_SAMPLE = 200;

export const residencyOverhead: FigureRunner = async (context) => {
  const { gpuDevice, quick } = context;
  const progress = (message: string): void => context.progress(message);
  const rounds = quick ? 2 : 9;
  const warmup = 1;
  const tracked = quick ? 1_000 : TRACKED;
  const inSet = quick ? 100 : IN_SET;
  const device = await createDevice({ gpuDevice, localMemoryBytes: 128 << 20, nonLocalMemoryBytes: 16 << 20 });
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const manager = createResidencyManager(device);
    // Heaps created not resident cost no memory; the set's are made resident once, in warm-up.
    const heaps = Array.from({ length: tracked }, () => device.createHeap({ sizeInBytes: 65536, properties: { type: 'DEFAULT' }, flags: ['CREATE_NOT_RESIDENT'] }));
    for (const heap of heaps) manager.beginTrackingObject(heap);
    const set = manager.createResidencySet();
    set.open();
    // A stride coprime with the count spreads the set over the tracked list, as a scene's would be.
    for (let i = 0; i < inSet; i++) set.insert(heaps[(i * 7919) % tracked]);
    set.close();
    const list = device.createCommandList('DIRECT');
    list.close();
    const fence = device.createFence(0);
    let fenceValue = 0;
    const time = async (run: () => void): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < CALLS_PER_SAMPLE; i++) run();
      const micros = ((performance.now() - start) * 1000) / CALLS_PER_SAMPLE;
      // Let the queue drain between samples so neither side pays for the other's backlog.
      queue.signal(fence, ++fenceValue);
      await fence.setEventOnCompletion(fenceValue);
      return micros;
    };
    progress(`residency overhead: ${inSet} of ${tracked} objects, ${rounds} rounds`);
    const managed: number[] = [];
    const plain: number[] = [];
    const name = `${inSet.toLocaleString('en')} of ${tracked.toLocaleString('en')} objects, no paging`;
    const live = liveRecorder(context, 'residency-overhead', 'µs/call');
    // Interleaved, so drift (clock, thermal, GC) hits both sides alike.
    for (let i = 0; i < warmup + rounds; i++) {
      const m = await time(() => manager.executeCommandLists(queue, [list], [set]));
      const p = await time(() => queue.executeCommandLists([list]));
      if (i >= warmup) {
        managed.push(m);
        plain.push(p);
        live.sample(name, 'measured', m);
        live.sample(name, 'baseline', p);
      }
    }
    const stats = manager.getStats();
    const measured = row(name, managed, plain);
    measured.extra = { overheadMicroseconds: measured.value - (measured.baseline ?? 0), evictions: stats.evictions };
    return {
      id: 'residency-overhead',
      title: 'Residency manager overhead',
      unit: 'µs/call',
      baselineName: 'plain queue.executeCommandLists of the same list',
      ratioMeaning: 'managed µs ÷ plain µs',
      rows: [measured],
      rounds,
      warmup,
      parameters: { tracked, setSize: inSet, callsPerSample: CALLS_PER_SAMPLE },
      notes: [`evictions during the run: ${stats.evictions} (the set fits the budget: the figure is pure bookkeeping)`],
    };
  } finally {
    device.destroy();
  }
};
