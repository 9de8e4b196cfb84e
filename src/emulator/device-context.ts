/**
 * DeviceContext: what one emulated device's objects share, made once per device (createDevice) and
 * handed to the Device, its queues and command lists instead of the Device itself. It holds the
 * machinery (memory objects, residency, deferred release, removal, query heaps, the GPU backend),
 * the settings and info queue, and answers "is this one of the device's objects?".
 *
 * Invariants: one context per device, never shared; `backend` is set once by createDevice (never
 * on a CPU-only device) and cleared by Device.destroy(); object ids come from one counter and are
 * never reused.
 */
import { invalidArg } from '../api/errors.js';
import type { CommandListType, MemorySegment } from '../api/types.js';
import { GraphicsCommandList } from '../d3d12/command-list.js';
import { Fence } from '../d3d12/fence.js';
import { InfoQueue } from '../d3d12/info-queue.js';
import { PipelineState } from '../d3d12/pipeline-state.js';
import type { DeviceSettings } from '../validation/device.js';
import { DeferredRelease, type HoldingQueue } from './deferred-release.js';
import { DeviceRemoval } from './device-removal.js';
import { DeviceResidency } from './device-residency.js';
import type { GpuBackend } from './gpu-backend.js';
import { MemoryObjects } from './memory-objects.js';
import { QueryHeaps } from './query-heaps.js';
import { DescriptorHeaps } from './descriptor-heaps.js';
import { RootSignatures } from './root-signatures.js';
import { CommandAllocator } from '../d3d12/command-allocator.js';
import type { DescriptorRecord } from '../d3d12/descriptor-heap.js';
import { DeviceChild } from '../d3d12/device-child.js';

const NO_GPU_MEMORY = 'this device has no GPU memory (created with gpuDevice: null, or where WebGPU is unavailable)';

export class DeviceContext {
  /** The GPU side; undefined on a CPU-only device and after Device.destroy(). */
  backend: GpuBackend | undefined = undefined;
  /** ID3D12InfoQueue: the debug layer's messages. */
  readonly infoQueue = new InfoQueue();
  /** The device's queues (deferred release looks at what they hold). */
  readonly queues = new Set<HoldingQueue>();
  /** Every fence of the device (removal completes them all). */
  readonly fences = new Set<Fence>();
  readonly commandLists = new WeakSet<GraphicsCommandList>();
  readonly pipelines = new WeakSet<PipelineState>();
  /** Releases waiting for GPU work that may use what they free (see deferred-release.ts). */
  readonly releases: DeferredRelease;
  readonly residency: DeviceResidency;
  /** Heaps and resources: creation, addresses, pages, freeing (see memory-objects.ts). */
  readonly objects: MemoryObjects;
  /** Why the device stopped working, and the faults it saw (see device-removal.ts). */
  readonly removal: DeviceRemoval;
  readonly queryHeaps: QueryHeaps;
  /** Descriptor heaps and the descriptors written into them (see descriptor-heaps.ts). */
  readonly descriptorHeaps: DescriptorHeaps;
  readonly rootSignatures = new RootSignatures(() => this.nextObjectId());
  private nextId = 1;

  constructor(
    /** The validated createDevice options. */
    readonly settings: DeviceSettings,
    pools: Record<MemorySegment, number>,
  ) {
    this.releases = new DeferredRelease({ queues: this.queues, gpu: () => this.backend, infoQueue: this.infoQueue });
    this.residency = new DeviceResidency(this, pools, {
      LOCAL: settings.localMemoryBudget ?? pools.LOCAL,
      NON_LOCAL: settings.nonLocalMemoryBudget ?? pools.NON_LOCAL,
    });
    this.objects = new MemoryObjects(
      {
        backend: () => this.backend,
        checkNotRemoved: (call) => this.removal.check(call),
        retire: (object, free) => this.releases.retire(object, free),
      },
      this.residency,
      settings,
    );
    this.removal = new DeviceRemoval(settings.onPageFault, this.fences, {
      resources: this.objects.live,
      heapById: (id) => this.objects.heapById(id),
      decode: (entry) => this.backend?.memory.pageTable.encoding.decode(entry),
      descriptorAt: (address) => this.descriptorHeaps.descriptorAt(address),
    });
    this.queryHeaps = new QueryHeaps(
      {
        backend: () => this.backend,
        createResultBuffer: (bytes) =>
          this.objects.createCommittedResource(
            { type: 'DEFAULT' },
            [],
            { dimension: 'BUFFER', width: bytes },
            'COMMON',
          ),
        nextObjectId: () => this.nextObjectId(),
      },
      this.releases,
    );
    this.descriptorHeaps = new DescriptorHeaps({
      nextObjectId: () => this.nextObjectId(),
      createMemory: (bytes) =>
        this.objects.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: bytes }, 'COMMON'),
    });
  }

  /** An id for a new command list, fence, pipeline state or query heap. */
  nextObjectId(): number {
    return this.nextId++;
  }

  /** The GPU side for `call`: throws on a removed device, and on a CPU-only one. */
  requireBackend(call: string): GpuBackend {
    // A destroyed device has no backend either: it says it was removed, not that it never had a GPU.
    this.removal.check(call);
    if (!this.backend) throw invalidArg(call, 'this', NO_GPU_MEMORY);
    return this.backend;
  }

  get maxThreadGroupsPerDimension(): number {
    return this.backend?.memory.device.limits.maxComputeWorkgroupsPerDimension ?? 65535;
  }

  // ---- ownership: whether a value is one of this device's objects ------------------------------
  // Heaps and resources: objects.ownHeap/ownResource; root signatures, descriptor heaps and query
  // heaps: their registry's own() (rootSignatures, descriptorHeaps, queryHeaps).

  /** The descriptor a CPU handle names in a heap of `type` of this device (undefined: never written); throws otherwise. */
  cpuDescriptor(
    call: string,
    argument: string,
    handle: unknown,
    type: 'RTV' | 'DSV' | 'CBV_SRV_UAV',
  ): DescriptorRecord | undefined {
    const slot = this.descriptorHeaps.resolve(call, argument, handle, type);
    return slot.heap.records[slot.index];
  }

  /** ID3D12Device::CreateCommandAllocator. */
  createCommandAllocator(type: CommandListType): CommandAllocator {
    return new CommandAllocator(this.nextObjectId(), type, this);
  }

  ownCommandAllocator(value: unknown): CommandAllocator | undefined {
    return value instanceof CommandAllocator && DeviceChild.createdBy(value, this) ? value : undefined;
  }

  ownCommandList(value: unknown): GraphicsCommandList | undefined {
    return value instanceof GraphicsCommandList && this.commandLists.has(value) ? value : undefined;
  }

  ownFence(value: unknown): Fence | undefined {
    return value instanceof Fence && this.fences.has(value) ? value : undefined;
  }

  ownPipelineState(value: unknown): PipelineState | undefined {
    return value instanceof PipelineState && this.pipelines.has(value) ? value : undefined;
  }
}
