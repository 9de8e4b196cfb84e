/**
 * PipelineState (ID3D12PipelineState): user WGSL over the prelude, declaring no bindings of its own.
 * Shaders reach memory only through the prelude (by GPU virtual address, or through descriptors) and
 * take their inputs through a root signature: its root constants, root descriptors and descriptor
 * tables (registers d3d12_t, d3d12_u, d3d12_b, d3d12_s), or the emulator's fixed one when none is given.
 * Compute pipelines read and write memory; graphics pipelines (vertex and fragment stages) read it,
 * and take an input layout (the input assembler fetches vertices from the vertex buffers a list sets,
 * read through d3d12_vertex_input), a primitive topology type, rasterizer and blend state. The object
 * holds the WebGPU pipeline and these parts; Device creates it (src/emulator/pipeline-creation.ts).
 */
import type { RootSignature } from './root-signature.js';
import type { InputLayoutDesc, PrimitiveTopologyType } from '../api/binding-types.js';

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
   * WGSL with a @vertex and a @fragment entry point over the (read-only) graphics preludes: D3D12's
   * VS and PS. The vertex entry point's inputs are the vertex_index and instance_index builtins (as
   * parameters or members of one struct); with an input layout it reads the vertex through
   * d3d12_vertex_input(vertex_index, instance_index).
   */
  code: string;
  vertexEntryPoint: string;
  fragmentEntryPoint: string;
  /** D3D12's RTVFormats, with numRenderTargets 1: the back buffer's format (SwapChain.format). */
  rtvFormats?: string[];
  numRenderTargets?: number;
  /** The emulator's shorter rtvFormats[0]. */
  rtvFormat?: string;
  /** D3D12_INPUT_LAYOUT_DESC: vertices the input assembler fetches from iaSetVertexBuffers' views. */
  inputLayout?: InputLayoutDesc;
  /** POINT, LINE or TRIANGLE: a draw's topology (iaSetPrimitiveTopology) must be of it. */
  primitiveTopologyType?: PrimitiveTopologyType;
  /** The emulator's fixed topology, drawn when a list sets none (default TRIANGLELIST). */
  primitiveTopology?: PrimitiveTopology;
  /** D3D12_RASTERIZER_DESC: fillMode SOLID, cullMode, frontCounterClockwise (left out: nothing culled). */
  rasterizerState?: {
    fillMode?: 'SOLID' | 'WIREFRAME';
    cullMode?: 'NONE' | 'FRONT' | 'BACK';
    frontCounterClockwise?: boolean;
    [field: string]: unknown;
  };
  /** D3D12_BLEND_DESC: render target 0's blend and write mask. */
  blendState?: { renderTarget?: Record<string, unknown>[]; [field: string]: unknown };
  /** The emulator's shorter blend: NONE, or ALPHA_BLEND (SrcAlpha / InvSrcAlpha). */
  blend?: 'NONE' | 'ALPHA_BLEND';
  /** Depth and stencil disabled (depth buffers are not emulated). */
  depthStencilState?: { depthEnable?: boolean; stencilEnable?: boolean; [field: string]: unknown };
  dsvFormat?: string;
  sampleMask?: number;
  sampleDesc?: { count: number; quality?: number };
  ibStripCutValue?: 'DISABLED' | '0xFFFF' | '0xFFFFFFFF';
  /** As ComputePipelineStateDesc's. */
  rootSignature?: RootSignature | null;
  label?: string;
}

/** What a pipeline state holds beside its WebGPU pipeline (graphics pipelines: the rest of these). */
export interface PipelineStateParts {
  /** The root signature it was made with (none: the fixed one). */
  rootSignature?: RootSignature;
  /** Graphics: the render-target format. */
  rtvFormat?: string;
  /** Graphics pipelines with gpuValidation: the vertex shader as a fault-recording compute dispatch. */
  vertexReplay?: GPUComputePipeline;
  /** Graphics: the primitive topology type, and the topology a list that set none draws with. */
  topologyType?: 'POINT' | 'LINE' | 'TRIANGLE';
  fixedTopology?: PrimitiveTopology;
  /** Graphics: the vertex buffer slots its input layout reads, ascending (a draw packs their views in this order). */
  inputSlots?: readonly number[];
  /** Graphics: the render pipeline for another topology of its type. */
  variant?: (topology: PrimitiveTopology) => GPURenderPipeline;
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
    /** @internal */
    readonly parts: PipelineStateParts = {},
  ) {}

  get label(): string {
    return `${this.kind} pipeline state #${this.id}${this.label_ ? ` '${this.label_}'` : ''}`;
  }

  /** @internal */
  get rootSignature(): RootSignature | undefined {
    return this.parts.rootSignature;
  }

  /** @internal Graphics pipelines: the render-target format. */
  get rtvFormat(): string | undefined {
    return this.parts.rtvFormat;
  }

  /** @internal */
  get vertexReplay(): GPUComputePipeline | undefined {
    return this.parts.vertexReplay;
  }

  /** @internal The render pipeline drawing `topology` (one of its type). */
  renderPipeline(topology: PrimitiveTopology): GPURenderPipeline {
    return topology === this.parts.fixedTopology || !this.parts.variant
      ? (this.gpuPipeline as GPURenderPipeline)
      : this.parts.variant(topology);
  }
}
