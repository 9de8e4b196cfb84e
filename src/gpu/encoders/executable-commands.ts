/**
 * The executable form of a command list: what the queue makes of each recorded command when the
 * list is executed (the one conversion; see src/commands/recorded-commands.ts), with the D3D12 objects
 * it named resolved to their WebGPU objects. The encoders of this folder encode these as they are.
 */
import type { CopyJob } from '../copy-jobs.js';
import type { ResultPages } from '../queries.js';

export type ExecutableCommand =
  /** phases: dispatches the jobs are spread over, so that no two of one dispatch share a destination word. */
  | { kind: 'copy'; jobs: readonly CopyJob[]; phases: number }
  /** addresses: the root descriptors' (texture mirrors resolve descriptors at them: src/gpu/texture-mirrors.ts). */
  | {
      kind: 'dispatch';
      pipeline: GPUComputePipeline;
      root: Uint32Array;
      groups: readonly [number, number, number];
      addresses: readonly bigint[];
    }
  | { kind: 'clear'; target: GPUTexture; color: readonly [number, number, number, number] }
  | { kind: 'timestamp'; querySet: GPUQuerySet; queryIndex: number }
  | { kind: 'resolve'; querySet: GPUQuerySet; first: number; count: number; results: ResultPages }
  | {
      kind: 'draw';
      pipeline: GPURenderPipeline;
      /** With validation: the vertex-stage replay, dispatched just before the draw. */
      vertexReplay?: GPUComputePipeline;
      root: Uint32Array;
      target: GPUTexture;
      viewport?: {
        topLeftX: number;
        topLeftY: number;
        width: number;
        height: number;
        minDepth?: number;
        maxDepth?: number;
      };
      scissor?: { left: number; top: number; right: number; bottom: number };
      vertices: readonly [number, number, number, number];
      /** The input assembler's constants (D3D12DispatchInfo's draw_indexed, index_buffer, vertex_buffers). */
      assembler: Uint32Array;
    };

/** An executable command with the index of the recorded command it came from (as faults name it). */
export type IndexedCommand = { index: number } & ExecutableCommand;

export interface ExecutableList {
  id: number;
  commands: readonly IndexedCommand[];
}

export interface ExecutionSettings {
  tiledResourcesTier: number;
  validation: boolean;
}
