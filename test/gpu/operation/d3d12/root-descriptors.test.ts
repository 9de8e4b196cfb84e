/**
 * Root descriptors (D3D12's root CBV / SRV / UAV): root parameters 1 to 8 each hold a GPU virtual
 * address, set with Set{Compute,Graphics}Root{ConstantBuffer,ShaderResource,UnorderedAccess}View and
 * read in WGSL with d3d12_root_descriptor(i). Validation one invalid field at a time beside a valid
 * control (an address no resource owns is allowed, as in D3D12); a dispatch reading through a root
 * SRV and writing through a root UAV; compute and graphics descriptors kept apart; a list known to
 * use a resource through its root descriptor is named when the resource is released under it.
 */
import { describe, expect } from 'vitest';
import { ROOT_DESCRIPTOR_COUNT, type Device, type Resource } from '../../../../src/index.js';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { expectD3D12Error } from '../../../shared/expect-d3d12-error.js';

const loose = (value: unknown): never => value as never;

const test = d3dTest({ localMemoryBytes: 4 << 20, nonLocalMemoryBytes: 4 << 20 });

const buffer = (d3d: Device, width = TILE): Resource =>
  d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );

/** Word i of the root SRV (parameter 2) times root constant 0, into the root UAV (parameter 5). */
const SCALE = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let offset = id.x * 4u;
  let value = d3d12_load(d3d12_address_add(d3d12_root_descriptor(2u), offset));
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(5u), offset), value * d3d12_root_constant(0u));
}
`;

describe('root descriptors: validation', () => {
  const methods = [
    'setComputeRootConstantBufferView',
    'setComputeRootShaderResourceView',
    'setComputeRootUnorderedAccessView',
    'setGraphicsRootConstantBufferView',
    'setGraphicsRootShaderResourceView',
    'setGraphicsRootUnorderedAccessView',
  ] as const;

  for (const method of methods) {
    test(`${method}: parameters 1 to ${ROOT_DESCRIPTOR_COUNT}, a bigint address below 2^64; nothing recorded when refused`, ({
      d3d,
    }) => {
      const list = d3d.createCommandList('DIRECT');
      const va = buffer(d3d).getGPUVirtualAddress();
      const set = (index: unknown, address: unknown): void => list[method](loose(index), loose(address));
      expectD3D12Error(() => set(0, va), {
        call: method,
        argument: 'rootParameterIndex',
        message: /root parameter 0 is the 64 32-bit root constants/,
      });
      for (const index of [ROOT_DESCRIPTOR_COUNT + 1, -1, 1.5, '1', NaN, null]) {
        expectD3D12Error(() => set(index, va), {
          call: method,
          argument: 'rootParameterIndex',
          message: /must be a root descriptor's parameter, 1 to 8/,
        });
      }
      for (const address of [Number(va), 2n ** 64n, -1n, '0x10000', null, undefined]) {
        expectD3D12Error(() => set(1, address), {
          call: method,
          argument: 'bufferLocation',
          message: /must be a GPU virtual address, a bigint from 0 to 2\^64 - 1/,
        });
      }
      expect(list.commands).toHaveLength(0);
      // Controls: both ends of the index, 0 and the largest address, and an address no resource owns.
      set(1, va);
      set(ROOT_DESCRIPTOR_COUNT, 0n);
      set(2, 2n ** 64n - 1n);
      set(3, 0x123450000n);
      expect(list.commands.map((c) => c.kind)).toEqual(['state', 'state', 'state', 'state']);
    });
  }

  test('a COPY list has no root signature; a COMPUTE list has no graphics root arguments', ({ d3d }) => {
    const va = buffer(d3d).getGPUVirtualAddress();
    expectD3D12Error(() => d3d.createCommandList('COPY').setComputeRootUnorderedAccessView(1, va), {
      call: 'setComputeRootUnorderedAccessView',
      argument: 'this',
      message: /COPY list, which has no root signature/,
    });
    expectD3D12Error(() => d3d.createCommandList('COMPUTE').setGraphicsRootShaderResourceView(1, va), {
      call: 'setGraphicsRootShaderResourceView',
      argument: 'this',
      message: /only DIRECT lists draw/,
    });
    const closed = d3d.createCommandList('COMPUTE');
    closed.close();
    expectD3D12Error(() => closed.setComputeRootShaderResourceView(1, va), {
      call: 'GraphicsCommandList.setComputeRootShaderResourceView',
      argument: 'this',
      message: /is closed/,
    });
  });
});

describe('root descriptors: a dispatch reads and writes through them', () => {
  test('root SRV in, root UAV out, a root constant beside them; graphics descriptors do not reach dispatches', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const data = pattern(1024, 3);
    const input = buffer(d3d, 1024);
    const output = buffer(d3d, 1024);
    const decoy = buffer(d3d, 1024);
    const pso = await d3d.createComputePipelineState({ code: SCALE, entryPoint: 'main' });
    const list = d3d.createCommandList('DIRECT');
    list.copyBufferRegion(input, 0, uploadBuffer(d3d, data), 0, 1024);
    list.resourceBarrier([
      {
        type: 'TRANSITION',
        transition: { resource: input, stateBefore: 'COPY_DEST', stateAfter: 'NON_PIXEL_SHADER_RESOURCE' },
      },
      { type: 'TRANSITION', transition: { resource: output, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } },
    ]);
    list.setPipelineState(pso);
    // Graphics root arguments are their own: these must not reach the dispatch.
    list.setGraphicsRootShaderResourceView(2, decoy.getGPUVirtualAddress());
    list.setGraphicsRootUnorderedAccessView(5, decoy.getGPUVirtualAddress());
    list.setComputeRootShaderResourceView(2, input.getGPUVirtualAddress());
    list.setComputeRootUnorderedAccessView(5, output.getGPUVirtualAddress());
    list.setComputeRoot32BitConstant(0, 3, 0);
    list.dispatch(4);
    list.resourceBarrier([
      { type: 'TRANSITION', transition: { resource: output, stateBefore: 'UNORDERED_ACCESS', stateAfter: 'COMMON' } },
    ]);
    list.close();
    queue.executeCommandLists([list]);
    await flush(d3d, queue);
    const got = new Uint32Array((await readBuffer(d3d, queue, output, 0, 1024)).buffer);
    const words = new Uint32Array(data.buffer);
    expect(Array.from(got)).toEqual(Array.from(words, (w) => Math.imul(w, 3) >>> 0));
    expect(Array.from(await readBuffer(d3d, queue, decoy, 0, 16))).toEqual(new Array(16).fill(0));
  });

  test('a resource a list reaches through its root UAV is named when released while the dispatch is in flight', async ({
    d3d,
  }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const target = buffer(d3d);
    target.setName('root uav target');
    const pso = await d3d.createComputePipelineState({
      code: '@compute @workgroup_size(1) fn main() { d3d12_store(d3d12_root_descriptor(1u), 7u); }',
      entryPoint: 'main',
    });
    const list = d3d.createCommandList('COMPUTE');
    list.setName('bindless writer');
    list.setPipelineState(pso);
    list.setComputeRootUnorderedAccessView(1, target.getGPUVirtualAddress());
    list.dispatch(1);
    list.close();
    d3d.createCommandQueue({ type: 'COMPUTE' }).executeCommandLists([list]);
    target.release();
    expect(d3d.getInfoQueue().getMessages()).toMatchObject([
      {
        id: 'OBJECT_DELETED_WHILE_STILL_IN_USE',
        object: { name: 'root uav target' },
        commandLists: [{ id: list.id, state: 'submitted' }],
      },
    ]);
    await flush(d3d, queue);
  });
});
