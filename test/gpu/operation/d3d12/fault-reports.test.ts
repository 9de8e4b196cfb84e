/**
 * Page-fault reports are plain data (DRED-like): kind, address as hex, the resource (name, id, kind,
 * address range; for textures the subresource and tile coordinate), the heap (name, id, state), the
 * command list (label, id) and the command (index and name). JSON.stringify stores a report and
 * JSON.parse gives it back unchanged; names are cut to MAX_NAME_LENGTH; a device keeps at most
 * MAX_FAULT_REPORTS reports and counts the rest.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandQueue,
  type Device,
  type FaultReport,
  type PipelineState,
} from '../../../../src/index.js';
import { MAX_FAULT_REPORTS, MAX_NAME_LENGTH } from '../../../../src/emulator/fault-report.js';
import { FAULT_CAPACITY } from '../../../../src/gpu/gpu-memory.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { flush, TILE } from '../../../shared/d3d12-helpers.js';

const hex = (va: bigint): string => `0x${va.toString(16)}`;

/** Thread t reads the word at root SRV 1 + t * root constant 2 (and writes nothing). */
const READER = `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let value = d3d12_load(d3d12_address_add(d3d12_root_descriptor(1u), id.x * d3d12_root_constant(2u)));
  if (value == 0x12345678u) {
    d3d12_store(d3d12_root_descriptor(1u), 0u);
  }
}
`;

async function read(
  d3d: Device,
  queue: CommandQueue,
  pso: PipelineState,
  va: bigint,
  stride: number,
  threads: number,
  name: string,
): Promise<void> {
  const list = d3d.createCommandList('DIRECT');
  list.setName(name);
  list.setPipelineState(pso);
  list.setComputeRootShaderResourceView(1, va);
  list.setComputeRoot32BitConstant(0, stride, 2);
  list.dispatch(Math.ceil(threads / 64));
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
}

describe('fault reports are plain data', () => {
  gpuTest(
    'a read of an evicted texture tile names the subresource and tile coordinate; the report survives JSON',
    async ({ device }) => {
      const d3d = await createDevice({ gpuDevice: device, localMemoryBytes: 8 << 20, nonLocalMemoryBytes: 4 << 20 });
      try {
        const queue = d3d.createCommandQueue({ type: 'DIRECT' });
        // 512² RGBA8: 128×128 texel tiles; mip 0 is 4×4 tiles (0-15), mip 1 is 2×2 (16-19), mip 2 one tile (20).
        const texture = d3d.createReservedResource(
          {
            dimension: 'TEXTURE2D',
            width: 512,
            height: 512,
            mipLevels: 3,
            format: 'R8G8B8A8_UNORM',
            layout: '64KB_UNDEFINED_SWIZZLE',
          },
          'COMMON',
        );
        const longName = 'texture '.repeat(100);
        texture.setName(longName);
        const heap = d3d.createHeap({ sizeInBytes: 21 * TILE, properties: { type: 'DEFAULT' } });
        heap.setName('texture heap');
        queue.updateTileMappings(texture, null, null, heap, null, null, null);
        d3d.evict([heap]);
        const pso = await d3d.createComputePipelineState({ code: READER, entryPoint: 'main' });
        // Tile 19: mip 1 (subresource 1), x 1, y 1; 100 bytes into it.
        const address = texture.getGPUVirtualAddress() + BigInt(19 * TILE + 100);
        await read(d3d, queue, pso, address, 0, 1, 'sample mip 1');
        expect(d3d.getDeviceRemovedReason()).toBe('DXGI_ERROR_DEVICE_HUNG');
        const report = d3d.getPageFaultReport();
        const fault = report?.faults[0] as FaultReport;
        const start = texture.getGPUVirtualAddress();
        const layoutBytes = d3d.getResourceTiling(texture).numTilesForEntireResource * TILE;
        expect(fault).toEqual({
          kind: 'read-absent',
          address: hex(address),
          resource: {
            id: texture.id,
            name: `${longName.slice(0, MAX_NAME_LENGTH - 1)}…`,
            label: `${texture.label.slice(0, MAX_NAME_LENGTH - 1)}…`,
            kind: 'reserved',
            dimension: 'TEXTURE2D',
            addressRange: { start: hex(start), end: hex(start + BigInt(layoutBytes)) },
            released: false,
            offset: 19 * TILE + 100,
            tile: 19,
            coordinate: { x: 1, y: 1, z: 0, subresource: 1 },
          },
          heap: { id: heap.id, name: 'texture heap', label: heap.label, state: 'evicted' },
          commandList: {
            id: expect.any(Number) as number,
            label: expect.stringMatching(/^DIRECT command list #\d+ 'sample mip 1'$/) as string,
          },
          command: { index: 3, name: 'dispatch' },
          message: expect.stringMatching(
            /tile 19 \(subresource 1, x 1, y 1, z 0\), heap #\d+ 'texture heap'\) by command 3 \(dispatch\) of DIRECT command list/,
          ) as string,
        });
        // All 64 threads of the group read that address. JSON keeps every field; each report is small
        // (bounded names).
        expect(report?.faults).toHaveLength(64);
        const text = JSON.stringify(report);
        expect(JSON.parse(text)).toEqual(report);
        for (const one of report?.faults ?? []) expect(JSON.stringify(one).length).toBeLessThan(2048);
        // The report is a copy: changing it changes nothing the device keeps.
        (report as { faults: FaultReport[] }).faults[0] = { ...fault, kind: 'unknown' };
        expect(d3d.getPageFaultReport()?.faults[0]?.kind).toBe('read-absent');
      } finally {
        d3d.destroy();
      }
    },
  );

  gpuTest(`a device keeps at most ${MAX_FAULT_REPORTS} reports and counts the rest`, async ({ device }) => {
    const d3d = await createDevice({
      gpuDevice: device,
      localMemoryBytes: 8 << 20,
      nonLocalMemoryBytes: 4 << 20,
      onPageFault: 'report',
    });
    try {
      const queue = d3d.createCommandQueue({ type: 'DIRECT' });
      const pso = await d3d.createComputePipelineState({ code: READER, entryPoint: 'main' });
      const buffer = d3d.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'BUFFER', width: TILE },
        'COMMON',
      );
      // Reads past the end (the guard page and beyond): one fault per thread, FAULT_CAPACITY kept per submission.
      const submissions = Math.ceil(MAX_FAULT_REPORTS / FAULT_CAPACITY) + 1;
      for (let i = 0; i < submissions; i++)
        await read(
          d3d,
          queue,
          pso,
          buffer.getGPUVirtualAddress() + BigInt(TILE),
          4,
          FAULT_CAPACITY + 64,
          `reader ${i}`,
        );
      const faults = await d3d.readFaults();
      expect(faults).toHaveLength(MAX_FAULT_REPORTS);
      const lost = submissions * (FAULT_CAPACITY + 64) - MAX_FAULT_REPORTS;
      expect(faults[faults.length - 1]?.message).toMatch(new RegExp(`; ${lost} more fault\\(s\\) were not kept$`));
      expect(faults.every((f) => f.kind === 'read-unowned' && f.resource === undefined)).toBe(true);
      expect(JSON.parse(JSON.stringify(faults))).toEqual(faults);
      expect(await d3d.readFaults()).toEqual([]);
    } finally {
      d3d.destroy();
    }
  });
});
