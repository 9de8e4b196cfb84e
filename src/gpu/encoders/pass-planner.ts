/**
 * Which encoded commands share a pass: consecutive dispatches (and copies, and vertex-stage
 * replays) share one compute pass; consecutive draws into one target share a render pass; a clear
 * begins a render pass of its own (its load op clears); work outside passes (timestamps, query
 * resolves) ends the pass before it. WebGPU orders passes and dispatches, so no other split is needed.
 */
type Color = readonly [number, number, number, number];

export class PassPlanner {
  private computePass: GPUComputePassEncoder | undefined;
  private renderPass: { pass: GPURenderPassEncoder; target: GPUTexture } | undefined;

  constructor(private readonly encoder: GPUCommandEncoder) {}

  /** The compute pass to dispatch in: the open one, or a new one. */
  compute(): GPUComputePassEncoder {
    if (!this.computePass) {
      this.end();
      this.computePass = this.encoder.beginComputePass({ label: 'd3d12 command lists' });
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
