/**
 * What a command list records: plain records of its validated commands, which the queue turns into
 * GPU work at execution (copies as jobs between GPU virtual addresses, dispatches and draws with a
 * snapshot of their root arguments).
 */
import type { CopyJob } from '../gpu/copy-jobs.js';
import type { ClearDispatch } from '../gpu/uav-clear.js';
import type { Rect, Viewport } from '../api/types.js';
import type { PipelineState } from './pipeline-state.js';
import type { QueryHeap } from './query-heap.js';
import type { Resource } from './resource.js';
import type { BackBuffer } from './swap-chain.js';

/** A byte range of a resource in CPU-accessible memory that a command writes (read back after execution). */
export interface CpuVisibleWrite {
  resource: Resource;
  offset: number;
  length: number;
}

export type RecordedCommand =
  /** phases: dispatches the jobs are spread over, so that no two of one dispatch share a destination word (copyPhases). */
  | { kind: 'copy'; name: string; jobs: CopyJob[]; phases: number; writes: CpuVisibleWrite[] }
  | { kind: 'dispatch'; pipeline: PipelineState; root: Uint32Array; groups: [number, number, number] }
  /** ClearUnorderedAccessView{Uint,Float}: dispatches of the emulator's clear kernel. */
  | { kind: 'uavClear'; name: string; dispatches: ClearDispatch[]; writes: CpuVisibleWrite[] }
  | { kind: 'clear'; target: BackBuffer; color: [number, number, number, number] }
  | {
      kind: 'draw';
      pipeline: PipelineState;
      root: Uint32Array;
      target: BackBuffer;
      viewport: Viewport | undefined;
      scissor: Rect | undefined;
      vertices: [number, number, number, number];
    }
  | { kind: 'timestamp'; heap: QueryHeap; index: number }
  | { kind: 'resolve'; heap: QueryHeap; first: number; count: number; jobs: CopyJob[]; writes: CpuVisibleWrite[] }
  | { kind: 'barrier' }
  /** A call that only sets state (pipeline, root constants, targets, viewports): counted, runs nothing. */
  | { kind: 'state'; name: string };

/** The API call that recorded a command, as fault reports name it. */
export function commandName(command: RecordedCommand): string {
  switch (command.kind) {
    case 'copy':
    case 'state':
    case 'uavClear':
      return command.name;
    case 'dispatch':
      return 'dispatch';
    case 'clear':
      return 'clearRenderTargetView';
    case 'draw':
      return 'drawInstanced';
    case 'timestamp':
      return 'endQuery';
    case 'resolve':
      return 'resolveQueryData';
    case 'barrier':
      return 'resourceBarrier';
  }
}
