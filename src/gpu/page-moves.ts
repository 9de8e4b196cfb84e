/**
 * Moving heaps' bytes from one set of pool pages to another (demotion to NON_LOCAL and promotion
 * back: src/emulator/heap-placement.ts), as one queue operation: it lands after all work submitted
 * before it and before all work submitted after, so no GPU access sees a page without its bytes.
 *
 * Both segments are ranges of one pool buffer, and WebGPU refuses copyBufferToBuffer within one
 * buffer, so the bytes go through a bounce buffer: every old page is copied into it first, then out
 * of it into the new pages, in one command buffer (commands of one encoder run in order). Copying
 * everything out before anything in means the new pages may be any pages, other moved heaps' old
 * ones included: a swap of two full segments needs no free page. The bounce holds the bytes moved
 * (it is freed once the copy has run); moves happen only when a process crosses its LOCAL budget.
 *
 * Invariants: each heap's new pages hold, after the submission, exactly what its old pages held at
 * that point in the queue; nothing else in the pool changes.
 */
import { forEachPhysicalSpan, PAGE_SIZE, type GpuMemory } from './gpu-memory.js';
import type { PagedHeap } from './paging.js';

export interface PageMove {
  from: PagedHeap;
  /** As many pages as `from`. */
  to: PagedHeap;
}

/** Copies each move's pages, old to new: one command buffer, one submission. */
export function movePages(memory: GpuMemory, moves: readonly PageMove[]): void {
  const total = moves.reduce((sum, { from }) => sum + from.pages.length * PAGE_SIZE, 0);
  if (total === 0) return;
  const bounce = memory.createBuffer({
    label: 'd3d12 heap move (bounce)',
    size: total,
    usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const encoder = memory.device.createCommandEncoder({ label: 'd3d12 move heaps between segments' });
  const starts: number[] = [];
  let offset = 0;
  for (const { from } of moves) {
    const at = offset;
    starts.push(at);
    forEachPhysicalSpan(from.pages, 0, from.pages.length * PAGE_SIZE, (poolOffset, rangeOffset, length) => {
      encoder.copyBufferToBuffer(
        memory.pool,
        memory.poolOffset(from.segment, poolOffset),
        bounce,
        at + rangeOffset,
        length,
      );
    });
    offset += from.pages.length * PAGE_SIZE;
  }
  moves.forEach(({ from, to }, i) => {
    if (to.pages.length !== from.pages.length)
      throw new RangeError(`movePages: a heap of ${from.pages.length} pages cannot move into ${to.pages.length}`);
    const at = starts[i] as number;
    forEachPhysicalSpan(to.pages, 0, to.pages.length * PAGE_SIZE, (poolOffset, rangeOffset, length) => {
      encoder.copyBufferToBuffer(
        bounce,
        at + rangeOffset,
        memory.pool,
        memory.poolOffset(to.segment, poolOffset),
        length,
      );
    });
  });
  memory.submit([encoder.finish()]);
  for (const { to } of moves) memory.pageListWritten(to.segment, to.pages);
  // Work already submitted keeps it alive until it has run.
  bounce.destroy();
}
