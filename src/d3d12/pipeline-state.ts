/**
 * PipelineState (ID3D12PipelineState): a compute pipeline of user WGSL over the prelude. Shaders reach
 * memory only through the prelude (d3d12_load/d3d12_store by GPU virtual address) and take their
 * inputs as root constants; they declare no bindings of their own.
 */
export interface ComputePipelineStateDesc {
  /** WGSL that uses the prelude's d3d12_* functions; it must not declare bindings. */
  code: string;
  entryPoint: string;
  label?: string;
}

export class PipelineState {
  /** @internal Created by Device.createComputePipelineState. */
  constructor(
    readonly id: number,
    readonly desc: Readonly<ComputePipelineStateDesc>,
    /** @internal */
    readonly gpuPipeline: GPUComputePipeline,
  ) {}

  get label(): string {
    return `pipeline state #${this.id}${this.desc.label ? ` '${this.desc.label}'` : ''}`;
  }
}
