/**
 * CreateComputePipelineState / CreateGraphicsPipelineState refuse a shader that uses a register its
 * root signature does not bind for that stage (D3D12: "Root Signature doesn't match ... Shader"),
 * src/validation/shader-registers.ts: the literal register uses reachable from each entry point,
 * against tables, root constants and descriptors, static samplers, visibilities and DENY flags. One
 * unbound register at a time next to a control that passes the check (on a CPU-only device the
 * control then meets the "no GPU" refusal, which comes after it).
 */
import { describe, expect, test } from 'vitest';
import {
  createDevice,
  type Device,
  type RootParameter,
  type RootSignatureFlag,
  type StaticSamplerDesc,
} from '../../../../src/index.js';
import { literalRegisterUses } from '../../../../src/validation/shader-registers.js';
import { expectD3D12Rejection } from '../../../shared/expect-d3d12-error.js';

const device = (): Promise<Device> => createDevice({ gpuDevice: null });

const SIGNATURE: RootParameter[] = [
  { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 0, num32BitValues: 2 } },
  {
    parameterType: 'DESCRIPTOR_TABLE',
    descriptorTable: {
      descriptorRanges: [
        { rangeType: 'SRV', numDescriptors: 2, baseShaderRegister: 0 },
        { rangeType: 'UAV', numDescriptors: 1, baseShaderRegister: 3, registerSpace: 1 },
        { rangeType: 'SRV', numDescriptors: 0xffffffff, baseShaderRegister: 10, registerSpace: 2 },
      ],
    },
  },
  { parameterType: 'CBV', descriptor: { shaderRegister: 1 } },
  { parameterType: 'SRV', descriptor: { shaderRegister: 5 }, shaderVisibility: 'PIXEL' },
];
const SAMPLERS: StaticSamplerDesc[] = [{ filter: 'MIN_MAG_MIP_POINT', shaderRegister: 0 }];

function rootSignature(d: Device, flags: RootSignatureFlag[] = []) {
  return d.createRootSignature(0, {
    version: '1_1',
    desc_1_1: { parameters: SIGNATURE, staticSamplers: SAMPLERS, flags },
  });
}

const compute = (body: string): string =>
  `@compute @workgroup_size(1) fn main() { ${body} }\nfn helper() -> u32 { return 0u; }`;

describe('literalRegisterUses', () => {
  test('registers reachable from the entry point, through helpers; not in comments, other entry points or computed', () => {
    const code = `
      fn read_a() -> D3D12Binding { return d3d12_t(1u, 0u); }   // t1
      fn unused() { let x = d3d12_u(9u, 0u); }
      /* d3d12_t(8u, 0u) */
      @compute @workgroup_size(1) fn main() {
        let a = read_a();
        let b = d3d12_b( 2 , 3u );
        let c = d3d12_t(7u + 0u, 0u);  // computed: the GPU-side fault checks it
        let d = d3d12_t(1u, 0u);
      }`;
    expect(literalRegisterUses(code, 'main')).toEqual([
      { kind: 'b', register: 2, space: 3 },
      { kind: 't', register: 1, space: 0 },
    ]);
    expect(literalRegisterUses(code, 'missing')).toEqual([]);
  });
});

describe('createComputePipelineState: registers against the root signature', () => {
  test.each([
    ['d3d12_b(0u, 0u)', 'root constants b0'],
    ['d3d12_b(1u, 0u)', 'a root CBV b1'],
    ['d3d12_t(1u, 0u)', 'the last of a 2-descriptor SRV range'],
    ['d3d12_u(3u, 1u)', 'a UAV range in space 1'],
    ['d3d12_t(1000u, 2u)', 'an unbounded range'],
    ['d3d12_s(0u, 0u)', 'a static sampler'],
  ])('%s (%s) is bound: the check passes', async (use) => {
    const d = await device();
    const rs = rootSignature(d);
    await expectD3D12Rejection(
      d.createComputePipelineState({ code: compute(`let r = ${use};`), entryPoint: 'main', rootSignature: rs }),
      { call: 'createComputePipelineState', argument: 'this', message: /no GPU/ },
    );
  });

  test.each([
    ['d3d12_b(2u, 0u)', 'b2 \\(space 0\\)'],
    ['d3d12_t(2u, 0u)', 't2 \\(space 0\\)'],
    ['d3d12_u(3u, 0u)', 'u3 \\(space 0\\)'],
    ['d3d12_t(9u, 2u)', 't9 \\(space 2\\)'],
    ['d3d12_s(1u, 0u)', 's1 \\(space 0\\)'],
    ['d3d12_t(5u, 0u)', 't5 \\(space 0\\)'],
  ])('%s is not bound for compute: refused', async (use, named) => {
    const d = await device();
    const rs = rootSignature(d);
    await expectD3D12Rejection(
      d.createComputePipelineState({ code: compute(`let r = ${use};`), entryPoint: 'main', rootSignature: rs }),
      {
        call: 'createComputePipelineState',
        argument: 'desc.rootSignature',
        message: new RegExp(`does not bind ${named}, which the compute shader \\(main\\) uses`),
      },
    );
  });

  test('without a root signature no register is bound', async () => {
    const d = await device();
    await expectD3D12Rejection(
      d.createComputePipelineState({ code: compute('let r = d3d12_t(0u, 0u);'), entryPoint: 'main' }),
      { argument: 'desc.rootSignature', message: /is not set, so no register is bound/ },
    );
  });
});

describe('createGraphicsPipelineState: each stage sees its own parameters', () => {
  const graphics = (vertexUse: string, fragmentUse: string): string => `
    @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { let r = ${vertexUse}; return vec4f(0.0); }
    @fragment fn fs() -> @location(0) vec4f { let r = ${fragmentUse}; return vec4f(1.0); }`;
  const desc = (code: string, rs: unknown) =>
    ({
      code,
      vertexEntryPoint: 'vs',
      fragmentEntryPoint: 'fs',
      rtvFormats: ['R8G8B8A8_UNORM'],
      rootSignature: rs,
    }) as never;

  test('a PIXEL-visible root SRV: the pixel shader may use it, the vertex shader may not', async () => {
    const d = await device();
    const rs = rootSignature(d);
    await expectD3D12Rejection(d.createGraphicsPipelineState(desc(graphics('0u', 'd3d12_t(5u, 0u)'), rs)), {
      argument: 'this',
      message: /no GPU/,
    });
    await expectD3D12Rejection(d.createGraphicsPipelineState(desc(graphics('d3d12_t(5u, 0u)', '0u'), rs)), {
      argument: 'desc.rootSignature',
      message: /does not bind t5 \(space 0\), which the vertex shader \(vs\) uses/,
    });
  });

  test('DENY_PIXEL_SHADER_ROOT_ACCESS: the pixel shader sees nothing, the vertex shader everything', async () => {
    const d = await device();
    const rs = rootSignature(d, ['DENY_PIXEL_SHADER_ROOT_ACCESS']);
    await expectD3D12Rejection(d.createGraphicsPipelineState(desc(graphics('d3d12_t(0u, 0u)', '0u'), rs)), {
      argument: 'this',
      message: /no GPU/,
    });
    await expectD3D12Rejection(d.createGraphicsPipelineState(desc(graphics('0u', 'd3d12_t(0u, 0u)'), rs)), {
      argument: 'desc.rootSignature',
      message: /which the pixel shader \(fs\) uses/,
    });
  });
});
