/**
 * PipelineState (ID3D12PipelineState): user WGSL over the prelude. Shaders reach memory only through
 * the prelude (d3d12_load / d3d12_store by GPU virtual address, d3d12_tex2d_* for tiled textures) and
 * take their inputs as root constants; they declare no bindings of their own. Compute pipelines read
 * and write memory; graphics pipelines (vertex and fragment stages) read it, and pull vertices from it
 * themselves: there is no input assembler state.
 */
import type { RootSignature } from './root-signature.js';

export interface ComputePipelineStateDesc {
  /** WGSL that uses the prelude's d3d12_* functions; it must not declare bindings. */
  code: string;
  entryPoint: string;
  /**
   * D3D12's pRootSignature: the registers the shader reads (d3d12_t, d3d12_u, d3d12_b, d3d12_s) resolve
   * through it. Left out: the emulator's fixed root signature (64 constants, 8 root descriptors).
   */
  rootSignature?: RootSignature | null;
  label?: string;
}

export const PRIMITIVE_TOPOLOGIES = ['TRIANGLELIST', 'TRIANGLESTRIP', 'LINELIST', 'LINESTRIP', 'POINTLIST'] as const;
export type PrimitiveTopology = (typeof PRIMITIVE_TOPOLOGIES)[number];

export interface GraphicsPipelineStateDesc {
  /**
   * WGSL with a @vertex and a @fragment entry point over the (read-only) graphics preludes. The vertex
   * entry point's inputs can only be the vertex_index and instance_index builtins (vertices come from
   * memory), as parameters or as members of one struct.
   */
  code: string;
  vertexEntryPoint: string;
  fragmentEntryPoint: string;
  /** D3D12's RTVFormats[0]: the back buffer's format (SwapChain.format). */
  rtvFormat: string;
  /** Default TRIANGLELIST (D3D12 sets it with IASetPrimitiveTopology; here it is pipeline state). */
  primitiveTopology?: PrimitiveTopology;
  /** Default NONE; ALPHA_BLEND is SrcAlpha / InvSrcAlpha. */
  blend?: 'NONE' | 'ALPHA_BLEND';
  /** As ComputePipelineStateDesc's. */
  rootSignature?: RootSignature | null;
  label?: string;
}

export class PipelineState {
  /** @internal Created by Device.createComputePipelineState / createGraphicsPipelineState. */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition): memory statistics, fault reports and info-queue messages name objects by it. */
    readonly id: number,
    /** @internal */
    readonly kind: 'compute' | 'graphics',
    /** @internal The desc's label. */
    readonly label_: string | undefined,
    /** @internal */
    readonly gpuPipeline: GPUComputePipeline | GPURenderPipeline,
    /** @internal Graphics pipelines: the render-target format. */
    readonly rtvFormat?: string,
    /** @internal Graphics pipelines with gpuValidation: the vertex shader as a fault-recording compute dispatch. */
    readonly vertexReplay?: GPUComputePipeline,
    /** @internal The root signature it was made with (none: the fixed one). */
    readonly rootSignature?: RootSignature,
  ) {}

  get label(): string {
    return `${this.kind} pipeline state #${this.id}${this.label_ ? ` '${this.label_}'` : ''}`;
  }
}
