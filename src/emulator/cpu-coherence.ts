/**
 * CpuCoherence: D3D12's coherent CPU-accessible memory (UPLOAD, READBACK, CUSTOM write-back and
 * write-combine heaps) over two copies: the heap's CPU copy, which map() exposes, and its pages in a
 * GPU pool. CPU writes go to the pages before the next submission (and before the heap is paged out);
 * what GPU work wrote comes back into the CPU copy after it ran.
 *
 * Who wrote what is known exactly where D3D12 says it: unmap's written range, and the bytes copies
 * write. It is not known for a resource the CPU keeps mapped (it may write anywhere through the
 * pointer), nor for shader writes to UAV-capable CUSTOM memory (read back whole, speculatively). Only
 * CUSTOM heaps can be written by both sides (UPLOAD memory is never written by the GPU, READBACK memory
 * never read by it), so a CUSTOM heap keeps a third copy, its `base`: what the CPU last knew the pages
 * to hold. A flush sends only the bytes where the CPU copy differs from the base; a readback lands a
 * byte only where the CPU copy still equals the base and no flush sent that byte after the readback
 * was issued. That is a three-way merge in which each side's writes survive, as in real shared memory;
 * only a byte both sides wrote between two fences (a race in D3D12 too) ends up the CPU's.
 *
 * Invariants: at a submission, the pages hold every byte the CPU changed before it (of a committed
 * UPLOAD resource still mapped, every such byte the submission can read: see flush); after the
 * readbacks of a submission landed, the CPU copy holds every byte that submission's GPU work wrote,
 * except bytes the CPU wrote since. Queue writes move whole words: a flushed change is widened to its
 * 4-byte words, which can carry a neighbouring byte's older value over a byte the GPU wrote in the
 * same word between the same two fences (sub-word sharing, not done by D3D12 programs).
 */
import type { ExecutableList } from '../gpu/executor.js';
import type { GpuMemory } from '../gpu/gpu-memory.js';
import type { Heap } from '../d3d12/heap.js';
import type { Resource } from '../d3d12/resource.js';

/** A byte range [start, end) of a heap (or, for GPU reads, of the virtual address space). */
export interface Span {
  start: number;
  end: number;
}

/**
 * What a submission's GPU work may read, as sorted, disjoint virtual address ranges; undefined when
 * that is not known (work other than copies: shaders read through descriptors and addresses).
 */
export type GpuReads = () => readonly Span[] | undefined;

const words = (span: Span, limit: number): Span => ({
  start: Math.floor(span.start / 4) * 4,
  end: Math.min(Math.ceil(span.end / 4) * 4, limit),
});

/**
 * `spans` sorted and merged where they overlap or touch: each byte once, in as few queue writes as
 * the spans allow (a streamer's unmaps of neighbouring ring slots become one write, not one a slot).
 */
function merged(spans: readonly Span[]): Span[] {
  if (spans.length <= 1) return spans.slice();
  const sorted = spans.slice().sort((x, y) => x.start - y.start);
  const out: Span[] = [{ ...(sorted[0] as Span) }];
  for (const span of sorted) {
    const last = out[out.length - 1] as Span;
    if (span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/**
 * The virtual address ranges the copy jobs of `lists` read, sorted and merged; undefined when the
 * lists hold anything but copies (shaders may read any memory their descriptors or addresses reach).
 */
export function copySources(lists: readonly ExecutableList[]): Span[] | undefined {
  const reads: Span[] = [];
  for (const list of lists) {
    for (const command of list.commands) {
      if (command.kind !== 'copy') return undefined;
      for (const job of command.jobs) reads.push({ start: Number(job.src), end: Number(job.src) + job.bytes });
    }
  }
  return merged(reads);
}

/** The heap spans of `resource` that the virtual address ranges `reads` (sorted, disjoint) cover. */
function readSpans(resource: Resource, reads: readonly Span[]): Span[] {
  const start = Number(resource.virtualRange.address);
  const end = start + resource.desc.width;
  const out: Span[] = [];
  for (const read of reads) {
    if (read.end <= start || read.start >= end) continue;
    out.push({
      start: resource.heapOffset + Math.max(read.start, start) - start,
      end: resource.heapOffset + Math.min(read.end, end) - start,
    });
  }
  return out;
}

/** The runs of `span` where `a` and `b` differ. */
function changedRuns(a: Uint8Array, b: Uint8Array, span: Span): Span[] {
  const runs: Span[] = [];
  let i = span.start;
  while (i < span.end) {
    while (i < span.end && a[i] === b[i]) i++;
    if (i >= span.end) break;
    const start = i;
    while (i < span.end && a[i] !== b[i]) i++;
    runs.push({ start, end: i });
  }
  return runs;
}

export class CpuCoherence {
  /**
   * CPU writes not yet sent to the GPU: per resource mapped since the last flush, the heap spans its
   * unmaps said were written (all of it while it is still mapped).
   */
  private readonly dirty = new Map<Resource, Span[]>();
  /** CUSTOM heaps: what the CPU last knew the pages to hold (see the header). */
  private readonly bases = new WeakMap<Heap, Uint8Array>();
  /** Readbacks issued and not landed, per heap. */
  private readonly inFlight = new Map<Heap, number>();
  /** Spans flushed into a heap while readbacks of it were in flight, numbered: newer than those readbacks. */
  private readonly flushedDuringReadback = new Map<Heap, { epoch: number; span: Span }[]>();
  private epoch = 0;
  /** Mapped UPLOAD resources that a flush sent only in part (flush's `reads`): their unmap sends them whole. */
  private readonly sentInPart = new WeakSet<Resource>();

  constructor(private readonly memory: GpuMemory) {}

  /** A live committed UPLOAD resource: its bytes are read only by GPU work, through its own addresses. */
  private static readOnlyByAddress(resource: Resource): boolean {
    return resource.kind === 'committed' && !resource.released && resource.heap?.desc.properties.type === 'UPLOAD';
  }

  private static heapSpan(resource: Resource, offset = 0, length = resource.desc.width): Span {
    return { start: resource.heapOffset + offset, end: resource.heapOffset + offset + length };
  }

  private base(heap: Heap): Uint8Array | undefined {
    if (heap.desc.properties.type !== 'CUSTOM' || !heap.cpuCopy) return undefined;
    let base = this.bases.get(heap);
    if (!base) {
      base = heap.cpuCopy.slice();
      this.bases.set(heap, base);
    }
    return base;
  }

  /** A resource was mapped: the CPU may write all of it, until it is unmapped. */
  mapped(resource: Resource): void {
    if (resource.heap?.desc.properties.type === 'READBACK') return;
    if (resource.heap) this.base(resource.heap);
    if (!this.dirty.has(resource)) this.dirty.set(resource, []);
  }

  /** A resource was unmapped: the CPU wrote `written` (when given; else all of it) since it was mapped. */
  unmapped(resource: Resource, written: { begin: number; end: number } | undefined): void {
    // Bytes written while mapped that no submission read may still be owed: all of it goes then.
    const whole = this.sentInPart.delete(resource) || !written;
    this.dirty
      .get(resource)
      ?.push(
        whole
          ? CpuCoherence.heapSpan(resource)
          : CpuCoherence.heapSpan(resource, written.begin, written.end - written.begin),
      );
  }

  /**
   * Sends the CPU's writes into `heap` (or into every heap) to its pages, in queue order: before a
   * submission, and before the heap is paged out, so that the evicted copy holds them.
   *
   * A resource still mapped may have been written anywhere (persistent mapping), so all of it goes;
   * but a committed UPLOAD resource is read by nothing but GPU work through its own addresses (the
   * GPU never writes it, no other resource shares its heap, and paging and page moves flush first,
   * with no `reads`), so before a submission whose `reads` are known only the bytes it reads go,
   * fresh from the CPU copy: what a later submission reads is sent before it in turn. A streamer's
   * persistently mapped ring then sends the slots it copies from, not the whole ring.
   */
  flush(heap?: Heap, reads?: GpuReads): void {
    let known: readonly Span[] | undefined | null = null;
    for (const [resource, spans] of this.dirty) {
      if (heap && resource.heap !== heap) continue;
      const mapped = resource.mapCount > 0;
      if (mapped && reads && CpuCoherence.readOnlyByAddress(resource)) {
        known ??= reads();
        if (known) {
          for (const span of readSpans(resource, known)) this.flushSpan(resource.heap, span);
          this.sentInPart.add(resource);
          spans.length = 0;
          continue;
        }
      }
      for (const span of mapped ? [CpuCoherence.heapSpan(resource)] : merged(spans))
        this.flushSpan(resource.heap, span);
      if (mapped && !resource.released) spans.length = 0;
      else this.dirty.delete(resource);
    }
  }

  private flushSpan(heap: Heap | undefined, span: Span): void {
    const memory = heap?.memory;
    const cpuCopy = heap?.cpuCopy;
    if (!heap || !memory || !cpuCopy) return;
    const base = this.base(heap);
    // Without a base, nothing but the CPU writes these pages: the whole span goes.
    for (const run of base ? changedRuns(cpuCopy, base, span) : [span]) {
      const sent = words(run, cpuCopy.length);
      if (sent.end <= sent.start) continue;
      this.memory.writeHeapBytes(memory.segment, memory.pages, sent.start, cpuCopy.subarray(sent.start, sent.end));
      base?.set(cpuCopy.subarray(sent.start, sent.end), sent.start);
      if (this.inFlight.has(heap)) {
        const flushed = this.flushedDuringReadback.get(heap) ?? [];
        flushed.push({ epoch: ++this.epoch, span: sent });
        this.flushedDuringReadback.set(heap, flushed);
      }
    }
  }

  /**
   * Reads back heap bytes `span` that GPU work submitted before may have written, into the CPU copy
   * (see the header for which bytes land). Returns the promise to track; it settles once they landed.
   */
  readBack(heap: Heap, span: Span): Promise<void> | undefined {
    const memory = heap.memory;
    const cpuCopy = heap.cpuCopy;
    if (!memory || !cpuCopy || span.end <= span.start) return undefined;
    const read = words(span, cpuCopy.length);
    this.inFlight.set(heap, (this.inFlight.get(heap) ?? 0) + 1);
    const issued = this.epoch;
    return this.memory
      .readHeapBytes(memory.segment, memory.pages, read.start, read.end - read.start)
      .then((bytes) => this.land(heap, span, read.start, bytes, issued))
      .finally(() => {
        const left = (this.inFlight.get(heap) ?? 1) - 1;
        if (left > 0) {
          this.inFlight.set(heap, left);
          return;
        }
        this.inFlight.delete(heap);
        this.flushedDuringReadback.delete(heap);
      });
  }

  private land(heap: Heap, span: Span, offset: number, bytes: Uint8Array, issued: number): void {
    const cpuCopy = heap.cpuCopy as Uint8Array;
    const newer = (this.flushedDuringReadback.get(heap) ?? [])
      .filter((flush) => flush.epoch > issued)
      .map((flush) => flush.span);
    const base = this.bases.get(heap);
    if (!base && newer.length === 0) {
      cpuCopy.set(bytes.subarray(span.start - offset, span.end - offset), span.start);
      return;
    }
    for (let i = span.start; i < span.end; i++) {
      if (newer.some((flushed) => i >= flushed.start && i < flushed.end)) continue;
      const value = bytes[i - offset] as number;
      if (base) {
        // The CPU changed this byte and has not sent it yet: its write is the newer one.
        if (cpuCopy[i] !== base[i]) continue;
        base[i] = value;
      }
      cpuCopy[i] = value;
    }
  }
}
