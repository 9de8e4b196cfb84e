/**
 * createDevice: opens an emulated device, on a WebGPU device with its pool, page table and fault
 * log allocated (each allocation checked: src/gpu/error-guard.ts), or CPU-only. The device's context
 * (src/emulator/device-context.ts) gets its GPU side here, so Device itself never waits on WebGPU.
 */
import { D3D12Error, invalidArg, orThrow } from '../api/errors.js';
import type { DeviceOptions, MemorySegment } from '../api/types.js';
import { GuardError } from '../gpu/error-guard.js';
import { GpuMemory, maxPoolBytes, POOL_WHAT } from '../gpu/gpu-memory.js';
import { requestWebGPUDevice, runsOnCpu } from '../gpu/request-device.js';
import { DEFAULT_TEXTURE_CACHE_BYTES, maxTextureCacheBytes } from '../gpu/texture-cache.js';
import { DEFAULT_TEXTURE_MIRROR_BYTES } from '../gpu/texture-mirrors.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { VA_PAGE_SIZE } from '../memory/virtual-address-space.js';
import { validateCreateDevice } from '../validation/device.js';
import { Device } from './device.js';
import { VIRTUAL_ADDRESS_BITS } from '../emulator/feature-support.js';
import { GpuBackend } from '../emulator/gpu-backend.js';
import { MemoryBacking } from '../emulator/memory-backing.js';
import { DeviceContext } from '../emulator/device-context.js';

/** Default pool sizes, within the adapter's limits: enough for tests and demos, not all of memory. */
export const DEFAULT_LOCAL_MEMORY_BYTES = 256 * 2 ** 20;
export const DEFAULT_NON_LOCAL_MEMORY_BYTES = 64 * 2 ** 20;

/**
 * Opens an emulated D3D12 device. Memory lives on `options.gpuDevice`, or, when it is left out, on a
 * device from navigator.gpu where the browser has one. `gpuDevice: null` (or no WebGPU at all) gives
 * a CPU-only device: the whole object model, tiling and tile mappings, but no memory, so executing
 * command lists and mapping are refused.
 */
export async function createDevice(options: DeviceOptions = {}): Promise<Device> {
  const settings = orThrow(validateCreateDevice(options));
  let gpuDevice = settings.gpuDevice;
  if (gpuDevice === undefined && typeof navigator !== 'undefined' && navigator.gpu) {
    gpuDevice = await requestWebGPUDevice(navigator.gpu);
  }
  if (!gpuDevice) {
    // A CPU-only device keeps the residency bookkeeping against nominal pools of the asked sizes.
    return new Device(
      new DeviceContext(settings, {
        LOCAL: settings.localMemoryBytes ?? DEFAULT_LOCAL_MEMORY_BYTES,
        NON_LOCAL: settings.nonLocalMemoryBytes ?? DEFAULT_NON_LOCAL_MEMORY_BYTES,
      }),
    );
  }
  const largest = maxPoolBytes(gpuDevice);
  const limits = `this adapter allows ${largest} bytes for both pools together (maxBufferSize ${gpuDevice.limits.maxBufferSize}, maxStorageBufferBindingSize ${gpuDevice.limits.maxStorageBufferBindingSize})`;
  const pools = poolSizes(largest, limits, settings.localMemoryBytes, settings.nonLocalMemoryBytes);
  const cacheLimit = maxTextureCacheBytes(gpuDevice);
  if (settings.textureCacheBytes !== undefined && settings.textureCacheBytes > cacheLimit)
    throw invalidArg(
      'createDevice',
      'options.textureCacheBytes',
      `${settings.textureCacheBytes} bytes exceed what this GPU's texture arrays hold: ${cacheLimit} bytes (maxTextureArrayLayers ${gpuDevice.limits.maxTextureArrayLayers} layers of 16 MiB)`,
    );
  const memory = await allocateMemory(
    gpuDevice,
    pools,
    settings.textureCacheBytes ?? (runsOnCpu(gpuDevice) ? 0 : Math.min(DEFAULT_TEXTURE_CACHE_BYTES, cacheLimit)),
    settings.textureMirrorBytes ?? (runsOnCpu(gpuDevice) ? 0 : DEFAULT_TEXTURE_MIRROR_BYTES),
    { LOCAL: settings.localMemoryBytes === undefined, NON_LOCAL: settings.nonLocalMemoryBytes === undefined },
    limits,
  );
  const context = new DeviceContext(settings, pools);
  const { removal, objects } = context;
  // A lost WebGPU device (destroyed by its owner, a driver reset) removes the emulated one.
  void gpuDevice.lost.then((info) =>
    removal.remove(
      'DXGI_ERROR_DEVICE_REMOVED',
      `the WebGPU device was lost (reason: ${info.reason ?? 'unknown'}): ${info.message}`,
      [],
    ),
  );
  // Errors WebGPU reports after a call returned (a refused staging buffer, say) remove the device.
  memory.onError = (error) => removal.recordFailure(error.what, new GuardError(error));
  // Descriptors written since the last submission reach the heaps' memory before the next.
  memory.beforeSubmit = () => context.descriptorHeaps.flush(memory);
  let backend: GpuBackend | undefined;
  const backing = new MemoryBacking(
    memory,
    (id) => objects.heapById(id),
    (heap) => backend?.flushMapped(heap),
    settings.eviction,
  );
  context.backend = backend = await GpuBackend.create(
    memory,
    backing,
    {
      tiledResourcesTier: settings.tiledResourcesTier,
      validation: settings.gpuValidation,
      unmappedAccessRecords: settings.unmappedAccess ? settings.maxUnmappedAccessRecords : 0,
    },
    {
      faults: (records, lost, lists) => removal.recordFaults(records, lost, lists),
      failed: (error) => removal.recordFailure('GPU readback', error),
      reservedResources: () => objects.reservedResources(),
    },
  );
  return new Device(context);
}

/**
 * The pool sizes, in whole pages: what was asked, and defaults that fit beside it. Both pools are
 * ranges of one buffer (src/gpu/gpu-memory.ts), so their sum is what the adapter's limits bound:
 * asked sizes over it are E_INVALIDARG, defaults shrink to fit (NON_LOCAL to at most a quarter when
 * both are defaults), and one page is the least either pool has.
 */
function poolSizes(
  largest: number,
  limits: string,
  asked: number | undefined,
  askedNonLocal: number | undefined,
): Record<MemorySegment, number> {
  const pages = (bytes: number): number => Math.max(TILE_SIZE, Math.floor(bytes / TILE_SIZE) * TILE_SIZE);
  const local = asked === undefined ? undefined : pages(asked);
  const nonLocal = askedNonLocal === undefined ? undefined : pages(askedNonLocal);
  if (local !== undefined && nonLocal !== undefined) {
    if (local + nonLocal > largest)
      throw invalidArg(
        'createDevice',
        'options.localMemoryBytes',
        `${local} bytes and options.nonLocalMemoryBytes's ${nonLocal} exceed what this GPU allows for both pools (one buffer): ${limits}`,
      );
    return { LOCAL: local, NON_LOCAL: nonLocal };
  }
  if (local !== undefined) {
    if (local + TILE_SIZE > largest)
      throw invalidArg(
        'createDevice',
        'options.localMemoryBytes',
        `${local} bytes leave no page of NON_LOCAL memory within what this GPU allows for both pools (one buffer): ${limits}`,
      );
    return { LOCAL: local, NON_LOCAL: pages(Math.min(DEFAULT_NON_LOCAL_MEMORY_BYTES, largest - local)) };
  }
  if (nonLocal !== undefined) {
    if (nonLocal + TILE_SIZE > largest)
      throw invalidArg(
        'createDevice',
        'options.nonLocalMemoryBytes',
        `${nonLocal} bytes leave no page of LOCAL memory within what this GPU allows for both pools (one buffer): ${limits}`,
      );
    return { LOCAL: pages(Math.min(DEFAULT_LOCAL_MEMORY_BYTES, largest - nonLocal)), NON_LOCAL: nonLocal };
  }
  const defaultNonLocal = pages(Math.min(DEFAULT_NON_LOCAL_MEMORY_BYTES, largest / 4));
  return { LOCAL: pages(Math.min(DEFAULT_LOCAL_MEMORY_BYTES, largest - defaultNonLocal)), NON_LOCAL: defaultNonLocal };
}

/** The smallest pool a default size falls back to when WebGPU refuses the default. */
const SMALLEST_DEFAULT_POOL = 16 * 2 ** 20;

/**
 * The pool, page table and fault log, each checked (src/gpu/error-guard.ts). When WebGPU refuses the
 * pool, the default-sized pools in it are halved and it is tried again, down to SMALLEST_DEFAULT_POOL
 * (the defaults follow what the adapter can give); sizes the caller asked for are refused with
 * E_OUTOFMEMORY, naming the buffer, its size and the adapter's limits. `pools` is updated to the
 * sizes that were taken.
 */
async function allocateMemory(
  gpuDevice: GPUDevice,
  pools: Record<MemorySegment, number>,
  textureCacheBytes: number,
  textureMirrorBytes: number,
  defaulted: Record<MemorySegment, boolean>,
  limits: string,
): Promise<GpuMemory> {
  for (;;) {
    try {
      return await GpuMemory.create(gpuDevice, {
        localBytes: pools.LOCAL,
        nonLocalBytes: pools.NON_LOCAL,
        virtualPages: 2 ** VIRTUAL_ADDRESS_BITS / VA_PAGE_SIZE,
        textureCacheBytes,
        textureMirrorBytes,
      });
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      const pool = error.detail.what.startsWith(POOL_WHAT);
      const shrink = SEGMENTS.filter((s) => defaulted[s] && pools[s] / 2 >= SMALLEST_DEFAULT_POOL);
      if (pool && error.detail.outOfMemory && shrink.length > 0) {
        for (const segment of shrink) pools[segment] /= 2;
        continue;
      }
      const asked = SEGMENTS.find((s) => !defaulted[s]);
      const argument =
        !pool || asked === undefined
          ? 'options'
          : asked === 'LOCAL'
            ? 'options.localMemoryBytes'
            : 'options.nonLocalMemoryBytes';
      throw new D3D12Error(
        error.detail.outOfMemory ? 'E_OUTOFMEMORY' : 'E_FAIL',
        'createDevice',
        argument,
        `WebGPU refused ${error.detail.what}: ${error.detail.message.split('\n')[0] ?? ''} (${limits})`,
      );
    }
  }
}

const SEGMENTS = ['LOCAL', 'NON_LOCAL'] as const;
