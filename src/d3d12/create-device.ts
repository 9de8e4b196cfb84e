/**
 * createDevice: opens an emulated device, on a WebGPU device with its pools, page table and fault
 * log allocated (each allocation checked: src/gpu/error-guard.ts), or CPU-only. The device's GPU
 * side is attached here, so Device itself never waits on WebGPU.
 */
import { D3D12Error, invalidArg, orThrow } from '../api/errors.js';
import type { DeviceOptions, MemorySegment } from '../api/types.js';
import { GuardError } from '../gpu/error-guard.js';
import { GpuMemory, maxPoolBytes } from '../gpu/gpu-memory.js';
import { requestWebGPUDevice } from '../gpu/request-device.js';
import { TILE_SIZE } from '../memory/tiling.js';
import { VA_PAGE_SIZE } from '../memory/virtual-address-space.js';
import { validateCreateDevice } from '../validation/device.js';
import { Device } from './device.js';
import { VIRTUAL_ADDRESS_BITS } from './feature-support.js';
import { GpuBackend } from './gpu-backend.js';
import { MemoryBacking } from './memory-backing.js';

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
    return new Device(settings, {
      LOCAL: settings.localMemoryBytes ?? DEFAULT_LOCAL_MEMORY_BYTES,
      NON_LOCAL: settings.nonLocalMemoryBytes ?? DEFAULT_NON_LOCAL_MEMORY_BYTES,
    });
  }
  const largest = maxPoolBytes(gpuDevice);
  const limits = `this adapter allows ${largest} bytes per pool (maxBufferSize ${gpuDevice.limits.maxBufferSize}, maxStorageBufferBindingSize ${gpuDevice.limits.maxStorageBufferBindingSize})`;
  const pool = (asked: number | undefined, fallback: number, name: string): number => {
    const bytes = asked ?? Math.min(fallback, largest);
    if (bytes > largest) throw invalidArg('createDevice', `options.${name}`, `${bytes} bytes exceed what this GPU allows for one pool: ${limits}`);
    return Math.max(TILE_SIZE, Math.floor(bytes / TILE_SIZE) * TILE_SIZE);
  };
  const pools = {
    LOCAL: pool(settings.localMemoryBytes, DEFAULT_LOCAL_MEMORY_BYTES, 'localMemoryBytes'),
    NON_LOCAL: pool(settings.nonLocalMemoryBytes, DEFAULT_NON_LOCAL_MEMORY_BYTES, 'nonLocalMemoryBytes'),
  };
  const memory = await allocateMemory(gpuDevice, pools, { LOCAL: settings.localMemoryBytes === undefined, NON_LOCAL: settings.nonLocalMemoryBytes === undefined }, limits);
  const device = new Device(settings, pools);
  // A lost WebGPU device (destroyed by its owner, a driver reset) removes the emulated one.
  void gpuDevice.lost.then((info) => device.deviceLost(info.reason, info.message));
  // Errors WebGPU reports after a call returned (a refused staging buffer, say) remove the device.
  memory.onError = (error) => device.recordFailure(error.what, new GuardError(error));
  let backend: GpuBackend | undefined;
  const backing = new MemoryBacking(memory, (id) => device.heapById(id), (heap) => backend?.flushMapped(heap));
  device.attachBackend(
    backend = await GpuBackend.create(memory, backing, {
      tiledResourcesTier: settings.tiledResourcesTier,
      validation: settings.gpuValidation,
      unmappedAccessRecords: settings.unmappedAccess ? settings.maxUnmappedAccessRecords : 0,
    }, {
      faults: (records, lost, lists) => device.recordFaults(records, lost, lists),
      failed: (error) => device.recordFailure('GPU readback', error),
      reservedResources: () => device.reservedResources(),
    }),
  );
  return device;
}

/** The smallest pool a default size falls back to when WebGPU refuses the default. */
const SMALLEST_DEFAULT_POOL = 16 * 2 ** 20;

/**
 * The pools, page table and fault log, each checked (src/gpu/error-guard.ts). A default-sized pool
 * WebGPU refuses is halved and tried again, down to SMALLEST_DEFAULT_POOL (the defaults follow what
 * the adapter can give); a size the caller asked for is refused with E_OUTOFMEMORY, naming the
 * buffer, its size and the adapter's limits. `pools` is updated to the sizes that were taken.
 */
async function allocateMemory(gpuDevice: GPUDevice, pools: Record<MemorySegment, number>, defaulted: Record<MemorySegment, boolean>, limits: string): Promise<GpuMemory> {
  for (;;) {
    try {
      return await GpuMemory.create(gpuDevice, { localBytes: pools.LOCAL, nonLocalBytes: pools.NON_LOCAL, virtualPages: 2 ** VIRTUAL_ADDRESS_BITS / VA_PAGE_SIZE });
    } catch (error) {
      if (!(error instanceof GuardError)) throw error;
      const segment = (['LOCAL', 'NON_LOCAL'] as const).find((s) => error.detail.what.startsWith(`the ${s} pool`));
      if (segment && error.detail.outOfMemory && defaulted[segment] && pools[segment] / 2 >= SMALLEST_DEFAULT_POOL) {
        pools[segment] /= 2;
        continue;
      }
      const argument = segment === 'LOCAL' ? 'options.localMemoryBytes' : segment === 'NON_LOCAL' ? 'options.nonLocalMemoryBytes' : 'options';
      throw new D3D12Error(error.detail.outOfMemory ? 'E_OUTOFMEMORY' : 'E_FAIL', 'createDevice', argument, `WebGPU refused ${error.detail.what}: ${error.detail.message.split('\n')[0] ?? ''} (${limits})`);
    }
  }
}
