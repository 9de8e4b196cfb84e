/**
 * The command model. A command list records plain records of its validated commands
 * (RecordedCommand): copies as jobs between GPU virtual addresses, dispatches and draws with a
 * snapshot of their root arguments, UAV clears as the clear kernel's dispatches, query commands
 * with their heap. When a list is executed, each recorded command becomes its executable form
 * (src/gpu/encoders/executable-commands.ts) once, in executableCommands below: the D3D12 objects
 * it names are resolved to the WebGPU objects they stand for at that moment (pipelines, the back
 * buffer's current canvas texture, a query heap's result pages, the device's clear kernel). The
 * executor's encoder for each kind (src/gpu/encoders/) encodes that form as it is; nothing reshapes
 * or rebuilds it again. What is decided at submission lives beside it: the page-copy plan
 * (src/gpu/page-copies.ts) says which of a copy's jobs the page kernel runs, keyed by the copy, and
 * the copy encoder consults it. Barriers and state-only calls have no executable form: they count
 * in command indices (faults name commands by index) and run nothing.
 */
import type { CopyJob } from '../gpu/copy-jobs.js';
import type { IndexedCommand } from '../gpu/encoders/executable-commands.js';
import type { ClearDispatch } from '../gpu/uav-clear.js';
import type { Rect, Viewport } from '../api/types.js';
import { D3D12Error } from '../api/errors.js';
import type { PipelineState, PrimitiveTopology } from '../d3d12/pipeline-state.js';
import type { QueryHeap } from '../d3d12/query-heap.js';
import type { Resource } from '../d3d12/resource.js';
import type { BackBuffer } from '../d3d12/swap-chain.js';

/** A byte range of a resource in CPU-accessible memory that a command writes (read back after execution). */
export interface CpuVisibleWrite {
  resource: Resource;
  offset: number;
  length: number;
}

export type RecordedCommand =
  /** phases: dispatches the jobs are spread over, so that no two of one dispatch share a destination word (copyPhases). */
  | { kind: 'copy'; name: string; jobs: CopyJob[]; phases: number; writes: CpuVisibleWrite[] }
  /** addresses: the root descriptors' (what the list uses by address); memory: the descriptor heaps' its tables read. */
  | {
      kind: 'dispatch';
      pipeline: PipelineState;
      root: Uint32Array;
      groups: [number, number, number];
      addresses: bigint[];
      memory: Resource[];
    }
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
      /** Draw's arguments: vertex (or index) count, instance count, start vertex (0 for indexed draws), start instance. */
      vertices: [number, number, number, number];
      topology: PrimitiveTopology;
      /** The input assembler's constants (draw-state.ts): indexed-draw words, index buffer, vertex buffers. */
      assembler: Uint32Array;
      addresses: bigint[];
      memory: Resource[];
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
      return command.assembler[2] !== 0 ? 'drawIndexedInstanced' : 'drawInstanced';
    case 'timestamp':
      return 'endQuery';
    case 'resolve':
      return 'resolveQueryData';
    case 'barrier':
      return 'resourceBarrier';
  }
}

/**
 * The executable form of `command`, recorded at `index` of its list, as it runs now; adds the
 * CPU-visible bytes it writes to `writes`. `uavClearPipeline` is the device's clear kernel; `call`
 * names the call executing it (for the internal error of a query heap without result memory).
 */
function executable(
  command: RecordedCommand,
  index: number,
  writes: CpuVisibleWrite[],
  uavClearPipeline: () => GPUComputePipeline,
  call: string,
): IndexedCommand[] {
  switch (command.kind) {
    case 'copy':
      writes.push(...command.writes);
      return [{ index, kind: 'copy', jobs: command.jobs, phases: command.phases }];
    case 'dispatch': {
      const pipeline = command.pipeline.gpuPipeline as GPUComputePipeline;
      const { root, groups, addresses } = command;
      return [{ index, kind: 'dispatch', pipeline, root, groups, addresses }];
    }
    case 'uavClear': {
      writes.push(...command.writes);
      const pipeline = uavClearPipeline();
      return command.dispatches.map(({ root, groups }) => ({
        index,
        kind: 'dispatch',
        pipeline,
        root,
        groups,
        addresses: [],
      }));
    }
    case 'clear':
      return [{ index, kind: 'clear', target: command.target.texture, color: command.color }];
    case 'draw': {
      const { pipeline, root, target, viewport, scissor, vertices, assembler } = command;
      const gpuPipeline = pipeline.renderPipeline(command.topology);
      const draw = {
        pipeline: gpuPipeline,
        vertexReplay: pipeline.vertexReplay,
        root,
        viewport,
        scissor,
        vertices,
        assembler,
      };
      return [{ index, kind: 'draw', ...draw, target: target.texture }];
    }
    case 'timestamp':
      return [{ index, kind: 'timestamp', querySet: command.heap.querySet, queryIndex: command.index }];
    case 'resolve': {
      // Into the heap's staging pages (where its internal resource lives now), then a copy job
      // through the page table into the destination.
      const { results, querySet, label } = command.heap;
      const memory = results.heap?.memory;
      // The queue refused released heaps; the results resource lives as long as its heap.
      if (!memory)
        throw new D3D12Error('E_FAIL', call, 'commandLists', `${label}'s result memory is gone (internal error)`);
      writes.push(...command.writes);
      const pages = { segment: memory.segment, pages: memory.pages, offset: results.heapOffset };
      return [
        { index, kind: 'resolve', querySet, first: command.first, count: command.count, results: pages },
        { index, kind: 'copy', jobs: command.jobs, phases: 1 },
      ];
    }
    case 'barrier':
    case 'state':
      return [];
  }
}

/** The executable form of a list's commands, in order, with the CPU-visible bytes they write (added to `writes`). */
export function executableCommands(
  commands: readonly RecordedCommand[],
  writes: CpuVisibleWrite[],
  uavClearPipeline: () => GPUComputePipeline,
  call: string,
): IndexedCommand[] {
  return commands.flatMap((command, index) => executable(command, index, writes, uavClearPipeline, call));
}
