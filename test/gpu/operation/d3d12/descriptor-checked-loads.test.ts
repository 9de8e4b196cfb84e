/**
 * The checked buffer and constant-buffer loads (shaders/prelude/descriptor-views.wgsl:
 * d3d12_buffer_load_word_checked, _word4_checked, _structured_checked, d3d12_buffer_load_checked,
 * d3d12_buffer_load_uint_checked, d3d12_cbuffer_load_checked, _load4_checked, _load_f32_checked,
 * _load4_f32_checked) over committed, placed and reserved buffers: every job's value and status
 * against a CPU model of the bytes and of what each byte lies on. Views in a descriptor table (raw,
 * structured, typed R32G32_FLOAT and R8G8B8A8_UINT, a CBV, a NULL descriptor of each), a root SRV, a
 * root CBV and root constants; reads inside the view, across the end of a tile, on a reserved
 * buffer's NULL second tile (0, status 0), past the view's end though inside the buffer (0, status
 * 0), and through NULL descriptors (0, status 0). Then the same jobs with the placed buffer's heap
 * evicted (read-absent faults naming the buffer and heap; 0, status 0 until it is resident again),
 * with the descriptor heap evicted (faults at the descriptors; table reads 0, status 0; root reads as
 * before) and with the buffer released (descriptor-released at the descriptors, read-unowned at the
 * root views' addresses; 0, status 0).
 *
 * The shader starts each status at a sentinel (0xdead), so a path that leaves it unset shows.
 */
import { expect } from 'vitest';
import type { DescriptorHeap, Device, Heap, Resource, VersionedRootSignatureDesc } from '../../../../src/index.js';
import { flush, readBuffer, runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import * as rig from '../../../shared/descriptor-rig.js';

// ---- The data and the CPU model ------------------------------------------------------------------

/** The buffer: two tiles of words, each the f32 bits of (i / 2 - 1000.25): finite, distinct and never 0. */
const BUFFER_BYTES = 2 * TILE;
const bufferWords = Uint32Array.from({ length: BUFFER_BYTES / 4 }, (_, i) => rig.f32Bits(i / 2 - 1000.25));
/**
 * Root constants b2: six values (f32 bits, so the f32 forms read them back exactly), so register 1
 * (c[1]) lies half inside them.
 */
const CONSTANTS = [1.5, -2.25, 1000, 0.125, 7, -0.5].map(rig.f32Bits);

/**
 * What the buffer's bytes are when the jobs run: resident (a reserved buffer's second tile is NULL),
 * its heap evicted, the descriptor heap evicted (the buffer resident), or the buffer released.
 */
type Condition = 'resident' | 'heap evicted' | 'descriptor heap evicted' | 'released';

/** Whether buffer byte `byte` reads its data (else 0, status 0). */
const backed = (kind: rig.Kind, condition: Condition, byte: number): boolean =>
  (condition === 'resident' || condition === 'descriptor heap evicted') && (kind !== 'reserved' || byte < TILE);
/** Whether a table's descriptors can be read (an evicted descriptor heap's cannot; a released resource's views fault). */
const tableReadable = (condition: Condition): boolean =>
  condition !== 'descriptor heap evicted' && condition !== 'released';

interface Result {
  value: number[];
  status: number;
}
const OUTSIDE: Result = { value: [0, 0, 0, 0], status: 0 };

/** `count` words from buffer byte `byte`: each its data where backed, else 0; status 1 when all are backed. */
function words(kind: rig.Kind, condition: Condition, byte: number, count: number): Result {
  const value = [0, 0, 0, 0];
  let status = 1;
  for (let i = 0; i < count; i++) {
    const at = byte + 4 * i;
    if (backed(kind, condition, at)) value[i] = bufferWords[at / 4] as number;
    else status = 0;
  }
  return { value, status };
}

// ---- Views and jobs --------------------------------------------------------------------------------

/** Table registers: t0-t6, then b0-b1. */
const T = { raw: 0, structured: 1, float: 2, uint: 3, nullRaw: 4, nullStructured: 5, nullTyped: 6 };
const SRVS = 7;
const B = { cbv: 0, nullCbv: 1, constants: 2, rootCbv: 3 };
/** t1, space 1: the root SRV (the buffer from its first byte). */
const ROOT_SRV = 1;

/** The views: first byte and size; each stops short of the buffer's end, so reads past the view still lie in the buffer. */
const RAW_FIRST = 8;
const RAW_BYTES = BUFFER_BYTES - 4 * RAW_FIRST - 16;
const STRIDE = 12;
const STRUCT_FIRST = 2;
const STRUCT_COUNT = Math.floor((BUFFER_BYTES - STRUCT_FIRST * STRIDE) / STRIDE) - 1;
const FLOAT_FIRST = 1;
const FLOAT_COUNT = BUFFER_BYTES / 8 - FLOAT_FIRST - 2;
const UINT_FIRST = 3;
const UINT_COUNT = BUFFER_BYTES / 4 - UINT_FIRST - 4;
/** The table's CBV and the root CBV: 256 bytes before the second tile (the table's: 512 bytes; the root's: 64 KiB, unchecked). */
const CBV_OFFSET = TILE - 256;
const CBV_SIZE = 512;
const ROOT_CBV_SIZE = 65536;

const OP = {
  word: 1,
  word4: 2,
  structured: 3,
  typed: 4,
  typedUint: 5,
  cb: 6,
  cb4: 7,
  cbF32: 8,
  cb4F32: 9,
  none: 255,
} as const;
type Op = Exclude<keyof typeof OP, 'none'>;

interface Job {
  label: string;
  words: [number, number, number, number];
  expect: (kind: rig.Kind, condition: Condition) => Result;
}

/** op | register space << 8. */
const jobWord = (op: number, space = 0): number => op | (space << 8);

/** A raw read of `count` words at `offset` of a view of `bytes` bytes from buffer byte `first`, through a table or the root. */
function rawRead(first: number, bytes: number, offset: number, count: number, viaTable: boolean): Job['expect'] {
  return (kind, condition) => {
    if (viaTable && !tableReadable(condition)) return OUTSIDE;
    if (offset >= bytes || 4 * count > bytes - offset) return OUTSIDE;
    return words(kind, condition, first + offset, count);
  };
}

function jobs(): Job[] {
  const all: Job[] = [];
  const push = (label: string, op: Op, register: number, a: number, b: number, expect: Job['expect'], space = 0) =>
    all.push({ label, words: [jobWord(OP[op], space), register, a >>> 0, b >>> 0], expect });

  // Raw views: a table SRV from byte rawFirst, and the root SRV (the whole buffer; no bounds: reads
  // stay inside it). Load at each of `loads`, Load4 at each of `loads4`.
  const rawFirst = 4 * RAW_FIRST;
  const rawViews = [
    {
      view: `t${T.raw}`,
      at: { register: T.raw, space: 0, first: rawFirst, bytes: RAW_BYTES, viaTable: true },
      loads: [0, 4, TILE - rawFirst - 4, TILE - rawFirst, RAW_BYTES - 4, RAW_BYTES, 0xfffffffc],
      loads4: [
        0,
        TILE - rawFirst - 16,
        TILE - rawFirst - 8,
        TILE - rawFirst,
        RAW_BYTES - 16,
        RAW_BYTES - 12,
        RAW_BYTES,
      ],
    },
    {
      view: `root t${ROOT_SRV} space 1 `,
      at: { register: ROOT_SRV, space: 1, first: 0, bytes: BUFFER_BYTES, viaTable: false },
      loads: [0, TILE - 4, TILE, BUFFER_BYTES - 4],
      loads4: [16, TILE - 8, TILE],
    },
  ];
  for (const { view, at, loads, loads4 } of rawViews)
    for (const [op, count, offsets] of [
      ['word', 1, loads],
      ['word4', 4, loads4],
    ] as const)
      for (const offset of offsets)
        push(
          `${view}.${op === 'word' ? 'Load' : 'Load4'}(${offset})`,
          op,
          at.register,
          offset,
          0,
          rawRead(at.first, at.bytes, offset, count, at.viaTable),
          at.space,
        );
  push(`t${T.nullRaw} (NULL raw).Load(0)`, 'word', T.nullRaw, 0, 0, () => OUTSIDE);
  push(`t${T.nullRaw} (NULL raw).Load4(0)`, 'word4', T.nullRaw, 0, 0, () => OUTSIDE);

  // Structured: stride 12 from element 2 (element 5459 crosses the end of the first tile), and
  // element 0xffffffff, far past the view's end.
  const structured: [number, number][] = [...rig.structuredReads(STRUCT_FIRST, STRIDE, STRUCT_COUNT), [0xffffffff, 0]];
  for (const [index, member] of structured)
    push(`t${T.structured}[${index}] at byte ${member}`, 'structured', T.structured, index, member, (kind, c) =>
      !tableReadable(c) || index >= STRUCT_COUNT || member >= STRIDE
        ? OUTSIDE
        : words(kind, c, STRIDE * (STRUCT_FIRST + index) + member, 1),
    );
  push(`t${T.nullStructured} (NULL structured)[0]`, 'structured', T.nullStructured, 0, 0, () => OUTSIDE);

  // Typed: R32G32_FLOAT (x, y, 0, 1: a NULL tile's element too) and R8G8B8A8_UINT (its bytes).
  for (const index of [0, 8190, 8191, FLOAT_COUNT - 1, FLOAT_COUNT, 0xffffffff])
    push(`t${T.float} (R32G32_FLOAT)[${index}]`, 'typed', T.float, index, 0, (kind, c) => {
      if (!tableReadable(c) || index >= FLOAT_COUNT) return OUTSIDE;
      const { value, status } = words(kind, c, 8 * (FLOAT_FIRST + index), 2);
      return { value: [value[0] as number, value[1] as number, 0, rig.f32Bits(1)], status };
    });
  for (const index of [0, 16380, 16381, UINT_COUNT - 1, UINT_COUNT])
    push(`t${T.uint} (R8G8B8A8_UINT)[${index}]`, 'typedUint', T.uint, index, 0, (kind, c) => {
      if (!tableReadable(c) || index >= UINT_COUNT) return OUTSIDE;
      const { value, status } = words(kind, c, 4 * (UINT_FIRST + index), 1);
      const word = value[0] as number;
      return { value: [0, 8, 16, 24].map((shift) => (word >>> shift) & 0xff), status };
    });
  push(`t${T.nullTyped} (NULL typed)[0] as float`, 'typed', T.nullTyped, 0, 0, () => OUTSIDE);
  push(`t${T.nullTyped} (NULL typed)[0] as uint`, 'typedUint', T.nullTyped, 0, 0, () => OUTSIDE);

  // Constant buffers: the table's CBV (512 bytes), a NULL CBV, root constants, a root CBV.
  const cbvRead =
    (offset: number, count: number, viaTable: boolean, size: number): Job['expect'] =>
    (kind, c) =>
      (viaTable && !tableReadable(c)) || offset >= size ? OUTSIDE : words(kind, c, CBV_OFFSET + offset, count);
  for (const offset of [0, 252, 256, 508, 512])
    push(`b${B.cbv}[byte ${offset}]`, 'cb', B.cbv, offset, 0, cbvRead(offset, 1, true, CBV_SIZE));
  for (const offset of [0, 240, 256, 496, 512])
    push(`b${B.cbv} register ${offset / 16}`, 'cb4', B.cbv, offset, 0, cbvRead(offset, 4, true, CBV_SIZE));
  push(`b${B.cbv}[byte 252] as f32`, 'cbF32', B.cbv, 252, 0, cbvRead(252, 1, true, CBV_SIZE));
  for (const offset of [240, 256])
    push(`b${B.cbv} register ${offset / 16} as f32`, 'cb4F32', B.cbv, offset, 0, cbvRead(offset, 4, true, CBV_SIZE));
  for (const op of ['cb', 'cb4', 'cbF32', 'cb4F32'] as const)
    push(`b${B.nullCbv} (NULL CBV) ${op} at 0`, op, B.nullCbv, 0, 0, () => OUTSIDE);
  for (const offset of [252, 256, 65532, ROOT_CBV_SIZE])
    push(`root b${B.rootCbv}[byte ${offset}]`, 'cb', B.rootCbv, offset, 0, cbvRead(offset, 1, false, ROOT_CBV_SIZE));
  for (const offset of [240, 256, ROOT_CBV_SIZE])
    push(
      `root b${B.rootCbv} register ${offset / 16}`,
      'cb4',
      B.rootCbv,
      offset,
      0,
      cbvRead(offset, 4, false, ROOT_CBV_SIZE),
    );
  push(`root b${B.rootCbv}[byte 0] as f32`, 'cbF32', B.rootCbv, 0, 0, cbvRead(0, 1, false, ROOT_CBV_SIZE));
  push(`root b${B.rootCbv} register 16 as f32`, 'cb4F32', B.rootCbv, 256, 0, cbvRead(256, 4, false, ROOT_CBV_SIZE));
  // Root constants: always there (status 1) inside their 24 bytes, 0 and status 0 past them; register 1
  // is half inside (its status 0).
  const constants =
    (offset: number, count: number): Job['expect'] =>
    () => {
      const value = [0, 0, 0, 0];
      let status = 1;
      for (let i = 0; i < count; i++) {
        const at = offset / 4 + i;
        if (at < CONSTANTS.length) value[i] = CONSTANTS[at] as number;
        else status = 0;
      }
      return { value, status };
    };
  for (const offset of [0, 20, 24])
    push(`b${B.constants} (root constants)[byte ${offset}]`, 'cb', B.constants, offset, 0, constants(offset, 1));
  for (const offset of [0, 16, 32])
    push(
      `b${B.constants} (root constants) register ${offset / 16}`,
      'cb4',
      B.constants,
      offset,
      0,
      constants(offset, 4),
    );
  push(`b${B.constants} (root constants)[byte 4] as f32`, 'cbF32', B.constants, 4, 0, constants(4, 1));
  for (const offset of [0, 16])
    push(
      `b${B.constants} (root constants) register ${offset / 16} as f32`,
      'cb4F32',
      B.constants,
      offset,
      0,
      constants(offset, 4),
    );
  return all;
}

const JOBS = jobs();
const GROUPS = Math.ceil(JOBS.length / 64);

// ---- The shader ----------------------------------------------------------------------------------

/** Job i from the root SRV (t0, space 1); its value (4 words) and status (and CheckAccessFullyMapped) to the root UAV (u0, space 1). */
const SHADER = `${rig.jobShaderStart(OP.none)}
  let space = (job.x >> 8u) & 0xffu;
  var value = vec4u(0u);
  var status = 0xdeadu;
  switch (op) {
    case ${OP.word}u: { value.x = d3d12_buffer_load_word_checked(d3d12_buffer(d3d12_t(job.y, space)), job.z, &status); }
    case ${OP.word4}u: { value = d3d12_buffer_load_word4_checked(d3d12_buffer(d3d12_t(job.y, space)), job.z, &status); }
    case ${OP.structured}u: { value.x = d3d12_buffer_load_structured_checked(d3d12_buffer(d3d12_t(job.y, space)), job.z, job.w, &status); }
    case ${OP.typed}u: { value = bitcast<vec4u>(d3d12_buffer_load_checked(d3d12_buffer(d3d12_t(job.y, space)), job.z, &status)); }
    case ${OP.typedUint}u: { value = d3d12_buffer_load_uint_checked(d3d12_buffer(d3d12_t(job.y, space)), job.z, &status); }
    case ${OP.cb}u: { value.x = d3d12_cbuffer_load_checked(d3d12_cbuffer(d3d12_b(job.y, space)), job.z, &status); }
    case ${OP.cb4}u: { value = d3d12_cbuffer_load4_checked(d3d12_cbuffer(d3d12_b(job.y, space)), job.z, &status); }
    case ${OP.cbF32}u: { value.x = bitcast<u32>(d3d12_cbuffer_load_f32_checked(d3d12_cbuffer(d3d12_b(job.y, space)), job.z, &status)); }
    default: { value = bitcast<vec4u>(d3d12_cbuffer_load4_f32_checked(d3d12_cbuffer(d3d12_b(job.y, space)), job.z, &status)); }
  }
  let out = d3d12_rw_buffer(d3d12_u(0u, 1u));
  d3d12_buffer_store_word4(out, id.x * 32u, value);
  d3d12_buffer_store_word4(out, id.x * 32u + 16u, vec4u(status, select(0u, 1u, d3d12_check_access_fully_mapped(status)), 0u, 0u));
}`;

// ---- The file's device, root signature and descriptors ----------------------------------------------

/** Descriptors per table: t0-t6, then b0-b1. */
const TABLE = SRVS + 2;
/** Tables: one per kind, then one each for the evicted heap, the evicted descriptor heap and the released buffer. */
const TABLES = { 'heap evicted': 3, 'descriptor heap evicted': 4, released: 5 } as const;

/**
 * Root parameters: 0 and 1 the jobs (t0, space 1) and the results (u0, space 1); 2 the table; 3 the
 * root constants (b2); 4 the root CBV (b3); 5 the root SRV (t1, space 1).
 */
const ROOT_DESC: VersionedRootSignatureDesc = {
  version: '1_1',
  desc_1_1: {
    parameters: [
      rig.JOBS_PARAMETER,
      rig.RESULTS_PARAMETER,
      rig.srvCbvTable(SRVS, 2),
      {
        parameterType: '32BIT_CONSTANTS',
        constants: { shaderRegister: B.constants, num32BitValues: CONSTANTS.length },
      },
      { parameterType: 'CBV', descriptor: { shaderRegister: B.rootCbv } },
      { parameterType: 'SRV', descriptor: { shaderRegister: ROOT_SRV, registerSpace: 1 } },
    ],
  },
};

/** The file's device, root signature, pipeline, jobs, descriptor heap (a table per test) and results buffer. */
async function createSetup(gpuDevice: GPUDevice) {
  const { d3d, queue } = await rig.createRigDevice(gpuDevice);
  const rootSignature = d3d.createRootSignature(0, ROOT_DESC);
  const pipeline = await d3d.createComputePipelineState({
    code: SHADER,
    entryPoint: 'main',
    rootSignature,
    label: 'checked loads',
  });
  const words = new Uint32Array(GROUPS * 64 * 4).fill(OP.none);
  JOBS.forEach((job, i) => words.set(job.words, i * 4));
  const jobs = await rig.filledBuffer(d3d, queue, new Uint8Array(words.buffer), 'NON_PIXEL_SHADER_RESOURCE');
  const heap = d3d.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: TABLE * 6, flags: 'SHADER_VISIBLE' });
  heap.setName('checked-load views');
  const out = rig.defaultBuffer(d3d, GROUPS * 64 * 32, 'UNORDERED_ACCESS', ['ALLOW_UNORDERED_ACCESS']);
  return { d3d, queue, rootSignature, pipeline, jobs, heap, out };
}
type Setup = Awaited<ReturnType<typeof createSetup>>;

/** The buffer as `kind`, filled: placed at tile 1 of a 3-tile heap; reserved with its first tile mapped (the second NULL). */
async function kindBuffer({ d3d, queue }: rig.RigDevice, kind: rig.Kind): Promise<{ buffer: Resource; heap?: Heap }> {
  const { resources, heap } = rig.kindResources(
    d3d,
    kind,
    { buffer: { name: 'buffer', desc: { dimension: 'BUFFER', width: BUFFER_BYTES }, placedAt: TILE } },
    { placed: 3 * TILE, reserved: 2 * TILE },
  );
  const { buffer } = resources;
  if (kind === 'reserved') rig.mapTiles(queue, buffer, heap as Heap, [{ subresource: 0, heapTile: 1 }]);
  await runList(d3d, queue, (list) => {
    list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, new Uint8Array(bufferWords.buffer)), 0, BUFFER_BYTES);
    list.resourceBarrier(rig.transitions([buffer], 'COPY_DEST', 'NON_PIXEL_SHADER_RESOURCE'));
  });
  return heap ? { buffer, heap } : { buffer };
}

/** Table `table`'s views of `buffer`, and its NULL descriptors. */
function writeViews(setup: Setup, table: number, buffer: Resource): void {
  const { d3d, heap } = setup;
  const at = (register: number) => rig.descriptorAt(d3d, heap, table * TABLE + register);
  d3d.createShaderResourceView(
    buffer,
    rig.bufferView('R32_TYPELESS', RAW_FIRST, RAW_BYTES / 4, { flags: 'RAW' }),
    at(T.raw),
  );
  d3d.createShaderResourceView(
    buffer,
    rig.bufferView('UNKNOWN', STRUCT_FIRST, STRUCT_COUNT, { structureByteStride: STRIDE }),
    at(T.structured),
  );
  d3d.createShaderResourceView(buffer, rig.bufferView('R32G32_FLOAT', FLOAT_FIRST, FLOAT_COUNT), at(T.float));
  d3d.createShaderResourceView(buffer, rig.bufferView('R8G8B8A8_UINT', UINT_FIRST, UINT_COUNT), at(T.uint));
  d3d.createShaderResourceView(null, rig.bufferView('R32_TYPELESS', 0, 16, { flags: 'RAW' }), at(T.nullRaw));
  d3d.createShaderResourceView(
    null,
    rig.bufferView('UNKNOWN', 0, 16, { structureByteStride: STRIDE }),
    at(T.nullStructured),
  );
  d3d.createShaderResourceView(null, rig.bufferView('R32G32_FLOAT', 0, 16), at(T.nullTyped));
  d3d.createConstantBufferView(
    { bufferLocation: buffer.getGPUVirtualAddress() + BigInt(CBV_OFFSET), sizeInBytes: CBV_SIZE },
    at(SRVS + B.cbv),
  );
  d3d.createConstantBufferView(null, at(SRVS + B.nullCbv));
}

/** Runs the jobs through table `table`, the root views at `address` (the buffer's); returns each job's result. */
async function run(setup: Setup, table: number, address: bigint): Promise<Result[]> {
  const { d3d, queue, heap, rootSignature, out } = setup;
  await runList(d3d, queue, (list) => {
    list.setComputeRootSignature(rootSignature);
    list.setDescriptorHeaps([heap]);
    list.setPipelineState(setup.pipeline);
    list.setComputeRootShaderResourceView(0, setup.jobs.getGPUVirtualAddress());
    list.setComputeRootUnorderedAccessView(1, out.getGPUVirtualAddress());
    list.setComputeRootDescriptorTable(2, rig.gpuDescriptorAt(d3d, heap, table * TABLE));
    list.setComputeRoot32BitConstants(3, CONSTANTS, 0);
    list.setComputeRootConstantBufferView(4, address + BigInt(CBV_OFFSET));
    list.setComputeRootShaderResourceView(5, address);
    list.dispatch(GROUPS);
  });
  const words = new Uint32Array((await readBuffer(d3d, queue, out, 0, JOBS.length * 32)).buffer);
  return JOBS.map((_, i) => {
    const [status, fullyMapped] = [words[i * 8 + 4] as number, words[i * 8 + 5] as number];
    // CheckAccessFullyMapped must agree with the status bit (a status that is neither 0 nor 1 shows as is).
    expect(fullyMapped, `job ${i}: CheckAccessFullyMapped of status ${status}`).toBe(status & 1);
    return { value: Array.from(words.subarray(i * 8, i * 8 + 4)), status };
  });
}

const line = (label: string, result: Result): string => `${label}: ${rig.hex(result.value)} status ${result.status}`;

/** Every job's value and status against the model for `kind` under `condition`. */
function expectModel(results: Result[], kind: rig.Kind, condition: Condition): void {
  expect(JOBS.map((job, i) => line(job.label, results[i] as Result))).toEqual(
    JOBS.map((job) => line(job.label, job.expect(kind, condition))),
  );
}

/** The file's emulated device, root signature, pipeline and jobs, made once. */
const test = rig.fileSetupTest(createSetup);

for (const [table, kind] of rig.KINDS.entries()) {
  test(`${kind} buffer: each checked load's value and status are the model's (NULL descriptors, NULL tiles, reads past the view)`, async (setup) => {
    const { buffer } = await kindBuffer(setup, kind);
    writeViews(setup, table, buffer);
    expectModel(await run(setup, table, buffer.getGPUVirtualAddress()), kind, 'resident');
    expect(await setup.d3d.readFaults()).toEqual([]);
  });
}

test('an evicted heap: checked loads of the placed buffer read 0 with status 0 and fault naming buffer and heap; resident again, they read as before', async (setup) => {
  const { d3d } = setup;
  const table = TABLES['heap evicted'];
  const { buffer, heap } = await kindBuffer(setup, 'placed');
  heap?.setName('evicted heap');
  writeViews(setup, table, buffer);
  await evicted(d3d, heap as Heap, async () => {
    expectModel(await run(setup, table, buffer.getGPUVirtualAddress()), 'placed', 'heap evicted');
    const faults = await d3d.readFaults();
    expect(new Set(faults.map((f) => `${f.kind} ${f.resource?.label} ${f.heap?.label} ${f.heap?.state}`))).toEqual(
      new Set([`read-absent ${buffer.label} ${heap?.label} evicted`]),
    );
  });
  expectModel(await run(setup, table, buffer.getGPUVirtualAddress()), 'placed', 'resident');
  expect(await d3d.readFaults()).toEqual([]);
});

test('an evicted descriptor heap: checked loads through the table read 0 with status 0 and fault at their descriptors; root views and constants read as before', async (setup) => {
  const { d3d, heap } = setup;
  const table = TABLES['descriptor heap evicted'];
  const { buffer } = await kindBuffer(setup, 'committed');
  writeViews(setup, table, buffer);
  await evicted(d3d, heap, async () => {
    expectModel(await run(setup, table, buffer.getGPUVirtualAddress()), 'committed', 'descriptor heap evicted');
    const faults = await d3d.readFaults();
    expect(new Set(faults.map((f) => `${f.kind} ${f.descriptor?.heap.label} ${f.descriptor?.heap.state}`))).toEqual(
      new Set([`read-absent ${heap.label} evicted`]),
    );
    // Every table register a job reads faults at its descriptor.
    const read = new Set(JOBS.filter(isTableJob).map((job) => table * TABLE + tableSlot(job)));
    expect([...new Set(faults.map((f) => f.descriptor?.index))].sort((a, b) => (a as number) - (b as number))).toEqual(
      [...read].sort((a, b) => a - b),
    );
  });
  expectModel(await run(setup, table, buffer.getGPUVirtualAddress()), 'committed', 'resident');
  expect(await d3d.readFaults()).toEqual([]);
});

test('a released buffer: checked loads read 0 with status 0; its views report descriptor-released at their descriptors and the root views read-unowned', async (setup) => {
  const { d3d, queue } = setup;
  const table = TABLES.released;
  const { buffer } = await kindBuffer(setup, 'reserved');
  writeViews(setup, table, buffer);
  const address = buffer.getGPUVirtualAddress();
  buffer.release();
  await flush(d3d, queue);
  await d3d.readFaults(); // what an earlier failed test left
  expectModel(await run(setup, table, address), 'reserved', 'released');
  const faults = await d3d.readFaults();
  const released = faults.filter((f) => f.kind === 'descriptor-released');
  expect(new Set(faults.filter((f) => f.kind !== 'descriptor-released').map((f) => f.kind))).toEqual(
    new Set(['read-unowned']),
  );
  // The views that hold the buffer (raw, structured, typed); the CBV is only an address, as in D3D12.
  expect(new Set(released.map((f) => f.descriptor?.index))).toEqual(
    new Set([T.raw, T.structured, T.float, T.uint].map((register) => table * TABLE + register)),
  );
  for (const fault of released) expect(fault.descriptor?.holds).toBe(`SRV of ${buffer.label} (released)`);
});

/**
 * Runs `body` with `pageable` evicted, and makes it resident again whatever happens; the faults an
 * earlier failed test left are drained first, so each test reads only its own.
 */
async function evicted(d3d: Device, pageable: Heap | DescriptorHeap, body: () => Promise<void>): Promise<void> {
  await d3d.readFaults();
  d3d.evict([pageable]);
  try {
    await body();
  } finally {
    d3d.makeResident([pageable]);
  }
}

/** Whether a job reads a view of the table (not a root view, root constants or the jobs). */
function isTableJob(job: Job): boolean {
  const op = job.words[0] & 0xff;
  const space = job.words[0] >> 8;
  if (space !== 0) return false;
  const cbuffer = op === OP.cb || op === OP.cb4 || op === OP.cbF32 || op === OP.cb4F32;
  return !cbuffer || job.words[1] === B.cbv || job.words[1] === B.nullCbv;
}

/** The job's register's slot in the table (CBVs after the SRVs). */
function tableSlot(job: Job): number {
  const op = job.words[0] & 0xff;
  const cbuffer = op === OP.cb || op === OP.cb4 || op === OP.cbF32 || op === OP.cb4F32;
  return cbuffer ? SRVS + job.words[1] : job.words[1];
}
