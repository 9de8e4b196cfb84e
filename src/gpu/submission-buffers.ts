/**
 * What every submission of executed command lists reuses instead of creating: the per-dispatch
 * constants (a uniform buffer, bound at a dynamic offset per dispatch), the copy jobs (a storage
 * buffer), and the bind groups over them. Each buffer is persistent and grows by doubling; a bind
 * group is made again only when a buffer it binds is a different one.
 *
 * Invariant: rewriting a buffer an earlier submission reads is safe. queue.writeBuffer runs on the
 * queue timeline after every command buffer submitted before it, so each submission reads what was
 * written just before it was submitted, whatever is written for the next one. Only this class
 * writes these buffers, so bytes equal to the last ones written need no write: the buffer holds
 * them already (a list executed again writes nothing; a queue write costs a few µs of CPU).
 */

/** The smallest buffers: 256 dispatches of constants at a 256-byte stride; 2,048 copy jobs of 32 bytes. */
const MIN_BUFFER_BYTES = 64 * 1024;

interface CachedGroup {
  buffers: readonly unknown[];
  group: GPUBindGroup;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (!a || a.length < b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class SubmissionBuffers {
  private readonly buffers: Record<'constants' | 'jobs', GPUBuffer | undefined> = {
    constants: undefined,
    jobs: undefined,
  };
  private readonly groups = new Map<GPUBindGroupLayout, CachedGroup>();
  /** The bytes last written to each buffer (from offset 0). */
  private readonly written: Record<'constants' | 'jobs', Uint8Array | undefined> = {
    constants: undefined,
    jobs: undefined,
  };

  constructor(
    private readonly device: GPUDevice,
    /** Allocates through the device's memory (GpuMemory.createBuffer: refusals can be planted there). */
    private readonly create: (descriptor: GPUBufferDescriptor) => GPUBuffer,
  ) {}

  /** The constants buffer (uniform), holding `data` from offset 0. */
  writeConstants(data: ArrayBuffer): GPUBuffer {
    return this.write('constants', 'd3d12 dispatch constants', GPUBufferUsage.UNIFORM, data);
  }

  /** The jobs buffer (storage), holding `data` from offset 0. */
  writeJobs(data: ArrayBuffer): GPUBuffer {
    return this.write('jobs', 'd3d12 copy jobs', GPUBufferUsage.STORAGE, data);
  }

  private write(which: 'constants' | 'jobs', label: string, usage: number, data: ArrayBuffer): GPUBuffer {
    let buffer = this.buffers[which];
    if (!buffer || buffer.size < data.byteLength) {
      let size = Math.max(MIN_BUFFER_BYTES, buffer?.size ?? 0);
      while (size < data.byteLength) size *= 2;
      // Submissions already made keep the old buffer alive until they have run (WebGPU defers the free).
      buffer?.destroy();
      buffer = this.buffers[which] = this.create({ label, size, usage: usage | GPUBufferUsage.COPY_DST });
      this.written[which] = undefined;
    }
    const bytes = new Uint8Array(data);
    if (!sameBytes(this.written[which], bytes)) {
      this.device.queue.writeBuffer(buffer, 0, data);
      this.written[which] = bytes;
    }
    return buffer;
  }

  /** A bind group of `layout` over `entries`, reused while every buffer (texture view, sampler) bound is the same one. */
  bindGroup(label: string, layout: GPUBindGroupLayout, entries: readonly GPUBindGroupEntry[]): GPUBindGroup {
    const buffers = entries.map((entry) => (entry.resource as Partial<GPUBufferBinding>).buffer ?? entry.resource);
    const cached = this.groups.get(layout);
    if (cached && cached.buffers.length === buffers.length && cached.buffers.every((b, i) => b === buffers[i]))
      return cached.group;
    const group = this.device.createBindGroup({ label, layout, entries: [...entries] });
    this.groups.set(layout, { buffers, group });
    return group;
  }

  destroy(): void {
    this.buffers.constants?.destroy();
    this.buffers.jobs?.destroy();
    this.groups.clear();
  }
}
