/**
 * Encodes executed command lists into one WebGPU command buffer, with one encoder per command kind
 * (./encoders/): every dispatch and every copy is a compute dispatch over the prelude's bind group
 * (page table, pool, per-dispatch constants, fault log, unmapped-access log, the texture cache's
 * tags, requests, atlas and sampler); a submission that runs shaders first fills the texture cache
 * with the pages earlier ones requested (src/gpu/texture-cache.ts); copies run the copy
 * kernel over their jobs (and the page kernel over those the submission's page-copy plan gives it,
 * src/gpu/page-copies.ts). Clears and draws go to render passes on their back buffer, with the
 * graphics prelude's bind group; the pass planner decides which commands share a pass. WebGPU orders
 * passes and dispatches, so D3D12's barriers need no GPU work here: their state rules were checked
 * when they were recorded and executed.
 *
 * Per submission: the per-dispatch constants (bound at a dynamic offset per dispatch) and the copy
 * jobs, written with queue writes just before the command buffer is submitted into buffers every
 * submission reuses, under bind groups made again only when those buffers change (SubmissionBuffers).
 * Lists with nothing to run encode nothing: no command buffer, no submission.
 */
import type { GpuMemory } from './gpu-memory.js';
import { planPageCopies } from './page-copies.js';
import { graphicsPreludeBindGroupLayout, preludeBindGroupLayout } from './pipelines.js';
import { preludeLayout } from './prelude.js';
import type { SubmissionBuffers } from './submission-buffers.js';
import type { UnmappedAccessBinding } from './unmapped-access-log.js';
import { clearEncoder } from './encoders/clear.js';
import { copyEncoder, packJobs, type CopyKernel } from './encoders/copy.js';
import { dispatchInfoStride, packDispatchInfo, type PlannedDispatch } from './encoders/dispatch-constants.js';
import { dispatchEncoder } from './encoders/dispatch.js';
import { drawEncoder } from './encoders/draw.js';
import type { EncodeContext, KindEncoder, Planning, Slot } from './encoders/encode-context.js';
import type { ExecutableCommand, ExecutableList, ExecutionSettings } from './encoders/executable-commands.js';
import { PassPlanner } from './encoders/pass-planner.js';
import { resolveEncoder, timestampEncoder } from './encoders/queries.js';

export { copyKernel } from './encoders/copy.js';
export type { ExecutableCommand, ExecutableList, ExecutionSettings } from './encoders/executable-commands.js';

type Kind = ExecutableCommand['kind'];
const ENCODERS: { [K in Kind]: KindEncoder<Extract<ExecutableCommand, { kind: K }>> } = {
  copy: copyEncoder,
  dispatch: dispatchEncoder,
  clear: clearEncoder,
  draw: drawEncoder,
  timestamp: timestampEncoder,
  resolve: resolveEncoder,
};
const encoderOf = (command: ExecutableCommand): KindEncoder<ExecutableCommand> => ENCODERS[command.kind];

/** A command that encodes something, with the slots of its constants. */
interface PlannedCommand {
  command: ExecutableCommand;
  slots: Slot[];
}

/** What planning `lists` gives: the commands that encode something, their dispatches, and the kinds among them. */
interface Plan {
  commands: PlannedCommand[];
  dispatches: PlannedDispatch[];
  /** Whether a dispatch or a draw runs (the texture cache is filled first), and whether a draw does (the graphics prelude is bound). */
  shaders: boolean;
  draws: boolean;
}

/** Plans every command of `lists`: their constants (in dispatch order) and copy jobs. */
function plan(lists: readonly ExecutableList[], planning: Planning, stride: number): Plan {
  const commands: PlannedCommand[] = [];
  const dispatches: PlannedDispatch[] = [];
  let shaders = false;
  let draws = false;
  for (const list of lists) {
    for (const command of list.commands) {
      const constants = encoderOf(command).plan(command, planning);
      if (!constants) continue;
      const slots: Slot[] = [];
      for (const each of constants) {
        slots.push({ offset: dispatches.length * stride, constants: each });
        // Named fields, not a spread: this runs for every dispatch of every submission.
        dispatches.push({
          root: each.root,
          mirrors: each.mirrors,
          draw: each.draw,
          assembler: each.assembler,
          list: list.id,
          index: command.index,
        });
      }
      commands.push({ command, slots });
      if (command.kind === 'draw') draws = true;
      if (command.kind === 'dispatch' || command.kind === 'draw') shaders = true;
    }
  }
  return { commands, dispatches, shaders, draws };
}

/**
 * Encodes `lists` into a command buffer; returns it with the buffers to destroy once submitted, or
 * null when the lists hold nothing to run (empty lists, empty dispatches and copies).
 * `kernel` must be the device's resolved copy kernel; `unmapped` is the unmapped-access log to bind
 * (or the placeholder, not recording); `buffers` the device's reused constants and jobs buffers.
 * Copies are planned against the page-table mirror's shadow (planPageCopies, page-copies.ts): submit
 * the command buffer right after, with no page-table change in between.
 */
export function encodeExecution(
  memory: GpuMemory,
  kernel: CopyKernel,
  settings: ExecutionSettings,
  lists: readonly ExecutableList[],
  unmapped: UnmappedAccessBinding,
  buffers: SubmissionBuffers,
  /** With validation: the slot the fault log is copied into at the end, and whether to clear it first (after a read). */
  faults?: { slot: GPUBuffer; clearFirst: boolean },
): { commandBuffer: GPUCommandBuffer; transient: GPUBuffer[] } | null {
  const device = memory.device;
  const stride = dispatchInfoStride(device);
  const pageCopies = planPageCopies(memory.pageTable, lists);
  const mirrors = memory.textureMirrors;
  mirrors.beginSubmission();
  const planning: Planning = { settings, unmapped, jobs: [], pageCopies, mirrors };
  const { commands, dispatches, shaders, draws } = plan(lists, planning, stride);
  if (commands.length === 0) return null;

  const cache = memory.textureCache;
  const infoBuffer = buffers.writeConstants(packDispatchInfo(dispatches, stride, settings, unmapped, cache.active));
  const jobs =
    planning.jobs.length > 0
      ? buffers.bindGroup('d3d12 copy jobs', kernel.jobsLayout, [
          { binding: 0, resource: { buffer: buffers.writeJobs(packJobs(planning.jobs)) } },
        ])
      : undefined;
  // Both preludes bind the page table, the pool, the constants, the fault log and the
  // unmapped-access log (the graphics prelude's logs are its fragment stage's).
  const memoryEntries: GPUBindGroupEntry[] = [
    { binding: 0, resource: { buffer: memory.pageTable.gpuBuffer } },
    { binding: 1, resource: { buffer: memory.pool } },
    { binding: 2, resource: { buffer: infoBuffer, size: preludeLayout().dispatchInfo.size } },
    { binding: 3, resource: { buffer: memory.faultLog } },
    { binding: 4, resource: { buffer: unmapped.buffer } },
    ...cache.bindings(),
  ];
  const layout = preludeBindGroupLayout(device);
  const prelude = buffers.bindGroup('d3d12 prelude', layout, [...memoryEntries, ...mirrors.bindings()]);
  const graphicsPrelude = draws
    ? buffers.bindGroup('d3d12 graphics prelude', graphicsPreludeBindGroupLayout(device), memoryEntries)
    : undefined;

  const encoder = device.createCommandEncoder({ label: 'd3d12 executeCommandLists' });
  if (faults?.clearFirst) memory.encodeFaultClear(encoder);
  // Pages shaders of earlier submissions asked the texture cache for go into it before any shader
  // runs, and the mirrors this submission binds get the tiles they can hold.
  if (shaders) cache.encodeFill(encoder);
  mirrors.prepare(encoder);
  const passes = new PassPlanner(encoder);
  const context: EncodeContext = {
    memory,
    passes,
    prelude,
    mirrorPrelude: (set) =>
      device.createBindGroup({
        label: 'd3d12 prelude (texture mirrors bound)',
        layout,
        entries: [...memoryEntries, ...mirrors.bindings(set)],
      }),
    mirrorResolve: () => mirrors.resolvePipeline(unmapped.recording),
    graphicsPrelude,
    copy: { pipeline: kernel.pipeline, pages: kernel.pages, jobs, plan: pageCopies },
    transient: [],
  };
  for (const { command, slots } of commands) encoderOf(command).encode(command, context, slots);
  passes.end();
  // The log as this submission leaves it (records accumulate until a read): read when a fence is signalled.
  if (faults) memory.encodeFaultCopy(encoder, faults.slot);
  return { commandBuffer: encoder.finish(), transient: context.transient };
}
