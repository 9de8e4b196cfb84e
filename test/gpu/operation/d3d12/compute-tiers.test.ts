/**
 * User compute shaders against emulated memory, per tiled-resources tier: d3d12_load_checked on a
 * partially mapped reserved buffer (data and "fully mapped" on mapped tiles; on NULL tiles 0 and not
 * mapped on Tier 2 and 3, the poison value D3D12_TIER1_NULL_READ on Tier 1), stores to NULL tiles
 * dropped, and readFaults() naming accesses outside every resource (but not NULL-tile accesses).
 * Shaders write their results into a DEFAULT buffer by address from root constants; the test reads
 * it back through a READBACK buffer.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandQueue,
  type Device,
  type GraphicsCommandList,
  type PipelineState,
  type Resource,
  type TiledResourcesTier,
} from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { firstDifference, flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';

/** shaders/prelude.wgsl's D3D12_TIER1_NULL_READ. */
const TIER1_NULL_READ = 0xdeadbeef;

async function open(gpuDevice: GPUDevice, tiledResourcesTier: TiledResourcesTier = 3): Promise<Device> {
  return createDevice({
    gpuDevice,
    tiledResourcesTier,
    localMemoryBytes: 8 << 20,
    nonLocalMemoryBytes: 8 << 20,
    onPageFault: 'report',
  });
}

const test = gpuTest;

function defaultBuffer(d3d: Device, width: number): Resource {
  return d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width }, 'COMMON');
}

const wordsOf = (bytes: Uint8Array): number[] =>
  Array.from(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
const wordAt = (bytes: Uint8Array, offset: number): number =>
  new DataView(bytes.buffer, bytes.byteOffset).getUint32(offset, true);

/**
 * Runs one dispatch: `addresses` as root UAVs 1, 2, ...; `constants` from root constant 2 per address
 * on (so a shader's constant k sits where it would after that many two-word addresses).
 */
async function dispatch(
  d3d: Device,
  queue: CommandQueue,
  pso: PipelineState,
  addresses: bigint[],
  constants: number[],
  groups: number,
  name?: string,
  before?: (list: GraphicsCommandList) => void,
): Promise<GraphicsCommandList> {
  const list = d3d.createCommandList(queue.type);
  if (name) list.setName(name);
  before?.(list);
  list.setPipelineState(pso);
  addresses.forEach((address, i) => list.setComputeRootUnorderedAccessView(i + 1, address));
  list.setComputeRoot32BitConstants(0, constants, 2 * addresses.length);
  list.dispatch(groups);
  list.close();
  queue.executeCommandLists([list]);
  await flush(d3d, queue);
  return list;
}

/**
 * Thread t reads the word at byte (root constant 5 + t % 4) of tile t / 4 of root UAV 1 with
 * d3d12_load_checked and writes the value and d3d12_check_access_fully_mapped (0 or 1) to words
 * 2t and 2t + 1 of root UAV 2.
 */
const LOAD_CHECKED = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let t = id.x;
  let offset = (t / 4u) * 65536u + d3d12_root_constant(5u + t % 4u);
  var status = 0u;
  let value = d3d12_load_checked(d3d12_address_add(d3d12_root_descriptor(1u), offset), &status);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), t * 8u);
  d3d12_store(out, value);
  d3d12_store(d3d12_address_add(out, 4u), select(0u, 1u, d3d12_check_access_fully_mapped(status)));
}
`;

/** Thread t stores root constant 2 at root UAV 1 plus root constant 3 + t. */
const STORE = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  d3d12_store(d3d12_address_add(d3d12_root_descriptor(1u), d3d12_root_constant(3u + id.x)), d3d12_root_constant(2u));
}
`;

/** Copies the word at root UAV 1 plus root constant 4 to root UAV 2 (d3d12_load). */
const LOAD = `
@compute @workgroup_size(1)
fn main() {
  d3d12_store(d3d12_root_descriptor(2u), d3d12_load(d3d12_address_add(d3d12_root_descriptor(1u), d3d12_root_constant(4u))));
}
`;

describe('d3d12_load_checked on a partially mapped reserved buffer', () => {
  for (const tier of [1, 2, 3] as const) {
    test(`tier ${tier}: mapped tiles give their data${tier === 1 ? '' : ' and true'}; NULL tiles give ${tier === 1 ? 'the poison value' : '0 and false'}`, async ({
      device,
    }) => {
      const d3d = await open(device, tier);
      try {
        const queue = d3d.createCommandQueue({ type: 'COMPUTE' });
        const tiles = 4;
        const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: tiles * TILE }, 'COMMON');
        const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
        // Tile 0 → heap tile 1, tile 2 → heap tile 0; tiles 1 and 3 stay NULL.
        queue.updateTileMappings(
          reserved,
          [
            { x: 0, y: 0, z: 0, subresource: 0 },
            { x: 2, y: 0, z: 0, subresource: 0 },
          ],
          [{ numTiles: 1 }, { numTiles: 1 }],
          heap,
          ['NONE', 'NONE'],
          [1, 0],
          [1, 1],
        );
        const data = pattern(tiles * TILE, 20 + tier);
        const upload = uploadBuffer(d3d, data);
        const list = d3d.createCommandList('COMPUTE');
        list.copyBufferRegion(reserved, 0, upload, 0, TILE);
        list.copyBufferRegion(reserved, 2 * TILE, upload, 2 * TILE, TILE);
        list.close();
        queue.executeCommandLists([list]);
        await flush(d3d, queue);

        const offsets = [0, 4, 32768, TILE - 4];
        const out = defaultBuffer(d3d, tiles * offsets.length * 8);
        const pso = await d3d.createComputePipelineState({ code: LOAD_CHECKED, entryPoint: 'main' });
        await dispatch(
          d3d,
          queue,
          pso,
          [reserved.getGPUVirtualAddress(), out.getGPUVirtualAddress()],
          [0, ...offsets],
          tiles * offsets.length,
        );
        const results = wordsOf(await readBuffer(d3d, queue, out, 0, tiles * offsets.length * 8));

        for (let tile = 0; tile < tiles; tile++) {
          const mapped = tile === 0 || tile === 2;
          offsets.forEach((offset, i) => {
            const t = tile * offsets.length + i;
            const [value, fullyMapped] = [results[2 * t], results[2 * t + 1]];
            const where = `tier ${tier}, tile ${tile} (${mapped ? 'mapped' : 'NULL'}), byte ${offset}`;
            if (mapped) {
              expect(value, `${where}: value`).toBe(wordAt(data, tile * TILE + offset));
              // CheckAccessFullyMapped is a Tier 2 feature.
              if (tier >= 2) expect(fullyMapped, `${where}: d3d12_check_access_fully_mapped`).toBe(1);
            } else if (tier === 1) {
              expect(value, `${where}: value`).toBe(TIER1_NULL_READ);
            } else {
              expect(value, `${where}: value`).toBe(0);
              expect(fullyMapped, `${where}: d3d12_check_access_fully_mapped`).toBe(0);
            }
          });
        }
        // NULL tiles are not faults.
        expect(await d3d.readFaults()).toEqual([]);
      } finally {
        d3d.destroy();
      }
    });
  }
});

describe('stores and faults', () => {
  for (const tier of [2, 3] as const) {
    test(`tier ${tier}: a store to a NULL tile is dropped: no heap page changes, the tile still reads 0, no fault`, async ({
      device,
    }) => {
      const d3d = await open(device, tier);
      try {
        const queue = d3d.createCommandQueue({ type: 'DIRECT' });
        const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
        // The heap's bytes, seen through a placed buffer over all of it.
        const whole = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
        const data = pattern(2 * TILE, 30 + tier);
        const upload = uploadBuffer(d3d, data);
        const fill = d3d.createCommandList('DIRECT');
        fill.copyBufferRegion(whole, 0, upload, 0, 2 * TILE);
        fill.close();
        queue.executeCommandLists([fill]);
        // Reserved tile 0 → heap tile 1; tile 1 NULL.
        const reserved = d3d.createReservedResource({ dimension: 'BUFFER', width: 2 * TILE }, 'COMMON');
        queue.updateTileMappings(
          reserved,
          [{ x: 0, y: 0, z: 0, subresource: 0 }],
          [{ numTiles: 1 }],
          heap,
          ['NONE'],
          [1],
          [1],
        );
        const pso = await d3d.createComputePipelineState({ code: STORE, entryPoint: 'main' });
        const value = 0x600dcafe;
        // Thread 0 (the control) stores into mapped tile 0 at byte 8; threads 1-3 into the NULL tile.
        const storeOffsets = [8, TILE, TILE + 8, 2 * TILE - 4];
        await dispatch(
          d3d,
          queue,
          pso,
          [reserved.getGPUVirtualAddress()],
          [value, ...storeOffsets],
          storeOffsets.length,
        );

        const expected = data.slice();
        new DataView(expected.buffer).setUint32(TILE + 8, value, true); // heap tile 1, byte 8
        const heapBytes = await readBuffer(d3d, queue, whole, 0, 2 * TILE);
        const at = firstDifference(heapBytes, expected);
        expect(at, `heap byte ${at} is ${heapBytes[at]}, expected ${expected[at]}`).toBe(-1);
        const nullTile = await readBuffer(d3d, queue, reserved, TILE, TILE);
        expect(firstDifference(nullTile, new Uint8Array(TILE)), 'the NULL tile reads as zeros').toBe(-1);
        expect(await d3d.readFaults()).toEqual([]);
      } finally {
        d3d.destroy();
      }
    });
  }

  test("readFaults reports a read and a write outside every resource (a buffer's guard page), naming the address, list and command; then forgets them", async ({
    device,
  }) => {
    const d3d = await open(device);
    try {
      const queue = d3d.createCommandQueue({ type: 'COMPUTE' });
      const buffer = defaultBuffer(d3d, TILE);
      const out = defaultBuffer(d3d, 256);
      const marker = d3d.createCommittedResource(
        { type: 'DEFAULT' },
        [],
        { dimension: 'TEXTURE2D', width: 64, height: 64, format: 'R8G8B8A8_UNORM' },
        'COMMON',
      );
      const load = await d3d.createComputePipelineState({ code: LOAD, entryPoint: 'main' });
      const store = await d3d.createComputePipelineState({ code: STORE, entryPoint: 'main' });
      const base = buffer.getGPUVirtualAddress();
      const outVa = out.getGPUVirtualAddress();
      const data = pattern(TILE, 40);
      const outBefore = pattern(256, 41);
      const fill = d3d.createCommandList('COMPUTE');
      fill.copyBufferRegion(buffer, 0, uploadBuffer(d3d, data), 0, TILE);
      fill.copyBufferRegion(out, 0, uploadBuffer(d3d, outBefore), 0, 256);
      fill.close();
      queue.executeCommandLists([fill]);

      // The control: the last word of the buffer is inside it (no fault).
      await dispatch(d3d, queue, load, [base, outVa], [TILE - 4], 1);
      expect(await d3d.readFaults()).toEqual([]);

      // A read one word past the end: the guard page. Commands: barrier 0, pipeline 1, UAVs 2 and 3,
      // constants 4, dispatch 5.
      const reader = await dispatch(d3d, queue, load, [base, outVa + 4n], [TILE], 1, 'reader', (list) => {
        list.resourceBarrier([
          { type: 'TRANSITION', transition: { resource: marker, stateBefore: 'COMMON', stateAfter: 'COPY_SOURCE' } },
        ]);
      });
      // A write 8 bytes into the guard page: pipeline 0, UAV 1, constants 2, dispatch 3.
      const writer = await dispatch(d3d, queue, store, [base], [7, TILE + 8], 1, 'writer');
      const faults = await d3d.readFaults();
      const hex = (va: bigint): string => `0x${va.toString(16)}`;
      expect(faults.map((f) => [f.kind, f.address, f.commandList.id, f.command.index, f.command.name])).toEqual([
        ['read-unowned', hex(base + BigInt(TILE)), reader.id, 5, 'dispatch'],
        ['write-unowned', hex(base + BigInt(TILE + 8)), writer.id, 3, 'dispatch'],
      ]);
      const [read, write] = faults as [(typeof faults)[number], (typeof faults)[number]];
      expect(read.resource).toBeUndefined();
      expect(read.commandList.label).toBe(reader.label);
      expect(reader.label).toMatch(/^COMPUTE command list #\d+ 'reader'$/);
      expect(read.message).toBe(
        `GPU page fault: read of an address no resource owns 0x${(base + BigInt(TILE)).toString(16)} (outside every live resource) by command 5 (dispatch) of ${reader.label}`,
      );
      expect(write.message).toContain(
        `write to an address no resource owns 0x${(base + BigInt(TILE + 8)).toString(16)} (outside every live resource) by command 3 (dispatch) of ${writer.label}`,
      );
      // The control read the last word; the faulting read returned 0; the faulting write went nowhere.
      const expectedOut = outBefore.slice();
      new DataView(expectedOut.buffer).setUint32(0, wordAt(data, TILE - 4), true);
      new DataView(expectedOut.buffer).setUint32(4, 0, true);
      expect(firstDifference(await readBuffer(d3d, queue, out, 0, 256), expectedOut), 'out').toBe(-1);
      expect(firstDifference(await readBuffer(d3d, queue, buffer, 0, TILE), data), 'the buffer').toBe(-1);
      // Reported once.
      expect(await d3d.readFaults()).toEqual([]);
    } finally {
      d3d.destroy();
    }
  });
});
