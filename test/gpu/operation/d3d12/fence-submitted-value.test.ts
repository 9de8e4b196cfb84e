/**
 * Fence.getSubmittedValue (an emulator addition; docs/residency.md): what the queues' signals
 * submitted to the GPU so far have set, ahead of the completed value. src/d3d12/fence.ts: a queue
 * signal counts as submitted when it is submitted (at once, on a queue not held), and becomes the
 * completed value once the work before it (and the READBACK copies of its results) has completed; a
 * signal held behind a queue wait is not counted until the wait lets it go; Fence.signal (the CPU)
 * sets both at once.
 *
 * A queue signal's completion is a promise (WebGPU's onSubmittedWorkDone), so right after the
 * signal() call returns the completed value cannot have moved yet: the tests assert that exactly.
 * Every test reads the GPU's results back once the fence says the work is done.
 */
import { describe, expect } from 'vitest';
import type { Device, Fence, GraphicsCommandList, Resource } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, flush, pattern, readBuffer, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { Random } from '../../../../src/validate/random.js';

const MIB = 2 ** 20;

const test = d3dTest({ localMemoryBytes: 8 * MIB, nonLocalMemoryBytes: 8 * MIB });

const values = (fence: Fence): { submitted: number; completed: number } => ({
  submitted: fence.getSubmittedValue(),
  completed: fence.getCompletedValue(),
});

/** A READBACK buffer of `length` bytes and a closed list that copies `data` into it at `offset`. */
function copyToReadback(
  d3d: Device,
  data: Uint8Array,
  readback?: Resource,
  offset = 0,
): { readback: Resource; list: GraphicsCommandList } {
  const target =
    readback ??
    d3d.createCommittedResource({ type: 'READBACK' }, [], { dimension: 'BUFFER', width: data.length }, 'COPY_DEST');
  const src = uploadBuffer(d3d, data);
  const list = d3d.createCommandList('DIRECT');
  list.copyBufferRegion(target, offset, src, 0, data.length);
  list.close();
  return { readback: target, list };
}

function readbackBytes(readback: Resource, offset: number, length: number): Uint8Array {
  const bytes = readback.map().slice(offset, offset + length);
  readback.unmap();
  return bytes;
}

function expectSame(actual: Uint8Array, expected: Uint8Array, what: string): void {
  const at = firstDifference(actual, expected);
  expect(at, `${what}: byte ${at} is ${actual[at]}, expected ${expected[at]}`).toBe(-1);
}

/** Lets the event loop run (timers, WebGPU callbacks) `times` times. */
async function spin(times: number): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('Fence.getSubmittedValue', () => {
  test('a new fence: both values are the initial value', ({ d3d }) => {
    for (const initial of [0, 42, Number.MAX_SAFE_INTEGER]) {
      expect(values(d3d.createFence(initial))).toEqual({ submitted: initial, completed: initial });
    }
  });

  test('queue.signal(fence, v): submitted at once, completed only after the work; then both are v and the copy has landed', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const fence = d3d.createFence(3);
    const data = pattern(256 * 1024, 1);
    const { readback, list } = copyToReadback(d3d, data);
    queue.executeCommandLists([list]);
    queue.signal(fence, 5);
    expect(values(fence), 'right after signal()').toEqual({ submitted: 5, completed: 3 });
    let completedAtEvent = -1;
    const event = fence.setEventOnCompletion(5).then(() => {
      completedAtEvent = fence.getCompletedValue();
    });
    expect(completedAtEvent, 'setEventOnCompletion(5) resolved before completion').toBe(-1);
    await event;
    expect(completedAtEvent).toBe(5);
    expect(values(fence)).toEqual({ submitted: 5, completed: 5 });
    // What the GPU wrote before the signal is in the READBACK buffer once the fence completes.
    expectSame(readbackBytes(readback, 0, data.length), data, 'READBACK buffer at completion');
  });

  test('signals in sequence: submitted follows each call at once; completed never passes submitted, never goes back, and reaches the last value; events resolve in order', async ({
    d3d,
  }) => {
    const random = new Random(0xfe1ce);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const fence = d3d.createFence(0);
    const chunk = 16 * 1024;
    const rounds = 8;
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: rounds * chunk },
      'COPY_DEST',
    );
    const expected = new Uint8Array(rounds * chunk);
    const signalled: number[] = [];
    let value = 0;
    for (let i = 0; i < rounds; i++) {
      const data = pattern(chunk, 10 + i);
      expected.set(data, i * chunk);
      queue.executeCommandLists([copyToReadback(d3d, data, readback, i * chunk).list]);
      value += random.int(1, 1000);
      queue.signal(fence, value);
      signalled.push(value);
      expect(fence.getSubmittedValue(), `after signal #${i}`).toBe(value);
      expect(fence.getCompletedValue(), `completed right after signal #${i}`).toBe(0);
    }
    const order: number[] = [];
    const events = signalled.map((v) => fence.setEventOnCompletion(v).then(() => order.push(v)));
    let allDone = false;
    const all = Promise.all(events).then(() => {
      allDone = true;
    });
    // Sampled until every event has resolved, and a while after (a late completion must not take
    // the value back).
    const seen: number[] = [fence.getCompletedValue()];
    for (let after = 0; after < 20; after += allDone ? 1 : 0) {
      await spin(1);
      const now = values(fence);
      expect(now.submitted, `seed ${random.seed}: submitted`).toBe(value);
      expect(now.completed, `seed ${random.seed}: completed passed submitted`).toBeLessThanOrEqual(now.submitted);
      expect(now.completed, `seed ${random.seed}: completed went back`).toBeGreaterThanOrEqual(
        seen[seen.length - 1] as number,
      );
      expect([0, ...signalled], 'completed is a signalled value').toContain(now.completed);
      seen.push(now.completed);
    }
    await all;
    expect(order).toEqual(signalled);
    expect(values(fence)).toEqual({ submitted: value, completed: value });
    expectSame(readbackBytes(readback, 0, expected.length), expected, 'READBACK buffer after all rounds');
  });

  test("a signal held behind an unsatisfied queue.wait is not submitted; it is once another queue's signal satisfies the wait", async ({
    d3d,
  }) => {
    const held = d3d.createCommandQueue({ type: 'DIRECT' });
    const other = d3d.createCommandQueue({ type: 'DIRECT' });
    const gate = d3d.createFence(0);
    const fence = d3d.createFence(1);
    const data = pattern(64 * 1024, 2);
    const { readback, list } = copyToReadback(d3d, data);
    held.wait(gate, 2);
    held.executeCommandLists([list]);
    held.signal(fence, 7);
    expect(values(fence), 'held behind the wait').toEqual({ submitted: 1, completed: 1 });
    // A value below the one waited for does not release it, from a queue or from the CPU.
    other.signal(gate, 1);
    await flush(d3d, other);
    expect(values(gate)).toEqual({ submitted: 1, completed: 1 });
    expect(values(fence), 'after gate 1 (waiting for 2), with the GPU idle').toEqual({ submitted: 1, completed: 1 });
    await spin(5);
    expect(values(fence), 'still held').toEqual({ submitted: 1, completed: 1 });
    // The held copy has not run: the READBACK buffer is still zeros.
    expectSame(readbackBytes(readback, 0, data.length), new Uint8Array(data.length), 'READBACK buffer while held');

    // Another queue's signal reaches the value: the held work and signal are submitted in that call.
    other.signal(gate, 2);
    expect(gate.getSubmittedValue()).toBe(2);
    expect(values(fence), 'right after the wait was satisfied').toEqual({ submitted: 7, completed: 1 });
    await fence.setEventOnCompletion(7);
    expect(values(fence)).toEqual({ submitted: 7, completed: 7 });
    expectSame(readbackBytes(readback, 0, data.length), data, 'READBACK buffer once the wait was satisfied');
  });

  test('a signal held behind a queue.wait is submitted once a CPU Fence.signal satisfies the wait', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const gate = d3d.createFence(0);
    const fence = d3d.createFence(0);
    const dst = d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: 4096 }, 'COMMON');
    const data = pattern(4096, 3);
    const src = uploadBuffer(d3d, data);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(dst, 0, src, 0, data.length);
    list.close();
    queue.wait(gate, 5);
    queue.executeCommandLists([list]);
    queue.signal(fence, 1);
    gate.signal(4);
    expect(values(fence), 'gate at 4, waiting for 5').toEqual({ submitted: 0, completed: 0 });
    // Read on a queue that is not held: the copy has not happened.
    const reader = d3d.createCommandQueue({ type: 'DIRECT' });
    expectSame(
      await readBuffer(d3d, reader, dst, 0, data.length),
      new Uint8Array(data.length),
      'DEFAULT buffer while held',
    );
    expect(values(fence)).toEqual({ submitted: 0, completed: 0 });
    gate.signal(5);
    expect(values(fence), 'right after the CPU signal released the queue').toEqual({ submitted: 1, completed: 0 });
    await fence.setEventOnCompletion(1);
    expect(values(fence)).toEqual({ submitted: 1, completed: 1 });
    expectSame(await readBuffer(d3d, queue, dst, 0, data.length), data, 'DEFAULT buffer once released');
  });

  test('a wait on a value already submitted does not hold the signal after it, even before that value completes', async ({
    d3d,
  }) => {
    const producer = d3d.createCommandQueue({ type: 'DIRECT' });
    const consumer = d3d.createCommandQueue({ type: 'DIRECT' });
    const shared = d3d.createFence(0);
    const fence = d3d.createFence(0);
    const data = pattern(128 * 1024, 4);
    const { readback, list } = copyToReadback(d3d, data);
    producer.executeCommandLists([list]);
    producer.signal(shared, 1);
    expect(values(shared)).toEqual({ submitted: 1, completed: 0 });
    // Every queue feeds the one in-order WebGPU queue: a wait is satisfied by a submitted signal.
    consumer.wait(shared, 1);
    consumer.signal(fence, 9);
    expect(values(fence)).toEqual({ submitted: 9, completed: 0 });
    await fence.setEventOnCompletion(9);
    // The consumer's signal completed after the producer's (queue order): its copy has landed.
    expect(shared.getCompletedValue()).toBe(1);
    expectSame(readbackBytes(readback, 0, data.length), data, "READBACK buffer when the consumer's fence completed");
  });

  test('Fence.signal(v) on the CPU: submitted and completed are v at once; waits and events on v are satisfied', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const fence = d3d.createFence(0);
    const after = d3d.createFence(0);
    fence.signal(4);
    expect(values(fence)).toEqual({ submitted: 4, completed: 4 });
    await fence.setEventOnCompletion(4);
    // A queue wait on it does not hold anything.
    queue.wait(fence, 4);
    const data = pattern(1024, 5);
    const { readback, list } = copyToReadback(d3d, data);
    queue.executeCommandLists([list]);
    queue.signal(after, 1);
    expect(after.getSubmittedValue()).toBe(1);
    await after.setEventOnCompletion(1);
    expectSame(readbackBytes(readback, 0, data.length), data, 'READBACK buffer behind a satisfied wait');
    // Larger values in turn, from the CPU.
    for (const v of [5, 6, 100]) {
      fence.signal(v);
      expect(values(fence)).toEqual({ submitted: v, completed: v });
    }
  });

  test('queue signals of several fences on one queue: each fence counts only its own signals', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = d3d.createFence(0);
    const b = d3d.createFence(10);
    queue.signal(a, 1);
    expect([values(a), values(b)]).toEqual([
      { submitted: 1, completed: 0 },
      { submitted: 10, completed: 10 },
    ]);
    queue.signal(b, 11);
    queue.signal(a, 2);
    expect([a.getSubmittedValue(), b.getSubmittedValue()]).toEqual([2, 11]);
    await a.setEventOnCompletion(2);
    // b's signal came before a's second one: completed by then.
    expect([values(a), values(b)]).toEqual([
      { submitted: 2, completed: 2 },
      { submitted: 11, completed: 11 },
    ]);
  });
});
