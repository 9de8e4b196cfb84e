/**
 * What the encoder of each command kind works with. Encoding a submission runs in two rounds over
 * its commands: plan (each command's per-dispatch constants, and the copy jobs of all copies) and,
 * once the constants and jobs are written and bound, encode (each command's passes and dispatches,
 * at the dynamic offsets of the constants its plan gave, in the same order).
 */
import type { CopyJob } from '../copy-jobs.js';
import type { GpuMemory } from '../gpu-memory.js';
import type { PageCopyPlan } from '../page-copies.js';
import type { MirrorSet, TextureMirrors } from '../texture-mirrors.js';
import type { UnmappedAccessBinding } from '../unmapped-access-log.js';
import type { ExecutionSettings } from './executable-commands.js';
import type { PassPlanner } from './pass-planner.js';

/** The constants of one dispatch or draw: its root arguments and (draws) drawInstanced's arguments. */
export interface DispatchConstants {
  root: Uint32Array;
  /** Dispatches of pipelines that open textures: their texture-mirror resolution set. */
  mirrors?: MirrorSet;
  draw?: readonly [number, number, number, number];
  /** Draws: the input assembler's words, from D3D12DispatchInfo's draw_indexed on. */
  assembler?: Uint32Array;
}

/** One planned dispatch or draw at encoding: its constants and their dynamic offset. */
export interface Slot {
  offset: number;
  constants: DispatchConstants;
}

/** What planning sees and gathers. */
export interface Planning {
  settings: ExecutionSettings;
  unmapped: UnmappedAccessBinding;
  /** The jobs of all copies of the submission, in the jobs buffer's order. */
  jobs: CopyJob[];
  /** Which of each copy's jobs the page kernel runs in this submission (src/gpu/page-copies.ts). */
  pageCopies: PageCopyPlan;
  /** The device's texture mirrors (resolution sets of dispatches that open textures). */
  mirrors: TextureMirrors;
}

export interface EncodeContext {
  memory: GpuMemory;
  passes: PassPlanner;
  /** The compute prelude's bind group (group 0). */
  prelude: GPUBindGroup;
  /** Group 0 for dispatches of resolution set `set` (its mirrors bound), and the resolve pre-pass. */
  mirrorPrelude(set: MirrorSet): GPUBindGroup;
  mirrorResolve: () => GPUComputePipeline;
  /** The graphics prelude's bind group (group 0 of draws); made when a draw is planned. */
  graphicsPrelude: GPUBindGroup | undefined;
  /**
   * The copy kernel, the page kernel (d3d12_copy_pages), their jobs bind group (group 1) when copies
   * are planned, and the submission's page-copy plan (the same as planning's).
   */
  copy: { pipeline: GPUComputePipeline; pages: GPUComputePipeline; jobs: GPUBindGroup | undefined; plan: PageCopyPlan };
  /** Buffers for this submission only (resolved queries): destroyed once it has run. */
  transient: GPUBuffer[];
}

/** The encoder of one command kind. */
export interface KindEncoder<C> {
  /** The constants of the dispatches and draws `command` encodes, in order; null when it encodes nothing. */
  plan(command: C, planning: Planning): DispatchConstants[] | null;
  /** Encodes `command`; `slots` are its plan's constants, in the same order. */
  encode(command: C, context: EncodeContext, slots: readonly Slot[]): void;
}
