/**
 * Command lists and executeCommandLists on a GPU-backed device, CTS style: each failure changes one
 * field of a valid call, both sides of every boundary are tried, and every failure is checked for
 * its HRESULT, call, argument and rule AND for having changed nothing (the list still records and
 * executes only what it had; memory and resource states are as before).
 *
 * Resource states follow D3D12's legacy barrier rules, including implicit promotion from COMMON and
 * decay after executeCommandLists (src/commands/resource-states.ts). A state is checked by executing a
 * probe list whose barriers leave from that state and come back (expectState): its
 * executeCommandLists throws unless the resource is in that state.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandListType,
  type CommandQueue,
  type Device,
  type GraphicsCommandList,
  type PipelineState,
  type Resource,
  type ResourceBarrier,
  type ResourceDesc,
  type ResourceStates,
  type TileCopyFlag,
} from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { firstDifference, flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

/** A GPU-backed emulated device per test, with small pools. */
const test = d3dTest({ localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 8 << 20 });

const ALL_SUBRESOURCES = 0xffffffff;
const RESOURCE = /(committed|placed|reserved) resource #\d+/.source;

function defaultBuffer(d3d: Device, width: number): Resource {
  return d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, 'COMMON');
}

function texture(d3d: Device, desc: Partial<ResourceDesc> = {}, initialState: ResourceStates = 'COMMON'): Resource {
  return d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM', ...desc },
    initialState,
  );
}

function transition(
  resource: Resource,
  stateBefore: ResourceStates,
  stateAfter: ResourceStates,
  subresource?: number,
): ResourceBarrier {
  return {
    type: 'TRANSITION',
    transition: { resource, stateBefore, stateAfter, ...(subresource === undefined ? {} : { subresource }) },
  };
}

/** Records, closes and executes one list on `queue`, then waits for it. */
async function run(d3d: Device, queue: CommandQueue, record: (list: GraphicsCommandList) => void): Promise<void> {
  const list = d3d.createCommandList(queue.type);
  record(list);
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
}

/**
 * Passes only when `resource` (the subresource, or all) is in `state`: a list whose first barrier
 * leaves from `state` and whose second comes back executes. Buffers decay to COMMON afterwards.
 */
async function expectState(
  d3d: Device,
  queue: CommandQueue,
  resource: Resource,
  state: ResourceStates,
  subresource?: number,
): Promise<void> {
  const via: ResourceStates = state === 'COPY_DEST' ? 'COPY_SOURCE' : 'COPY_DEST';
  await run(d3d, queue, (list) =>
    list.resourceBarrier([
      transition(resource, state, via, subresource),
      transition(resource, via, state, subresource),
    ]),
  );
}

/** executeCommandLists of a list that starts from a barrier out of `wrong` must fail: the resource is not in `wrong`. */
function expectNotState(
  d3d: Device,
  queue: CommandQueue,
  resource: Resource,
  wrong: ResourceStates,
  actual: string,
): void {
  const list = d3d.createCommandList(queue.type);
  list.resourceBarrier([transition(resource, wrong, wrong === 'COPY_DEST' ? 'COPY_SOURCE' : 'COPY_DEST')]);
  list.close();
  expectD3D12Error(() => queue.executeCommandLists([list]), {
    call: 'executeCommandLists',
    argument: 'commandLists[0]',
    message: new RegExp(`subresource 0 is in ${actual}, but the list's first barrier says stateBefore`),
  });
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

/** Writes root constant 2 + i to word i at root UAV 1 (thread i of a dispatch of groups of one). */
const STORE_ROOT_CONSTANTS = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let out = d3d12_address_add(d3d12_root_descriptor(1u), id.x * 4u);
  d3d12_store(out, d3d12_root_constant(2u + id.x));
}
`;

const storePipeline = (d3d: Device): Promise<PipelineState> =>
  d3d.createComputePipelineState({ code: STORE_ROOT_CONSTANTS, entryPoint: 'main' });

const words = (bytes: Uint8Array): number[] =>
  Array.from(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));

describe('createCommandList', () => {
  test('DIRECT, COMPUTE and COPY lists start open; other types are refused', ({ d3d }) => {
    for (const type of ['DIRECT', 'COMPUTE', 'COPY'] as const) {
      const list = d3d.createCommandList(type);
      expect(list.type).toBe(type);
      list.close(); // open from the start: close() is the first legal step
    }
    for (const type of ['BUNDLE', 'direct', 'VIDEO_DECODE', '', undefined, 0]) {
      expectD3D12Error(() => d3d.createCommandList(type as CommandListType), {
        call: 'createCommandList',
        argument: 'type',
        message: /must be one of DIRECT, COMPUTE, COPY; got/,
      });
    }
    expectD3D12Error(() => d3d.createCommandList('DIRECT', {} as PipelineState), {
      call: 'createCommandList',
      argument: 'initialState',
      message: /pipeline state created by this device/,
    });
    // null initial state is D3D12's default.
    d3d.createCommandList('DIRECT', null).close();
  });
});

describe('close and reset', () => {
  test('recording into a closed list is refused for every command, and the list keeps what it had', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(64, 1);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 64);
    const tex = texture(d3d);
    const tex2 = texture(d3d);
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: TILE }, 'COMMON');
    const pso = await storePipeline(d3d);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(dst, 0, src, 0, 16);
    list.close();
    const closed = new RegExp(`DIRECT command list #\\d+ is closed; reset\\(\\) it before recording`);
    const attempts: [string, () => void][] = [
      ['copyBufferRegion', () => list.copyBufferRegion(dst, 16, src, 16, 48)],
      ['copyResource', () => list.copyResource(tex2, tex)],
      [
        'copyTiles',
        () =>
          list.copyTiles(
            reserved,
            { x: 0, y: 0, z: 0, subresource: 0 },
            { numTiles: 1 },
            dst,
            0,
            'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER',
          ),
      ],
      ['resourceBarrier', () => list.resourceBarrier([transition(tex, 'COMMON', 'COPY_SOURCE')])],
      ['setPipelineState', () => list.setPipelineState(pso)],
      ['setComputeRoot32BitConstants', () => list.setComputeRoot32BitConstants(0, [1])],
      ['dispatch', () => list.dispatch(1)],
    ];
    for (const [method, attempt] of attempts) {
      expectD3D12Error(attempt, { call: `GraphicsCommandList.${method}`, argument: 'this', message: closed });
    }
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    // Only the first 16 bytes were copied; the refused copy of bytes 16..63 did not happen.
    const expected = new Uint8Array(64);
    expected.set(data.subarray(0, 16));
    await expectBytes(d3d, queue, dst, expected, 'after executing the closed list');
    // The refused barrier was not recorded: tex is still COMMON.
    await expectState(d3d, queue, tex, 'COMMON');
  });

  test('closing a closed list fails; the list still executes', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(32, 2);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 32);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(dst, 0, src, 0, 32);
    list.close();
    expectD3D12Error(() => list.close(), {
      call: 'GraphicsCommandList.close',
      argument: 'this',
      message: /DIRECT command list #\d+ is already closed/,
    });
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, data, 'after executing');
  });

  test('resetting an open list fails and keeps its commands; reset of a closed list reopens it empty', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const a = pattern(32, 3);
    const b = pattern(32, 4);
    const srcA = uploadBuffer(d3d, a);
    const srcB = uploadBuffer(d3d, b);
    const dst = defaultBuffer(d3d, 64);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(dst, 0, srcA, 0, 32);
    expectD3D12Error(() => list.reset(), {
      call: 'GraphicsCommandList.reset',
      argument: 'this',
      message: /DIRECT command list #\d+ is open; close\(\) it first/,
    });
    // Still open, commands kept.
    list.copyBufferRegion(dst, 32, srcB, 0, 32);
    list.close();
    queue.executeCommandLists([list]);
    // Reset at once (the GPU may still run it): the executed commands stay with their submission.
    list.reset();
    list.close();
    queue.executeCommandLists([list]); // empty now
    await flush(d3d, queue);
    const expected = new Uint8Array(64);
    expected.set(a, 0);
    expected.set(b, 32);
    await expectBytes(d3d, queue, dst, expected, 'after both executions');
    // A second reset of the closed, empty list reopens it for recording.
    list.reset();
    list.copyBufferRegion(dst, 0, srcB, 0, 32);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    expected.set(b, 0);
    await expectBytes(d3d, queue, dst, expected, 'after the re-recorded list');
  });

  test('executing an open list fails, and no list of the call runs', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(16, 5);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 16);
    const tex = texture(d3d);
    const closed = d3d.createCommandList('DIRECT');
    closed.copyBufferRegion(dst, 0, src, 0, 16);
    closed.resourceBarrier([transition(tex, 'COMMON', 'COPY_SOURCE')]);
    closed.close();
    const open = d3d.createCommandList('DIRECT');
    expectD3D12Error(() => queue.executeCommandLists([closed, open]), {
      call: 'executeCommandLists',
      argument: 'commandLists[1]',
      message: /DIRECT command list #\d+ is still open; close\(\) it first/,
    });
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, new Uint8Array(16), 'nothing ran');
    await expectState(d3d, queue, tex, 'COMMON');
    // Closed, both run.
    open.close();
    queue.executeCommandLists([closed, open]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, data, 'after the valid call');
    await expectState(d3d, queue, tex, 'COPY_SOURCE');
  });
});

describe('executeCommandLists', () => {
  test('a list runs only on a queue of its own type; a failing call runs none of its lists', async ({ d3d }) => {
    const data = pattern(16, 6);
    const src = uploadBuffer(d3d, data);
    const types = ['DIRECT', 'COMPUTE', 'COPY'] as const;
    for (const queueType of types) {
      const queue = d3d.createCommandQueue({ type: queueType });
      for (const listType of types) {
        const dst = defaultBuffer(d3d, 16);
        const good = d3d.createCommandList(queueType);
        good.copyBufferRegion(dst, 0, src, 0, 16);
        good.close();
        const list = d3d.createCommandList(listType);
        list.close();
        if (listType === queueType) {
          queue.executeCommandLists([good, list]);
          await flush(d3d, queue);
          await expectBytes(d3d, queue, dst, data, `${listType} list on a ${queueType} queue`);
        } else {
          expectD3D12Error(() => queue.executeCommandLists([good, list]), {
            call: 'executeCommandLists',
            argument: 'commandLists[1]',
            message: new RegExp(`${listType} command list #\\d+ cannot run on a ${queueType} queue`),
          });
          await flush(d3d, queue);
          await expectBytes(
            d3d,
            queue,
            dst,
            new Uint8Array(16),
            `${listType} list refused on a ${queueType} queue: the good list did not run`,
          );
        }
        dst.release();
      }
    }
  });

  test("lists must be this device's, in an array", async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const other = await createDevice({ gpuDevice: null });
    const foreign = other.createCommandList('DIRECT');
    foreign.close();
    expectD3D12Error(() => queue.executeCommandLists([foreign]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: /created by this device/,
    });
    expectD3D12Error(() => queue.executeCommandLists({} as GraphicsCommandList[]), {
      call: 'executeCommandLists',
      argument: 'commandLists',
      message: /must be an array/,
    });
    expectD3D12Error(() => queue.executeCommandLists([{} as GraphicsCommandList]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: /created by this device/,
    });
  });

  test('a list using a released resource fails at recording and at execution, running nothing', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(16, 7);
    const src = uploadBuffer(d3d, data);
    const keep = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 16);
    const dst2 = defaultBuffer(d3d, 16);
    const good = d3d.createCommandList('DIRECT');
    good.copyBufferRegion(dst2, 0, keep, 0, 16);
    good.close();
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(dst, 0, src, 0, 16);
    list.close();
    src.release();
    expectD3D12Error(() => queue.executeCommandLists([good, list]), {
      call: 'executeCommandLists',
      argument: 'commandLists[1]',
      message: new RegExp(`DIRECT command list #\\d+ uses ${RESOURCE}, which was released`),
    });
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, new Uint8Array(16), 'the list with the released source');
    await expectBytes(d3d, queue, dst2, new Uint8Array(16), 'the good list of the failed call');
    // Recording with a released resource is refused too.
    const next = d3d.createCommandList('DIRECT');
    expectD3D12Error(() => next.copyBufferRegion(dst, 0, src, 0, 16), {
      call: 'copyBufferRegion',
      argument: 'srcBuffer',
      message: new RegExp(`${RESOURCE} was released`),
    });
    expectD3D12Error(() => next.copyBufferRegion(src, 0, keep, 0, 16), {
      call: 'copyBufferRegion',
      argument: 'dstBuffer',
      message: /was released/,
    });
    expectD3D12Error(() => next.resourceBarrier([transition(src, 'COMMON', 'COPY_DEST')]), {
      call: 'resourceBarrier',
      argument: 'barriers[0].transition.resource',
      message: /was released/,
    });
    // The control: the good list alone runs.
    next.close();
    queue.executeCommandLists([good, next]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst2, data, 'the good list alone');
  });
});

describe('copyBufferRegion', () => {
  test('both buffers; offsets and sizes up to the exact end pass, one byte more fails', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(256, 8);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 256);
    const tex = texture(d3d);
    const list = d3d.createCommandList('DIRECT');
    // Valid: the destination's last 16 bytes, the source's last 16 bytes, zero bytes at the very end.
    list.copyBufferRegion(dst, 240, src, 0, 16);
    list.copyBufferRegion(dst, 0, src, 240, 16);
    list.copyBufferRegion(dst, 256, src, 256, 0);
    list.copyBufferRegion(dst, 100, src, 100, 0);
    // One byte more, on each side; if recorded, each would write bytes 200..239 or 16..99.
    expectD3D12Error(() => list.copyBufferRegion(dst, 200, src, 0, 57), {
      call: 'copyBufferRegion',
      argument: 'numBytes',
      message: new RegExp(`57 bytes from dstOffset 200 run past the end of ${RESOURCE} \\(256 bytes\\)`),
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 16, src, 200, 57), {
      call: 'copyBufferRegion',
      argument: 'numBytes',
      message: /57 bytes from srcOffset 200 run past the end of committed resource #\d+ \(256 bytes\)/,
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 257, src, 0, 0), {
      call: 'copyBufferRegion',
      argument: 'numBytes',
      message: /0 bytes from dstOffset 257 run past the end/,
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 0, src, 257, 0), {
      call: 'copyBufferRegion',
      argument: 'numBytes',
      message: /0 bytes from srcOffset 257 run past the end/,
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 16, src, 16, 257), {
      call: 'copyBufferRegion',
      argument: 'numBytes',
      message: /257 bytes from dstOffset 16/,
    });
    // Not integers, negative.
    expectD3D12Error(() => list.copyBufferRegion(dst, -1, src, 0, 4), {
      call: 'copyBufferRegion',
      argument: 'dstOffset',
      message: /at least 0, got -1/,
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 16, src, -1, 4), {
      call: 'copyBufferRegion',
      argument: 'srcOffset',
      message: /at least 0, got -1/,
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 16, src, 0, -1), {
      call: 'copyBufferRegion',
      argument: 'numBytes',
      message: /at least 0, got -1/,
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 16.5, src, 0, 4), {
      call: 'copyBufferRegion',
      argument: 'dstOffset',
      message: /must be an integer, got 16.5/,
    });
    // Non-buffers and foreign objects.
    expectD3D12Error(() => list.copyBufferRegion(tex, 16, src, 0, 4), {
      call: 'copyBufferRegion',
      argument: 'dstBuffer',
      message: new RegExp(`${RESOURCE} is a TEXTURE2D, not a buffer`),
    });
    expectD3D12Error(() => list.copyBufferRegion(dst, 16, tex, 0, 4), {
      call: 'copyBufferRegion',
      argument: 'srcBuffer',
      message: /is a TEXTURE2D, not a buffer/,
    });
    const other = await createDevice({ gpuDevice: null });
    const foreign = other.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'BUFFER', width: 256 },
      'COMMON',
    );
    expectD3D12Error(() => list.copyBufferRegion(foreign, 16, src, 0, 4), {
      call: 'copyBufferRegion',
      argument: 'dstBuffer',
      message: /created by this device/,
    });
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const expected = new Uint8Array(256);
    expected.set(data.subarray(0, 16), 240);
    expected.set(data.subarray(240, 256), 0);
    await expectBytes(d3d, queue, dst, expected, 'only the valid copies ran');
    // The refused texture copies left no state expectation behind: tex is COMMON and usable.
    await expectState(d3d, queue, tex, 'COMMON');
  });

  test('regions of one buffer may not overlap (by one byte); zero bytes never overlap', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(256, 19);
    const buffer = defaultBuffer(d3d, 256);
    await run(d3d, queue, (list) => list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, data), 0, 256));
    const list = d3d.createCommandList('DIRECT');
    const overlaps: [number, number, number][] = [
      [4, 0, 8], // dst starts inside src
      [0, 4, 8], // src starts inside dst
      [7, 0, 8], // the last byte of src is the first of dst
      [0, 7, 8],
      [16, 16, 1], // the same byte
    ];
    for (const [d, s, n] of overlaps) {
      expectD3D12Error(() => list.copyBufferRegion(buffer, d, buffer, s, n), {
        call: 'copyBufferRegion',
        argument: 'dstOffset',
        message: new RegExp(
          `the source \\[${s}, ${s + n}\\) and destination \\[${d}, ${d + n}\\) overlap in ${RESOURCE}`,
        ),
      });
    }
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, buffer, data, 'no refused copy ran');
    // Adjacent regions and empty copies do not overlap: whatever else these calls may say (a
    // subresource cannot be COPY_SOURCE and COPY_DEST at once with legacy states), it is not an overlap.
    const adjacent = d3d.createCommandList('DIRECT');
    for (const [d, s, n] of [
      [8, 0, 8],
      [0, 8, 8],
      [16, 16, 0],
    ] as const) {
      try {
        adjacent.copyBufferRegion(buffer, d, buffer, s, n);
      } catch (error) {
        expect(String(error), `copy [${s}, ${s + n}) → [${d}, ${d + n})`).not.toMatch(/overlap/);
      }
    }
  });

  test('zero bytes is a valid copy that changes nothing', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'COPY' });
    const src = uploadBuffer(d3d, pattern(64, 9));
    const dst = defaultBuffer(d3d, 64);
    await run(d3d, queue, (list) => {
      list.copyBufferRegion(dst, 0, src, 0, 0);
      list.copyBufferRegion(dst, 32, src, 5, 0);
    });
    await expectBytes(d3d, queue, dst, new Uint8Array(64), 'after zero-byte copies');
  });
});

describe('copyResource', () => {
  test('sizes, dimensions, formats and subresources must match; a resource cannot be copied onto itself', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(256, 10);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 256);
    const big = defaultBuffer(d3d, 260);
    const tex = texture(d3d);
    const list = d3d.createCommandList('DIRECT');
    const cases: [string, Resource, Resource, string | RegExp, RegExp][] = [
      ['buffer widths', big, src, 'srcResource', /width differs: 256 in the source, 260 in the destination/],
      [
        'buffer onto texture',
        tex,
        src,
        'srcResource',
        /dimension differs: 'BUFFER' in the source, 'TEXTURE2D' in the destination/,
      ],
      [
        'texture widths',
        tex,
        texture(d3d, { width: 128 }),
        'srcResource',
        /width differs: 128 in the source, 64 in the destination/,
      ],
      [
        'texture heights',
        tex,
        texture(d3d, { height: 32 }),
        'srcResource',
        /height differs: 32 in the source, 64 in the destination/,
      ],
      [
        'array sizes',
        tex,
        texture(d3d, { depthOrArraySize: 2 }),
        'srcResource',
        /depthOrArraySize differs: 2 in the source, 1 in the destination/,
      ],
      [
        'mip levels',
        tex,
        texture(d3d, { mipLevels: 2 }),
        'srcResource',
        /mipLevels differs: 2 in the source, 1 in the destination/,
      ],
      [
        '2D onto 3D',
        texture(d3d, { dimension: 'TEXTURE3D', depthOrArraySize: 1 }),
        tex,
        'srcResource',
        /dimension differs: 'TEXTURE2D' in the source, 'TEXTURE3D' in the destination/,
      ],
      [
        'format families',
        tex,
        texture(d3d, { format: 'R32_FLOAT' }),
        'srcResource',
        /formats R32_FLOAT and R8G8B8A8_UNORM are not of one family/,
      ],
      ['itself', dst, dst, 'srcResource', /cannot be copied onto itself/],
      ['texture onto itself', tex, tex, 'srcResource', /cannot be copied onto itself/],
    ];
    for (const [what, to, from, argument, message] of cases) {
      try {
        expectD3D12Error(() => list.copyResource(to, from), { call: 'copyResource', argument, message });
      } catch (error) {
        throw new Error(`${what}: ${String(error)}`, { cause: error });
      }
    }
    // The controls: same family, same shape; same-size buffers.
    const sameFamily = texture(d3d, { format: 'R8G8B8A8_UINT' });
    list.copyResource(sameFamily, tex);
    list.copyResource(dst, src);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, data, 'copyResource of a buffer');
    await expectBytes(d3d, queue, big, new Uint8Array(260), 'the refused copy into the larger buffer');
    // Textures: the source was promoted to COPY_SOURCE (read: decays to COMMON), the destination
    // to COPY_DEST (a write: a non-simultaneous texture keeps it).
    await expectState(d3d, queue, tex, 'COMMON');
    await expectState(d3d, queue, sameFamily, 'COPY_DEST');
  });

  test("a Reinterpret Copy: block-compressed ↔ uncompressed of the block's size, 4 times as wide and high, the same mips and total size (one field off at a time)", ({
    d3d,
  }) => {
    const list = d3d.createCommandList('DIRECT');
    // BC1 64×64, 3 mips (16×16, 8×8, 4×4 blocks of 8 bytes) ↔ R16G16B16A16_UINT 16×16, 3 mips.
    const bc1 = (desc: Partial<ResourceDesc> = {}): Resource =>
      texture(d3d, { format: 'BC1_UNORM', mipLevels: 3, ...desc });
    const rgba16 = (desc: Partial<ResourceDesc> = {}): Resource =>
      texture(d3d, { width: 16, height: 16, format: 'R16G16B16A16_UINT', mipLevels: 3, ...desc });
    const cases: [string, Resource, Resource, RegExp][] = [
      [
        'BC width',
        rgba16(),
        bc1({ width: 68 }),
        /width differs: 68 in the source, 16 in the destination: a reinterpreting copy needs the block-compressed resource 4 times as wide as the uncompressed one \(one texel per block\), so 64 in the source/,
      ],
      [
        'BC height',
        rgba16(),
        bc1({ height: 60 }),
        /height differs: 60 in the source, 16 in the destination: .*4 times as high .*so 64 in the source/,
      ],
      [
        'uncompressed width',
        bc1(),
        rgba16({ width: 17 }),
        /width differs: 17 in the source, 64 in the destination: .*4 times as wide .*so 16 in the source/,
      ],
      [
        'array sizes',
        rgba16(),
        bc1({ depthOrArraySize: 2 }),
        /depthOrArraySize differs: 2 in the source, 1 in the destination/,
      ],
      ['mip levels', rgba16(), bc1({ mipLevels: 2 }), /mipLevels differs: 2 in the source, 3 in the destination/],
      [
        '16-byte texels for 8-byte blocks',
        texture(d3d, { width: 16, height: 16, format: 'R32G32B32A32_UINT', mipLevels: 3 }),
        bc1(),
        /formats BC1_UNORM and R32G32B32A32_UINT are not of one family, nor a reinterpreting pair/,
      ],
      [
        'two block-compressed families',
        bc1({ format: 'BC4_UNORM' }),
        bc1(),
        /formats BC1_UNORM and BC4_UNORM are not of one family, nor a reinterpreting pair/,
      ],
      // 12×12 BC1 has 2×2 blocks at mip 1 (6×6 texels); a 3×3 uncompressed texture has a 1×1 mip 1.
      [
        'total size',
        rgba16({ width: 3, height: 3, mipLevels: 2 }),
        bc1({ width: 12, height: 12, mipLevels: 2 }),
        /mip 1 is 2×2 elements in the source and 1×1 in the destination; a reinterpreting copy needs the same total size \(bytes\)/,
      ],
    ];
    for (const [what, to, from, message] of cases) {
      try {
        expectD3D12Error(() => list.copyResource(to, from), { call: 'copyResource', argument: 'srcResource', message });
      } catch (error) {
        throw new Error(`${what}: ${String(error)}`, { cause: error });
      }
    }
    expect(list.commands).toHaveLength(0);
    // The controls: both directions, every pair of the debug layer's equivalences, TYPELESS members included.
    list.copyResource(rgba16(), bc1());
    list.copyResource(bc1({ format: 'BC4_SNORM' }), rgba16({ format: 'R32G32_FLOAT' }));
    list.copyResource(
      texture(d3d, { width: 32, height: 16, format: 'R32G32B32A32_TYPELESS', mipLevels: 2 }),
      texture(d3d, { width: 128, height: 64, format: 'BC7_UNORM_SRGB', mipLevels: 2 }),
    );
    list.copyResource(
      texture(d3d, { format: 'BC6H_UF16' }),
      texture(d3d, { width: 16, height: 16, format: 'R32G32B32A32_FLOAT' }),
    );
    list.copyResource(texture(d3d, { format: 'R9G9B9E5_SHAREDEXP' }), texture(d3d, { format: 'R32_UINT' }));
    list.copyResource(
      texture(d3d, { dimension: 'TEXTURE3D', width: 16, height: 8, depthOrArraySize: 4, format: 'BC3_UNORM' }),
      texture(d3d, { dimension: 'TEXTURE3D', width: 4, height: 2, depthOrArraySize: 4, format: 'R32G32B32A32_SINT' }),
    );
    expect(list.commands).toHaveLength(6);
  });
});

describe('copyTiles', () => {
  const origin = { x: 0, y: 0, z: 0, subresource: 0 };
  const toTiles: TileCopyFlag = 'LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE';
  const toBuffer: TileCopyFlag = 'SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER';

  test('needs a reserved resource, one direction, a region inside it and a buffer that holds it', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 4 * TILE }, 'COMMON');
    const heap = d3d.createHeap({ sizeInBytes: 4 * TILE, properties: { type: 'DEFAULT' } });
    queue.updateTileMappings(reserved, null, null, heap, null, null, null);
    const data = pattern(2 * TILE, 11);
    const upload = uploadBuffer(d3d, data);
    const exact = defaultBuffer(d3d, 2 * TILE + 1); // two tiles from offset 1: exactly
    const committed = defaultBuffer(d3d, 4 * TILE);
    const tex = texture(d3d);
    const list = d3d.createCommandList('DIRECT');
    const call = 'copyTiles';

    expectD3D12Error(() => list.copyTiles(committed, origin, { numTiles: 1 }, upload, 0, toTiles), {
      call,
      argument: 'tiledResource',
      message: new RegExp(`${RESOURCE} is not a reserved resource`),
    });
    expectD3D12Error(() => list.copyTiles(tex, origin, { numTiles: 1 }, upload, 0, toTiles), {
      call,
      argument: 'tiledResource',
      message: /is not a reserved resource/,
    });
    // Directions.
    for (const flags of [
      [toTiles, toBuffer],
      [toBuffer, 'NO_HAZARD', toTiles],
    ] as TileCopyFlag[][]) {
      expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 1 }, upload, 0, flags), {
        call,
        argument: 'flags',
        message: /names both directions/,
      });
    }
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 1 }, upload, 0, 'LINEAR' as TileCopyFlag), {
      call,
      argument: 'flags',
      message: /must be one of NONE, NO_HAZARD/,
    });
    expectD3D12Error(
      () => list.copyTiles(reserved, origin, { numTiles: 1 }, upload, 0, [toTiles, 'BOGUS'] as TileCopyFlag[]),
      { call, argument: 'flags[1]', message: /got 'BOGUS'/ },
    );
    // Regions: tiles 0..3 exist.
    expectD3D12Error(() => list.copyTiles(reserved, { ...origin, x: 4 }, { numTiles: 1 }, upload, 0, toTiles), {
      call,
      argument: 'tileRegionStartCoordinate.x',
      message: /subresource 0 is 4×1×1 tiles, got x=4/,
    });
    expectD3D12Error(() => list.copyTiles(reserved, { ...origin, y: 1 }, { numTiles: 1 }, upload, 0, toTiles), {
      call,
      argument: 'tileRegionStartCoordinate.y',
      message: /got y=1/,
    });
    expectD3D12Error(
      () => list.copyTiles(reserved, { ...origin, subresource: 1 }, { numTiles: 1 }, upload, 0, toTiles),
      { call, argument: 'tileRegionStartCoordinate.subresource', message: /less than the resource's 1 subresources/ },
    );
    expectD3D12Error(() => list.copyTiles(reserved, { ...origin, x: 3 }, { numTiles: 2 }, upload, 0, toBuffer), {
      call,
      argument: 'tileRegionSize.numTiles',
      message: /2 tiles from tile 3 run past the resource's last tile \(3\)/,
    });
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 5 }, committed, 0, toBuffer), {
      call,
      argument: 'tileRegionSize.numTiles',
      message: /5 tiles from tile 0 run past/,
    });
    expectD3D12Error(
      () =>
        list.copyTiles(
          reserved,
          { ...origin, x: 3 },
          { numTiles: 2, useBox: true, width: 2, height: 1, depth: 1 },
          committed,
          0,
          toBuffer,
        ),
      {
        call,
        argument: 'tileRegionSize.width',
        message: /the box runs past subresource 0 \(4 tiles along x\): x=3 \+ width=2/,
      },
    );
    expectD3D12Error(
      () =>
        list.copyTiles(
          reserved,
          origin,
          { numTiles: 3, useBox: true, width: 2, height: 1, depth: 1 },
          committed,
          0,
          toBuffer,
        ),
      {
        call,
        argument: 'tileRegionSize.numTiles',
        message: /must equal the box's width × height × depth \(2\), got 3/,
      },
    );
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: -1 }, committed, 0, toBuffer), {
      call,
      argument: 'tileRegionSize.numTiles',
      message: /at least 0/,
    });
    // The buffer: a buffer, holding every tile from its offset.
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 1 }, tex, 0, toBuffer), {
      call,
      argument: 'buffer',
      message: /is a TEXTURE2D, not a buffer/,
    });
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 2 }, exact, 2, toBuffer), {
      call,
      argument: 'bufferStartOffsetInBytes',
      message: new RegExp(
        `2 tiles \\(131072 bytes\\) from offset 2 run past the end of ${RESOURCE} \\(131073 bytes\\)`,
      ),
    });
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 3 }, upload, 0, toTiles), {
      call,
      argument: 'bufferStartOffsetInBytes',
      message: /3 tiles \(196608 bytes\) from offset 0 run past the end of committed resource #\d+ \(131072 bytes\)/,
    });
    expectD3D12Error(() => list.copyTiles(reserved, origin, { numTiles: 1 }, upload, -1, toTiles), {
      call,
      argument: 'bufferStartOffsetInBytes',
      message: /at least 0, got -1/,
    });

    // The controls: two tiles in from an exactly large enough buffer, and out at offset 1 of a buffer
    // exactly 2 tiles + 1 byte long.
    list.copyTiles(reserved, origin, { numTiles: 2 }, upload, 0, toTiles);
    list.resourceBarrier([transition(reserved, 'COPY_DEST', 'COPY_SOURCE')]);
    list.copyTiles(reserved, origin, { numTiles: 2 }, exact, 1, [toBuffer, 'NO_HAZARD']);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const expected = new Uint8Array(2 * TILE + 1);
    expected.set(data, 1);
    await expectBytes(d3d, queue, exact, expected, 'tiles 0-1 out at offset 1');
    await expectBytes(d3d, queue, committed, new Uint8Array(4 * TILE), 'refused copies into the committed buffer');
    const rest = await readBuffer(d3d, queue, reserved, 2 * TILE, 2 * TILE);
    expect(firstDifference(rest, new Uint8Array(2 * TILE)), 'tiles 2-3 untouched').toBe(-1);
  });

  test.for(['NONE', 'NO_HAZARD', [], ['NO_HAZARD'], ['NONE', 'NO_HAZARD']] as (TileCopyFlag | TileCopyFlag[])[])(
    'flags %j name no direction: the tiles are copied into the buffer (swizzled to linear), as native drivers do',
    async (flags, { d3d }) => {
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COPY_DEST');
      const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
      queue.updateTileMappings(reserved, null, null, heap, null, null, null);
      const data = pattern(2 * TILE, 5);
      const upload = uploadBuffer(d3d, data);
      const out = defaultBuffer(d3d, 2 * TILE);
      const list = d3d.createCommandList('DIRECT');
      list.copyTiles(reserved, origin, { numTiles: 2 }, upload, 0, toTiles);
      list.resourceBarrier([transition(reserved, 'COPY_DEST', 'COPY_SOURCE')]);
      list.copyTiles(reserved, origin, { numTiles: 2 }, out, 0, flags);
      list.close();
      queue.executeCommandLists([list]);
      await flush(d3d, queue);
      // The upload buffer is GENERIC_READ: a copy the other way round would have been refused, and
      // `out` holds the tiles only if the copy went tiles → buffer.
      await expectBytes(d3d, queue, out, data, `tiles out with flags ${JSON.stringify(flags)}`);
    },
  );
});

describe('resourceBarrier', () => {
  test('malformed barriers are refused, and a refused array changes no state of the list', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const tex = texture(d3d, { mipLevels: 3 });
    const other = texture(d3d);
    const list = d3d.createCommandList('DIRECT');
    const call = 'resourceBarrier';
    const bad = (value: unknown): ResourceBarrier => value as ResourceBarrier;
    expectD3D12Error(() => list.resourceBarrier({} as ResourceBarrier[]), {
      call,
      argument: 'barriers',
      message: /must be an array of D3D12_RESOURCE_BARRIER/,
    });
    expectD3D12Error(() => list.resourceBarrier([bad(null)]), {
      call,
      argument: 'barriers[0]',
      message: /must be a D3D12_RESOURCE_BARRIER object, got null/,
    });
    expectD3D12Error(
      () =>
        list.resourceBarrier([
          bad({ type: 'TRANSITIONS', transition: { resource: tex, stateBefore: 'COMMON', stateAfter: 'COPY_DEST' } }),
        ]),
      {
        call,
        argument: 'barriers[0].type',
        message: /must be one of TRANSITION, UAV, ALIASING; got 'TRANSITIONS'/,
      },
    );
    expectD3D12Error(() => list.resourceBarrier([bad({ type: 'TRANSITION' })]), {
      call,
      argument: 'barriers[0].transition',
      message: /must be \{resource, subresource, stateBefore, stateAfter\}/,
    });
    expectD3D12Error(
      () =>
        list.resourceBarrier([
          bad({
            type: 'TRANSITION',
            flags: 'BEGIN',
            transition: { resource: tex, stateBefore: 'COMMON', stateAfter: 'COPY_DEST' },
          }),
        ]),
      {
        call,
        argument: 'barriers[0].flags',
        message: /must be one of NONE, BEGIN_ONLY, END_ONLY; got 'BEGIN'/,
      },
    );
    expectD3D12Error(
      () =>
        list.resourceBarrier([
          bad({ type: 'TRANSITION', transition: { resource: {}, stateBefore: 'COMMON', stateAfter: 'COPY_DEST' } }),
        ]),
      {
        call,
        argument: 'barriers[0].transition.resource',
        message: /created by this device/,
      },
    );
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COMMON', 'COPY_DST' as ResourceStates)]), {
      call,
      argument: 'barriers[0].transition.stateAfter',
      message: /got 'COPY_DST'/,
    });
    expectD3D12Error(() => list.resourceBarrier([transition(tex, [], 'COPY_DEST')]), {
      call,
      argument: 'barriers[0].transition.stateBefore',
      message: /must name at least one state/,
    });
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COMMON', ['COPY_DEST', 'COPY_SOURCE'])]), {
      call,
      argument: 'barriers[0].transition.stateAfter',
      message: /a write state cannot be combined with other states/,
    });
    // stateBefore equal to stateAfter, also written differently.
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COPY_SOURCE', 'COPY_SOURCE')]), {
      call,
      argument: 'barriers[0].transition.stateAfter',
      message: /equals stateBefore \('COPY_SOURCE'\); a transition must change the state/,
    });
    expectD3D12Error(
      () =>
        list.resourceBarrier([
          transition(tex, ['COPY_SOURCE', 'PIXEL_SHADER_RESOURCE'], ['PIXEL_SHADER_RESOURCE', 'COPY_SOURCE']),
        ]),
      {
        call,
        argument: 'barriers[0].transition.stateAfter',
        message: /equals stateBefore/,
      },
    );
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COMMON', 'PRESENT')]), {
      call,
      argument: 'barriers[0].transition.stateAfter',
      message: /equals stateBefore/,
    });
    // Subresources: 3 mips, so 0..2 and ALL.
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COMMON', 'COPY_DEST', 3)]), {
      call,
      argument: 'barriers[0].transition.subresource',
      message: /at most 2, got 3/,
    });
    expectD3D12Error(() => list.resourceBarrier([transition(other, 'COMMON', 'COPY_DEST', 1)]), {
      call,
      argument: 'barriers[0].transition.subresource',
      message: /at most 0, got 1/,
    });
    // A valid first barrier is not applied when a later one of the same call is refused.
    expectD3D12Error(
      () => list.resourceBarrier([transition(tex, 'COMMON', 'COPY_SOURCE', 0), transition(other, 'COMMON', 'COMMON')]),
      {
        call,
        argument: 'barriers[1].transition.stateAfter',
        message: /equals stateBefore/,
      },
    );
    expectD3D12Error(
      () =>
        list.resourceBarrier([transition(tex, 'COMMON', 'COPY_SOURCE', 1), transition(tex, 'COPY_DEST', 'COMMON', 1)]),
      {
        call,
        argument: 'barriers',
        message: /subresource 1 is in COPY_SOURCE at this point of the list, not in stateBefore COPY_DEST/,
      },
    );
    // The list knows nothing of tex yet: every subresource may still start from COMMON.
    list.resourceBarrier([transition(tex, 'COMMON', 'COPY_DEST', 2)]);
    list.resourceBarrier([
      transition(tex, 'COMMON', 'COPY_SOURCE', 0),
      transition(tex, 'COMMON', 'PIXEL_SHADER_RESOURCE', 1),
    ]);
    list.resourceBarrier([
      { type: 'UAV', uav: { resource: null } },
      { type: 'ALIASING', aliasing: { resourceBefore: null, resourceAfter: other } },
    ]);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    await expectState(d3d, queue, tex, 'COPY_SOURCE', 0);
    await expectState(d3d, queue, tex, 'PIXEL_SHADER_RESOURCE', 1);
    await expectState(d3d, queue, tex, 'COPY_DEST', 2);
    await expectState(d3d, queue, other, 'COMMON');
  });

  test("stateBefore that disagrees with the list's own state is refused when recorded", async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const tex = texture(d3d, { depthOrArraySize: 2 });
    const buffer = defaultBuffer(d3d, 64);
    const list = d3d.createCommandList('DIRECT');
    list.resourceBarrier([transition(tex, 'COMMON', 'COPY_SOURCE')]);
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COMMON', 'COPY_DEST')]), {
      call: 'resourceBarrier',
      argument: 'barriers',
      message: new RegExp(
        `${RESOURCE} subresource 0 is in COPY_SOURCE at this point of the list, not in stateBefore COMMON`,
      ),
    });
    // ALL_SUBRESOURCES is checked per subresource: subresource 1 was moved alone.
    list.resourceBarrier([transition(tex, 'COPY_SOURCE', 'COPY_DEST', 1)]);
    expectD3D12Error(() => list.resourceBarrier([transition(tex, 'COPY_SOURCE', 'COMMON', ALL_SUBRESOURCES)]), {
      call: 'resourceBarrier',
      argument: 'barriers',
      message: /subresource 1 is in COPY_DEST at this point of the list, not in stateBefore COPY_SOURCE/,
    });
    // A copy's implicit promotion is a state the list knows.
    const src = uploadBuffer(d3d, pattern(64, 17));
    list.copyBufferRegion(buffer, 0, src, 0, 64);
    expectD3D12Error(() => list.resourceBarrier([transition(buffer, 'COMMON', 'COPY_SOURCE')]), {
      call: 'resourceBarrier',
      argument: 'barriers',
      message: /subresource 0 is in COPY_DEST at this point of the list, not in stateBefore COMMON/,
    });
    list.resourceBarrier([transition(buffer, 'COPY_DEST', 'COPY_SOURCE')]);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    await expectState(d3d, queue, tex, 'COPY_SOURCE', 0);
    await expectState(d3d, queue, tex, 'COPY_DEST', 1);
  });

  test('stateBefore that disagrees with the global state is refused by executeCommandLists; no list of the call applies its states', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const t1 = texture(d3d);
    const t2 = texture(d3d);
    const data = pattern(64, 12);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 64);
    // A: t1 COMMON → COPY_SOURCE and a copy.
    const a = d3d.createCommandList('DIRECT');
    a.resourceBarrier([transition(t1, 'COMMON', 'COPY_SOURCE')]);
    a.copyBufferRegion(dst, 0, src, 0, 64);
    a.close();
    // B: wrong about t2, which is COMMON.
    const b = d3d.createCommandList('DIRECT');
    b.resourceBarrier([transition(t2, 'COPY_SOURCE', 'COMMON')]);
    b.close();
    // C: wrong about t1 after A (A leaves it in COPY_SOURCE).
    const c = d3d.createCommandList('DIRECT');
    c.resourceBarrier([transition(t1, 'COMMON', 'COPY_DEST')]);
    c.close();
    // C': right about t1 after A.
    const c2 = d3d.createCommandList('DIRECT');
    c2.resourceBarrier([transition(t1, 'COPY_SOURCE', 'COPY_DEST')]);
    c2.close();

    expectD3D12Error(() => queue.executeCommandLists([b]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: new RegExp(
        `DIRECT command list #\\d+: ${RESOURCE} subresource 0 is in COMMON, but the list's first barrier says stateBefore COPY_SOURCE`,
      ),
    });
    expectD3D12Error(() => queue.executeCommandLists([a, b]), {
      call: 'executeCommandLists',
      argument: 'commandLists[1]',
      message: /is in COMMON, but the list's first barrier says stateBefore COPY_SOURCE/,
    });
    expectD3D12Error(() => queue.executeCommandLists([a, c]), {
      call: 'executeCommandLists',
      argument: 'commandLists[1]',
      message: /is in COPY_SOURCE, but the list's first barrier says stateBefore COMMON/,
    });
    await flush(d3d, queue);
    // Nothing ran, no state moved: t1 and t2 are COMMON, the copy of A did not happen.
    await expectBytes(d3d, queue, dst, new Uint8Array(64), 'A did not run');
    await expectState(d3d, queue, t1, 'COMMON');
    await expectState(d3d, queue, t2, 'COMMON');
    // Each list is checked against the states the lists before it leave.
    queue.executeCommandLists([a, c2]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, data, 'A ran');
    await expectState(d3d, queue, t1, 'COPY_DEST');
    // Executing A again: t1 is no longer COMMON.
    expectD3D12Error(() => queue.executeCommandLists([a]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: /is in COPY_DEST, but the list's first barrier says stateBefore COMMON/,
    });
    await expectState(d3d, queue, t1, 'COPY_DEST');
  });
});

describe('implicit promotion and decay', () => {
  test('buffers are promoted from COMMON to COPY_SOURCE and COPY_DEST and decay to COMMON after each executeCommandLists', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(64, 13);
    const src = uploadBuffer(d3d, data);
    const a = defaultBuffer(d3d, 64);
    const b = defaultBuffer(d3d, 64);
    // a: promoted to COPY_DEST; then an explicit barrier to COPY_SOURCE in the same list.
    await run(d3d, queue, (list) => {
      list.copyBufferRegion(a, 0, src, 0, 64);
      list.resourceBarrier([transition(a, 'COPY_DEST', 'COPY_SOURCE')]);
      list.copyBufferRegion(b, 0, a, 0, 64);
    });
    await expectBytes(d3d, queue, b, data, 'copied through a');
    // Both decayed: an explicit COPY_SOURCE and a promoted COPY_DEST.
    expectNotState(d3d, queue, a, 'COPY_SOURCE', 'COMMON');
    expectNotState(d3d, queue, b, 'COPY_DEST', 'COMMON');
    await expectState(d3d, queue, a, 'COMMON');
    await expectState(d3d, queue, b, 'COMMON');
    // Promoted again from COMMON, now the other way round, without barriers.
    await run(d3d, queue, (list) => list.copyBufferRegion(a, 0, b, 0, 64));
    await expectBytes(d3d, queue, a, data, 'copied back');
  });

  test('after an implicit use, a barrier must name the true combined read state (COPY_SOURCE | PIXEL_SHADER_RESOURCE)', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const desc = { dimension: 'TEXTURE2D' as const, width: 256, height: 256, format: 'R8G8B8A8_UNORM' as const };
    const src = d3d.createCommittedResource({ type: 'DEFAULT' }, [], desc, ['COPY_SOURCE', 'PIXEL_SHADER_RESOURCE']);
    const dst = d3d.createCommittedResource({ type: 'DEFAULT' }, [], desc, 'COPY_DEST');
    const record = (stateBefore: ResourceStates): GraphicsCommandList => {
      const list = d3d.createCommandList('DIRECT');
      list.copyResource(dst, src);
      list.resourceBarrier([transition(src, stateBefore, 'COMMON')]);
      list.close();
      return list;
    };
    // COPY_SOURCE alone is not the state src is in at the barrier: the list's start state is known
    // only at execution, which refuses it naming the combined state, and changes nothing.
    expectD3D12Error(() => queue.executeCommandLists([record('COPY_SOURCE')]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message:
        /subresource 0 is in PIXEL_SHADER_RESOURCE\|COPY_SOURCE, but the list's barrier says stateBefore COPY_SOURCE \(/,
    });
    expectNotState(d3d, queue, src, 'COMMON', 'PIXEL_SHADER_RESOURCE\\|COPY_SOURCE');
    // The true state, written in either order, runs, and leaves src in COMMON.
    queue.executeCommandLists([record(['PIXEL_SHADER_RESOURCE', 'COPY_SOURCE'])]);
    await flush(d3d, queue);
    await expectState(d3d, queue, src, 'COMMON');
    expectNotState(d3d, queue, src, 'COPY_SOURCE', 'COMMON');
  });

  test('a promoted read state does not become a write without a barrier', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(64, 14);
    const src = uploadBuffer(d3d, data);
    const buffer = defaultBuffer(d3d, 64);
    const out = defaultBuffer(d3d, 64);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(out, 0, buffer, 0, 64); // buffer → COPY_SOURCE (promoted)
    expectD3D12Error(() => list.copyBufferRegion(buffer, 0, src, 0, 64), {
      call: 'copyBufferRegion',
      argument: 'dstBuffer',
      message: new RegExp(
        `${RESOURCE} subresource 0 is in COPY_SOURCE at this point of the list and cannot be used as COPY_DEST without a transition barrier`,
      ),
    });
    // A promoted write does not become a read either.
    const other = defaultBuffer(d3d, 64);
    expectD3D12Error(() => list.copyBufferRegion(other, 0, out, 0, 64), {
      call: 'copyBufferRegion',
      argument: 'srcBuffer',
      message:
        /subresource 0 is in COPY_DEST at this point of the list and cannot be used as COPY_SOURCE without a transition barrier/,
    });
    expectD3D12Error(() => list.copyBufferRegion(buffer, 0, out, 0, 64), {
      call: 'copyBufferRegion',
      argument: 'dstBuffer',
      message: /is in COPY_SOURCE at this point/,
    });
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    // Only the first copy ran (buffer held zeros), and buffer is still zero.
    await expectBytes(d3d, queue, out, new Uint8Array(64), 'out');
    await expectBytes(d3d, queue, buffer, new Uint8Array(64), 'buffer');
  });

  test('a texture explicitly transitioned stays in its state; one promoted to a read state decays, one promoted to COPY_DEST does not', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const explicit = texture(d3d);
    const promotedRead = texture(d3d);
    const promotedWrite = texture(d3d);
    await run(d3d, queue, (list) => {
      list.resourceBarrier([transition(explicit, 'COMMON', 'COPY_SOURCE')]);
      list.copyResource(promotedWrite, promotedRead);
    });
    await expectState(d3d, queue, explicit, 'COPY_SOURCE');
    await expectState(d3d, queue, promotedRead, 'COMMON');
    await expectState(d3d, queue, promotedWrite, 'COPY_DEST');
    // COPY_SOURCE serves as a copy source without a barrier, and stays.
    const copy = texture(d3d);
    await run(d3d, queue, (list) => list.copyResource(copy, explicit));
    await expectState(d3d, queue, explicit, 'COPY_SOURCE');
    // COPY_DEST serves as a copy destination again without a barrier.
    await run(d3d, queue, (list) => list.copyResource(promotedWrite, explicit));
    await expectState(d3d, queue, promotedWrite, 'COPY_DEST');
    // But COPY_SOURCE is no copy destination, and COPY_DEST no copy source: refused at execution, nothing moves.
    for (const [to, from, message] of [
      [explicit, copy, /is in COPY_SOURCE and cannot be used as COPY_DEST without a transition barrier/],
      [copy, promotedWrite, /is in COPY_DEST and cannot be used as COPY_SOURCE without a transition barrier/],
    ] as const) {
      const list = d3d.createCommandList('DIRECT');
      list.copyResource(to, from);
      list.close();
      expectD3D12Error(() => queue.executeCommandLists([list]), {
        call: 'executeCommandLists',
        argument: 'commandLists[0]',
        message,
      });
    }
    await expectState(d3d, queue, explicit, 'COPY_SOURCE');
    await expectState(d3d, queue, promotedWrite, 'COPY_DEST');
    await expectState(d3d, queue, copy, 'COPY_DEST');
  });

  test('a texture is promoted only from COMMON: in another state, a copy needs a barrier (checked at execution)', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const shaderRead = texture(d3d);
    await run(d3d, queue, (list) => list.resourceBarrier([transition(shaderRead, 'COMMON', 'PIXEL_SHADER_RESOURCE')]));
    const dst = texture(d3d);
    const list = d3d.createCommandList('DIRECT');
    list.copyResource(dst, shaderRead);
    list.close();
    expectD3D12Error(() => queue.executeCommandLists([list]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message:
        /subresource 0 is in PIXEL_SHADER_RESOURCE and cannot be used as COPY_SOURCE without a transition barrier/,
    });
    await expectState(d3d, queue, shaderRead, 'PIXEL_SHADER_RESOURCE');
    await expectState(d3d, queue, dst, 'COMMON');
    // A texture created in COPY_DEST is a copy destination at once, not a source.
    const created = texture(d3d, {}, 'COPY_DEST');
    const fromCreated = d3d.createCommandList('DIRECT');
    fromCreated.copyResource(dst, created);
    fromCreated.close();
    expectD3D12Error(() => queue.executeCommandLists([fromCreated]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: /is in COPY_DEST and cannot be used as COPY_SOURCE/,
    });
    const source = texture(d3d);
    await run(d3d, queue, (l) => l.copyResource(created, source));
    await expectState(d3d, queue, created, 'COPY_DEST');
    // With a barrier, the PIXEL_SHADER_RESOURCE texture is copied.
    await run(d3d, queue, (l) => {
      l.resourceBarrier([transition(shaderRead, 'PIXEL_SHADER_RESOURCE', 'COPY_SOURCE')]);
      l.copyResource(dst, shaderRead);
    });
    await expectState(d3d, queue, shaderRead, 'COPY_SOURCE');
  });

  test('simultaneous-access textures and everything used on a COPY queue decay to COMMON', async ({ d3d }) => {
    const direct = d3d.createCommandQueue({ type: 'DIRECT' });
    const copyQueue = d3d.createCommandQueue({ type: 'COPY' });
    const simultaneous = texture(d3d, { flags: ['ALLOW_SIMULTANEOUS_ACCESS'] });
    const source = texture(d3d);
    await run(d3d, direct, (list) => list.copyResource(simultaneous, source));
    await expectState(d3d, direct, simultaneous, 'COMMON');
    const onCopy = texture(d3d);
    const explicit = texture(d3d);
    await run(d3d, copyQueue, (list) => {
      list.copyResource(onCopy, source);
      list.resourceBarrier([transition(explicit, 'COMMON', 'COPY_SOURCE')]);
    });
    expectNotState(d3d, direct, onCopy, 'COPY_DEST', 'COMMON');
    expectNotState(d3d, direct, explicit, 'COPY_SOURCE', 'COMMON');
    await expectState(d3d, direct, onCopy, 'COMMON');
    await expectState(d3d, direct, explicit, 'COMMON');
  });

  /** Records with `record` and executes: one of the two must throw a D3D12Error matching `message`; then nothing ran. */
  function expectRefused(
    d3d: Device,
    queue: CommandQueue,
    record: (list: GraphicsCommandList) => void,
    message: RegExp,
  ): void {
    expectD3D12Error(
      () => {
        const list = d3d.createCommandList(queue.type);
        record(list);
        list.close();
        queue.executeCommandLists([list]);
      },
      { message },
    );
  }

  // D3D12_HEAP_TYPE_UPLOAD: "Resources in this heap must be created with D3D12_RESOURCE_STATE_GENERIC_READ
  // and cannot be changed away from this." Buffer decay must not turn that into COMMON.
  test('an UPLOAD buffer is never a copy destination, before or after it served as a copy source', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(64, 15);
    const upload = uploadBuffer(d3d, data);
    const buffer = defaultBuffer(d3d, 64);
    const intoUpload = (list: GraphicsCommandList): void => list.copyBufferRegion(upload, 0, buffer, 0, 64);
    expectRefused(d3d, queue, intoUpload, /GENERIC_READ and cannot be used as COPY_DEST/);
    await run(d3d, queue, (list) => list.copyBufferRegion(buffer, 0, upload, 0, 64));
    await expectBytes(d3d, queue, buffer, data, 'the upload served as a source');
    expectRefused(d3d, queue, intoUpload, /GENERIC_READ and cannot be used as COPY_DEST/);
    await flush(d3d, queue);
    expect(firstDifference(upload.map(), data), 'the UPLOAD buffer keeps its bytes').toBe(-1);
    upload.unmap();
  });

  test('barriers cannot move an UPLOAD buffer out of GENERIC_READ nor a READBACK buffer out of COPY_DEST', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const upload = uploadBuffer(d3d, pattern(64, 18));
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: 64 },
      'COPY_DEST',
    );
    expectRefused(
      d3d,
      queue,
      (list) => list.resourceBarrier([transition(upload, 'GENERIC_READ', 'COPY_DEST')]),
      /UPLOAD|GENERIC_READ/,
    );
    expectRefused(
      d3d,
      queue,
      (list) => list.resourceBarrier([transition(readback, 'COPY_DEST', 'COPY_SOURCE')]),
      /READBACK|COPY_DEST/,
    );
    await flush(d3d, queue);
  });

  // D3D12_HEAP_TYPE_READBACK: "Resources in this heap must be created with D3D12_RESOURCE_STATE_COPY_DEST,
  // and cannot be changed away from this."
  test('a READBACK buffer is never a copy source, before or after it served as a copy destination', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const readback = d3d.createCommittedResource(
      { type: 'READBACK' },
      [],
      { dimension: 'BUFFER', width: 64 },
      'COPY_DEST',
    );
    const buffer = defaultBuffer(d3d, 64);
    const fromReadback = (list: GraphicsCommandList): void => list.copyBufferRegion(buffer, 0, readback, 0, 64);
    expectRefused(d3d, queue, fromReadback, /COPY_DEST and cannot be used as COPY_SOURCE/);
    await run(d3d, queue, (list) => list.copyBufferRegion(readback, 0, buffer, 0, 64));
    expectRefused(d3d, queue, fromReadback, /COPY_DEST and cannot be used as COPY_SOURCE/);
    await flush(d3d, queue);
  });
});

describe('shader commands', () => {
  test('COPY lists cannot set a pipeline, set root constants or dispatch; DIRECT and COMPUTE lists can', async ({
    d3d,
  }) => {
    const pso = await storePipeline(d3d);
    const copy = d3d.createCommandList('COPY');
    expectD3D12Error(() => copy.setPipelineState(pso), {
      call: 'setPipelineState',
      argument: 'this',
      message: /COPY command list #\d+ is a COPY list, which cannot run shaders/,
    });
    expectD3D12Error(() => copy.setComputeRoot32BitConstants(0, [1]), {
      call: 'setComputeRoot32BitConstants',
      argument: 'this',
      message: /is a COPY list, which has no root constants/,
    });
    expectD3D12Error(() => copy.setComputeRoot32BitConstant(0, 1, 0), {
      call: 'setComputeRoot32BitConstant',
      argument: 'this',
      message: /which has no root constants/,
    });
    expectD3D12Error(() => copy.dispatch(1), {
      call: 'dispatch',
      argument: 'this',
      message: /is a COPY list, which cannot dispatch/,
    });
    // The COPY list is still fine for copies.
    const queue = d3d.createCommandQueue({ type: 'COPY' });
    const data = pattern(16, 16);
    const src = uploadBuffer(d3d, data);
    const dst = defaultBuffer(d3d, 16);
    copy.copyBufferRegion(dst, 0, src, 0, 16);
    copy.close();
    queue.executeCommandLists([copy]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, dst, data, 'the COPY list copied');
    for (const type of ['DIRECT', 'COMPUTE'] as const) {
      const list = d3d.createCommandList(type);
      list.setPipelineState(pso);
      list.setComputeRoot32BitConstants(0, [1, 2, 3]);
      list.setComputeRoot32BitConstant(0, 4, 63);
      list.dispatch(1);
      list.close();
    }
    expectD3D12Error(() => d3d.createCommandList('DIRECT').setPipelineState({} as PipelineState), {
      call: 'setPipelineState',
      argument: 'pipelineState',
      message: /created by this device/,
    });
  });

  test('setComputeRoot32BitConstants: index 0 only, offset + count ≤ 64, 32-bit integers; a refused call changes no constant', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'COMPUTE' });
    const pso = await storePipeline(d3d);
    const out = defaultBuffer(d3d, 64);
    const list = d3d.createCommandList('COMPUTE');
    list.setPipelineState(pso);
    const call = 'setComputeRoot32BitConstants';
    // Boundaries that pass.
    list.setComputeRoot32BitConstants(0, new Array<number>(64).fill(0x55));
    list.setComputeRoot32BitConstants(0, [1], 63);
    list.setComputeRoot32BitConstants(0, [], 64);
    list.setComputeRoot32BitConstants(0, new Uint32Array([0xffffffff]), 10);
    // What the dispatch stores: root constants 2..7.
    list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress());
    list.setComputeRoot32BitConstants(0, [7, 2 ** 32 - 1, -1, -(2 ** 31), 2 ** 31, 0], 2);
    // One past each boundary.
    expectD3D12Error(() => list.setComputeRoot32BitConstants(1, [9]), {
      call,
      argument: 'rootParameterIndex',
      message: /must be 0: the emulator's one root parameter is 64 32-bit constants, got 1/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(-1, [9]), {
      call,
      argument: 'rootParameterIndex',
      message: /must be 0/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9, 9], 63), {
      call,
      argument: 'srcData',
      message: /2 values from offset 63 run past the 64 root constants/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, new Array<number>(65).fill(9)), {
      call,
      argument: 'srcData',
      message: /65 values from offset 0 run past/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [], 65), {
      call,
      argument: 'destOffsetIn32BitValues',
      message: /at most 64, got 65/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9], -1), {
      call,
      argument: 'destOffsetIn32BitValues',
      message: /at least 0, got -1/,
    });
    // Values: the first is fine, the second is not: nothing is set.
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9, 2 ** 32], 2), {
      call,
      argument: 'srcData[1]',
      message: /must be a 32-bit integer \(signed or unsigned\), got 4294967296/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9, -(2 ** 31) - 1], 2), {
      call,
      argument: 'srcData[1]',
      message: /got -2147483649/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9, 1.5], 2), {
      call,
      argument: 'srcData[1]',
      message: /got 1.5/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9, Number.NaN], 2), {
      call,
      argument: 'srcData[1]',
      message: /got NaN/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, [9, '1' as unknown as number], 2), {
      call,
      argument: 'srcData[1]',
      message: /got '1'/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstants(0, 7 as unknown as number[], 2), {
      call,
      argument: 'srcData',
      message: /must be an array of 32-bit values/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstant(0, 2 ** 32, 2), {
      call: 'setComputeRoot32BitConstant',
      argument: 'srcData',
      message: /32-bit integer/,
    });
    list.dispatch(6);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const stored = words(await readBuffer(d3d, queue, out, 0, 24));
    expect(stored).toEqual([7, 0xffffffff, 0xffffffff, 0x80000000, 0x80000000, 0]);
  });

  test('dispatch needs a pipeline and counts 0..65535 per dimension; a refused dispatch does not run', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const pso = await storePipeline(d3d);
    const out = defaultBuffer(d3d, 64);
    const list = d3d.createCommandList('DIRECT');
    list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress());
    list.setComputeRoot32BitConstant(0, 42, 2);
    expectD3D12Error(() => list.dispatch(1), {
      call: 'dispatch',
      argument: 'this',
      message: /no pipeline state is set \(setPipelineState\)/,
    });
    list.setPipelineState(pso);
    const call = 'dispatch';
    for (const [x, y, z, argument] of [
      [65536, 1, 1, 'threadGroupCountX'],
      [1, 65536, 1, 'threadGroupCountY'],
      [1, 1, 65536, 'threadGroupCountZ'],
    ] as const) {
      expectD3D12Error(() => list.dispatch(x, y, z), { call, argument, message: /must be at most 65535, got 65536/ });
    }
    expectD3D12Error(() => list.dispatch(-1), { call, argument: 'threadGroupCountX', message: /at least 0, got -1/ });
    expectD3D12Error(() => list.dispatch(1, 0.5), {
      call,
      argument: 'threadGroupCountY',
      message: /must be an integer, got 0.5/,
    });
    // Zero groups pass and run nothing.
    list.dispatch(0);
    list.dispatch(0, 0, 0);
    list.dispatch(1, 0, 1);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    await expectBytes(d3d, queue, out, new Uint8Array(64), 'nothing dispatched');
    // 65535 groups along each dimension pass (recorded, not run).
    const big = d3d.createCommandList('DIRECT', pso);
    big.dispatch(65535, 1, 1);
    big.dispatch(1, 65535, 1);
    big.dispatch(1, 1, 65535);
    big.close();
    // reset() forgets the pipeline; reset(pso) and createCommandList(type, pso) set it.
    big.reset();
    expectD3D12Error(() => big.dispatch(1), { call, argument: 'this', message: /no pipeline state is set/ });
    big.close();
    big.reset(pso);
    big.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress());
    big.setComputeRoot32BitConstant(0, 42, 2);
    big.dispatch(1);
    big.close();
    queue.executeCommandLists([big]);
    await flush(d3d, queue);
    expect(words(await readBuffer(d3d, queue, out, 0, 8))).toEqual([42, 0]);
  });
});
