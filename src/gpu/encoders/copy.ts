/**
 * Copies: compute dispatches of the copy kernel (shaders/copy.wgsl) over their jobs, which every
 * copy of a submission puts in one jobs buffer. Jobs that share a destination word run in different
 * dispatches (job i in phase i % phases); a dispatch runs at most 65,535 jobs (WebGPU's floor for
 * workgroups per dimension).
 */
import { COPY_JOB_BYTES, COPY_WGSL as copyWgsl, type CopyJob } from '../copy-jobs.js';
import { kernelPipeline } from '../pipelines.js';
import { memberOffset, requireStruct, requireWorkgroupSize } from '../prelude.js';
import type { DispatchConstants, KindEncoder } from './encode-context.js';
import type { ExecutableCommand } from './executable-commands.js';

type Copy = Extract<ExecutableCommand, { kind: 'copy' }>;

/** A job in the jobs buffer, as shaders/copy.wgsl declares it. */
const JOB = requireStruct(copyWgsl, 'D3D12CopyJob', 'copy.wgsl');
const COPY_WORKGROUP = requireWorkgroupSize(copyWgsl, 'd3d12_copy', 'copy.wgsl');
/** Workgroups along x per job: enough words for a full job plus a partial word at each end. */
const COPY_GROUPS_X = (jobBytes: number): number => Math.ceil((jobBytes + 8) / (4 * COPY_WORKGROUP));
/** WebGPU's floor for maxComputeWorkgroupsPerDimension: jobs per copy dispatch. */
const MAX_JOBS_PER_DISPATCH = 65535;

export interface CopyKernel {
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

/** The jobs buffer's bytes for `jobs`. */
export function packJobs(jobs: readonly CopyJob[]): ArrayBuffer {
  const bytes = new ArrayBuffer(jobs.length * JOB.size);
  const view = new DataView(bytes);
  jobs.forEach((job, i) => {
    const base = i * JOB.size;
    view.setBigUint64(base + memberOffset(JOB, 'dst'), job.dst, true);
    view.setBigUint64(base + memberOffset(JOB, 'src'), job.src, true);
    view.setUint32(base + memberOffset(JOB, 'bytes'), job.bytes, true);
  });
  return bytes;
}

const largestJob = (jobs: readonly CopyJob[]): number => jobs.reduce((most, job) => Math.max(most, job.bytes), 0);

export const copyEncoder: KindEncoder<Copy> = {
  plan(command, planning) {
    if (command.jobs.length === 0) return null;
    const largest = largestJob(command.jobs);
    if (largest > COPY_JOB_BYTES)
      throw new RangeError(`a copy job of ${largest} bytes exceeds the kernel's ${COPY_JOB_BYTES}`);
    const first = planning.jobs.length;
    for (const job of command.jobs) planning.jobs.push(job);
    // Root constants of a copy dispatch: its first job, its job count, and the stride between jobs.
    const stride = command.phases;
    const dispatches: DispatchConstants[] = [];
    for (let phase = 0; phase < stride; phase++) {
      const count = Math.ceil((command.jobs.length - phase) / stride);
      for (let done = 0; done < count; done += MAX_JOBS_PER_DISPATCH) {
        const batch = Math.min(MAX_JOBS_PER_DISPATCH, count - done);
        dispatches.push({ root: Uint32Array.of(first + phase + done * stride, batch, stride, 0) });
      }
    }
    return dispatches;
  },

  encode(command, context, slots) {
    const groupsX = COPY_GROUPS_X(largestJob(command.jobs));
    for (const { offset, constants } of slots) {
      const pass = context.passes.compute();
      pass.setBindGroup(0, context.prelude, [offset]);
      pass.setPipeline(context.copy.pipeline);
      if (context.copy.jobs) pass.setBindGroup(1, context.copy.jobs);
      pass.dispatchWorkgroups(groupsX, constants.root[1], 1);
    }
  },
};
