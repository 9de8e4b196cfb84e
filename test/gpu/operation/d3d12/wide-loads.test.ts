/**
 * 16-byte loads and stores (d3d12_load4, d3d12_load4_checked, d3d12_store4) and page handles
 * (d3d12_page, d3d12_page_for_write and their loads and stores by offset) against a CPU model of
 * the same memory: a reserved buffer of four tiles, tiles 0 and 2 mapped and filled with a pattern,
 * tiles 1 and 3 NULL. Each access is checked word by word, on both sides of every boundary: 16-byte
 * aligned and not, inside a tile and across a mapped/NULL edge, at the page's first and last words;
 * NULL words read 0 under Tier 2 and the poison value under Tier 1, and stores to them are dropped.
 * A handle of an evicted page records one fault, attributed to its command, however many accesses
 * go through it (where four scalar loads record four). A page-handle offset outside the page or
 * not aligned to the access is one page-offset fault per invocation at the address it names: loads
 * read a word of the same page, stores are dropped.
 */
import { describe, expect } from 'vitest';
import {
  createDevice,
  type CommandQueue,
  type Device,
  type PipelineState,
  type Resource,
  type TiledResourcesTier,
} from '../../../../src/index.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { flush, pattern, readBuffer, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';

const TIER1_NULL_READ = 0xdeadbeef;
const TILES = 4;
const MAPPED = [true, false, true, false];

interface Scene {
  d3d: Device;
  queue: CommandQueue;
  buffer: Resource;
  out: Resource;
  data: Uint8Array;
  tier: TiledResourcesTier;
}

async function scene(gpuDevice: GPUDevice, tier: TiledResourcesTier): Promise<Scene> {
  const d3d = await createDevice({
    gpuDevice,
    tiledResourcesTier: tier,
    localMemoryBytes: 4 << 20,
    nonLocalMemoryBytes: 4 << 20,
    onPageFault: 'report',
  });
  const queue = d3d.createCommandQueue({ type: 'DIRECT' });
  const heap = d3d.createHeap({ sizeInBytes: 2 * TILE, properties: { type: 'DEFAULT' } });
  const buffer = d3d.createReservedResource(
    { dimension: 'BUFFER', width: TILES * TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  queue.updateTileMappings(
    buffer,
    [
      { x: 0, y: 0, z: 0, subresource: 0 },
      { x: 2, y: 0, z: 0, subresource: 0 },
    ],
    [{ numTiles: 1 }, { numTiles: 1 }],
    heap,
    ['NONE', 'NONE'],
    [0, 1],
    [1, 1],
  );
  const data = pattern(TILES * TILE, 0x51);
  const upload = uploadBuffer(d3d, data);
  const list = d3d.createCommandList('DIRECT');
  for (const tile of [0, 2]) list.copyBufferRegion(buffer, tile * TILE, upload, tile * TILE, TILE);
  list.close();
  queue.executeCommandLists([list]);
  const out = d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'BUFFER', width: TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
    'COMMON',
  );
  await flush(d3d, queue);
  return { d3d, queue, buffer, out, data, tier };
}

/** The model's word at byte `offset` of the buffer, as a load reads it. */
function modelWord(s: Scene, offset: number): { value: number; mapped: boolean } {
  const tile = Math.floor(offset / TILE);
  if (!MAPPED[tile]) return { value: s.tier === 1 ? TIER1_NULL_READ : 0, mapped: false };
  return { value: new DataView(s.data.buffer).getUint32(offset, true), mapped: true };
}

async function run(s: Scene, code: string, constants: number[], name: string): Promise<Uint32Array> {
  const pso: PipelineState = await s.d3d.createComputePipelineState({ code, entryPoint: 'main', label: name });
  const list = s.d3d.createCommandList('DIRECT');
  list.setName(name);
  list.setPipelineState(pso);
  list.setComputeRootUnorderedAccessView(1, s.buffer.getGPUVirtualAddress());
  list.setComputeRootUnorderedAccessView(2, s.out.getGPUVirtualAddress());
  list.setComputeRoot32BitConstants(0, constants, 4);
  list.dispatch(constants.length);
  list.close();
  s.queue.executeCommandLists([list]);
  await flush(s.d3d, s.queue);
  const bytes = await readBuffer(s.d3d, s.queue, s.out, 0, constants.length * 32);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** Thread t: d3d12_load4_checked at root constant 4 + t; the four words and the status at 32 t of out. */
const LOAD4 = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  var status = 0u;
  let value = d3d12_load4_checked(d3d12_address_add(d3d12_root_descriptor(1u), d3d12_root_constant(4u + id.x)), &status);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 32u);
  d3d12_store4(out, value);
  d3d12_store(d3d12_address_add(out, 16u), select(0u, 1u, d3d12_check_access_fully_mapped(status)));
}`;

/** Thread t: a handle of the page holding byte root constant 4 + t, a page load there and a page load4 at the 16-byte boundary below. */
const PAGE_LOADS = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let va = d3d12_address_add(d3d12_root_descriptor(1u), d3d12_root_constant(4u + id.x));
  let page = d3d12_page(va);
  let offset = va.x - page.start.x;
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 32u);
  d3d12_store(out, d3d12_page_load(page, offset));
  d3d12_store4(d3d12_address_add(out, 16u), d3d12_page_load4(page, offset & ~15u));
}`;

/**
 * Thread t: a handle of the buffer's first page, then an access by `mode` (root constant 0; 0:
 * page_load, 1: page_load4, 2: page_store4 of 0xabcdef00) at each of root constants 4 + 2t and 5 + 2t
 * that is not 0xffffffff; loads' results at 32 t of out (4 or 16 bytes per access).
 */
const PAGE_OFFSETS = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let page = d3d12_page_for_write(d3d12_root_descriptor(1u));
  let mode = d3d12_root_constant(0u);
  let out = d3d12_address_add(d3d12_root_descriptor(2u), id.x * 32u);
  for (var k = 0u; k < 2u; k++) {
    let offset = d3d12_root_constant(4u + 2u * id.x + k);
    if (offset != 0xffffffffu) {
      if (mode == 0u) {
        d3d12_store(d3d12_address_add(out, 4u * k), d3d12_page_load(page, offset));
      } else if (mode == 1u) {
        d3d12_store4(d3d12_address_add(out, 16u * k), d3d12_page_load4(page, offset));
      } else {
        d3d12_page_store4(page, offset, vec4u(0xabcdef00u));
      }
    }
  }
}`;

/** Offsets on both sides of each boundary: aligned and not, inside a tile, across mapped/NULL edges, the last words of the buffer's mapped tiles. */
const OFFSETS = [
  0,
  16,
  20,
  4,
  TILE - 16,
  TILE - 8,
  TILE - 4,
  TILE + 32,
  2 * TILE - 4,
  2 * TILE,
  2 * TILE + 48,
  3 * TILE - 16,
  3 * TILE - 12,
];

describe('16-byte loads and page handles', () => {
  for (const tier of [1, 2] as const) {
    gpuTest(
      `tier ${tier}: d3d12_load4_checked reads what four 4-byte loads read, and says whether all were mapped`,
      async ({ device }) => {
        const s = await scene(device, tier);
        try {
          const words = await run(s, LOAD4, OFFSETS, 'load4');
          OFFSETS.forEach((offset, t) => {
            const model = [0, 4, 8, 12].map((k) => modelWord(s, offset + k));
            expect([...words.subarray(8 * t, 8 * t + 5)], `offset ${offset}`).toEqual([
              ...model.map((m) => m.value),
              model.every((m) => m.mapped) ? 1 : 0,
            ]);
          });
          expect(await s.d3d.readFaults()).toEqual([]);
        } finally {
          s.d3d.destroy();
        }
      },
    );

    gpuTest(
      `tier ${tier}: page handles read by offset what d3d12_load reads at the same address`,
      async ({ device }) => {
        const s = await scene(device, tier);
        try {
          const offsets = OFFSETS.filter((o) => o % 4 === 0);
          const words = await run(s, PAGE_LOADS, offsets, 'page loads');
          offsets.forEach((offset, t) => {
            const below = offset - (offset % 16);
            const model = [offset, below, below + 4, below + 8, below + 12].map((o) => modelWord(s, o).value);
            expect([words[8 * t], ...words.subarray(8 * t + 4, 8 * t + 8)], `offset ${offset}`).toEqual(model);
          });
          expect(await s.d3d.readFaults()).toEqual([]);
        } finally {
          s.d3d.destroy();
        }
      },
    );
  }

  // Per mode, per thread: two offsets (NONE: no access), and the offset the thread's one fault names (-1: none).
  const NONE = 0xffffffff;
  const BAD_OFFSETS: { mode: number; pairs: [number, number][]; bad: number[] }[] = [
    {
      mode: 0,
      pairs: [
        [8, TILE - 4],
        [TILE, NONE],
        [2, 8],
        [TILE - 4, TILE + 4],
        [4 * TILE, 6],
      ],
      bad: [-1, TILE, 2, TILE + 4, 4 * TILE],
    },
    {
      mode: 1,
      pairs: [
        [16, TILE - 16],
        [20, 32],
        [TILE, NONE],
        [48, 8],
      ],
      bad: [-1, 20, TILE, 8],
    },
    {
      mode: 2,
      pairs: [
        [32, NONE],
        [36, NONE],
        [TILE, NONE],
        [TILE + 16, 64],
      ],
      bad: [-1, 36, TILE, TILE + 16],
    },
  ];
  for (const { mode, pairs, bad } of BAD_OFFSETS) {
    gpuTest(
      `page-handle offsets outside the page or not aligned, mode ${mode}: one page-offset fault per invocation, at the address named; loads stay in the page, stores are dropped`,
      async ({ device }) => {
        const s = await scene(device, 2);
        try {
          const pso = await s.d3d.createComputePipelineState({
            code: PAGE_OFFSETS,
            entryPoint: 'main',
            label: `mode ${mode}`,
          });
          const list = s.d3d.createCommandList('DIRECT');
          list.setName(`bad offsets, mode ${mode}`);
          list.setPipelineState(pso);
          list.setComputeRootUnorderedAccessView(1, s.buffer.getGPUVirtualAddress());
          list.setComputeRootUnorderedAccessView(2, s.out.getGPUVirtualAddress());
          list.setComputeRoot32BitConstants(0, [mode, 0, 0, 0, ...pairs.flat()], 0);
          list.dispatch(pairs.length);
          list.close();
          s.queue.executeCommandLists([list]);
          await flush(s.d3d, s.queue);
          const faults = await s.d3d.readFaults();
          const base = s.buffer.getGPUVirtualAddress();
          const sorted = (values: bigint[]): bigint[] => [...values].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
          expect(sorted(faults.map((f) => BigInt(f.address)))).toEqual(
            sorted(bad.filter((o) => o >= 0).map((o) => base + BigInt(o))),
          );
          for (const fault of faults) {
            expect(fault.kind).toBe('page-offset');
            expect(fault.commandList).toEqual({
              id: list.id,
              label: expect.stringContaining(`mode ${mode}`) as string,
            });
            expect(fault.command.name).toBe('dispatch');
            expect(fault.message).toMatch(/page handle at an offset outside its 64 KiB page or not aligned/);
          }
          const word = (offset: number): number => new DataView(s.data.buffer).getUint32(offset, true);
          if (mode !== 2) {
            const out = new Uint32Array((await readBuffer(s.d3d, s.queue, s.out, 0, pairs.length * 32)).buffer);
            pairs.forEach((pair, t) => {
              pair.forEach((offset, k) => {
                if (offset === NONE) return;
                // Whatever the offset, a load reads inside the page: at the offset taken in the page, aligned down.
                const inPage = offset % TILE;
                if (mode === 0)
                  expect(out[8 * t + k], `thread ${t}, load at ${offset}`).toBe(word(inPage - (inPage % 4)));
                else
                  expect(
                    [...out.subarray(8 * t + 4 * k, 8 * t + 4 * k + 4)],
                    `thread ${t}, load4 at ${offset}`,
                  ).toEqual([0, 4, 8, 12].map((d) => word(inPage - (inPage % 16) + d)));
              });
            });
          } else {
            // The good stores landed (32, and 64 after a bad one: each access stands alone); the bad ones reached no memory.
            const model = new Uint8Array(s.data);
            for (const offset of [32, 64])
              for (let d = 0; d < 16; d += 4) new DataView(model.buffer).setUint32(offset + d, 0xabcdef00, true);
            for (const tile of [0, 2]) {
              const got = await readBuffer(s.d3d, s.queue, s.buffer, tile * TILE, TILE);
              expect(
                Buffer.from(got).equals(Buffer.from(model.subarray(tile * TILE, (tile + 1) * TILE))),
                `tile ${tile}`,
              ).toBe(true);
            }
          }
        } finally {
          s.d3d.destroy();
        }
      },
    );
  }

  gpuTest(
    'd3d12_store4 (aligned, unaligned, across a mapped/NULL edge) and page stores; NULL words dropped',
    async ({ device }) => {
      const s = await scene(device, 2);
      try {
        // Thread t writes words 100 t + 1..4 at offset root constant 4 + t: store4 for even t, a page handle's store4 for odd t.
        const code = `
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let va = d3d12_address_add(d3d12_root_descriptor(1u), d3d12_root_constant(4u + id.x));
  let v = vec4u(1u, 2u, 3u, 4u) + vec4u(100u * id.x);
  if ((id.x & 1u) == 0u) {
    d3d12_store4(va, v);
  } else {
    let page = d3d12_page_for_write(va);
    d3d12_page_store4(page, va.x - page.start.x, v);
  }
}`;
        // Odd threads' offsets (page stores) are 16-byte aligned, as d3d12_page_store4 needs.
        const offsets = [32, 80, TILE - 8, TILE - 32, TILE + 64, 2 * TILE - 16, 2 * TILE + 16, 2 * TILE + 96];
        await run(s, code, offsets, 'stores');
        const model = new Uint8Array(s.data);
        const view = new DataView(model.buffer);
        offsets.forEach((offset, t) => {
          for (let k = 0; k < 4; k++)
            if (MAPPED[Math.floor((offset + 4 * k) / TILE)]) view.setUint32(offset + 4 * k, 100 * t + k + 1, true);
        });
        for (const tile of [0, 2]) {
          const got = await readBuffer(s.d3d, s.queue, s.buffer, tile * TILE, TILE);
          expect(
            Buffer.from(got).equals(Buffer.from(model.subarray(tile * TILE, (tile + 1) * TILE))),
            `tile ${tile}`,
          ).toBe(true);
        }
        expect(await s.d3d.readFaults()).toEqual([]);
      } finally {
        s.d3d.destroy();
      }
    },
  );

  gpuTest(
    'a handle of an evicted page records one fault, attributed to its command; four scalar loads record four',
    async ({ device }) => {
      const d3d = await createDevice({
        gpuDevice: device,
        localMemoryBytes: 4 << 20,
        nonLocalMemoryBytes: 4 << 20,
        onPageFault: 'report',
      });
      try {
        const queue = d3d.createCommandQueue({ type: 'DIRECT' });
        const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
        const placed = d3d.createPlacedResource(
          heap,
          0,
          { dimension: 'BUFFER', width: TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
          'COMMON',
        );
        placed.setName('evicted');
        const out = d3d.createCommittedResource(
          { type: 'DEFAULT' },
          [],
          { dimension: 'BUFFER', width: TILE, flags: ['ALLOW_UNORDERED_ACCESS'] },
          'COMMON',
        );
        d3d.evict([heap]);
        const code = (body: string): string => `
@compute @workgroup_size(1)
fn main() {
  let va = d3d12_root_descriptor(1u);
  var sum = 0u;
  ${body}
  d3d12_store(d3d12_root_descriptor(2u), sum);
}`;
        const handle = await d3d.createComputePipelineState({
          code: code(
            'let page = d3d12_page(va); for (var i = 0u; i < 4u; i++) { sum += d3d12_page_load(page, 64u + 4u * i); }',
          ),
          entryPoint: 'main',
        });
        const scalar = await d3d.createComputePipelineState({
          code: code('for (var i = 0u; i < 4u; i++) { sum += d3d12_load(d3d12_address_add(va, 64u + 4u * i)); }'),
          entryPoint: 'main',
        });
        const counts: number[] = [];
        for (const [name, pso] of [
          ['through a handle', handle],
          ['scalar', scalar],
        ] as const) {
          const list = d3d.createCommandList('DIRECT');
          list.setName(name);
          list.setPipelineState(pso);
          list.setComputeRootUnorderedAccessView(1, placed.getGPUVirtualAddress());
          list.setComputeRootUnorderedAccessView(2, out.getGPUVirtualAddress());
          list.dispatch(1);
          list.close();
          queue.executeCommandLists([list]);
          await flush(d3d, queue);
          const faults = await d3d.readFaults();
          counts.push(faults.length);
          for (const fault of faults) {
            expect(fault.kind).toBe('read-absent');
            expect(fault.heap?.id).toBe(heap.id);
            expect(fault.commandList).toEqual({ id: list.id, label: expect.stringContaining(name) as string });
            expect(fault.command.name).toBe('dispatch');
          }
        }
        expect(counts).toEqual([1, 4]);
        expect(d3d.getDeviceRemovedReason()).toBe('S_OK');
      } finally {
        d3d.destroy();
      }
    },
  );
});
