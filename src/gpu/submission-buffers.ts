/**
 * What every submission of executed command lists reuses instead of creating: the per-dispatch
 * constants (a uniform buffer, bound at a dynamic offset per dispatch), the copy jobs (a storage
 * buffer), and the bind groups over them. Each buffer is persistent and grows by doubling; a bind
 * group is made again only when a buffer it binds is a different one.
 *
 * Invariant: rewriting a buffer an earlier submission reads is safe. queue.writeBuffer runs on the
 * queue timeline after every command buffer submitted before it, so each submission reads what was
 * written just before it was submitted, whatever is written for the next one.
 */

/** The smallest buffers: 256 dispatches of constants at a 256-byte stride; 2,048 copy jobs of 32 bytes. */
const MIN_BUFFER_BYTES = 64 * 1024;

interface CachedGroup {
  buffers: readonly GPUBuffer[];
  group: GPUBindGroup;
}

export class SubmissionBuffers {
  private constants: GPUBuffer | undefined;
  private jobs: GPUBuffer | undefined;
  private readonly groups = new Map<GPUBindGroupLayout, CachedGroup>();

  constructor(
    private readonly device: GPUDevice,
    /** Allocates through the device's memory (GpuMemory.createBuffer: refusals can be planted there). */
    private readonly create: (descriptor: GPUBufferDescriptor) => GPUBuffer,
  ) {}

  private static grown(current: GPUBuffer | undefined, bytes: number): number | undefined {
    if (current && current.size >= bytes) return undefined;
    let size = Math.max(MIN_BUFFER_BYTES, current?.size ?? 0);
    while (size < bytes) size *= 2;
    return size;
  }

  /** The constants buffer, at least `bytes` long, holding `data` from offset 0. */
  writeConstants(data: ArrayBuffer): GPUBuffer {
    const size = SubmissionBuffers.grown(this.constants, data.byteLength);
    if (size !== undefined) {
      // Submissions already made keep the old buffer alive until they have run (WebGPU defers the free).
      this.constants?.destroy();
      this.constants = this.create({ label: 'd3d12 dispatch constants', size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    }
    const buffer = this.constants as GPUBuffer;
    this.device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  }

  /** The jobs buffer, at least `data.byteLength` long, holding `data` from offset 0. */
  writeJobs(data: ArrayBuffer): GPUBuffer {
    const size = SubmissionBuffers.grown(this.jobs, data.byteLength);
    if (size !== undefined) {
      this.jobs?.destroy();
      this.jobs = this.create({ label: 'd3d12 copy jobs', size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    }
    const buffer = this.jobs as GPUBuffer;
    this.device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  }

  /** A bind group of `layout` over `entries`, reused while every buffer bound is the same one. */
  bindGroup(label: string, layout: GPUBindGroupLayout, entries: readonly GPUBindGroupEntry[]): GPUBindGroup {
    const buffers = entries.map((entry) => (entry.resource as GPUBufferBinding).buffer);
    const cached = this.groups.get(layout);
    if (cached && cached.buffers.length === buffers.length && cached.buffers.every((b, i) => b === buffers[i])) return cached.group;
    const group = this.device.createBindGroup({ label, layout, entries: [...entries] });
    this.groups.set(layout, { buffers, group });
    return group;
  }

  destroy(): void {
    this.constants?.destroy();
    this.jobs?.destroy();
    this.groups.clear();
  }
}
