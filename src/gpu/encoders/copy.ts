/**
 * Copies: compute dispatches of the copy kernel (shaders/copy.wgsl) over their jobs, which every
 * copy of a submission puts in one jobs buffer. Jobs that share a destination word run in different
 * dispatches (job i in phase i % phases); a dispatch runs at most 65,535 jobs (WebGPU's floor for
 * workgroups per dimension). Which of a copy's jobs the page kernel runs is the submission's
 * page-copy plan's word (page-copies.ts; the command itself is not changed): those follow in
 * dispatches of d3d12_copy_pages, and a copy without an entry runs all its jobs on the copy kernel.
 */
import { COPY_JOB_BYTES, COPY_WGSL as copyWgsl, type CopyJob, type PageCopyJob } from '../copy-jobs.js';
import { kernelPipeline } from '../pipelines.js';
import { memberOffset, requireStruct, requireWorkgroupSize } from '../prelude.js';
import type { PageCopyPlan, PageCopySplit } from '../page-copies.js';
import type { DispatchConstants, KindEncoder, Slot } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Copy = Extract<ExecutableCommand, { kind: 'copy' }>;

/** A job in the jobs buffer, as shaders/copy.wgsl declares it. */
const JOB = requireStruct(copyWgsl, 'D3D12CopyJob', 'copy.wgsl');
const COPY_WORKGROUP = requireWorkgroupSize(copyWgsl, 'd3d12_copy', 'copy.wgsl');
/** Workgroups along x per job: enough words for a full job plus a partial word at each end. */
const COPY_GROUPS_X = (jobBytes: number): number => Math.ceil((jobBytes + 8) / (4 * COPY_WORKGROUP));
/** Workgroups along x per page-kernel job: 16 bytes an invocation (d3d12_copy_pages). */
const PAGE_GROUPS_X = (jobBytes: number): number => Math.ceil(jobBytes / (16 * COPY_WORKGROUP));
/** WebGPU's floor for maxComputeWorkgroupsPerDimension: jobs per copy dispatch. */
const MAX_JOBS_PER_DISPATCH = 65535;

export interface CopyKernel {
  pipeline: GPUComputePipeline;
  /** d3d12_copy_pages: the copy of jobs resolved to resident pages (page-copies.ts). */
  pages: GPUComputePipeline;
  jobsLayout: GPUBindGroupLayout;
}

const copyKernels = new WeakMap<GPUDevice, Map<boolean, Promise<CopyKernel>>>();

/** The copy kernels for a device, compiled once (per prelude variant: with or without unmapped-access recording). */
export function copyKernel(device: GPUDevice, unmappedAccess = false): Promise<CopyKernel> {
  let variants = copyKernels.get(device);
  if (!variants) copyKernels.set(device, (variants = new Map<boolean, Promise<CopyKernel>>()));
  let kernel = variants.get(unmappedAccess);
  if (!kernel) {
    const jobsLayout = device.createBindGroupLayout({
      label: 'd3d12 copy jobs (group 1)',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } }],
    });
    // One jobs layout for both: a submission binds one jobs buffer, whichever kernel runs a job.
    kernel = Promise.all([
      kernelPipeline(device, 'copy', copyWgsl, 'd3d12_copy', [jobsLayout], unmappedAccess),
      kernelPipeline(device, 'copy pages', copyWgsl, 'd3d12_copy_pages', [jobsLayout], unmappedAccess),
    ]).then(([pipeline, pages]) => ({ pipeline, pages, jobsLayout }));
    variants.set(unmappedAccess, kernel);
  }
  return kernel;
}

const FIELD = {
  dst: memberOffset(JOB, 'dst'),
  src: memberOffset(JOB, 'src'),
  bytes: memberOffset(JOB, 'bytes'),
  dstWord: memberOffset(JOB, 'dst_word'),
  srcWord: memberOffset(JOB, 'src_word'),
};

/** The jobs buffer's bytes for `jobs` (page-kernel jobs with their word indices). */
export function packJobs(jobs: readonly (CopyJob | PageCopyJob)[]): ArrayBuffer {
  const bytes = new ArrayBuffer(jobs.length * JOB.size);
  const view = new DataView(bytes);
  jobs.forEach((job, i) => {
    const base = i * JOB.size;
    view.setBigUint64(base + FIELD.dst, job.dst, true);
    view.setBigUint64(base + FIELD.src, job.src, true);
    view.setUint32(base + FIELD.bytes, job.bytes, true);
    if ('dstWord' in job) {
      view.setUint32(base + FIELD.dstWord, job.dstWord, true);
      view.setUint32(base + FIELD.srcWord, job.srcWord, true);
    }
  });
  return bytes;
}

const largestJob = (jobs: readonly CopyJob[]): number => jobs.reduce((most, job) => Math.max(most, job.bytes), 0);

/** Dispatches of `count` jobs from `first` on, `stride` apart from `phase` on: at most MAX_JOBS_PER_DISPATCH each. */
function jobDispatches(first: number, count: number, stride: number, phase: number): DispatchConstants[] {
  const dispatches: DispatchConstants[] = [];
  for (let done = 0; done < count; done += MAX_JOBS_PER_DISPATCH) {
    const batch = Math.min(MAX_JOBS_PER_DISPATCH, count - done);
    dispatches.push({ root: Uint32Array.of(first + phase + done * stride, batch, stride, 0) });
  }
  return dispatches;
}

/** `command`'s jobs for the copy kernel and the page kernel, as `plan` splits them (without an entry: all general). */
function split(command: Copy, plan: PageCopyPlan): PageCopySplit {
  return plan.get(command) ?? { general: command.jobs, pages: [] };
}

/** How many of a copy's dispatches run the copy kernel (the page kernel's follow). */
function generalDispatches(general: readonly CopyJob[], phases: number): number {
  let count = 0;
  for (let phase = 0; phase < phases; phase++)
    count += Math.ceil(Math.ceil((general.length - phase) / phases) / MAX_JOBS_PER_DISPATCH);
  return count;
}

export const copyEncoder: KindEncoder<Copy> = {
  plan(command, planning) {
    const { general, pages } = split(command, planning.pageCopies);
    if (general.length === 0 && pages.length === 0) return null;
    const largest = Math.max(largestJob(general), largestJob(pages));
    if (largest > COPY_JOB_BYTES)
      throw new RangeError(`a copy job of ${largest} bytes exceeds the kernel's ${COPY_JOB_BYTES}`);
    // Root constants of a copy dispatch: its first job, its job count, and the stride between jobs.
    const first = planning.jobs.length;
    for (const job of general) planning.jobs.push(job);
    const stride = command.phases;
    const dispatches: DispatchConstants[] = [];
    for (let phase = 0; phase < stride; phase++)
      dispatches.push(...jobDispatches(first, Math.ceil((general.length - phase) / stride), stride, phase));
    const firstPage = planning.jobs.length;
    for (const job of pages) planning.jobs.push(job);
    dispatches.push(...jobDispatches(firstPage, pages.length, 1, 0));
    return dispatches;
  },

  encode(command, context, slots) {
    const { general, pages } = split(command, context.copy.plan);
    const generalCount = generalDispatches(general, command.phases);
    const groupsX = COPY_GROUPS_X(largestJob(general));
    const pageGroupsX = PAGE_GROUPS_X(largestJob(pages));
    for (let i = 0; i < slots.length; i++) {
      const { offset, constants } = slots[i] as Slot;
      const pass = context.passes.compute();
      pass.setBindGroup(0, context.prelude, [offset]);
      pass.setPipeline(i < generalCount ? context.copy.pipeline : context.copy.pages);
      if (context.copy.jobs) pass.setBindGroup(1, context.copy.jobs);
      pass.dispatchWorkgroups(i < generalCount ? groupsX : pageGroupsX, constants.root[1], 1);
    }
  },
};
