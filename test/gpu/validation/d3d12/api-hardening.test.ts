/**
 * Rules the API fuzzer (test/gpu/stress/d3d12/api-fuzz.test.ts) found missing, each as a validation case
 * with one invalid field next to a valid control, and the check that nothing changed:
 * reset / createCommandList initial states, graphics pipeline states on compute lists, split flags on
 * UAV and aliasing barriers, SetName's string, priority names, released objects in residency calls
 * (a committed resource whose memory is still kept for the GPU included) and in residency sets, the
 * singular root-constant setters' names, heaps larger than their pool, a manager whose tracked
 * object the application evicted itself, and UAV clears' argument types.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  createResidencyManager,
  type Device,
  type Heap,
  type PipelineState,
  type ResidencySet,
  type Resource,
} from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { flush, TILE } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const MIB = 2 ** 20;
const loose = (value: unknown): never => value as never;

const test = gpuTest.extend<{ d3d: Device; compute: PipelineState }>({
  d3d: async ({ device }, use) => {
    const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 4 * MIB, nonLocalMemoryBytes: 4 * MIB });
    await use(d3d);
    d3d.destroy();
  },
  compute: async ({ d3d }, use) => {
    await use(
      await d3d.createComputePipelineState({ code: '@compute @workgroup_size(1) fn main() {}', entryPoint: 'main' }),
    );
  },
});

const buffer = (d3d: Device): Resource =>
  d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: TILE }, 'COMMON');

describe('initial pipeline states', () => {
  test('reset(initialState): a bad state is refused naming reset and initialState, and the list stays closed with its commands', ({
    d3d,
    compute,
  }) => {
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(buffer(d3d), 0, buffer(d3d), 0, 16);
    list.close();
    for (const bad of [{}, 'pso', 7]) {
      expectD3D12Error(() => list.reset(loose(bad)), {
        call: 'GraphicsCommandList.reset',
        argument: 'initialState',
        message: /must be a pipeline state created by this device/,
      });
      expect([list.isOpen, list.commands.length]).toEqual([false, 1]);
    }
    const copy = d3d.createCommandList('COPY');
    copy.close();
    expectD3D12Error(() => copy.reset(loose({})), {
      call: 'GraphicsCommandList.reset',
      argument: 'initialState',
      message: /must be a pipeline state created by this device/,
    });
    expect(copy.isOpen).toBe(false);
    // Controls: a compute state reopens the list; a COPY list takes one and ignores it, as D3D12 does.
    copy.reset(compute);
    list.reset(compute);
    expect([list.isOpen, list.commands.length, copy.isOpen, copy.commands.length]).toEqual([true, 1, true, 0]);
  });

  test('createCommandList(COPY, state) takes a state of this device and ignores it; anything else is refused naming initialState', ({
    d3d,
    compute,
  }) => {
    expectD3D12Error(() => d3d.createCommandList('COPY', loose('pso')), {
      call: 'createCommandList',
      argument: 'initialState',
      message: /must be a pipeline state created by this device/,
    });
    expect(d3d.createCommandList('COPY', compute).commands).toHaveLength(0);
    expect(d3d.createCommandList('COPY', null).isOpen).toBe(true);
    expect(d3d.createCommandList('COMPUTE', compute).commands).toHaveLength(1);
  });
});

describe('pipeline states and barriers by list type', () => {
  test('a COMPUTE list takes compute pipeline states only', async ({ d3d }) => {
    const code =
      '@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); } @fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }';
    const graphics = await d3d.createGraphicsPipelineState({
      code,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormat: 'R8G8B8A8_UNORM',
    });
    const list = d3d.createCommandList('COMPUTE');
    expectD3D12Error(() => list.setPipelineState(graphics), {
      call: 'setPipelineState',
      argument: 'pipelineState',
      message: /is a graphics pipeline state; COMPUTE command list #\d+ runs compute pipeline states only/,
    });
    expect(list.commands).toHaveLength(0);
    expectD3D12Error(() => d3d.createCommandList('COMPUTE', graphics), {
      call: 'createCommandList',
      argument: 'initialState',
      message: /is a graphics pipeline state/,
    });
    // Control: a DIRECT list takes it.
    d3d.createCommandList('DIRECT').setPipelineState(graphics);
  });

  test('split flags belong to transitions: UAV and ALIASING barriers with BEGIN_ONLY / END_ONLY are refused', ({
    d3d,
  }) => {
    const list = d3d.createCommandList('DIRECT');
    for (const flags of ['BEGIN_ONLY', 'END_ONLY'] as const) {
      expectD3D12Error(() => list.resourceBarrier([loose({ type: 'UAV', flags, uav: { resource: null } })]), {
        call: 'resourceBarrier',
        argument: 'barriers[0].flags',
        message: /must be NONE for a UAV barrier/,
      });
      expectD3D12Error(
        () =>
          list.resourceBarrier([
            loose({ type: 'ALIASING', flags, aliasing: { resourceBefore: null, resourceAfter: null } }),
          ]),
        { call: 'resourceBarrier', argument: 'barriers[0].flags', message: /must be NONE for a ALIASING barrier/ },
      );
    }
    expect(list.commands).toHaveLength(0);
    list.resourceBarrier([
      { type: 'UAV', flags: 'NONE', uav: { resource: null } },
      { type: 'ALIASING', aliasing: { resourceBefore: null, resourceAfter: null } },
    ]);
    expect(list.commands).toHaveLength(1);
  });

  test('the singular root-constant setters name themselves and srcData', ({ d3d }) => {
    const list = d3d.createCommandList('DIRECT');
    expectD3D12Error(() => list.setComputeRoot32BitConstant(0, 1.5, 0), {
      call: 'setComputeRoot32BitConstant',
      argument: 'srcData',
      message: /must be a 32-bit integer, got 1\.5/,
    });
    expectD3D12Error(() => list.setComputeRoot32BitConstant(1, 0, 0), {
      call: 'setComputeRoot32BitConstant',
      argument: 'rootParameterIndex',
    });
    expectD3D12Error(() => list.setGraphicsRoot32BitConstant(0, loose('x'), 0), {
      call: 'setGraphicsRoot32BitConstant',
      argument: 'srcData',
    });
    expect(list.commands).toHaveLength(0);
    list.setComputeRoot32BitConstant(0, -1, 63);
    list.setGraphicsRoot32BitConstant(0, 0xffffffff, 0);
    list.close();
    expectD3D12Error(() => list.setGraphicsRoot32BitConstant(0, 1, 0), {
      call: 'GraphicsCommandList.setGraphicsRoot32BitConstant',
      argument: 'this',
      message: /is closed/,
    });
  });
});

describe('names and priorities', () => {
  test('setName takes a string (SetName takes an LPCWSTR)', ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const list = d3d.createCommandList('DIRECT');
    for (const bad of [Object.create(null) as unknown, 5, { toString: () => 'x' }, null]) {
      expectD3D12Error(() => heap.setName(loose(bad)), {
        call: 'Heap.setName',
        argument: 'name',
        message: /must be a string/,
      });
      expectD3D12Error(() => list.setName(loose(bad)), {
        call: 'GraphicsCommandList.setName',
        argument: 'name',
        message: /must be a string/,
      });
    }
    expect([heap.getName(), list.getName()]).toEqual(['', '']);
    heap.setName('pool');
    list.setName('');
    expect(heap.label).toMatch(/'pool'$/);
  });

  test("priority names are the five D3D12 names only (not Object.prototype's)", ({ d3d }) => {
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    for (const bad of ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty']) {
      expectD3D12Error(() => d3d.setResidencyPriority([heap], [loose(bad)]), {
        call: 'setResidencyPriority',
        argument: 'priorities[0]',
        message: /must be MINIMUM, LOW, NORMAL, HIGH, MAXIMUM/,
      });
    }
    expect(heap.residencyPriority).toBe(0x78000000);
    d3d.setResidencyPriority([heap], ['HIGH']);
    expect(heap.residencyPriority).toBe(0xa0010000);
  });

  test('messages name API objects by label and stay short, whatever is passed', ({ d3d }) => {
    const upload = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'UPLOAD' } });
    const list = d3d.createCommandList('DIRECT');
    for (const attempt of [
      () => list.omSetRenderTargets([loose(upload)]),
      () => d3d.makeResident(loose(upload)),
      () => d3d.evict(loose({ 0: upload, length: 1 })),
    ]) {
      try {
        attempt();
        expect.unreachable('refused');
      } catch (error) {
        expect((error as Error).message.length).toBeLessThan(600);
        expect((error as Error).message).not.toMatch(/"0":0,"1":0/);
      }
    }
  });
});

describe('released objects', () => {
  test('a committed resource released while the GPU still uses it is refused by every residency call at once', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const committed = buffer(d3d);
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(committed, 0, buffer(d3d), 0, 256);
    list.close();
    const manager = createResidencyManager(d3d);
    const fence = d3d.createFence(0);
    queue.executeCommandLists([list]);
    committed.release(); // its memory is kept until the copy completes
    const released = /committed resource #\d+ was released/;
    expectD3D12Error(() => d3d.makeResident([committed]), {
      call: 'makeResident',
      argument: 'objects[0]',
      message: released,
    });
    expectD3D12Error(() => d3d.evict([committed]), { call: 'evict', argument: 'objects[0]', message: released });
    expectD3D12Error(() => d3d.setResidencyPriority([committed], ['HIGH']), {
      call: 'setResidencyPriority',
      argument: 'objects[0]',
      message: released,
    });
    expectD3D12Error(() => d3d.enqueueMakeResident('NONE', [committed], fence, 1), {
      call: 'enqueueMakeResident',
      argument: 'objects[0]',
      message: released,
    });
    expectD3D12Error(() => manager.beginTrackingObject(committed), {
      call: 'ResidencyManager.beginTrackingObject',
      argument: 'pageable',
      message: released,
    });
    expect([fence.getCompletedValue(), manager.getStats().tracked]).toEqual([0, 0]);
    await flush(d3d, queue);
  });

  test('a set is refused when a member was released after the set opened, in either of two sets; a release elsewhere, or before the set opened, changes nothing', ({
    d3d: device,
  }) => {
    const manager = createResidencyManager(device);
    const queue = device.createCommandQueue({ type: 'DIRECT' });
    const list = device.createCommandList('DIRECT');
    list.close();
    const made = (): Heap => device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const [a, b, unrelated, early] = [made(), made(), made(), made()];
    for (const object of [a, b, early]) manager.beginTrackingObject(object);
    early.release();
    const count = device.getReleaseCount();
    const fill = (...objects: Heap[]): ResidencySet => {
      const set = manager.createResidencySet();
      set.open();
      for (const object of objects) set.insert(object);
      set.close();
      return set;
    };
    // Released before the sets opened: nothing to refuse (it is in no set).
    const first = fill(a);
    const second = fill(b);
    manager.executeCommandLists(queue, [list, list], [first, second]);
    // A release of an object in no set moves the count and still refuses nothing.
    unrelated.release();
    expect(device.getReleaseCount()).toBe(count + 1);
    manager.executeCommandLists(queue, [list, list], [first, second]);
    // b, in the second set, released while tracked: that set is refused, and nothing ran.
    b.release();
    const executions = manager.getStats().executions;
    expectD3D12Error(() => manager.executeCommandLists(queue, [list, list], [first, second]), {
      call: 'ResidencyManager.executeCommandLists',
      argument: 'residencySets[1]',
      message: /holds heap #\d+, which was released/,
    });
    expectD3D12Error(() => manager.executeCommandLists(queue, [list], [second]), {
      call: 'ResidencyManager.executeCommandLists',
      argument: 'residencySets[0]',
      message: /was released/,
    });
    expect(manager.getStats().executions).toBe(executions);
    // The control: the first set alone still runs.
    manager.executeCommandLists(queue, [list], [first]);
    expect(manager.getStats().executions).toBe(executions + 1);
  });

  test('a residency set refuses a released object; a batch whose set holds one is refused before anything pages; released tracked objects are forgotten, not paged', ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const manager = createResidencyManager(d3d);
    const kept = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const gone = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    const other = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    for (const heap of [kept, gone, other]) manager.beginTrackingObject(heap);
    const set = manager.createResidencySet();
    set.open();
    set.insert(gone);
    set.insert(kept);
    set.close();
    other.release(); // without endTrackingObject (d3dx12residency forbids it)
    gone.release();
    const list = d3d.createCommandList('DIRECT');
    list.close();
    const before = JSON.stringify(manager.getStats());
    expectD3D12Error(() => manager.executeCommandLists(queue, [list], [set]), {
      call: 'ResidencyManager.executeCommandLists',
      argument: 'residencySets[0]',
      message: /holds heap #\d+, which was released/,
    });
    expect(JSON.stringify(manager.getStats())).toBe(before);
    set.open();
    expectD3D12Error(() => set.insert(gone), {
      call: 'ResidencySet.insert',
      argument: 'pageable',
      message: /heap #\d+ was released/,
    });
    set.insert(kept);
    set.close();
    // Control: the batch runs. Under pressure the manager comes to page the two released heaps: it
    // forgets them instead (they are no longer tracked, and nothing was evicted).
    manager.executeCommandLists(queue, [list], [set]);
    expect(manager.getStats()).toMatchObject({ tracked: 3, executions: 1 });
    d3d.setResidencyDebugBudget(0);
    manager.executeCommandLists(queue, [list], [set]);
    expect(manager.getStats()).toMatchObject({ tracked: 1, executions: 2, evictions: 0 });
  });

  test('a tracked object the application evicted itself is not evicted twice by the manager', ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const manager = createResidencyManager(d3d);
    const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
    manager.beginTrackingObject(heap);
    d3d.evict([heap]); // which d3dx12residency forbids for tracked objects
    d3d.setResidencyDebugBudget(0);
    const list = d3d.createCommandList('DIRECT');
    list.close();
    manager.executeCommandLists(queue, [list], [null]);
    expect([heap.resident, heap.residencyReferences]).toEqual([false, 0]);
  });
});

describe('texture data calls: wrong types, NaN, released and foreign objects', () => {
  const texture = (d3d: Device, flags: ('ALLOW_UNORDERED_ACCESS' | 'NONE')[] = []): Resource =>
    d3d.createCommittedResource(
      { type: 'DEFAULT' },
      [],
      { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM', flags },
      'COMMON',
    );

  test('getCopyableFootprints refuses non-descriptions, NaN, strings and bigints, one argument at a time', ({
    d3d,
  }) => {
    const desc = { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' } as const;
    for (const bad of [5, 'desc', null, [desc]])
      expectD3D12Error(() => d3d.getCopyableFootprints(loose(bad), 0, 1, 0), {
        call: 'getCopyableFootprints',
        argument: 'desc',
        message: /D3D12_RESOURCE_DESC/,
      });
    // A resource is not its description (getDesc() is).
    expectD3D12Error(() => d3d.getCopyableFootprints(loose(texture(d3d)), 0, 1, 0), {
      call: 'getCopyableFootprints',
      argument: 'desc.dimension',
      message: /got undefined/,
    });
    for (const bad of [NaN, '0', 0n, Infinity]) {
      expectD3D12Error(() => d3d.getCopyableFootprints(desc, loose(bad), 1, 0), {
        call: 'getCopyableFootprints',
        argument: 'firstSubresource',
        message: /must be an integer/,
      });
      expectD3D12Error(() => d3d.getCopyableFootprints(desc, 0, loose(bad), 0), {
        call: 'getCopyableFootprints',
        argument: 'numSubresources',
        message: /must be an integer/,
      });
      expectD3D12Error(() => d3d.getCopyableFootprints(desc, 0, 1, loose(bad)), {
        call: 'getCopyableFootprints',
        argument: 'baseOffset',
        message: /must be an integer/,
      });
    }
    expect(d3d.getCopyableFootprints(desc, 0, 1, 0).totalBytes).toBe(63 * 256 + 256);
  });

  test('copyTextureRegion: released, foreign and non-resource objects, NaN and bigint coordinates record nothing', async ({
    d3d,
  }) => {
    const other = await createDevice({
      gpuDevice: d3d.gpuDevice,
      localMemoryBytes: 4 * MIB,
      nonLocalMemoryBytes: 4 * MIB,
    });
    try {
      const tex = texture(d3d);
      const upload = d3d.createCommittedResource(
        { type: 'UPLOAD' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'GENERIC_READ',
      );
      const [layout] = d3d.getCopyableFootprints(tex.getDesc(), 0, 1, 0).layouts;
      const src = {
        resource: upload,
        type: 'PLACED_FOOTPRINT' as const,
        placedFootprint: layout as NonNullable<typeof layout>,
      };
      const dst = { resource: tex, type: 'SUBRESOURCE_INDEX' as const, subresourceIndex: 0 };
      const list = d3d.createCommandList('DIRECT');
      const gone = texture(d3d);
      gone.release();
      const cases: [() => void, string, RegExp][] = [
        [() => list.copyTextureRegion({ ...dst, resource: gone }, 0, 0, 0, src), 'dst.resource', /was released/],
        [
          () => list.copyTextureRegion({ ...dst, resource: texture(other) }, 0, 0, 0, src),
          'dst.resource',
          /created by this device/,
        ],
        [() => list.copyTextureRegion(loose(tex), 0, 0, 0, src), 'dst.resource', /created by this device/],
        [() => list.copyTextureRegion(dst, NaN, 0, 0, src), 'dstX', /must be an integer/],
        [() => list.copyTextureRegion(dst, 0, loose(0n), 0, src), 'dstY', /must be an integer/],
        [() => list.copyTextureRegion(dst, 0, 0, loose('0'), src), 'dstZ', /must be an integer/],
        [
          () =>
            list.copyTextureRegion(dst, 0, 0, 0, {
              ...src,
              placedFootprint: {
                ...src.placedFootprint,
                footprint: { ...src.placedFootprint.footprint, rowPitch: NaN },
              },
            }),
          'src.placedFootprint.footprint.rowPitch',
          /must be an integer/,
        ],
        [
          () =>
            list.copyTextureRegion(dst, 0, 0, 0, {
              ...src,
              placedFootprint: { ...src.placedFootprint, offset: loose(0n) },
            }),
          'src.placedFootprint.offset',
          /must be an integer/,
        ],
        [
          () =>
            list.copyTextureRegion(
              dst,
              0,
              0,
              0,
              src,
              loose({ left: 0n, top: 0, front: 0, right: 1, bottom: 1, back: 1 }),
            ),
          'srcBox.left',
          /must be an integer/,
        ],
        [
          () => list.copyTextureRegion(dst, 0, 0, 0, { ...dst, subresourceIndex: loose(undefined) }),
          'src.subresourceIndex',
          /must be an integer/,
        ],
      ];
      for (const [call, argument, message] of cases) {
        expectD3D12Error(call, { call: 'copyTextureRegion', argument, message });
        expect(list.commands).toHaveLength(0);
      }
      // Control, then a texture released after recording: the list is refused when it executes.
      list.copyTextureRegion(dst, 0, 0, 0, src);
      list.close();
      tex.release();
      expectD3D12Error(() => d3d.createCommandQueue({ type: 'DIRECT' }).executeCommandLists([list]), {
        call: 'executeCommandLists',
        argument: 'commandLists[0]',
        message: /was released/,
      });
    } finally {
      other.destroy();
    }
  });

  test('discardResource: released, foreign and non-resource objects, NaN and bigint regions record nothing', async ({
    d3d,
  }) => {
    const other = await createDevice({
      gpuDevice: d3d.gpuDevice,
      localMemoryBytes: 4 * MIB,
      nonLocalMemoryBytes: 4 * MIB,
    });
    try {
      const uav = texture(d3d, ['ALLOW_UNORDERED_ACCESS']);
      const list = d3d.createCommandList('COMPUTE');
      const gone = texture(d3d, ['ALLOW_UNORDERED_ACCESS']);
      gone.release();
      const cases: [() => void, string, RegExp][] = [
        [() => list.discardResource(gone), 'resource', /was released/],
        [() => list.discardResource(texture(other, ['ALLOW_UNORDERED_ACCESS'])), 'resource', /created by this device/],
        [() => list.discardResource(loose({ resource: uav })), 'resource', /created by this device/],
        [
          () => list.discardResource(uav, loose({ firstSubresource: NaN, numSubresources: 1 })),
          'region.firstSubresource',
          /must be an integer/,
        ],
        [
          () => list.discardResource(uav, loose({ firstSubresource: 0, numSubresources: 1n })),
          'region.numSubresources',
          /must be an integer/,
        ],
        [
          () =>
            list.discardResource(
              uav,
              loose({ firstSubresource: 0, numSubresources: 1, rects: [{ left: 0, top: 0, right: '8', bottom: 8 }] }),
            ),
          'region.rects[0].right',
          /must be an integer/,
        ],
      ];
      for (const [call, argument, message] of cases) {
        expectD3D12Error(call, { call: 'discardResource', argument, message });
        expect(list.commands).toHaveLength(0);
      }
      list.resourceBarrier([
        { type: 'TRANSITION', transition: { resource: uav, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } },
      ]);
      list.discardResource(uav, {
        firstSubresource: 0,
        numSubresources: 1,
        rects: [{ left: 0, top: 0, right: 8, bottom: 8 }],
      });
      expect(list.commands).toHaveLength(2);
    } finally {
      other.destroy();
    }
  });
});

describe('heaps larger than their pool', () => {
  test('created not resident or resident, a heap larger than its whole pool is E_OUTOFMEMORY and registers nothing', ({
    d3d,
  }) => {
    const usage = d3d.queryVideoMemoryInfo('NON_LOCAL').currentUsage;
    for (const flags of [[], ['CREATE_NOT_RESIDENT']] as const) {
      for (const type of ['UPLOAD', 'DEFAULT'] as const) {
        const message =
          flags.length > 0
            ? /needs 16384\.06 MiB of (LOCAL|NON_LOCAL) memory to be made resident, more than the whole 4 MiB pool holds/
            : /needs 16384\.06 MiB of (LOCAL|NON_LOCAL) memory, and 4 MiB of the pool's 4 MiB are free/;
        expectD3D12Error(() => d3d.createHeap({ sizeInBytes: 2 ** 34 + 1, properties: { type }, flags: [...flags] }), {
          hresult: 'E_OUTOFMEMORY',
          call: 'createHeap',
          argument: 'desc.sizeInBytes',
          message,
        });
      }
    }
    expectD3D12Error(
      () =>
        d3d.createCommittedResource(
          { type: 'UPLOAD' },
          ['CREATE_NOT_RESIDENT'],
          { dimension: 'BUFFER', width: 8 * MIB },
          'GENERIC_READ',
        ),
      { hresult: 'E_OUTOFMEMORY', call: 'createCommittedResource', argument: 'desc' },
    );
    expect(d3d.queryVideoMemoryInfo('NON_LOCAL').currentUsage).toBe(usage);
    // Control: exactly the pool fits, not resident.
    const whole = d3d.createHeap({
      sizeInBytes: 4 * MIB,
      properties: { type: 'UPLOAD' },
      flags: ['CREATE_NOT_RESIDENT'],
    });
    expect(whole.resident).toBe(false);
  });
});

describe('UAV clears', () => {
  test('wrong types, NaN, released and foreign resources are refused naming the argument, and the list keeps what it had; a released resource of a recorded clear stops its list', async ({
    d3d,
    device,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const uav = (): Resource =>
      d3d.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: 256, flags: ['ALLOW_UNORDERED_ACCESS'] },
        'COMMON',
      );
    const target = uav();
    const list = d3d.createCommandList('DIRECT');
    const other = await createDevice({ gpuDevice: device });
    const released = uav();
    released.release();
    const cases: [() => void, string, string, RegExp][] = [
      [
        () => list.clearUnorderedAccessViewUint(target, loose([NaN, 0, 0, 0])),
        'clearUnorderedAccessViewUint',
        'values[0]',
        /must be a 32-bit integer/,
      ],
      [
        () => list.clearUnorderedAccessViewUint(target, loose('1234')),
        'clearUnorderedAccessViewUint',
        'values',
        /must be an array of 4/,
      ],
      [
        () => list.clearUnorderedAccessViewFloat(target, [1, 0, 0, 0], loose({ left: 0 }), { format: 'R32_FLOAT' }),
        'clearUnorderedAccessViewFloat',
        'rects',
        /must be an array of D3D12_RECT/,
      ],
      [
        () =>
          list.clearUnorderedAccessViewFloat(
            target,
            [1, 0, 0, 0],
            [loose({ left: NaN, top: 0, right: 1, bottom: 1 })],
            { format: 'R32_FLOAT' },
          ),
        'clearUnorderedAccessViewFloat',
        'rects[0].left',
        /must be a 32-bit integer/,
      ],
      [
        () => list.clearUnorderedAccessViewUint(target, [1, 0, 0, 0], null, loose('RAW')),
        'clearUnorderedAccessViewUint',
        'view',
        /must be a D3D12_UNORDERED_ACCESS_VIEW_DESC subset/,
      ],
      [
        () => list.clearUnorderedAccessViewUint(target, [1, 0, 0, 0], null, loose({ firstElement: NaN })),
        'clearUnorderedAccessViewUint',
        'view.firstElement',
        /must be an integer/,
      ],
      [
        () => list.clearUnorderedAccessViewUint(released, [1, 0, 0, 0]),
        'clearUnorderedAccessViewUint',
        'resource',
        /was released/,
      ],
      [
        () =>
          list.clearUnorderedAccessViewUint(
            other.createCommittedResource(
              { type: 'DEFAULT' },
              [],
              { dimension: 'BUFFER', width: 256, flags: ['ALLOW_UNORDERED_ACCESS'] },
              'COMMON',
            ),
            [1, 0, 0, 0],
          ),
        'clearUnorderedAccessViewUint',
        'resource',
        /created by this device/,
      ],
    ];
    for (const [attempt, call, argument, message] of cases) {
      expectD3D12Error(attempt, { call, argument, message });
      expect(list.commands).toHaveLength(0);
    }
    other.destroy();
    // Controls: NaN is a Float clear's value (D3D12 keeps NaNs); then the cleared buffer is released
    // before the list runs: executeCommandLists refuses the list.
    list.clearUnorderedAccessViewFloat(target, [NaN, 0, 0, 0], null, { format: 'R32_FLOAT' });
    list.close();
    target.release();
    expectD3D12Error(() => queue.executeCommandLists([list]), {
      call: 'executeCommandLists',
      argument: 'commandLists[0]',
      message: /uses committed resource #\d+, which was released/,
    });
    await flush(d3d, queue);
  });
});
