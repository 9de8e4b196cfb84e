/**
 * Which encoded commands share a pass: consecutive dispatches (and copies, and vertex-stage
 * replays) share one compute pass; consecutive draws into one target share a render pass; a clear
 * begins a render pass of its own (its load op clears); work outside passes (timestamps, query
 * resolves) ends the pass before it. WebGPU orders passes and dispatches, so no other split is needed.
 */
type Color = readonly [number, number, number, number];

const NO_OFFSETS: readonly number[] = [];

/**
 * The open compute pass, setting a pipeline or bind group only when it differs from what the pass
 * has: pass state persists across dispatches (and a bind group across pipeline changes), and each
 * set is a native call (a wire command in a browser). Consecutive copies set the same copy kernel
 * and jobs group, consecutive dispatches often the same pipeline.
 *
 * Invariant: every set on the pass goes through this object (it alone holds the pass), so what it
 * remembers is what the pass has bound.
 */
export class ComputePassState {
  private pipeline: GPUComputePipeline | undefined;
  private readonly groups: ({ group: GPUBindGroup; offsets: readonly number[] } | undefined)[] = [];

  constructor(private readonly pass: GPUComputePassEncoder) {}

  setPipeline(pipeline: GPUComputePipeline): void {
    if (pipeline === this.pipeline) return;
    this.pass.setPipeline(pipeline);
    this.pipeline = pipeline;
  }

  /** `offsets`: the dynamic offsets (not changed by the caller afterwards). */
  setBindGroup(index: number, group: GPUBindGroup, offsets: readonly number[] = NO_OFFSETS): void {
    const bound = this.groups[index];
    if (bound?.group === group && sameOffsets(bound.offsets, offsets)) return;
    this.pass.setBindGroup(index, group, offsets);
    this.groups[index] = { group, offsets };
  }

  dispatchWorkgroups(x: number, y = 1, z = 1): void {
    this.pass.dispatchWorkgroups(x, y, z);
  }

  end(): void {
    this.pass.end();
  }
}

function sameOffsets(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class PassPlanner {
  private computePass: ComputePassState | undefined;
  private renderPass: { pass: GPURenderPassEncoder; target: GPUTexture } | undefined;

  constructor(private readonly encoder: GPUCommandEncoder) {}

  /** The compute pass to dispatch in: the open one, or a new one. */
  compute(): ComputePassState {
    if (!this.computePass) {
      this.end();
      this.computePass = new ComputePassState(this.encoder.beginComputePass({ label: 'd3d12 command lists' }));
    }
    return this.computePass;
  }

  /** The render pass to draw into `target` in: the open one if it draws into `target`, or a new one. */
  render(target: GPUTexture): GPURenderPassEncoder {
    return this.renderPass?.target === target ? this.renderPass.pass : this.beginRender(target);
  }

  /** A new render pass into `target` that begins by clearing it to `color`. */
  clear(target: GPUTexture, color: Color): void {
    this.beginRender(target, color);
  }

  /** The command encoder, outside any pass (every open pass ended). */
  outside(): GPUCommandEncoder {
    this.end();
    return this.encoder;
  }

  /** Ends the open pass, if any. */
  end(): void {
    this.computePass?.end();
    this.renderPass?.pass.end();
    this.computePass = undefined;
    this.renderPass = undefined;
  }

  private beginRender(target: GPUTexture, clear?: Color): GPURenderPassEncoder {
    this.end();
    const pass = this.encoder.beginRenderPass({
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
    this.renderPass = { pass, target };
    return pass;
  }
}
