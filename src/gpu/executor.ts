/**
 * Encodes executed command lists into one WebGPU command buffer: every dispatch and every copy is a
 * compute dispatch over the prelude's bind group (page table, pool, per-dispatch constants, fault
 * log, unmapped-access log); copies run the copy kernel over their jobs. Clears and draws go to
 * render passes on their back buffer (consecutive draws into one target share a pass), with the
 * graphics prelude's bind group. WebGPU orders passes and dispatches, so D3D12's barriers need no GPU work here: their state
 * rules were checked when they were recorded and executed.
 *
 * Per submission: the per-dispatch constants (bound at a dynamic offset per dispatch) and the copy
 * jobs, written with queue writes just before the command buffer is submitted into buffers every
 * submission reuses, under bind groups made again only when those buffers change (SubmissionBuffers).
 * Lists with nothing to run encode nothing: no command buffer, no submission.
 */
import { COPY_JOB_BYTES, COPY_WGSL as copyWgsl, type CopyJob } from './copy-jobs.js';
import type { GpuMemory } from './gpu-memory.js';
import { graphicsPreludeBindGroupLayout, kernelPipeline, preludeBindGroupLayout, VERTEX_REPLAY } from './pipelines.js';
import { memberOffset, preludeConstant, preludeLayout, requireStruct, requireWorkgroupSize } from './prelude.js';
import { encodeResolve, encodeTimestamp, type ResultPages } from './queries.js';
import type { SubmissionBuffers } from './submission-buffers.js';
import type { UnmappedAccessBinding } from './unmapped-access-log.js';

/** A command as the executor needs it. */
export type ExecutableCommand =
  | { kind: 'copy'; jobs: readonly CopyJob[]; phases: number }
  | { kind: 'dispatch'; pipeline: GPUComputePipeline; root: Uint32Array; groups: readonly [number, number, number] }
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
    };

export interface ExecutableList {
  id: number;
  commands: readonly ({ index: number } & ExecutableCommand)[];
}

export interface ExecutionSettings {
  tiledResourcesTier: number;
  validation: boolean;
}

/** A job in the jobs buffer, as shaders/copy.wgsl declares it. */
const JOB = requireStruct(copyWgsl, 'D3D12CopyJob', 'copy.wgsl');
const COPY_WORKGROUP = requireWorkgroupSize(copyWgsl, 'd3d12_copy', 'copy.wgsl');
/** Workgroups along x per job: enough words for a full job plus a partial word at each end. */
const COPY_GROUPS_X = (jobBytes: number): number => Math.ceil((jobBytes + 8) / (4 * COPY_WORKGROUP));
/** WebGPU's floor for maxComputeWorkgroupsPerDimension: jobs per copy dispatch. */
const MAX_JOBS_PER_DISPATCH = 65535;
const MAX_WORKGROUPS = 65535;
/** Words of root constants before the root descriptors in a step's root arguments. */
const ROOT_CONSTANT_WORDS = preludeConstant('D3D12_ROOT_CONSTANT_COUNT');

interface CopyKernel {
  pipeline: GPUComputePipeline;
  jobsLayout: GPUBindGroupLayout;
}

const copyKernels = new WeakMap<GPUDevice, Map<boolean, Promise<CopyKernel>>>();

/** The copy kernel for a device, compiled once (per prelude variant: with or without unmapped-access recording). */
export function copyKernel(device: GPUDevice, unmappedAccess = false): Promise<CopyKernel> {
  let variants = copyKernels.get(device);
  if (!variants) copyKernels.set(device, (variants = new Map<boolean, Promise<CopyKernel>>()));
  let kernel = variants.get(unmappedAccess);
  if (!kernel) {
    const jobsLayout = device.createBindGroupLayout({
      label: 'd3d12 copy jobs (group 1)',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } }],
    });
    kernel = kernelPipeline(device, 'copy', copyWgsl, 'd3d12_copy', [jobsLayout], unmappedAccess).then((pipeline) => ({
      pipeline,
      jobsLayout,
    }));
    variants.set(unmappedAccess, kernel);
  }
  return kernel;
}

/** One dispatch, clear or draw: its constants (root constants; drawInstanced's arguments) and what it runs. */
type Step = { list: number; index: number; root: Uint32Array; draw?: readonly [number, number, number, number] } & (
  | { kind: 'compute'; run(pass: GPUComputePassEncoder): void }
  | { kind: 'clear'; target: GPUTexture; color: readonly [number, number, number, number] }
  | { kind: 'draw'; target: GPUTexture; run(pass: GPURenderPassEncoder): void }
  | { kind: 'encoder'; run(encoder: GPUCommandEncoder): void }
);

/** Word offsets of D3D12DispatchInfo's members (read once from the prelude's layout). */
type InfoWords = Record<
  | 'root'
  | 'descriptors'
  | 'commandList'
  | 'commandIndex'
  | 'tier'
  | 'validation'
  | 'draw'
  | 'unmappedAccess'
  | 'submission',
  number
>;
let infoWords: InfoWords | undefined;
function dispatchInfoWords(): InfoWords {
  if (infoWords) return infoWords;
  const at = preludeLayout().dispatchInfo;
  const word = (member: string): number => memberOffset(at, member) / 4;
  infoWords = {
    root: word('root'),
    descriptors: word('descriptors'),
    commandList: word('command_list'),
    commandIndex: word('command_index'),
    tier: word('tiled_resources_tier'),
    validation: word('validation'),
    draw: word('draw'),
    unmappedAccess: word('unmapped_access'),
    submission: word('submission'),
  };
  return infoWords;
}

/**
 * Encodes `lists` into a command buffer; returns it with the buffers to destroy once submitted, or
 * null when the lists hold nothing to run (empty lists, empty dispatches and copies).
 * `kernel` must be the device's resolved copy kernel; `unmapped` is the unmapped-access log to bind
 * (or the placeholder, not recording); `buffers` the device's reused constants and jobs buffers.
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
  const layout = preludeLayout();
  const alignment = device.limits.minUniformBufferOffsetAlignment;
  const infoStride = Math.ceil(layout.dispatchInfo.size / alignment) * alignment;

  // Gather the jobs of all copies into one buffer and the steps (dispatches) in order.
  const jobs: CopyJob[] = [];
  const steps: Step[] = [];
  /** Buffers for this submission only (constants, jobs, resolved queries): destroyed once it has run. */
  const transient: GPUBuffer[] = [];
  let copyBindGroup: GPUBindGroup | undefined;
  const useCopyGroup = (pass: GPUComputePassEncoder): void => {
    pass.setPipeline(kernel.pipeline);
    if (copyBindGroup) pass.setBindGroup(1, copyBindGroup);
  };
  for (const list of lists) {
    for (const command of list.commands) {
      if (command.kind === 'dispatch') {
        const { pipeline, groups } = command;
        // An empty dispatch runs nothing (D3D12); WebGPU would warn about it.
        if (groups.some((count) => count === 0)) continue;
        steps.push({
          kind: 'compute',
          list: list.id,
          index: command.index,
          root: command.root,
          run: (pass) => {
            pass.setPipeline(pipeline);
            pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
          },
        });
        continue;
      }
      if (command.kind === 'clear') {
        steps.push({
          kind: 'clear',
          list: list.id,
          index: command.index,
          root: new Uint32Array(0),
          target: command.target,
          color: command.color,
        });
        continue;
      }
      if (command.kind === 'timestamp') {
        const { querySet, queryIndex } = command;
        steps.push({
          kind: 'encoder',
          list: list.id,
          index: command.index,
          root: new Uint32Array(0),
          run: (encoder) => encodeTimestamp(encoder, querySet, queryIndex),
        });
        continue;
      }
      if (command.kind === 'resolve') {
        const { querySet, first, count, results } = command;
        steps.push({
          kind: 'encoder',
          list: list.id,
          index: command.index,
          root: new Uint32Array(0),
          run: (encoder) => transient.push(encodeResolve(memory, encoder, querySet, first, count, results)),
        });
        continue;
      }
      if (command.kind === 'draw') {
        const { pipeline, viewport, scissor, vertices, target, vertexReplay } = command;
        if (vertexReplay && (settings.validation || unmapped.recording) && vertices[0] > 0 && vertices[1] > 0) {
          // The vertex stage cannot record faults or unmapped accesses: its replay, with the draw's constants, does.
          const groups = [
            Math.min(Math.ceil(vertices[0] / VERTEX_REPLAY.workgroup), MAX_WORKGROUPS),
            Math.min(vertices[1], VERTEX_REPLAY.instanceStride),
          ] as const;
          steps.push({
            kind: 'compute',
            list: list.id,
            index: command.index,
            root: command.root,
            draw: vertices,
            run: (pass) => {
              pass.setPipeline(vertexReplay);
              pass.dispatchWorkgroups(groups[0], groups[1]);
            },
          });
        }
        steps.push({
          kind: 'draw',
          list: list.id,
          index: command.index,
          root: command.root,
          draw: vertices,
          target,
          run: (pass) => {
            pass.setPipeline(pipeline);
            if (viewport) {
              // drawInstanced checked the viewport against the target; a canvas resized since then is clipped.
              const x = Math.min(viewport.topLeftX, target.width);
              const y = Math.min(viewport.topLeftY, target.height);
              pass.setViewport(
                x,
                y,
                Math.min(viewport.width, target.width - x),
                Math.min(viewport.height, target.height - y),
                viewport.minDepth ?? 0,
                viewport.maxDepth ?? 1,
              );
            }
            if (scissor) {
              const left = Math.min(scissor.left, target.width);
              const top = Math.min(scissor.top, target.height);
              pass.setScissorRect(
                left,
                top,
                Math.min(scissor.right, target.width) - left,
                Math.min(scissor.bottom, target.height) - top,
              );
            }
            pass.draw(vertices[0], vertices[1], vertices[2], vertices[3]);
          },
        });
        continue;
      }
      if (command.jobs.length === 0) continue;
      const largest = command.jobs.reduce((most, job) => Math.max(most, job.bytes), 0);
      if (largest > COPY_JOB_BYTES)
        throw new RangeError(`a copy job of ${largest} bytes exceeds the kernel's ${COPY_JOB_BYTES}`);
      const first = jobs.length;
      for (const job of command.jobs) jobs.push(job);
      // Jobs that share a destination word run in different dispatches: job i in phase i % phases.
      const stride = command.phases;
      const phases = Array.from({ length: stride }, (_, phase) => phase);
      for (const phase of phases) {
        const count = Math.ceil((command.jobs.length - phase) / stride);
        for (let done = 0; done < count; done += MAX_JOBS_PER_DISPATCH) {
          const batch = Math.min(MAX_JOBS_PER_DISPATCH, count - done);
          const root = new Uint32Array(4);
          root.set([first + phase + done * stride, batch, stride, 0]);
          steps.push({
            kind: 'compute',
            list: list.id,
            index: command.index,
            root,
            run: (pass) => {
              useCopyGroup(pass);
              pass.dispatchWorkgroups(COPY_GROUPS_X(largest), batch, 1);
            },
          });
        }
      }
    }
  }

  if (steps.length === 0) return null;
  const info = new ArrayBuffer(steps.length * infoStride);
  const words = new Uint32Array(info);
  const at = dispatchInfoWords();
  steps.forEach((step, i) => {
    const base = (i * infoStride) / 4;
    // Root arguments: the constants, then (dispatches and draws) two words per root descriptor.
    words.set(step.root.subarray(0, ROOT_CONSTANT_WORDS), base + at.root);
    const descriptors = step.root.subarray(ROOT_CONSTANT_WORDS);
    if (descriptors.length > 0) words.set(descriptors, base + at.descriptors);
    words[base + at.commandList] = step.list;
    words[base + at.commandIndex] = step.index;
    words[base + at.tier] = settings.tiledResourcesTier;
    words[base + at.validation] = settings.validation ? 1 : 0;
    if (step.draw) words.set(step.draw, base + at.draw);
    words[base + at.unmappedAccess] = unmapped.recording ? 1 : 0;
    words[base + at.submission] = unmapped.submission;
  });
  const infoBuffer = buffers.writeConstants(info);

  if (jobs.length > 0) {
    const jobBytes = new ArrayBuffer(jobs.length * JOB.size);
    const jobView = new DataView(jobBytes);
    jobs.forEach((job, i) => {
      const base = i * JOB.size;
      const put64 = (offset: number, value: bigint): void => jobView.setBigUint64(base + offset, value, true);
      put64(memberOffset(JOB, 'dst'), job.dst);
      put64(memberOffset(JOB, 'src'), job.src);
      jobView.setUint32(base + memberOffset(JOB, 'bytes'), job.bytes, true);
    });
    const jobBuffer = buffers.writeJobs(jobBytes);
    copyBindGroup = buffers.bindGroup('d3d12 copy jobs', kernel.jobsLayout, [
      { binding: 0, resource: { buffer: jobBuffer } },
    ]);
  }

  // Both preludes bind the page table, the pool, the constants, the fault log and the
  // unmapped-access log (the graphics prelude's logs are its fragment stage's).
  const memoryEntries: GPUBindGroupEntry[] = [
    { binding: 0, resource: { buffer: memory.pageTable.gpuBuffer } },
    { binding: 1, resource: { buffer: memory.pool } },
    { binding: 2, resource: { buffer: infoBuffer, size: layout.dispatchInfo.size } },
    { binding: 3, resource: { buffer: memory.faultLog } },
    { binding: 4, resource: { buffer: unmapped.buffer } },
  ];
  const group0 = buffers.bindGroup('d3d12 prelude', preludeBindGroupLayout(device), memoryEntries);

  const hasGraphics = steps.some((step) => step.kind === 'draw');
  const graphicsGroup0 = hasGraphics
    ? buffers.bindGroup('d3d12 graphics prelude', graphicsPreludeBindGroupLayout(device), memoryEntries)
    : undefined;

  const encoder = device.createCommandEncoder({ label: 'd3d12 executeCommandLists' });
  if (faults?.clearFirst) memory.encodeFaultClear(encoder);
  let compute: GPUComputePassEncoder | undefined;
  let render: { pass: GPURenderPassEncoder; target: GPUTexture } | undefined;
  const endPasses = (): void => {
    compute?.end();
    render?.pass.end();
    compute = undefined;
    render = undefined;
  };
  const beginRender = (target: GPUTexture, clear?: readonly [number, number, number, number]): GPURenderPassEncoder => {
    endPasses();
    const pass = encoder.beginRenderPass({
      label: 'd3d12 render pass',
      colorAttachments: [
        clear
          ? {
              view: target.createView(),
              loadOp: 'clear',
              storeOp: 'store',
              clearValue: { r: clear[0], g: clear[1], b: clear[2], a: clear[3] },
            }
          : { view: target.createView(), loadOp: 'load', storeOp: 'store' },
      ],
    });
    render = { pass, target };
    return pass;
  };
  steps.forEach((step, i) => {
    const offset = i * infoStride;
    if (step.kind === 'compute') {
      if (!compute) {
        endPasses();
        compute = encoder.beginComputePass({ label: 'd3d12 command lists' });
      }
      compute.setBindGroup(0, group0, [offset]);
      step.run(compute);
    } else if (step.kind === 'clear') {
      beginRender(step.target, step.color);
    } else if (step.kind === 'encoder') {
      endPasses();
      step.run(encoder);
    } else {
      const pass = render && render.target === step.target ? render.pass : beginRender(step.target);
      pass.setBindGroup(0, graphicsGroup0 as GPUBindGroup, [offset]);
      step.run(pass);
    }
  });
  endPasses();
  // The log as this submission leaves it (records accumulate until a read): read when a fence is signalled.
  if (faults) memory.encodeFaultCopy(encoder, faults.slot);
  return { commandBuffer: encoder.finish(), transient };
}
