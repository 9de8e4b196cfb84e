/**
 * Figure 4, residency manager overhead: ResidencyManager.executeCommandLists with a 1,000-object
 * residency set out of 10,000 tracked objects, and a 10,000-object set out of 100,000 (ten times
 * both: the manager's cost should grow with the set, not faster, and not with the tracked count),
 * when nothing needs paging, next to a plain queue.executeCommandLists of the same (empty) command
 * list on the same device: the CPU cost the manager adds per submission (µs per call; ratio
 * managed ÷ plain).
 */
import { createDevice, createResidencyManager, TILE_SIZE } from '../../src/index.js';
import { liveRecorder, row, type BenchContext, type FigureRow, type FigureRunner } from './figure.js';

const MIB = 2 ** 20;
/**
 * The cases: tracked objects, the set's share of them, and a LOCAL pool that holds the set's 64 KiB
 * heaps below 70 % of the budget (so nothing is trimmed: the figure is pure bookkeeping): 10,000
 * heaps are 625 MiB, 69.8 % of 896 MiB (SwiftShader refuses a 1 GiB pool).
 */
const CASES = [
  { tracked: 10_000, inSet: 1_000, poolBytes: 128 * MIB },
  { tracked: 100_000, inSet: 10_000, poolBytes: 896 * MIB },
] as const;
const QUICK_CASES = [
  { tracked: 1_000, inSet: 100, poolBytes: 16 * MIB },
  { tracked: 10_000, inSet: 1_000, poolBytes: 128 * MIB },
] as const;
/** Calls per sample: enough that performance.now's resolution (0.1 ms in browsers) does not matter. */
const CALLS_PER_SAMPLE = 200;
/**
 * Unmeasured calls on both sides before the first sample, as the tile-mapping and paging figures
 * prime theirs: V8 takes a few thousand calls to settle on optimized code for executeCommandLists
 * (Node on SwiftShader, 10 rounds of 200 calls: 27-31 µs over a plain submit at 1,000 of 10,000;
 * 100 rounds: 6 µs). A renderer submits every frame, so the settled cost is the one worth measuring.
 */
const JIT_PRIMING_CALLS = 5000;

export const residencyOverhead: FigureRunner = async (context) => {
  const { quick } = context;
  const rounds = quick ? 2 : 9;
  const warmup = 1;
  const rows = [];
  const notes: string[] = [];
  const parameters: Record<string, number | string> = { callsPerSample: CALLS_PER_SAMPLE };
  for (const { tracked, inSet, poolBytes } of quick ? QUICK_CASES : CASES) {
    const measured = await measureCase(context, { tracked, inSet, poolBytes, rounds, warmup });
    rows.push(measured.row);
    notes.push(
      `${measured.row.case}: evictions during the run: ${measured.evictions} (the set fits the budget: the figure is pure bookkeeping)`,
    );
    parameters[`tracked (${measured.row.case})`] = tracked;
  }
  return {
    id: 'residency-overhead',
    title: 'Residency manager overhead',
    unit: 'µs/call',
    baselineName: 'plain queue.executeCommandLists of the same list',
    ratioMeaning: 'managed µs ÷ plain µs',
    rows,
    rounds,
    warmup,
    parameters,
    notes,
  };
};

async function measureCase(
  context: BenchContext,
  plan: { tracked: number; inSet: number; poolBytes: number; rounds: number; warmup: number },
): Promise<{ row: FigureRow; evictions: number }> {
  const { tracked, inSet, rounds, warmup } = plan;
  const progress = (message: string): void => context.progress(message);
  const device = await createDevice({
    gpuDevice: context.gpuDevice,
    localMemoryBytes: plan.poolBytes,
    nonLocalMemoryBytes: 16 << 20,
  });
  try {
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const manager = createResidencyManager(device);
    // Heaps created not resident cost no memory; the set's are made resident once, in warm-up.
    const heaps = Array.from({ length: tracked }, () =>
      device.createHeap({ sizeInBytes: TILE_SIZE, properties: { type: 'DEFAULT' }, flags: ['CREATE_NOT_RESIDENT'] }),
    );
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
    if (!context.quick) {
      progress(
        `residency overhead: ${inSet} of ${tracked} objects, priming (${JIT_PRIMING_CALLS} unmeasured calls a side)`,
      );
      for (let i = 0; i < JIT_PRIMING_CALLS / CALLS_PER_SAMPLE; i++) {
        await time(() => manager.executeCommandLists(queue, [list], [set]));
        await time(() => queue.executeCommandLists([list]));
      }
    }
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
    return { row: measured, evictions: stats.evictions };
  } finally {
    device.destroy();
  }
}
