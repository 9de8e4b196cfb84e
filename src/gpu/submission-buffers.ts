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
  bound: readonly unknown[];
  group: GPUBindGroup;
}

/** Whether the `lastLength` bytes of `last` begin with `bytes` (compared a word at a time when they are whole words). */
function sameBytes(last: Uint8Array, lastLength: number, bytes: Uint8Array): boolean {
  if (lastLength < bytes.length) return false;
  if (bytes.length % 4 === 0 && bytes.byteOffset % 4 === 0) {
    const a = new Uint32Array(last.buffer, 0, bytes.length / 4);
    const b = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  for (let i = 0; i < bytes.length; i++) if (last[i] !== bytes[i]) return false;
  return true;
}

/** What an entry binds: its buffer, or its texture view or sampler. */
const boundBy = (entry: GPUBindGroupEntry): unknown =>
  (entry.resource as Partial<GPUBufferBinding>).buffer ?? entry.resource;

/** Whether `entries` bind exactly `bound`, in order (no array made: it runs at every submission). */
function sameBound(bound: readonly unknown[], entries: readonly GPUBindGroupEntry[]): boolean {
  if (bound.length !== entries.length) return false;
  for (let i = 0; i < entries.length; i++) if (boundBy(entries[i] as GPUBindGroupEntry) !== bound[i]) return false;
  return true;
}

export class SubmissionBuffers {
  private readonly buffers: Record<'constants' | 'jobs', GPUBuffer | undefined> = {
    constants: undefined,
    jobs: undefined,
  };
  private readonly groups = new Map<GPUBindGroupLayout, CachedGroup>();
  /**
   * A copy of the bytes last written to each buffer (from offset 0) and how many there are (0: none
   * known). A copy, not the caller's array: the caller may reuse its memory (packDispatchInfo does).
   */
  private readonly written: Record<'constants' | 'jobs', { bytes: Uint8Array; length: number }> = {
    constants: { bytes: new Uint8Array(0), length: 0 },
    jobs: { bytes: new Uint8Array(0), length: 0 },
  };

  constructor(
    private readonly device: GPUDevice,
    /** Allocates through the device's memory (GpuMemory.createBuffer: refusals can be planted there). */
    private readonly create: (descriptor: GPUBufferDescriptor) => GPUBuffer,
  ) {}

  /** The constants buffer (uniform), holding `data` from offset 0. */
  writeConstants(data: ArrayBuffer | Uint8Array): GPUBuffer {
    return this.write('constants', 'd3d12 dispatch constants', GPUBufferUsage.UNIFORM, data);
  }

  /** The jobs buffer (storage), holding `data` from offset 0. */
  writeJobs(data: ArrayBuffer | Uint8Array): GPUBuffer {
    return this.write('jobs', 'd3d12 copy jobs', GPUBufferUsage.STORAGE, data);
  }

  private write(which: 'constants' | 'jobs', label: string, usage: number, data: ArrayBuffer | Uint8Array): GPUBuffer {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    const written = this.written[which];
    let buffer = this.buffers[which];
    if (!buffer || buffer.size < bytes.length) {
      let size = Math.max(MIN_BUFFER_BYTES, buffer?.size ?? 0);
      while (size < bytes.length) size *= 2;
      // Submissions already made keep the old buffer alive until they have run (WebGPU defers the free).
      buffer?.destroy();
      buffer = this.buffers[which] = this.create({ label, size, usage: usage | GPUBufferUsage.COPY_DST });
      written.length = 0;
    }
    if (!sameBytes(written.bytes, written.length, bytes)) {
      this.device.queue.writeBuffer(buffer, 0, bytes);
      if (written.bytes.length < bytes.length) written.bytes = new Uint8Array(buffer.size);
      written.bytes.set(bytes);
      written.length = bytes.length;
    }
    return buffer;
  }

  /** A bind group of `layout` over `entries`, reused while every buffer (texture view, sampler) bound is the same one. */
  bindGroup(label: string, layout: GPUBindGroupLayout, entries: readonly GPUBindGroupEntry[]): GPUBindGroup {
    const cached = this.groups.get(layout);
    if (cached && sameBound(cached.bound, entries)) return cached.group;
    const bound = entries.map(boundBy);
    const group = this.device.createBindGroup({ label, layout, entries: [...entries] });
    this.groups.set(layout, { bound, group });
    return group;
  }

  destroy(): void {
    this.buffers.constants?.destroy();
    this.buffers.jobs?.destroy();
    this.groups.clear();
  }
}
