/**
 * Descriptor tables as a root signature lays them out, read by a compute shader through registers
 * (d3d12_t, d3d12_b, d3d12_s) and checked against the descriptors written: tables at offsets into a
 * shader-visible heap (two tables of one heap, one table moved between dispatches), ranges placed by
 * DESCRIPTOR_RANGE_OFFSET_APPEND and by explicit offsets (with a gap), several ranges and register
 * spaces in one table, an unbounded range, a sampler table at an offset of a SAMPLER heap, root
 * constants beside the tables; copyDescriptors (ranges of different sizes on each side) and
 * copyDescriptorsSimple from heaps that are not shader visible; a descriptor rewritten between two
 * submissions (each reads the descriptor as it was when submitted); and an evicted descriptor heap:
 * every descriptor read faults at its descriptor and reads 0 while root constants still read,
 * descriptors written while it is evicted reach the GPU when it is resident again, and an evicted
 * SAMPLER heap faults at its sampler descriptors, which read as the point/clamp fallback.
 * (descriptor-faults.test.ts has the other descriptor faults.)
 *
 * Every buffer view is a raw SRV or a CBV of one data buffer, whose slot n (256 bytes at 256 n)
 * starts with the marker word MARKER + 64 n: a probe reads the marker, so the slot it names says
 * which descriptor the register resolved to.
 */
import { expect } from 'vitest';
import {
  type CommandQueue,
  type CpuDescriptorHandle,
  type DescriptorHeap,
  type Device,
  type GraphicsCommandList,
  type PipelineState,
  type Resource,
  type RootSignature,
  type SamplerDesc,
  UNBOUNDED_DESCRIPTOR_RANGE,
} from '../../../../src/index.js';
import { flush, readBuffer, runList, TILE } from '../../../shared/d3d12-helpers.js';
import {
  bufferView,
  createRigDevice,
  defaultBuffer,
  fileSetupTest,
  filledBuffer,
} from '../../../shared/descriptor-rig.js';

const MARKER = 0xa0000000;
const SLOTS = 64;
const marker = (slot: number): number => (MARKER + 64 * slot) >>> 0;

/** Table A (root parameter 2): t0-t1 at 0 (APPEND), b1-b2 at 4 (a gap at 2-3), t5-t7 of space 2 at 6 (APPEND). */
const A = { t0: 0, t1: 1, b1: 4, b2: 5, s2t5: 6, s2t6: 7, s2t7: 8 };
/** Table B (root parameter 3): b0 of space 3 at 0, then t0 and up of space 3, unbounded. */
const B = { b0: 0, t0: 1 };
/** The sampler table (root parameter 4): s0-s1 at offset 1. */
const S = { s0: 1, s1: 2 };

/** What each probe reads: 0 a raw SRV's first word, 1 a constant buffer's word at `w`, 2 a sampler's address modes. */
const PROBES: { label: string; probe: [number, number, number, number] }[] = [
  { label: 't0', probe: [0, 0, 0, 0] },
  { label: 't1', probe: [0, 1, 0, 0] },
  { label: 'b1', probe: [1, 1, 0, 0] },
  { label: 'b2', probe: [1, 2, 0, 0] },
  { label: 't5 space 2', probe: [0, 5, 2, 0] },
  { label: 't6 space 2', probe: [0, 6, 2, 0] },
  { label: 't7 space 2', probe: [0, 7, 2, 0] },
  { label: 'b0 (root constant 0)', probe: [1, 0, 0, 0] },
  { label: 'b0 (root constant 3)', probe: [1, 0, 0, 12] },
  { label: 'b0 space 3', probe: [1, 0, 3, 0] },
  { label: 't0 space 3', probe: [0, 0, 3, 0] },
  { label: 't1 space 3', probe: [0, 1, 3, 0] },
  { label: 't2 space 3', probe: [0, 2, 3, 0] },
  { label: 't9 space 3', probe: [0, 9, 3, 0] },
  { label: 's0 address', probe: [2, 0, 0, 0] },
  { label: 's1 address', probe: [2, 1, 0, 0] },
];

const SHADER = `
var<private> PROBES: array<vec4u, ${PROBES.length}> = array<vec4u, ${PROBES.length}>(
  ${PROBES.map(({ probe }) => `vec4u(${probe.map((v) => `${v}u`).join(', ')})`).join(',\n  ')}
);

// One call site per kind of read, in a loop: SwiftShader compiles each site once.
@compute @workgroup_size(1)
fn main() {
  let out = d3d12_rw_buffer(d3d12_u(0u, 0u));
  let base = d3d12_cbuffer_load(d3d12_cbuffer(d3d12_b(0u, 0u)), 8u);
  for (var p = 0u; p < ${PROBES.length}u; p++) {
    let probe = PROBES[p];
    var value = 0u;
    switch (probe.x) {
      case 0u: { value = d3d12_buffer_load_word(d3d12_buffer(d3d12_t(probe.y, probe.z)), 0u); }
      case 1u: { value = d3d12_cbuffer_load(d3d12_cbuffer(d3d12_b(probe.y, probe.z)), probe.w); }
      default: { value = d3d12_sampler(d3d12_s(probe.y, probe.z)).address; }
    }
    d3d12_buffer_store_word(out, (base + p) * 4u, value);
  }
}`;

/** Samplers by their address modes (u, v, w): the probe reads them back as D3D12_ADDRESS_* nibbles. */
const SAMPLER_DESCS: SamplerDesc[] = [
  { filter: 'MIN_MAG_MIP_POINT', addressU: 'WRAP', addressV: 'MIRROR', addressW: 'CLAMP' },
  { filter: 'MIN_MAG_MIP_LINEAR', addressU: 'BORDER', addressV: 'CLAMP', addressW: 'WRAP' },
  { filter: 'MIN_MAG_MIP_POINT', addressU: 'MIRROR_ONCE', addressV: 'WRAP', addressW: 'WRAP' },
  { filter: 'MIN_MAG_MIP_POINT', addressU: 'CLAMP', addressV: 'BORDER', addressW: 'MIRROR' },
];
const MODE = { WRAP: 1, MIRROR: 2, CLAMP: 3, BORDER: 4, MIRROR_ONCE: 5 } as const;
const addressBits = (desc: SamplerDesc): number =>
  MODE[desc.addressU ?? 'CLAMP'] | (MODE[desc.addressV ?? 'CLAMP'] << 4) | (MODE[desc.addressW ?? 'CLAMP'] << 8);
/** What an unusable sampler reads as: point, CLAMP on every axis. */
const FALLBACK_ADDRESS = 0x333;

interface Setup {
  d3d: Device;
  queue: CommandQueue;
  rootSignature: RootSignature;
  pipeline: PipelineState;
  data: Resource;
  out: Resource;
}

async function createSetup(gpuDevice: GPUDevice): Promise<Setup> {
  const { d3d, queue } = await createRigDevice(gpuDevice);
  const rootSignature = d3d.createRootSignature(0, {
    version: '1_1',
    desc_1_1: {
      parameters: [
        { parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: 0, num32BitValues: 4 } },
        { parameterType: 'UAV', descriptor: { shaderRegister: 0 } },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'SRV', numDescriptors: 2, baseShaderRegister: 0 },
              { rangeType: 'CBV', numDescriptors: 2, baseShaderRegister: 1, offsetInDescriptorsFromTableStart: A.b1 },
              { rangeType: 'SRV', numDescriptors: 3, baseShaderRegister: 5, registerSpace: 2 },
            ],
          },
        },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              { rangeType: 'CBV', numDescriptors: 1, baseShaderRegister: 0, registerSpace: 3 },
              {
                rangeType: 'SRV',
                numDescriptors: UNBOUNDED_DESCRIPTOR_RANGE,
                baseShaderRegister: 0,
                registerSpace: 3,
                flags: ['DESCRIPTORS_VOLATILE'],
              },
            ],
          },
        },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: {
            descriptorRanges: [
              {
                rangeType: 'SAMPLER',
                numDescriptors: 2,
                baseShaderRegister: 0,
                offsetInDescriptorsFromTableStart: S.s0,
              },
            ],
          },
        },
      ],
    },
  });
  const pipeline = await d3d.createComputePipelineState({ code: SHADER, entryPoint: 'main', rootSignature });
  const words = Uint32Array.from({ length: SLOTS * 64 }, (_, i) => (MARKER + i) >>> 0);
  const data = await filledBuffer(d3d, queue, new Uint8Array(words.buffer), 'NON_PIXEL_SHADER_RESOURCE');
  const out = defaultBuffer(d3d, TILE, 'UNORDERED_ACCESS', ['ALLOW_UNORDERED_ACCESS']);
  return { d3d, queue, rootSignature, pipeline, data, out };
}

/** The file's emulated device, data buffer and compiled pipeline, made once. */
const test = fileSetupTest(createSetup);

// ---- Descriptors ----------------------------------------------------------------------------------

const at = (heap: DescriptorHeap, index: number): CpuDescriptorHandle => ({
  ptr: heap.getCPUDescriptorHandleForHeapStart().ptr + index * heapIncrement(heap),
});
const heapIncrement = (heap: DescriptorHeap): number => (heap.getDesc().type === 'SAMPLER' ? 64 : 320);
const gpuAt = (heap: DescriptorHeap, index: number) => ({
  ptr: heap.getGPUDescriptorHandleForHeapStart().ptr + BigInt(index * heapIncrement(heap)),
});

/** A raw SRV of slot `slot` of the data buffer. */
function srv(setup: Setup, slot: number, dest: CpuDescriptorHandle): void {
  setup.d3d.createShaderResourceView(setup.data, bufferView('R32_TYPELESS', 64 * slot, 64, { flags: 'RAW' }), dest);
}

/** A CBV of slot `slot` of the data buffer. */
function cbv(setup: Setup, slot: number, dest: CpuDescriptorHandle): void {
  setup.d3d.createConstantBufferView(
    { bufferLocation: setup.data.getGPUVirtualAddress() + BigInt(256 * slot), sizeInBytes: 256 },
    dest,
  );
}

/** Writes table A's and table B's descriptors at `a` and `b`: descriptor i of the heap views slot i. */
function writeTables(setup: Setup, heap: DescriptorHeap, a: number, b: number, unbounded = 10): void {
  for (const i of [A.t0, A.t1, A.s2t5, A.s2t6, A.s2t7]) srv(setup, a + i, at(heap, a + i));
  for (const i of [A.b1, A.b2]) cbv(setup, a + i, at(heap, a + i));
  cbv(setup, b + B.b0, at(heap, b + B.b0));
  for (let i = 0; i < unbounded; i++) srv(setup, b + B.t0 + i, at(heap, b + B.t0 + i));
}

/** What each probe should read with tables A and B at `a` and `b`: markers, root constants, then s0 and s1's address bits. */
function expected(a: number, b: number, constants: number[], samplerBits: [number, number]): number[] {
  return [
    marker(a + A.t0),
    marker(a + A.t1),
    marker(a + A.b1),
    marker(a + A.b2),
    marker(a + A.s2t5),
    marker(a + A.s2t6),
    marker(a + A.s2t7),
    constants[0] as number,
    constants[3] as number,
    marker(b + B.b0),
    marker(b + B.t0),
    marker(b + B.t0 + 1),
    marker(b + B.t0 + 2),
    marker(b + B.t0 + 9),
    samplerBits[0],
    samplerBits[1],
  ];
}

interface Dispatch {
  heap: DescriptorHeap;
  samplers: DescriptorHeap;
  a: number;
  b: number;
  s: number;
  constants: number[];
  /** Probe results go to words [base, base + PROBES.length) of the output. */
  base: number;
}

function record(setup: Setup, list: GraphicsCommandList, dispatches: readonly Dispatch[]): void {
  list.setPipelineState(setup.pipeline);
  list.setComputeRootSignature(setup.rootSignature);
  list.setComputeRootUnorderedAccessView(1, setup.out.getGPUVirtualAddress());
  for (const d of dispatches) {
    list.setDescriptorHeaps([d.heap, d.samplers]);
    list.setComputeRoot32BitConstants(0, [
      d.constants[0] as number,
      d.constants[1] as number,
      d.base,
      d.constants[3] as number,
    ]);
    list.setComputeRootDescriptorTable(2, gpuAt(d.heap, d.a));
    list.setComputeRootDescriptorTable(3, gpuAt(d.heap, d.b));
    list.setComputeRootDescriptorTable(4, gpuAt(d.samplers, d.s));
    list.dispatch(1);
  }
}

async function output(setup: Setup, base: number): Promise<number[]> {
  const bytes = await readBuffer(
    setup.d3d,
    setup.queue,
    setup.out,
    base * 4,
    PROBES.length * 4,
    'UNORDERED_ACCESS' as never,
  );
  return Array.from(new Uint32Array(bytes.buffer));
}

const labelled = (words: number[]): string[] => words.map((w, i) => `${PROBES[i]?.label}: ${(w >>> 0).toString(16)}`);

function heaps(d3d: Device, name: string): { heap: DescriptorHeap; samplers: DescriptorHeap } {
  const heap = d3d.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 64, flags: 'SHADER_VISIBLE' });
  heap.setName(name);
  const samplers = d3d.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 8, flags: 'SHADER_VISIBLE' });
  samplers.setName(`${name} samplers`);
  return { heap, samplers };
}

// ---- Tests ----------------------------------------------------------------------------------------

test('tables at offsets into one heap: APPEND and explicit range offsets, register spaces, an unbounded range, a sampler table at an offset, root constants beside them', async (setup) => {
  const { d3d, queue } = setup;
  const { heap, samplers } = heaps(d3d, 'tables');
  // Table A at 10, then at 20 (the second dispatch moves it); table B at 40; the sampler table at 3, then at 2.
  writeTables(setup, heap, 10, 40);
  writeTables(setup, heap, 20, 40);
  SAMPLER_DESCS.forEach((desc, i) => d3d.createSampler(desc, at(samplers, 3 + i)));
  const constants = [0x11111111, 0x22222222, 0, 0x44444444];
  const first: Dispatch = { heap, samplers, a: 10, b: 40, s: 3, constants, base: 0 };
  const second: Dispatch = { heap, samplers, a: 20, b: 40, s: 2, constants: [7, 8, 0, 9], base: 32 };
  await runList(d3d, queue, (list) => record(setup, list, [first, second]));
  // Samplers 0-3 are at 3-6 of their heap: s0 and s1 (table offsets 1 and 2) are samplers 1 and 2
  // with the table at 3, samplers 0 and 1 with it at 2.
  const bits = SAMPLER_DESCS.map(addressBits);
  expect(labelled(await output(setup, 0))).toEqual(
    labelled(expected(10, 40, constants, [bits[1] as number, bits[2] as number])),
  );
  expect(labelled(await output(setup, 32))).toEqual(
    labelled(expected(20, 40, [7, 8, 0, 9], [bits[0] as number, bits[1] as number])),
  );
  expect(await d3d.readFaults()).toEqual([]);
});

test('copyDescriptors (ranges of different sizes on each side) and copyDescriptorsSimple fill shader-visible heaps from CPU-only ones', async (setup) => {
  const { d3d, queue } = setup;
  const { heap, samplers } = heaps(d3d, 'copies');
  const staging = d3d.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 16 });
  const stagingSamplers = d3d.createDescriptorHeap({ type: 'SAMPLER', numDescriptors: 4 });
  // Staging descriptor i views slot 48 + i: 0, 5 and 6 CBVs, the others raw SRVs.
  for (let i = 0; i < 16; i++) ([0, 5, 6].includes(i) ? cbv : srv)(setup, 48 + i, at(staging, i));
  SAMPLER_DESCS.forEach((desc, i) => d3d.createSampler(desc, at(stagingSamplers, i)));
  // Table A at 10: t0-t1 (10, 11) and b1, b2, t5-t7 (14-18) from staging 3-6, 8-9 and 12, in
  // order: two destination ranges (2 and 5 descriptors) filled from three source ranges (4, 2, 1).
  d3d.copyDescriptors(
    [at(heap, 10), at(heap, 14)],
    [2, 5],
    [at(staging, 3), at(staging, 8), at(staging, 12)],
    [4, 2, 1],
    'CBV_SRV_UAV',
  );
  // Table B at 30: b0 from staging 0, then the unbounded SRVs from staging 1-7 and 10-15.
  d3d.copyDescriptorsSimple(8, at(heap, 30), at(staging, 0), 'CBV_SRV_UAV');
  d3d.copyDescriptorsSimple(6, at(heap, 38), at(staging, 10), 'CBV_SRV_UAV');
  d3d.copyDescriptorsSimple(2, at(samplers, 6), at(stagingSamplers, 2), 'SAMPLER');
  // The staging heaps change afterwards: the copies took the descriptors as they were.
  for (let i = 0; i < 16; i++) srv(setup, 0, at(staging, i));
  await runList(d3d, queue, (list) =>
    record(setup, list, [{ heap, samplers, a: 10, b: 30, s: 5, constants: [1, 2, 0, 3], base: 0 }]),
  );
  const bits = SAMPLER_DESCS.map(addressBits);
  const slot = (staged: number): number => marker(48 + staged);
  expect(labelled(await output(setup, 0))).toEqual(
    labelled([
      slot(3),
      slot(4),
      slot(5),
      slot(6),
      slot(8),
      slot(9),
      slot(12),
      1,
      3,
      slot(0),
      slot(1),
      slot(2),
      slot(3),
      slot(12),
      bits[2] as number,
      bits[3] as number,
    ]),
  );
  expect(await d3d.readFaults()).toEqual([]);
});

test('a descriptor rewritten between two submissions: each submission reads it as it was when submitted', async (setup) => {
  const { d3d, queue } = setup;
  const { heap, samplers } = heaps(d3d, 'rewritten');
  writeTables(setup, heap, 0, 20);
  SAMPLER_DESCS.forEach((desc, i) => d3d.createSampler(desc, at(samplers, i)));
  const lists = [0, 32].map((base) => {
    const list = d3d.createCommandList('DIRECT');
    record(setup, list, [{ heap, samplers, a: 0, b: 20, s: 0, constants: [0, 0, 0, 0], base }]);
    list.close();
    return list;
  });
  queue.executeCommandLists([lists[0] as GraphicsCommandList]);
  // Rewritten after the first submission, before the second: t1, b2 and a sampler.
  srv(setup, 60, at(heap, A.t1));
  cbv(setup, 61, at(heap, A.b2));
  d3d.createSampler(SAMPLER_DESCS[3] as SamplerDesc, at(samplers, S.s0));
  queue.executeCommandLists([lists[1] as GraphicsCommandList]);
  await flush(d3d, queue);
  const bits = SAMPLER_DESCS.map(addressBits);
  const before = expected(0, 20, [0, 0, 0, 0], [bits[1] as number, bits[2] as number]);
  const after = [...before];
  after[1] = marker(60);
  after[3] = marker(61);
  after[14] = bits[3] as number;
  expect(labelled(await output(setup, 0))).toEqual(labelled(before));
  expect(labelled(await output(setup, 32))).toEqual(labelled(after));
  expect(await d3d.readFaults()).toEqual([]);
});

test('an evicted descriptor heap: its descriptor reads fault and read 0 while root constants still read; descriptors written meanwhile reach the GPU once resident; an evicted SAMPLER heap gives the fallback sampler', async (setup) => {
  const { d3d, queue } = setup;
  const { heap, samplers } = heaps(d3d, 'paged');
  writeTables(setup, heap, 0, 20);
  SAMPLER_DESCS.forEach((desc, i) => d3d.createSampler(desc, at(samplers, i)));
  const dispatch: Dispatch = { heap, samplers, a: 0, b: 20, s: 0, constants: [5, 6, 0, 7], base: 0 };
  const bits = SAMPLER_DESCS.map(addressBits);
  const resident = expected(0, 20, [5, 6, 0, 7], [bits[1] as number, bits[2] as number]);
  await runList(d3d, queue, (list) => record(setup, list, [dispatch]));
  expect(labelled(await output(setup, 0))).toEqual(labelled(resident));

  d3d.evict([heap]);
  // Written while the heap has no memory: kept, and sent when it is resident again.
  srv(setup, 62, at(heap, A.t0));
  srv(setup, 63, at(heap, 20 + B.t0 + 9));
  await runList(d3d, queue, (list) => record(setup, list, [{ ...dispatch, base: 32 }]));
  const evicted = resident.map((value, i) => (i === 7 || i === 8 || i >= 14 ? value : 0));
  expect(labelled(await output(setup, 32))).toEqual(labelled(evicted));
  const faults = await d3d.readFaults();
  expect(new Set(faults.map((f) => `${f.kind} ${f.descriptor?.heap.label} ${f.descriptor?.heap.state}`))).toEqual(
    new Set([`read-absent ${heap.label} evicted`]),
  );
  // One fault per descriptor read: tables A (0-8 but the gap) and B (20-23, 30).
  expect(faults.map((f) => f.descriptor?.index).sort((x, y) => (x as number) - (y as number))).toEqual([
    0, 1, 4, 5, 6, 7, 8, 20, 21, 22, 23, 30,
  ]);
  expect(faults[0]?.resource).toBeUndefined();

  d3d.makeResident([heap]);
  await runList(d3d, queue, (list) => record(setup, list, [{ ...dispatch, base: 64 }]));
  const restored = [...resident];
  restored[0] = marker(62);
  restored[13] = marker(63);
  expect(labelled(await output(setup, 64))).toEqual(labelled(restored));
  expect(await d3d.readFaults()).toEqual([]);

  d3d.evict([samplers]);
  await runList(d3d, queue, (list) => record(setup, list, [{ ...dispatch, base: 96 }]));
  const noSamplers = [...restored];
  noSamplers[14] = FALLBACK_ADDRESS;
  noSamplers[15] = FALLBACK_ADDRESS;
  expect(labelled(await output(setup, 96))).toEqual(labelled(noSamplers));
  const samplerFaults = await d3d.readFaults();
  expect(
    samplerFaults.map((f) => [f.kind, f.descriptor?.heap.label, f.descriptor?.heap.state, f.descriptor?.index]),
  ).toEqual([
    ['read-absent', samplers.label, 'evicted', S.s0],
    ['read-absent', samplers.label, 'evicted', S.s1],
  ]);
  expect(samplerFaults[0]?.message).toContain(`descriptor ${S.s0} of ${samplers.label}`);
  d3d.makeResident([samplers]);
});
