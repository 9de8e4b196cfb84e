/**
 * The whole catalogue of the API fuzzer, and the world it starts from: the objects a run creates
 * before its first fuzzed call, on the device under test and on the second device.
 *
 * Invariants: `fullCatalogue` has a MethodSpec for every public method of Device, Heap, Resource,
 * QueryHeap, CommandQueue, GraphicsCommandList, Fence, ResidencyManager, ResidencySet,
 * DescriptorHeap, RootSignature, CommandAllocator and SwapChain, for createResidencyManager,
 * serializeVersionedRootSignature and serializeRootSignature, and for every function the
 * d3d12-webgpu/d3dx12 entry exports (catalogue-d3dx12.ts; the gpu test checks the classes against
 * the sources and the d3dx12 functions against the entry's exports; an overload D3D12 has, such as
 * createCommandList(nodeMask, type, allocator, state), has a spec of its own); `populate` gives a world at least one object of every kind the
 * plans draw from, so every method can be planned.
 */
import { createResidencyManager, type Device } from '../../../src/index.js';
import { bindingCatalogue, populateBinding } from './catalogue-binding.js';
import { bindingListCatalogue } from './catalogue-binding-list.js';
import { d3dx12Catalogue } from './catalogue-d3dx12.js';
import { COMPUTE_WGSL, deviceCatalogue, GRAPHICS_WGSL } from './catalogue-device.js';
import { listCatalogue } from './catalogue-list.js';
import { objectCatalogue } from './catalogue-objects.js';
import { residencyCatalogue } from './catalogue-residency.js';
import { textureCopyCatalogue } from './catalogue-texture-copies.js';
import { TILE } from '../d3d12-helpers.js';
import { type DeviceWorld } from './pool.js';
import type { MethodSpec } from './spec.js';

export function fullCatalogue(): MethodSpec[] {
  return [
    ...deviceCatalogue(),
    ...objectCatalogue(),
    ...listCatalogue(),
    ...residencyCatalogue(),
    ...textureCopyCatalogue(),
    ...bindingCatalogue(),
    ...bindingListCatalogue(),
    ...d3dx12Catalogue(),
  ];
}

/**
 * The objects a world starts with: heaps of every type, committed, placed and reserved resources
 * (buffers and textures), queues and lists of each type, fences, pipeline states, query heaps (where
 * timestamps are supported), a residency manager with sets, one released heap and resource, and
 * the binding objects of populateBinding (descriptor heaps, root signatures, allocators, a swap chain).
 */
export async function populate(
  world: DeviceWorld,
  options: { full: boolean; timestamps: boolean; tier: number; clock: () => number },
): Promise<void> {
  const device: Device = world.device;
  world.syncQueue = device.createCommandQueue({ type: 'DIRECT' });
  world.syncFence = device.createFence(0);
  for (const type of ['DIRECT', 'COMPUTE', 'COPY'] as const) {
    world.addQueue(device.createCommandQueue({ type }));
    world.addList(device.createCommandList(type));
  }
  world.addFence(device.createFence(0), 0);
  world.addFence(device.createFence(3), 3);
  const heap = (
    sizeInBytes: number,
    type: 'DEFAULT' | 'UPLOAD' | 'READBACK',
    flags: ('CREATE_NOT_RESIDENT' | 'ALLOW_ONLY_BUFFERS')[] = [],
  ): void => world.addHeap(device.createHeap({ sizeInBytes, properties: { type }, flags }));
  heap(8 * TILE, 'DEFAULT');
  heap(2 * TILE, 'UPLOAD');
  if (options.full) {
    heap(4 * TILE, 'DEFAULT', ['CREATE_NOT_RESIDENT']);
    heap(2 * TILE, 'READBACK');
    world.addHeap(
      device.createHeap({
        sizeInBytes: 2 * TILE,
        properties: { type: 'CUSTOM', cpuPageProperty: 'WRITE_BACK', memoryPoolPreference: 'L0' },
      }),
    );
  }
  const [defaultHeap, uploadHeap] = world.heaps as [DeviceWorld['heaps'][number], DeviceWorld['heaps'][number]];
  const committed = (
    type: 'DEFAULT' | 'UPLOAD' | 'READBACK',
    width: number,
    state: 'COMMON' | 'GENERIC_READ' | 'COPY_DEST',
  ): void => world.addResource(device.createCommittedResource({ type }, [], { dimension: 'BUFFER', width }, state));
  committed('DEFAULT', 2 * TILE, 'COMMON');
  committed('UPLOAD', TILE, 'GENERIC_READ');
  committed('READBACK', TILE, 'COPY_DEST');
  world.addResource(device.createPlacedResource(defaultHeap, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON'));
  world.addResource(device.createPlacedResource(uploadHeap, 0, { dimension: 'BUFFER', width: TILE }, 'GENERIC_READ'));
  world.addResource(device.createReservedResource({ dimension: 'BUFFER', width: 8 * TILE }, 'COMMON'));
  world.addResource(
    device.createReservedResource(
      {
        dimension: 'TEXTURE2D',
        width: 256,
        height: 256,
        mipLevels: 0,
        format: 'R8G8B8A8_UNORM',
        layout: '64KB_UNDEFINED_SWIZZLE',
      },
      'COMMON',
    ),
  );
  if (options.full) {
    world.addResource(
      device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
        'COMMON',
      ),
    );
    world.addResource(
      device.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
        'COMMON',
      ),
    );
    world.addResource(
      device.createPlacedResource(
        defaultHeap,
        4 * TILE,
        { dimension: 'TEXTURE2D', width: 32, height: 32, format: 'R32_FLOAT', flags: ['ALLOW_UNORDERED_ACCESS'] },
        'COMMON',
      ),
    );
    if (options.tier >= 3) {
      world.addResource(
        device.createReservedResource(
          {
            dimension: 'TEXTURE3D',
            width: 64,
            height: 32,
            depthOrArraySize: 32,
            format: 'R8G8B8A8_UNORM',
            layout: '64KB_UNDEFINED_SWIZZLE',
          },
          'COMMON',
        ),
      );
    }
  }
  world.addPipeline(await device.createComputePipelineState({ code: COMPUTE_WGSL, entryPoint: 'main' }));
  if (options.full) {
    world.addPipeline(
      await device.createGraphicsPipelineState({
        code: GRAPHICS_WGSL,
        vertexEntryPoint: 'vs',
        fragmentEntryPoint: 'fs',
        rtvFormat: 'B8G8R8A8_UNORM',
      }),
    );
  }
  if (options.timestamps) {
    world.addQueryHeap(device.createQueryHeap({ type: 'TIMESTAMP', count: 8 }));
    world.addQueryHeap(device.createQueryHeap({ type: 'COPY_QUEUE_TIMESTAMP', count: 4 }));
  }
  const manager = createResidencyManager(device, { clock: options.clock });
  world.addManager(manager);
  manager.beginTrackingObject(defaultHeap);
  world.addSet(manager.createResidencySet(), manager);
  const filled = manager.createResidencySet();
  filled.open();
  filled.insert(defaultHeap);
  filled.close();
  world.addSet(filled, manager);
  // A list left closed, so executions and resets have one from the start.
  const closed = device.createCommandList('DIRECT');
  closed.close();
  world.addList(closed);
  // Released objects, so every kind has a released one to pass from the first call.
  const releasedHeap = device.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
  world.label(releasedHeap, `heap#${releasedHeap.id}(DEFAULT)`);
  releasedHeap.release();
  world.releasedHeaps.push(releasedHeap);
  const releasedResource = device.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: TILE },
    'COMMON',
  );
  world.addResource(releasedResource);
  releasedResource.release();
  world.releaseResource(releasedResource, 'call');
  await populateBinding(world, options.full);
}
