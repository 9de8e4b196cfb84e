/**
 * Validation of createDevice's options, checkFeatureSupport and createCommandQueue (CTS style: one
 * invalid field at a time, each next to a valid control, over both sides of every boundary).
 */
import { describe, expect, test } from 'vitest';
import {
  createDevice,
  D3D12Error,
  DEFAULT_UNMAPPED_ACCESS_RECORDS,
  Device,
  MAX_UNMAPPED_ACCESS_RECORDS,
  VIRTUAL_ADDRESS_BITS,
  type CommandQueueDesc,
  type DeviceOptions,
  type FeatureData,
} from '../../../../src/index.js';
import { deviceContext } from '../../../shared/device-context.js';
import { expectD3D12Error, expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;

describe('createDevice options', () => {
  test('no options: tiled resources tier 3, resource heap tier 2, GPU validation on', async () => {
    for (const options of [undefined, {}, null]) {
      const device = await createDevice(loose(options));
      expect(device).toBeInstanceOf(Device);
      const data = device.checkFeatureSupport('OPTIONS');
      expect(data.tiledResourcesTier).toBe(3);
      expect(data.resourceHeapTier).toBe(2);
      expect(deviceContext(device).settings.gpuValidation).toBe(true);
    }
  });

  test.each([1, 2, 3, 4] as const)('tiledResourcesTier %i is accepted and reported', async (tier) => {
    const device = await createDevice({ tiledResourcesTier: tier });
    expect(device.checkFeatureSupport('OPTIONS').tiledResourcesTier).toBe(tier);
  });

  test.each([
    [0, /at least 1/],
    [5, /at most 4/],
    [-1, /at least 1/],
    [2.5, /integer/],
    [Number.NaN, /integer/],
    ['3', /integer/],
  ] as const)('tiledResourcesTier %s is rejected', async (tier, message) => {
    await expectD3D12Rejection(createDevice({ tiledResourcesTier: loose(tier) }), {
      call: 'createDevice',
      argument: 'options.tiledResourcesTier',
      message,
    });
  });

  test.each([1, 2] as const)('resourceHeapTier %i is accepted and reported', async (tier) => {
    const device = await createDevice({ resourceHeapTier: tier });
    expect(device.checkFeatureSupport('OPTIONS').resourceHeapTier).toBe(tier);
  });

  test.each([
    [0, /at least 1/],
    [3, /at most 2/],
    [-2, /at least 1/],
    [1.5, /integer/],
    ['2', /integer/],
  ] as const)('resourceHeapTier %s is rejected', async (tier, message) => {
    await expectD3D12Rejection(createDevice({ resourceHeapTier: loose(tier) }), {
      call: 'createDevice',
      argument: 'options.resourceHeapTier',
      message,
    });
  });

  // The texture cache's and the texture mirrors' bytes: whole 64 KiB tiles, 0 for none.
  describe.each(['textureCacheBytes', 'textureMirrorBytes'] as const)('%s', (option) => {
    test.each([0, 65536, 64 * 65536, null, undefined])('%s is accepted', async (bytes) => {
      const device = await createDevice({ gpuDevice: null, [option]: loose(bytes) });
      expect(device).toBeInstanceOf(Device);
      expect(deviceContext(device).settings[option]).toBe(bytes ?? undefined);
    });

    test.each([
      [-65536, /at least 0/],
      [65535, /multiple of 65536/],
      [65536 + 4, /multiple of 65536/],
      [1.5, /integer/],
      [Number.NaN, /integer/],
      ['65536', /integer/],
    ] as const)('%s is rejected', async (bytes, message) => {
      await expectD3D12Rejection(createDevice({ gpuDevice: null, [option]: loose(bytes) }), {
        call: 'createDevice',
        argument: `options.${option}`,
        message,
      });
    });
  });

  test.each([true, false])('gpuValidation %s is accepted', async (gpuValidation) => {
    const device = await createDevice({ gpuValidation });
    expect(deviceContext(device).settings.gpuValidation).toBe(gpuValidation);
    // true and false say nothing of unmapped accesses: off, with the default record count.
    expect(deviceContext(device).settings.unmappedAccess).toBe(false);
    expect(deviceContext(device).settings.maxUnmappedAccessRecords).toBe(DEFAULT_UNMAPPED_ACCESS_RECORDS);
  });

  test.each([0, 1, 'true', [], [true], () => true])('gpuValidation %s is rejected', async (gpuValidation) => {
    await expectD3D12Rejection(createDevice({ gpuValidation: loose(gpuValidation) }), {
      call: 'createDevice',
      argument: 'options.gpuValidation',
      message: /true or false, or an object \{ faults\?, unmappedAccess\?, maxUnmappedAccessRecords\? \}/,
    });
  });

  describe('gpuValidation as an object', () => {
    const settingsOf = async (gpuValidation: DeviceOptions['gpuValidation']): Promise<[boolean, boolean, number]> => {
      const { settings } = deviceContext(await createDevice({ gpuValidation }));
      return [settings.gpuValidation, settings.unmappedAccess, settings.maxUnmappedAccessRecords];
    };

    test('every field may be left out: faults on, unmapped accesses off, 256 records', async () => {
      expect(DEFAULT_UNMAPPED_ACCESS_RECORDS).toBe(256);
      expect(await settingsOf({})).toEqual([true, false, 256]);
      expect(
        await settingsOf(loose({ faults: null, unmappedAccess: undefined, maxUnmappedAccessRecords: null })),
      ).toEqual([true, false, 256]);
      expect(await settingsOf(loose(null))).toEqual([true, false, 256]);
    });

    test.each([
      [{ faults: false }, [false, false, 256]],
      [{ unmappedAccess: true }, [true, true, 256]],
      [{ faults: false, unmappedAccess: true }, [false, true, 256]],
      [{ unmappedAccess: true, maxUnmappedAccessRecords: 1 }, [true, true, 1]],
      [
        { unmappedAccess: true, maxUnmappedAccessRecords: MAX_UNMAPPED_ACCESS_RECORDS },
        [true, true, MAX_UNMAPPED_ACCESS_RECORDS],
      ],
      [{ maxUnmappedAccessRecords: 7 }, [true, false, 7]],
    ] as const)('%j is accepted', async (gpuValidation, expected) => {
      expect(await settingsOf(gpuValidation)).toEqual(expected);
    });

    test.each([
      ['faults', 1, /must be true or false, got 1/],
      ['faults', 'true', /must be true or false/],
      ['faults', {}, /must be true or false/],
      ['unmappedAccess', 0, /must be true or false, got 0/],
      ['unmappedAccess', 'yes', /must be true or false/],
      ['maxUnmappedAccessRecords', 0, /must be at least 1, got 0/],
      ['maxUnmappedAccessRecords', -5, /must be at least 1, got -5/],
      [
        'maxUnmappedAccessRecords',
        MAX_UNMAPPED_ACCESS_RECORDS + 1,
        new RegExp(`must be at most ${MAX_UNMAPPED_ACCESS_RECORDS}, got ${MAX_UNMAPPED_ACCESS_RECORDS + 1}`),
      ],
      ['maxUnmappedAccessRecords', 2.5, /must be an integer, got 2.5/],
      ['maxUnmappedAccessRecords', Number.NaN, /must be an integer, got NaN/],
      ['maxUnmappedAccessRecords', Number.POSITIVE_INFINITY, /must be an integer/],
      ['maxUnmappedAccessRecords', '16', /must be an integer/],
    ] as const)('%s %s is rejected, naming the field', async (field, value, message) => {
      // One invalid field, beside valid ones.
      const options = { faults: true, unmappedAccess: true, maxUnmappedAccessRecords: 16, [field]: value };
      await expectD3D12Rejection(createDevice({ gpuValidation: loose(options) }), {
        hresult: 'E_INVALIDARG',
        call: 'createDevice',
        argument: `options.gpuValidation.${field}`,
        message,
      });
      // Control: the same options with that field valid.
      expect(await settingsOf({ faults: true, unmappedAccess: true, maxUnmappedAccessRecords: 16 })).toEqual([
        true,
        true,
        16,
      ]);
    });

    test.each(['unmapped', 'fault', 'unmappedAccesses', 'maxRecords', 'FAULTS'])(
      'an unknown field %s is rejected, naming it',
      async (field) => {
        await expectD3D12Rejection(createDevice({ gpuValidation: loose({ unmappedAccess: true, [field]: true }) }), {
          call: 'createDevice',
          argument: `options.gpuValidation.${field}`,
          message: /is not a gpuValidation option \(those are faults, unmappedAccess, maxUnmappedAccessRecords\)/,
        });
      },
    );

    test('readUnmappedAccesses: DXGI_ERROR_INVALID_CALL without the option; an empty report on a CPU-only device with it', async () => {
      for (const gpuValidation of [undefined, true, false, {}, { faults: false }]) {
        const device = await createDevice({ gpuDevice: null, gpuValidation });
        await expectD3D12Rejection(device.readUnmappedAccesses(), {
          hresult: 'DXGI_ERROR_INVALID_CALL',
          call: 'readUnmappedAccesses',
          argument: 'this',
          message: /created without gpuValidation: \{ unmappedAccess: true \}/,
        });
      }
      const device = await createDevice({ gpuDevice: null, gpuValidation: { unmappedAccess: true } });
      expect(await device.readUnmappedAccesses()).toEqual({ resources: [], accesses: [], accessCount: 0, lost: 0 });
    });
  });

  describe.each(['localMemoryBytes', 'nonLocalMemoryBytes'] as const)('%s', (field) => {
    test.each([1, 65536, 256 * 2 ** 20, 2 ** 40])('%s is accepted', async (bytes) => {
      const device = await createDevice({ [field]: bytes });
      expect(deviceContext(device).settings[field]).toBe(bytes);
    });

    test.each([
      [0, /at least 1/],
      [-65536, /at least 1/],
      [65536.5, /integer/],
      [Number.NaN, /integer/],
      [Number.POSITIVE_INFINITY, /integer/],
      [2 ** 53, /integer/],
      ['65536', /integer/],
    ] as const)('%s is rejected', async (bytes, message) => {
      await expectD3D12Rejection(createDevice({ [field]: loose(bytes) }), {
        call: 'createDevice',
        argument: `options.${field}`,
        message,
      });
    });

    test('null means the default, like every other option', async () => {
      const device = await createDevice({ [field]: loose(null) });
      expect(deviceContext(device).settings[field]).toBeUndefined();
    });
  });

  describe('eviction', () => {
    test('left out (or null) it is immediate: every eviction really pages, for validation', async () => {
      for (const eviction of [undefined, null]) {
        const device = await createDevice({ gpuDevice: null, eviction: loose(eviction) });
        expect(deviceContext(device).settings.eviction).toBe('immediate');
      }
    });

    test.each(['immediate', 'lazy'] as const)(
      '%s is accepted (a CPU-only device keeps the same accounting)',
      async (eviction) => {
        const device = await createDevice({ gpuDevice: null, eviction });
        expect(deviceContext(device).settings.eviction).toBe(eviction);
        const heap = device.createHeap({ sizeInBytes: 65536, properties: { type: 'DEFAULT' } });
        device.evict([heap]);
        expect(device.queryVideoMemoryInfo('LOCAL').currentUsage).toBe(0);
        device.makeResident([heap]);
        expect(device.queryVideoMemoryInfo('LOCAL').currentUsage).toBe(65536);
      },
    );

    test.each([
      ['Lazy', /immediate, lazy/],
      ['', /immediate, lazy/],
      ['deferred', /immediate, lazy/],
      [1, /immediate, lazy/],
      [true, /immediate, lazy/],
      [{}, /immediate, lazy/],
      [['lazy'], /immediate, lazy/],
    ] as const)('%j is rejected, naming the modes', async (eviction, message) => {
      await expectD3D12Rejection(createDevice({ gpuDevice: null, eviction: loose(eviction) }), {
        call: 'createDevice',
        argument: 'options.eviction',
        message,
      });
    });

    test('an invalid eviction is reported beside valid options, and valid options beside it are not blamed', async () => {
      await expectD3D12Rejection(
        createDevice({ gpuDevice: null, tiledResourcesTier: 2, onPageFault: 'report', eviction: loose('later') }),
        { argument: 'options.eviction' },
      );
      const device = await createDevice({
        gpuDevice: null,
        tiledResourcesTier: 2,
        onPageFault: 'report',
        eviction: 'lazy',
      });
      expect(deviceContext(device).settings).toMatchObject({
        tiledResourcesTier: 2,
        onPageFault: 'report',
        eviction: 'lazy',
      });
    });
  });

  test.each(['tiers', 42, true])('options %s (not an object) is rejected', async (options) => {
    await expectD3D12Rejection(createDevice(loose(options)), {
      call: 'createDevice',
      argument: 'options',
      message: /must be an object/,
    });
  });

  test('the first invalid option is reported; the others do not mask it', async () => {
    await expectD3D12Rejection(createDevice({ tiledResourcesTier: loose(9), resourceHeapTier: 1 }), {
      argument: 'options.tiledResourcesTier',
    });
    await expectD3D12Rejection(createDevice({ tiledResourcesTier: 2, resourceHeapTier: loose(9) }), {
      argument: 'options.resourceHeapTier',
    });
  });

  test('createDevice reports invalid options by rejecting, not by throwing synchronously', () => {
    let promise: Promise<Device> | undefined;
    expect(() => {
      promise = createDevice({ tiledResourcesTier: loose(0) });
    }).not.toThrow();
    expect(promise).toBeInstanceOf(Promise);
    return expect(promise).rejects.toBeInstanceOf(D3D12Error);
  });
});

describe('checkFeatureSupport', () => {
  const tierPairs = ([1, 2, 3, 4] as const).flatMap((tiled) => ([1, 2] as const).map((heap) => [tiled, heap] as const));

  test.each(tierPairs)(
    'OPTIONS reports tiled resources tier %i and resource heap tier %i as created',
    async (tiledResourcesTier, resourceHeapTier) => {
      const device = await createDevice({ tiledResourcesTier, resourceHeapTier });
      expect(device.checkFeatureSupport('OPTIONS')).toEqual({
        tiledResourcesTier,
        resourceHeapTier,
        maxGPUVirtualAddressBitsPerResource: 40,
        standardSwizzle64KBSupported: false,
        crossAdapterRowMajorTextureSupported: false,
        crossNodeSharingTier: 'NOT_SUPPORTED',
      });
    },
  );

  test('GPU_VIRTUAL_ADDRESS_SUPPORT reports 40 bits per resource and per process', async () => {
    const device = await createDevice();
    expect(VIRTUAL_ADDRESS_BITS).toBe(40);
    expect(device.checkFeatureSupport('GPU_VIRTUAL_ADDRESS_SUPPORT')).toEqual({
      maxGPUVirtualAddressBitsPerResource: 40,
      maxGPUVirtualAddressBitsPerProcess: 40,
    });
  });

  test('ARCHITECTURE reports one discrete node', async () => {
    const device = await createDevice();
    expect(device.checkFeatureSupport('ARCHITECTURE')).toEqual({
      nodeIndex: 0,
      tileBasedRenderer: false,
      uma: false,
      cacheCoherentUMA: false,
    });
  });

  test('each query returns a fresh object: changing it does not change the device', async () => {
    const device = await createDevice({ tiledResourcesTier: 2 });
    const first = device.checkFeatureSupport('OPTIONS');
    (first as { tiledResourcesTier: number }).tiledResourcesTier = 4;
    expect(device.checkFeatureSupport('OPTIONS').tiledResourcesTier).toBe(2);
  });

  test.each(['D3D12_OPTIONS', 'options', 'OPTIONS1', 'FEATURE_LEVELS', '', 3, null, undefined])(
    'unknown feature %s is rejected',
    async (feature) => {
      const device = await createDevice();
      expectD3D12Error(() => device.checkFeatureSupport(feature as keyof FeatureData), {
        call: 'checkFeatureSupport',
        argument: 'feature',
        message: /must be one of OPTIONS, GPU_VIRTUAL_ADDRESS_SUPPORT, ARCHITECTURE/,
      });
      // The device still answers afterwards.
      expect(device.checkFeatureSupport('OPTIONS').maxGPUVirtualAddressBitsPerResource).toBe(40);
    },
  );
});

describe('createCommandQueue', () => {
  test.each(['DIRECT', 'COMPUTE', 'COPY'] as const)('type %s is accepted, other fields defaulted', async (type) => {
    const device = await createDevice();
    const queue = device.createCommandQueue({ type });
    expect(queue.getDesc()).toEqual({ type, priority: 'NORMAL', flags: [], nodeMask: 0 });
  });

  test.each(['BUNDLE', 'VIDEO_DECODE', 'VIDEO_PROCESS', 'VIDEO_ENCODE', 'direct', '', 0, undefined])(
    'type %s is rejected',
    async (type) => {
      const device = await createDevice();
      expectD3D12Error(() => device.createCommandQueue({ type: loose(type) }), {
        call: 'createCommandQueue',
        argument: 'desc.type',
        message: /must be one of DIRECT, COMPUTE, COPY/,
      });
    },
  );

  test.each(['NORMAL', 'HIGH', 'GLOBAL_REALTIME'] as const)('priority %s is accepted', async (priority) => {
    const device = await createDevice();
    expect(device.createCommandQueue({ type: 'DIRECT', priority }).getDesc().priority).toBe(priority);
  });

  test.each(['LOW', 'REALTIME', 0, 100])('priority %s is rejected', async (priority) => {
    const device = await createDevice();
    expectD3D12Error(() => device.createCommandQueue({ type: 'DIRECT', priority: loose(priority) }), {
      call: 'createCommandQueue',
      argument: 'desc.priority',
      message: /must be one of NORMAL, HIGH, GLOBAL_REALTIME/,
    });
  });

  test.each([[[]], [['NONE']], [['DISABLE_GPU_TIMEOUT']], [['NONE', 'DISABLE_GPU_TIMEOUT']]] as const)(
    'flags %j are accepted',
    async (flags) => {
      const device = await createDevice();
      expect(device.createCommandQueue({ type: 'COPY', flags: [...flags] }).getDesc().flags).toEqual(flags);
    },
  );

  test.each([
    [['DISABLE_GPU_TIMEOUT', 'ALLOW_TEARING'], 'desc.flags[1]', /must be one of NONE, DISABLE_GPU_TIMEOUT/],
    [['disable_gpu_timeout'], 'desc.flags[0]', /must be one of/],
    ['DISABLE_GPU_TIMEOUT', 'desc.flags', /must be an array/],
    [0, 'desc.flags', /must be an array/],
  ] as const)('flags %j are rejected', async (flags, argument, message) => {
    const device = await createDevice();
    expectD3D12Error(() => device.createCommandQueue({ type: 'COPY', flags: loose(flags) }), {
      call: 'createCommandQueue',
      argument,
      message,
    });
  });

  test.each([0, 1])('nodeMask %i is accepted (one node)', async (nodeMask) => {
    const device = await createDevice();
    expect(device.createCommandQueue({ type: 'COMPUTE', nodeMask }).getDesc().nodeMask).toBe(nodeMask);
  });

  test.each([
    [2, /at most 1/],
    [3, /at most 1/],
    [-1, /at least 0/],
    [0.5, /integer/],
  ] as const)('nodeMask %s is rejected', async (nodeMask, message) => {
    const device = await createDevice();
    expectD3D12Error(() => device.createCommandQueue({ type: 'COMPUTE', nodeMask }), {
      call: 'createCommandQueue',
      argument: 'desc.nodeMask',
      message,
    });
  });

  test.each([null, undefined, 'DIRECT', []])('desc %j (not an object) is rejected', async (desc) => {
    const device = await createDevice();
    expectD3D12Error(() => device.createCommandQueue(loose(desc)), {
      call: 'createCommandQueue',
      argument: 'desc',
      message: /D3D12_COMMAND_QUEUE_DESC/,
    });
  });

  test('getDesc returns a copy; a failed creation leaves the device usable', async () => {
    const device = await createDevice();
    const desc: CommandQueueDesc = { type: 'DIRECT', priority: 'HIGH', flags: ['DISABLE_GPU_TIMEOUT'], nodeMask: 1 };
    const queue = device.createCommandQueue(desc);
    const copy = queue.getDesc();
    copy.flags.push('NONE');
    copy.priority = 'NORMAL';
    expect(queue.getDesc()).toEqual(desc);
    expectD3D12Error(() => device.createCommandQueue({ type: loose('BUNDLE') }), { argument: 'desc.type' });
    expect(device.createCommandQueue({ type: 'COPY' }).getDesc().type).toBe('COPY');
  });
});

describe('devices are independent', () => {
  test('options of one device do not leak into another', async () => {
    const options: DeviceOptions = { tiledResourcesTier: 1, resourceHeapTier: 1 };
    const a = await createDevice(options);
    const b = await createDevice();
    expect(a.checkFeatureSupport('OPTIONS').tiledResourcesTier).toBe(1);
    expect(b.checkFeatureSupport('OPTIONS').tiledResourcesTier).toBe(3);
    expect(b.checkFeatureSupport('OPTIONS').resourceHeapTier).toBe(2);
  });
});
