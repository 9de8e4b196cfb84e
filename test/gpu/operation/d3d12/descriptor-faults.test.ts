/**
 * Descriptor faults (GPU-based validation's class of error): a descriptor read through a table that
 * was never written, holds another view type, or describes a released resource; a register the root
 * signature does not bind; a descriptor heap evicted while a table in it is read. Each report names
 * the descriptor heap and index (or the register), and the read gives 0 (the output word says so).
 */
import { expect } from 'vitest';
import { d3dTest } from '../../../harness/d3d-test.js';
import { flush, readBuffer, runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';

const test = d3dTest({
  localMemoryBytes: 16 << 20,
  nonLocalMemoryBytes: 8 << 20,
  gpuValidation: true,
  onPageFault: 'report',
});

const CODE = `
@compute @workgroup_size(1)
fn main() {
  let src = d3d12_buffer(d3d12_t(d3d12_root_constant(0u), 0u));
  let out = d3d12_rw_buffer(d3d12_u(0u, 0u));
  d3d12_buffer_store_word(out, 0u, d3d12_buffer_load_word(src, 0u) + 1u);
}`;

test('descriptor faults name the descriptor heap and index, and reads through them give 0', async ({ d3d }) => {
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const out = d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'UNORDERED_ACCESS',
  );
  const data = uploadBuffer(d3d, new Uint8Array(new Uint32Array(TILE / 4).fill(41).buffer));
  data.setName('data');
  const heap = d3d.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 8, flags: 'SHADER_VISIBLE' });
  heap.setName('table heap');
  const inc = d3d.getDescriptorHandleIncrementSize('CBV_SRV_UAV');
  const cpu = (i: number) => ({ ptr: heap.getCPUDescriptorHandleForHeapStart().ptr + i * inc });
  const raw = {
    format: 'R32_TYPELESS',
    viewDimension: 'BUFFER',
    buffer: { firstElement: 0, numElements: TILE / 4, flags: 'RAW' },
  } as const;
  d3d.createUnorderedAccessView(out, null, raw, cpu(0));
  d3d.createShaderResourceView(data, { ...raw, shader4ComponentMapping: 0x1688 }, cpu(1));
  // 2: never written; 3: a UAV where an SRV is read
  d3d.createUnorderedAccessView(out, null, raw, cpu(3));
  const rs = d3d.createRootSignature(0, {
    version: '1_1',
    desc_1_1: {
      parameters: [
        { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 0, num32BitValues: 1 } },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'UAV', numDescriptors: 1, baseShaderRegister: 0 },
              { rangeType: 'SRV', numDescriptors: 3, baseShaderRegister: 1, flags: ['DESCRIPTORS_VOLATILE'] },
            ],
          },
        },
      ],
    },
  });
  const pso = await d3d.createComputePipelineState({ code: CODE, entryPoint: 'main', rootSignature: rs });
  const run = (register: number) =>
    runList(d3d, queue, (list) => {
      list.setPipelineState(pso);
      list.setComputeRootSignature(rs);
      list.setDescriptorHeaps([heap]);
      list.setComputeRoot32BitConstant(0, register, 0);
      list.setComputeRootDescriptorTable(1, heap.getGPUDescriptorHandleForHeapStart());
      list.dispatch(1);
    });
  const output = async (): Promise<number> =>
    new Uint32Array((await readBuffer(d3d, queue, out, 0, 4, 'UNORDERED_ACCESS' as never)).buffer)[0] ?? -1;
  const heapLabel = 'descriptor heap #' + heap.id + " (CBV_SRV_UAV, shader-visible) 'table heap'";
  // Control: descriptor 1 is an SRV of `data` (41): the shader writes 42, no fault.
  await run(1);
  expect(await d3d.readFaults()).toEqual([]);
  expect(await output()).toBe(42);

  await run(2);
  let faults = await d3d.readFaults();
  expect(faults.map((f) => [f.kind, f.descriptor?.index, f.descriptor?.holds])).toEqual([
    ['descriptor-uninitialized', 2, 'never written'],
  ]);
  expect(faults[0]?.message).toContain(`descriptor 2 of ${heapLabel} was never written`);
  expect(await output()).toBe(1);

  await run(3);
  faults = await d3d.readFaults();
  expect(faults.map((f) => [f.kind, f.descriptor?.index])).toEqual([['descriptor-mismatch', 3]]);
  expect(faults[0]?.message).toContain('holds a UAV of a raw buffer where the shader reads a buffer SRV');

  await run(7);
  faults = await d3d.readFaults();
  expect(faults.map((f) => [f.kind, f.register])).toEqual([['unbound-register', { register: 't7', space: 0 }]]);
  expect(faults[0]?.descriptor).toBeUndefined();

  data.release();
  await flush(d3d, queue);
  await run(1);
  faults = await d3d.readFaults();
  expect(faults.map((f) => [f.kind, f.descriptor?.index, f.descriptor?.holds])).toEqual([
    ['descriptor-released', 1, `SRV of committed resource #${data.id} 'data' (released)`],
  ]);
  expect(await output()).toBe(1);

  // The descriptor heap evicted: both table reads fault at their descriptors, naming the heap.
  d3d.evict([heap]);
  await run(2);
  faults = await d3d.readFaults();
  expect(faults.map((f) => [f.kind, f.descriptor?.heap.state, f.descriptor?.index]).sort()).toEqual([
    ['read-absent', 'evicted', 0],
    ['read-absent', 'evicted', 2],
  ]);
  expect(faults[0]?.resource).toBeUndefined();
  d3d.makeResident([heap]);
  await run(1);
  expect(await d3d.readFaults()).toEqual([expect.objectContaining({ kind: 'descriptor-released' })]);
});
