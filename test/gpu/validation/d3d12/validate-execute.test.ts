/**
 * CommandQueue.validateExecuteCommandLists (an emulator addition): it must throw exactly what
 * executeCommandLists throws for the same lists (same HRESULT, argument and rule; only the call name
 * differs) and change nothing, whether it refuses or accepts.
 *
 * CTS style: every refusal changes one thing of a valid call. The rules are those of
 * CommandQueue.executeCommandLists (src/d3d12/command-queue.ts): a device with GPU memory, a device
 * not removed, an array, lists of this device, closed, of the queue's type, using no released
 * resource or query heap, drawing into no presented back buffer, and resource states that match the
 * lists' first barriers and uses (in call order). Residency is not among them: as in D3D12, a list
 * that uses an evicted heap executes and faults on the GPU.
 *
 * "Changes nothing" is observed through the public API: the witness list's barrier
 * (COMMON -> COPY_DEST of a texture, which does not decay) and copy (into a DEFAULT buffer) must
 * neither have moved the texture's state (a probe list leaving from COMMON executes) nor written the
 * buffer (read back: still zeros); the memory statistics, the witness fence's values and the
 * residency of every heap are as before. Each test ends by executing the witness list (the valid
 * control) and reading its bytes back.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  createResidencyManager,
  type CommandListType,
  type CommandQueue,
  type D3D12Error,
  type Device,
  type Fence,
  type GraphicsCommandList,
  type MemoryStats,
  type Resource,
  type ResourceBarrier,
  type ResourceStates,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error, type ExpectedD3D12Error } from '../../../shared/expect-d3d12-error.js';
import { textureSwapChain } from '../../../shared/texture-swap-chain.js';
import { Random } from '../../../../src/validate/random.js';

const MIB = 2 ** 20;

/** A GPU-backed emulated device per test, with small pools. */
const test = d3dTest({ localMemoryBytes: 8 * MIB, nonLocalMemoryBytes: 8 * MIB });

const loose = (value: unknown): never => value as never;

const LIST_TYPES: CommandListType[] = ['DIRECT', 'COMPUTE', 'COPY'];
const COPY_BYTES = 256;

function transition(resource: Resource, stateBefore: ResourceStates, stateAfter: ResourceStates): ResourceBarrier {
  return { type: 'TRANSITION', transition: { resource, stateBefore, stateAfter } };
}

function texture(d3d: Device, initialState: ResourceStates = 'COMMON'): Resource {
  return d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
    initialState,
  );
}

function defaultBuffer(d3d: Device, width: number, initialState: ResourceStates = 'COMMON'): Resource {
  return d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, initialState);
}

function closedList(
  d3d: Device,
  type: CommandListType,
  record: (list: GraphicsCommandList) => void,
): GraphicsCommandList {
  const list = d3d.createCommandList(type);
  record(list);
  list.close();
  return list;
}

/** What a refusal says, less the call's name. */
const verdict = (error: D3D12Error): { hresult: string; argument: string; rule: string } => ({
  hresult: error.hresult,
  argument: error.argument,
  rule: error.rule,
});

/**
 * validateExecuteCommandLists refuses `lists` with `expected` (twice: a refusal is repeatable), then
 * executeCommandLists refuses them with the same HRESULT, argument and rule, then validation still
 * says the same (the failed execution changed nothing either). Returns execute's error.
 */
function expectSameRefusal(
  queue: CommandQueue,
  lists: unknown,
  expected: Omit<ExpectedD3D12Error, 'call'>,
): D3D12Error {
  const validated = expectD3D12Error(() => queue.validateExecuteCommandLists(loose(lists)), {
    ...expected,
    call: 'validateExecuteCommandLists',
  });
  const again = expectD3D12Error(() => queue.validateExecuteCommandLists(loose(lists)), {
    ...expected,
    call: 'validateExecuteCommandLists',
  });
  const executed = expectD3D12Error(() => queue.executeCommandLists(loose(lists)), {
    ...expected,
    call: 'executeCommandLists',
  });
  const after = expectD3D12Error(() => queue.validateExecuteCommandLists(loose(lists)), {
    ...expected,
    call: 'validateExecuteCommandLists',
  });
  expect(verdict(validated), 'validate and execute refuse alike').toEqual(verdict(executed));
  expect(verdict(again), 'a second validation refuses alike').toEqual(verdict(validated));
  expect(verdict(after), 'validation after the failed execution refuses alike').toEqual(verdict(validated));
  return executed;
}

/**
 * A valid list of `type` with observable effects: a barrier taking `tex` from COMMON to COPY_DEST
 * (explicit, so it does not decay) and a copy of `data` into `dst`; and a fence signalled on the
 * queue after setup (its values must not move).
 */
interface Witness {
  queue: CommandQueue;
  tex: Resource;
  dst: Resource;
  data: Uint8Array;
  list: GraphicsCommandList;
  fence: Fence;
}

async function witness(d3d: Device, type: CommandListType = 'DIRECT', seed = 1): Promise<Witness> {
  const queue = d3d.createCommandQueue({ type });
  const tex = texture(d3d);
  const dst = defaultBuffer(d3d, COPY_BYTES);
  const data = pattern(COPY_BYTES, seed);
  const src = uploadBuffer(d3d, data);
  const list = closedList(d3d, type, (l) => {
    l.resourceBarrier([transition(tex, 'COMMON', 'COPY_DEST')]);
    l.copyBufferRegion(dst, 0, src, 0, COPY_BYTES);
  });
  const fence = d3d.createFence(0);
  queue.signal(fence, 1);
  await fence.setEventOnCompletion(1);
  return { queue, tex, dst, data, list, fence };
}

interface Snapshot {
  stats: MemoryStats;
  fence: { submitted: number; completed: number };
}

const snapshot = (d3d: Device, w: Witness): Snapshot => ({
  stats: d3d.getMemoryStats(),
  fence: { submitted: w.fence.getSubmittedValue(), completed: w.fence.getCompletedValue() },
});

/** Executes a probe list on `w.queue` whose barriers leave `resource` from `state` and come back: throws unless it is in `state`. */
async function expectState(d3d: Device, w: Witness, resource: Resource, state: ResourceStates): Promise<void> {
  const via: ResourceStates = state === 'COPY_DEST' ? 'COPY_SOURCE' : 'COPY_DEST';
  w.queue.executeCommandLists([
    closedList(d3d, w.queue.type, (l) =>
      l.resourceBarrier([transition(resource, state, via), transition(resource, via, state)]),
    ),
  ]);
  await flush(d3d, w.queue);
}

async function expectBytes(
  d3d: Device,
  queue: CommandQueue,
  buffer: Resource,
  expected: Uint8Array,
  what: string,
): Promise<void> {
  const actual = await readBuffer(d3d, queue, buffer, 0, expected.length);
  const at = firstDifference(actual, expected);
  expect(at, `${what}: byte ${at} is ${actual[at]}, expected ${expected[at]}`).toBe(-1);
}

/**
 * After refusals (or an accepted validation): nothing moved. The stats and the fence are as in
 * `before`; the GPU has not run the witness copy (the buffer reads zeros); the witness texture is
 * still COMMON. Then the valid control: the witness list executes and its bytes arrive.
 */
async function expectUntouchedThenControl(d3d: Device, w: Witness, before: Snapshot): Promise<void> {
  expect(snapshot(d3d, w), 'memory statistics and fence values after the calls').toEqual(before);
  await flush(d3d, w.queue);
  await expectBytes(
    d3d,
    w.queue,
    w.dst,
    new Uint8Array(COPY_BYTES),
    'witness buffer after the calls (nothing executed)',
  );
  await expectState(d3d, w, w.tex, 'COMMON');
  w.queue.validateExecuteCommandLists([w.list]);
  w.queue.executeCommandLists([w.list]);
  await flush(d3d, w.queue);
  await expectBytes(d3d, w.queue, w.dst, w.data, 'witness buffer after executing the witness list');
  // Resources used on a COPY queue decay to COMMON once the execution is done; elsewhere the
  // explicit barrier's COPY_DEST stays.
  await expectState(d3d, w, w.tex, w.queue.type === 'COPY' ? 'COMMON' : 'COPY_DEST');
}

describe('validateExecuteCommandLists: the valid control', () => {
  test('valid lists are accepted, nothing is submitted and no state moves; executing them then works', async ({
    d3d,
  }) => {
    const w = await witness(d3d);
    const before = snapshot(d3d, w);
    const empty = closedList(d3d, 'DIRECT', () => undefined);
    expect(w.queue.validateExecuteCommandLists([w.list])).toBeUndefined();
    expect(w.queue.validateExecuteCommandLists([])).toBeUndefined();
    expect(w.queue.validateExecuteCommandLists([empty, w.list, empty])).toBeUndefined();
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('a buffer barrier COMMON -> COPY_DEST validated twice then executed once succeeds, and so does the next round', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const buffer = defaultBuffer(d3d, TILE);
    const data = pattern(COPY_BYTES, 7);
    const src = uploadBuffer(d3d, data);
    const list = closedList(d3d, 'DIRECT', (l) => {
      l.resourceBarrier([transition(buffer, 'COMMON', 'COPY_DEST')]);
      l.copyBufferRegion(buffer, 0, src, 0, COPY_BYTES);
    });
    for (let round = 0; round < 2; round++) {
      // Had validation applied the barrier, the buffer would be in COPY_DEST (no decay without an
      // execution) and the second validation, or the execution, would be refused.
      queue.validateExecuteCommandLists([list]);
      queue.validateExecuteCommandLists([list]);
      queue.executeCommandLists([list]);
      await flush(d3d, queue);
      // Buffers decay to COMMON once the execution is done: the next round starts from COMMON again.
    }
    await expectBytes(d3d, queue, buffer, data, 'buffer after two executions');
  });

  test('a texture barrier COMMON -> COPY_DEST validated twice then executed once: the texture is then in COPY_DEST, and validation refuses the list as execution does', async ({
    d3d,
  }) => {
    const w = await witness(d3d);
    w.queue.validateExecuteCommandLists([w.list]);
    w.queue.validateExecuteCommandLists([w.list]);
    await expectState(d3d, w, w.tex, 'COMMON');
    w.queue.executeCommandLists([w.list]);
    await flush(d3d, w.queue);
    await expectBytes(d3d, w.queue, w.dst, w.data, 'after the execution');
    await expectState(d3d, w, w.tex, 'COPY_DEST');
    // Explicit barriers of textures do not decay: the same list now fails, validated or executed.
    expectSameRefusal(w.queue, [w.list], {
      argument: 'commandLists[0]',
      message: new RegExp(
        `committed resource #${w.tex.id} subresource 0 is in COPY_DEST, but the list's first barrier says stateBefore COMMON`,
      ),
    });
    // And the list that takes it back is accepted by both, in that order.
    const back = closedList(d3d, 'DIRECT', (l) => l.resourceBarrier([transition(w.tex, 'COPY_DEST', 'COMMON')]));
    w.queue.validateExecuteCommandLists([back]);
    w.queue.validateExecuteCommandLists([back, w.list]);
    w.queue.executeCommandLists([back]);
    await flush(d3d, w.queue);
    await expectState(d3d, w, w.tex, 'COMMON');
  });
});

describe('validateExecuteCommandLists refuses what executeCommandLists refuses', () => {
  test('commandLists that is not an array', async ({ d3d }) => {
    const w = await witness(d3d);
    const before = snapshot(d3d, w);
    for (const value of [null, undefined, w.list, {}, 'lists', 1, { length: 1, 0: w.list }, new Set([w.list])]) {
      expectSameRefusal(w.queue, value, {
        argument: 'commandLists',
        message: /must be an array of command lists, got/,
      });
    }
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('an element that is not a command list of this device (after a valid list that moves a state)', async ({
    d3d,
    device,
  }) => {
    const w = await witness(d3d);
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    try {
      const foreign = closedList(other, 'DIRECT', () => undefined);
      const before = snapshot(d3d, w);
      for (const value of [foreign, {}, null, undefined, w.fence, w.queue, w.tex, 'list']) {
        expectSameRefusal(w.queue, [w.list, value], {
          argument: 'commandLists[1]',
          message: /must be a command list created by this device/,
        });
      }
      expectSameRefusal(w.queue, [foreign, w.list], {
        argument: 'commandLists[0]',
        message: /must be a command list created by this device/,
      });
      // The other device's own queue takes its list.
      other.createCommandQueue({ type: 'DIRECT' }).validateExecuteCommandLists([foreign]);
      await expectUntouchedThenControl(d3d, w, before);
    } finally {
      other.destroy();
    }
  });

  test('a list still open; once closed it is accepted', async ({ d3d }) => {
    const w = await witness(d3d);
    const before = snapshot(d3d, w);
    const open = d3d.createCommandList('DIRECT');
    open.resourceBarrier([transition(w.tex, 'COMMON', 'COPY_SOURCE')]);
    expectSameRefusal(w.queue, [w.list, open], {
      argument: 'commandLists[1]',
      message: /DIRECT command list #\d+ is still open; close\(\) it first/,
    });
    expectSameRefusal(w.queue, [open], { argument: 'commandLists[0]', message: /is still open/ });
    // A list reset after closing is open again.
    const reopened = closedList(d3d, 'DIRECT', () => undefined);
    reopened.reset();
    expectSameRefusal(w.queue, [reopened], { argument: 'commandLists[0]', message: /is still open/ });
    reopened.close();
    open.close();
    // Closed, `open` would take the texture to COPY_SOURCE; validating it must not.
    w.queue.validateExecuteCommandLists([open, reopened]);
    await expectUntouchedThenControl(d3d, w, before);
  });

  for (const queueType of LIST_TYPES) {
    test(`a list of another type on a ${queueType} queue`, async ({ d3d }) => {
      const w = await witness(d3d, queueType);
      const before = snapshot(d3d, w);
      for (const listType of LIST_TYPES.filter((t) => t !== queueType)) {
        const wrong = closedList(d3d, listType, () => undefined);
        expectSameRefusal(w.queue, [w.list, wrong], {
          argument: 'commandLists[1]',
          message: new RegExp(`${listType} command list #\\d+ cannot run on a ${queueType} queue`),
        });
      }
      await expectUntouchedThenControl(d3d, w, before);
    });
  }

  test('a list that uses a released resource (by a copy, or only by a barrier)', async ({ d3d }) => {
    const w = await witness(d3d);
    const copied = defaultBuffer(d3d, COPY_BYTES);
    const barriered = texture(d3d);
    const src = uploadBuffer(d3d, pattern(COPY_BYTES, 3));
    const copy = closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(copied, 0, src, 0, COPY_BYTES));
    const barrier = closedList(d3d, 'DIRECT', (l) =>
      l.resourceBarrier([transition(barriered, 'COMMON', 'COPY_SOURCE')]),
    );
    // Boundary: while the resources live, both lists are accepted.
    w.queue.validateExecuteCommandLists([w.list, copy, barrier]);
    const source = closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(w.dst, 0, src, 0, 4));
    copied.release();
    barriered.release();
    src.release();
    const before = snapshot(d3d, w);
    expectSameRefusal(w.queue, [w.list, copy], {
      argument: 'commandLists[1]',
      message: /uses committed resource #\d+, which was released/,
    });
    expectSameRefusal(w.queue, [w.list, barrier], {
      argument: 'commandLists[1]',
      message: new RegExp(`uses committed resource #${barriered.id}, which was released`),
    });
    expectSameRefusal(w.queue, [source], {
      argument: 'commandLists[0]',
      message: new RegExp(`uses committed resource #${src.id}, which was released`),
    });
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('a list that uses a released query heap (endQuery, resolveQueryData)', async ({ d3d }) => {
    const w = await witness(d3d);
    const heap = d3d.createQueryHeap({ type: 'TIMESTAMP', count: 2 });
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: 16 },
      'COPY_DEST',
    );
    const end = closedList(d3d, 'DIRECT', (l) => l.endQuery(heap, 'TIMESTAMP', 0));
    const resolve = closedList(d3d, 'DIRECT', (l) => l.resolveQueryData(heap, 'TIMESTAMP', 0, 1, readback, 0));
    w.queue.validateExecuteCommandLists([w.list, end, resolve]);
    heap.release();
    const before = snapshot(d3d, w);
    for (const list of [end, resolve]) {
      expectSameRefusal(w.queue, [w.list, list], {
        argument: 'commandLists[1]',
        message: /uses query heap #\d+, which was released/,
      });
    }
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('a list that draws into a presented back buffer', async ({ d3d, device }) => {
    const w = await witness(d3d);
    // A canvas context as a swap chain needs one: configure() and a current texture (never fetched
    // here: nothing that draws is submitted).
    const { target: canvasTexture, swapChain } = textureSwapChain(d3d, device, 8, 8, 'B8G8R8A8_UNORM');
    const clear = closedList(d3d, 'DIRECT', (l) =>
      l.clearRenderTargetView(swapChain.getCurrentBackBuffer(), [0, 0, 0, 1]),
    );
    w.queue.validateExecuteCommandLists([w.list, clear]);
    swapChain.present();
    const before = snapshot(d3d, w);
    expectSameRefusal(w.queue, [w.list, clear], {
      argument: 'commandLists[1]',
      message: /draws into back buffer 0, which was presented/,
    });
    await expectUntouchedThenControl(d3d, w, before);
    canvasTexture.destroy();
  });

  test("a barrier whose stateBefore is not the resource's state; the states of the lists before it are put back", async ({
    d3d,
  }) => {
    const w = await witness(d3d);
    const other = texture(d3d);
    const before = snapshot(d3d, w);
    const wrong = closedList(d3d, 'DIRECT', (l) => l.resourceBarrier([transition(other, 'COPY_SOURCE', 'COPY_DEST')]));
    expectSameRefusal(w.queue, [w.list, wrong], {
      argument: 'commandLists[1]',
      message: new RegExp(
        `committed resource #${other.id} subresource 0 is in COMMON, but the list's first barrier says stateBefore COPY_SOURCE`,
      ),
    });
    // The witness list at index 0 applied its barrier before index 1 was checked: both calls must have put it back.
    await expectUntouchedThenControl(d3d, w, before);
  });

  test("a use that the resource's state allows only after a transition barrier", async ({ d3d }) => {
    const w = await witness(d3d);
    // A texture created in COPY_SOURCE: not COMMON, so no promotion to COPY_DEST. (Buffers in
    // DEFAULT heaps start in COMMON whatever the initial state, as in D3D12.)
    const target = texture(d3d, 'COPY_SOURCE');
    const source = texture(d3d);
    const before = snapshot(d3d, w);
    const use = closedList(d3d, 'DIRECT', (l) => l.copyResource(target, source));
    expectSameRefusal(w.queue, [w.list, use], {
      argument: 'commandLists[1]',
      message: new RegExp(
        `committed resource #${target.id} subresource 0 is in COPY_SOURCE and cannot be used as COPY_DEST without a transition barrier`,
      ),
    });
    // Boundary: with the barrier first, both accept it.
    const fixed = closedList(d3d, 'DIRECT', (l) => {
      l.resourceBarrier([transition(target, 'COPY_SOURCE', 'COPY_DEST')]);
      l.copyResource(target, source);
    });
    w.queue.validateExecuteCommandLists([w.list, fixed]);
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('a use, then a barrier whose stateBefore is not the state the list started from', async ({ d3d }) => {
    const w = await witness(d3d);
    // GENERIC_READ allows reading as COPY_SOURCE; the barrier after the read claims COPY_SOURCE exactly.
    const source = texture(d3d, 'GENERIC_READ');
    const target = texture(d3d);
    const before = snapshot(d3d, w);
    const list = closedList(d3d, 'DIRECT', (l) => {
      l.copyResource(target, source);
      l.resourceBarrier([transition(source, 'COPY_SOURCE', 'COPY_DEST')]);
    });
    expectSameRefusal(w.queue, [w.list, list], {
      argument: 'commandLists[1]',
      message: new RegExp(
        `committed resource #${source.id} subresource 0 is in GENERIC_READ, but the list's barrier says stateBefore COPY_SOURCE`,
      ),
    });
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('states in call order: a list sees the states the lists before it in the same call leave', async ({ d3d }) => {
    const w = await witness(d3d);
    const before = snapshot(d3d, w);
    const back = closedList(d3d, 'DIRECT', (l) => l.resourceBarrier([transition(w.tex, 'COPY_DEST', 'COMMON')]));
    // After the witness list, the texture is in COPY_DEST: `back` is valid behind it, and not alone.
    w.queue.validateExecuteCommandLists([w.list, back]);
    w.queue.validateExecuteCommandLists([w.list, back, w.list, back]);
    expectSameRefusal(w.queue, [back], {
      argument: 'commandLists[0]',
      message: /subresource 0 is in COMMON, but the list's first barrier says stateBefore COPY_DEST/,
    });
    // The same list twice in one call: the second sees the first's COPY_DEST (no decay between lists).
    expectSameRefusal(w.queue, [w.list, w.list], {
      argument: 'commandLists[1]',
      message: /subresource 0 is in COPY_DEST, but the list's first barrier says stateBefore COMMON/,
    });
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('every list is checked for its kind of mistake before any state is: an open list after a list with a wrong state names the open one', async ({
    d3d,
  }) => {
    const w = await witness(d3d);
    const before = snapshot(d3d, w);
    const wrongState = closedList(d3d, 'DIRECT', (l) =>
      l.resourceBarrier([transition(w.tex, 'COPY_SOURCE', 'COMMON')]),
    );
    const open = d3d.createCommandList('DIRECT');
    expectSameRefusal(w.queue, [wrongState, open], { argument: 'commandLists[1]', message: /is still open/ });
    open.close();
    expectSameRefusal(w.queue, [wrongState, open], {
      argument: 'commandLists[0]',
      message: /is in COMMON, but the list's first barrier says stateBefore COPY_SOURCE/,
    });
    await expectUntouchedThenControl(d3d, w, before);
  });

  test('states of executions held behind a queue wait count (call order), and validation while held submits nothing', async ({
    d3d,
  }) => {
    const w = await witness(d3d);
    const gate = d3d.createFence(0);
    w.queue.wait(gate, 1);
    w.queue.executeCommandLists([w.list]); // held: applied to the states at the call, not yet run
    const back = closedList(d3d, 'DIRECT', (l) => l.resourceBarrier([transition(w.tex, 'COPY_DEST', 'COMMON')]));
    w.queue.validateExecuteCommandLists([back]);
    expectSameRefusal(w.queue, [w.list], {
      argument: 'commandLists[0]',
      message: /is in COPY_DEST, but the list's first barrier says stateBefore COMMON/,
    });
    // Nothing ran: the held list's copy has not happened (read on another queue, not held).
    const reader = d3d.createCommandQueue({ type: 'DIRECT' });
    await expectBytes(d3d, reader, w.dst, new Uint8Array(COPY_BYTES), 'witness buffer while the queue is held');
    gate.signal(1);
    await flush(d3d, w.queue);
    await expectBytes(d3d, w.queue, w.dst, w.data, 'witness buffer once the wait is satisfied');
    await expectState(d3d, w, w.tex, 'COPY_DEST');
  });

  test('seeded: random barrier lists, validated twice then executed, agree with each other and with a model of the states', async ({
    d3d,
  }) => {
    const random = new Random(0x5eed_0042);
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const textures = [texture(d3d), texture(d3d), texture(d3d)];
    const STATES: ResourceStates[] = ['COMMON', 'COPY_DEST', 'COPY_SOURCE', 'PIXEL_SHADER_RESOURCE'];
    const model = new Map<Resource, ResourceStates>(textures.map((t) => [t, 'COMMON']));
    let refused = 0;
    for (let step = 0; step < 60; step++) {
      const lists: GraphicsCommandList[] = [];
      /** Each list: the first stateBefore per texture it names, and the state it leaves. */
      const effects: Map<Resource, { first: ResourceStates; last: ResourceStates }>[] = [];
      for (let n = random.int(1, 3); n > 0; n--) {
        const effect = new Map<Resource, { first: ResourceStates; last: ResourceStates }>();
        lists.push(
          closedList(d3d, 'DIRECT', (l) => {
            for (let b = random.int(1, 3); b > 0; b--) {
              const tex = random.pick(textures);
              const known = effect.get(tex);
              // Right most of the time: the model's state (or what this list left), else a random one.
              const stateBefore = known
                ? known.last
                : random.chance(0.75)
                  ? (model.get(tex) as ResourceStates)
                  : random.pick(STATES);
              const stateAfter = random.pick(STATES.filter((s) => s !== stateBefore));
              l.resourceBarrier([transition(tex, stateBefore, stateAfter)]);
              effect.set(tex, { first: known ? known.first : stateBefore, last: stateAfter });
            }
          }),
        );
        effects.push(effect);
      }
      // The model: lists in order, each against what the ones before it left; all or nothing.
      const next = new Map(model);
      let bad = -1;
      effects.forEach((effect, i) => {
        if (bad >= 0) return;
        for (const [tex, { first }] of effect) if (next.get(tex) !== first) bad = i;
        if (bad < 0) for (const [tex, { last }] of effect) next.set(tex, last);
      });
      const where = `seed ${random.seed}, step ${step}`;
      if (bad >= 0) {
        refused++;
        const error = expectSameRefusal(queue, lists, {
          argument: `commandLists[${bad}]`,
          message: /but the list's first barrier says stateBefore/,
        });
        expect(error.argument, where).toBe(`commandLists[${bad}]`);
      } else {
        queue.validateExecuteCommandLists(lists);
        queue.validateExecuteCommandLists(lists);
        queue.executeCommandLists(lists);
        for (const [tex, state] of next) model.set(tex, state);
      }
    }
    // Both outcomes were exercised.
    expect(refused).toBeGreaterThan(5);
    expect(refused).toBeLessThan(55);
    await flush(d3d, queue);
    // The model's final states are the device's: a probe per texture.
    for (const [tex, state] of model) {
      const via: ResourceStates = state === 'COPY_DEST' ? 'COPY_SOURCE' : 'COPY_DEST';
      queue.executeCommandLists([
        closedList(d3d, 'DIRECT', (l) => l.resourceBarrier([transition(tex, state, via), transition(tex, via, state)])),
      ]);
    }
    await flush(d3d, queue);
  });
});

describe('validateExecuteCommandLists on devices that cannot execute', () => {
  test('a device without GPU memory (gpuDevice: null): refused before the arguments are looked at', async () => {
    const cpu = await createDevice({ gpuDevice: null });
    const queue = cpu.createCommandQueue({ type: 'DIRECT' });
    const list = closedList(cpu, 'DIRECT', () => undefined);
    for (const lists of [[list], [], null]) {
      expectSameRefusal(queue, lists, { argument: 'this', message: /this device has no GPU memory/ });
    }
  });

  test('a device removed by a page fault: DXGI_ERROR_DEVICE_REMOVED, before the arguments are looked at', async ({
    device,
  }) => {
    const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    try {
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
      const source = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
      const readback = d3d.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'COPY_DEST',
      );
      const faulting = closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(readback, 0, source, 0, TILE));
      const valid = closedList(d3d, 'DIRECT', () => undefined);
      d3d.evict([heap]);
      // Residency is not checked at submission (as in D3D12): both accept a list that will fault.
      queue.validateExecuteCommandLists([faulting]);
      queue.executeCommandLists([faulting]);
      await flush(d3d, queue);
      expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_HUNG');
      const removed = {
        hresult: 'DXGI_ERROR_DEVICE_REMOVED',
        argument: 'this',
        message: /the device was removed: GPU page fault/,
      };
      for (const lists of [[valid], [], null, [{}]]) expectSameRefusal(queue, lists, removed);
    } finally {
      d3d.destroy();
    }
  });

  test('a destroyed device: validation and execution both throw DXGI_ERROR_DEVICE_REMOVED, before the arguments', async ({
    device,
  }) => {
    const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const list = closedList(d3d, 'DIRECT', () => undefined);
    queue.validateExecuteCommandLists([list]);
    d3d.destroy();
    const removed = {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      argument: 'this',
      message: /the device was removed: Device\.destroy\(\) was called/,
    };
    for (const lists of [[list], null]) expectSameRefusal(queue, lists, removed);
    expectD3D12Error(() => queue.getTimestampFrequency(), {
      hresult: 'DXGI_ERROR_DEVICE_REMOVED',
      call: 'getTimestampFrequency',
      argument: 'this',
    });
  });
});

describe('residency: not a rule of executeCommandLists', () => {
  test('a list that uses an evicted heap is accepted by both; validation pages nothing; the execution faults on the GPU', async ({
    device,
  }) => {
    const d3d = await createDevice({
      gpuDevice: device,
      localMemoryBytes: 4 * MIB,
      nonLocalMemoryBytes: 4 * MIB,
      onPageFault: 'report',
    });
    try {
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
      const source = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
      const data = pattern(COPY_BYTES, 9);
      const upload = uploadBuffer(d3d, data);
      queue.executeCommandLists([
        closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(source, 0, upload, 0, COPY_BYTES)),
      ]);
      await flush(d3d, queue);
      const readback = d3d.createCommittedResource(
        { type: 'READBACK' },
        [],
        { dimension: 'BUFFER', width: COPY_BYTES },
        'COPY_DEST',
      );
      const list = closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(readback, 0, source, 0, COPY_BYTES));
      d3d.evict([heap]);
      const before = d3d.getMemoryStats();
      queue.validateExecuteCommandLists([list]);
      expect(d3d.getResidencyStatus(heap).resident, 'validation made the heap resident').toBe(false);
      expect(d3d.getMemoryStats()).toEqual(before);
      expect(await d3d.readFaults(), 'validation ran the list').toEqual([]);
      queue.executeCommandLists([list]);
      await flush(d3d, queue);
      const faults = await d3d.readFaults();
      expect(faults.length).toBeGreaterThan(0);
      expect(faults[0]?.commandList.id).toBe(list.id);
      expect(faults[0]?.kind).toBe('read-absent');
      // Resident again, the same list is accepted by both and copies the bytes.
      d3d.makeResident([heap]);
      queue.validateExecuteCommandLists([list]);
      queue.executeCommandLists([list]);
      await flush(d3d, queue);
      const bytes = readback.map().slice(0, COPY_BYTES);
      readback.unmap();
      expect(firstDifference(bytes, data)).toBe(-1);
    } finally {
      d3d.destroy();
    }
  });
});

describe("ResidencyManager.executeCommandLists: the queue's refusals under the manager's name", () => {
  test('each refusal of the queue comes back with the same HRESULT, argument and rule, and the manager pages nothing', async ({
    d3d,
    device,
  }) => {
    const w = await witness(d3d);
    const manager = createResidencyManager(d3d);
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' }, flags: ['CREATE_NOT_RESIDENT'] });
    const inHeap = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COMMON');
    manager.beginTrackingObject(heap);
    const set = manager.createResidencySet();
    set.open();
    set.insert(heap);
    set.close();
    const other = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    try {
      const released = defaultBuffer(d3d, COPY_BYTES);
      const src = uploadBuffer(d3d, pattern(COPY_BYTES, 5));
      const usesReleased = closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(released, 0, src, 0, COPY_BYTES));
      released.release();
      const cases: [string, unknown[], RegExp][] = [
        [
          "another device's list",
          [w.list, closedList(other, 'DIRECT', () => undefined)],
          /must be a command list created by this device/,
        ],
        ['not a list', [w.list, {}], /must be a command list created by this device/],
        ['an open list', [w.list, d3d.createCommandList('DIRECT')], /is still open/],
        [
          'a COPY list on a DIRECT queue',
          [w.list, closedList(d3d, 'COPY', () => undefined)],
          /cannot run on a DIRECT queue/,
        ],
        ['a released resource', [w.list, usesReleased], /which was released/],
        [
          'a wrong stateBefore',
          [w.list, closedList(d3d, 'DIRECT', (l) => l.resourceBarrier([transition(inHeap, 'COPY_SOURCE', 'COMMON')]))],
          /but the list's first barrier says stateBefore COPY_SOURCE/,
        ],
        [
          'the same list twice',
          [w.list, w.list],
          /is in COPY_DEST, but the list's first barrier says stateBefore COMMON/,
        ],
      ];
      const before = snapshot(d3d, w);
      const stats = manager.getStats();
      for (const [what, lists, message] of cases) {
        const sets = lists.map((_, i) => (i === 1 ? set : null));
        const queueError = expectSameRefusal(w.queue, lists, { argument: 'commandLists[1]', message });
        const managerError = expectD3D12Error(() => manager.executeCommandLists(w.queue, loose(lists), sets), {
          hresult: queueError.hresult,
          call: 'ResidencyManager.executeCommandLists',
          argument: 'commandLists[1]',
          message,
        });
        expect(verdict(managerError), what).toEqual(verdict(queueError));
        expect(d3d.getResidencyStatus(heap).resident, `${what}: the manager paged the heap in`).toBe(false);
        expect(manager.getStats(), what).toEqual(stats);
      }
      await expectUntouchedThenControl(d3d, w, before);
      // Control through the manager: a valid call pages the heap in and executes.
      const list = closedList(d3d, 'DIRECT', (l) => l.copyBufferRegion(inHeap, 0, src, 0, COPY_BYTES));
      manager.executeCommandLists(w.queue, [list], [set]);
      expect(d3d.getResidencyStatus(heap).resident).toBe(true);
      expect(manager.getStats().executions).toBe(stats.executions + 1);
      await flush(d3d, w.queue);
      await expectBytes(d3d, w.queue, inHeap, pattern(COPY_BYTES, 5), 'buffer in the managed heap');
    } finally {
      other.destroy();
    }
  });
});
