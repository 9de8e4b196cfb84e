/**
 * The input assembler (shaders/prelude/input-assembler.wgsl, src/gpu/input-layout-wgsl.ts): vertices
 * and indices fetched through the page table from committed, placed and reserved buffers, against a
 * CPU model of the fetch and of each format's decoding. One input layout reads thirteen elements in
 * eleven vertex formats (explicit and APPEND_ALIGNED_ELEMENT offsets; missing components read as
 * (0, 0, 0, 1)) and two per-instance elements (step rates 1 and 2) from two more slots. Draws:
 * drawInstanced over every vertex, instancing with a start instance, R16 and R32 indices (with a
 * start index, negative and positive base vertices, indices past the index buffer view read 0), and
 * a vertex buffer view that ends inside a vertex (elements outside it read 0). The reserved buffers
 * keep their second tile NULL: vertices, per-instance elements and indices there read 0.
 *
 * Each draw is a point list: the vertex shader puts point (vertex k, instance j) at its own pixel of
 * a 64 × 128 R8G8B8A8_UNORM back buffer and passes one 32-bit word of its input (root constant 4
 * picks which, or the instance does), which the pixel shader writes as its four bytes, so the pixel
 * read back is the word, exactly.
 */
import { expect } from 'vitest';
import {
  APPEND_ALIGNED_ELEMENT,
  type CommandQueue,
  type CpuDescriptorHandle,
  type Device,
  type GraphicsCommandList,
  type Heap,
  type PipelineState,
  type Resource,
  type SwapChain,
} from '../../../../src/index.js';
import { runList, TILE, uploadBuffer } from '../../../shared/d3d12-helpers.js';
import { backBufferRtv, textureSwapChain } from '../../../shared/texture-swap-chain.js';
import {
  copyTextureIn,
  createRigDevice,
  descriptorAt,
  f32Bits,
  fileSetupTest,
  gpuDescriptorAt,
  type Kind,
  KINDS,
  kindResources,
  mapTiles,
  transitions,
} from '../../../shared/descriptor-rig.js';

const WIDTH = 64;
const HEIGHT = 128;
/** Vertex n's record: STRIDE bytes at n * STRIDE; 64 vertices fill two tiles. */
const STRIDE = 2048;
const VERTICES = 64;
const BUFFER_BYTES = VERTICES * STRIDE;
/** The per-instance slots' elements sit in the same records, at these bytes, STRIDE apart. */
const INSTANCE_BASE = [1024, 1536];
/** The index buffer: R16 indices at 0, R32 indices from 16 bytes before its second tile. */
const R16_AT = 0;
const R32_AT = TILE - 16;

// ---- Vertex data and its decoding -------------------------------------------------------------------

/** f16 bits of a value f16 holds exactly (0 or normal). */
function f16(value: number): number {
  if (value === 0) return Object.is(value, -0) ? 0x8000 : 0;
  const sign = value < 0 ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  const exponent = Math.floor(Math.log2(magnitude));
  const mantissa = (magnitude / 2 ** exponent - 1) * 1024;
  if (!Number.isInteger(mantissa) || exponent < -14 || exponent > 15) throw new Error(`${value} is not an f16`);
  return sign | ((exponent + 15) << 10) | mantissa;
}

/** The buffer's bytes: vertex n's elements at n * STRIDE, the per-instance elements beside them. */
function vertexBytes(): Uint8Array {
  const bytes = new Uint8Array(BUFFER_BYTES);
  const view = new DataView(bytes.buffer);
  for (let n = 0; n < VERTICES; n++) {
    const at = n * STRIDE;
    [n + 1, Math.imul(n, 0x9e3779b1) >>> 0, (0xdeadbeef ^ n) >>> 0, (0x80000000 | n) >>> 0].forEach((w, i) =>
      view.setUint32(at + 4 * i, w, true),
    );
    view.setFloat32(at + 16, n * 0.5 - 3, true);
    view.setFloat32(at + 20, n + 0.25, true);
    [-n, n * 100, -32768, 32767].forEach((v, i) => view.setInt16(at + 24 + 2 * i, v, true));
    [n, 255 - n, 128, 7].forEach((v, i) => view.setUint8(at + 32 + i, v));
    [-(n * 500), n === 0 ? -32768 : 32767 - n].forEach((v, i) => view.setInt16(at + 36 + 2 * i, v, true));
    view.setUint32(at + 40, ((n * 16) | ((1023 - n) << 10) | ((n * 3) << 20) | ((n & 3) << 30)) >>> 0, true);
    [n + 0.5, -n, 1024, 0.125].forEach((v, i) => view.setUint16(at + 44 + 2 * i, f16(v), true));
    [-n, n * 7, -1].forEach((v, i) => view.setInt32(at + 52 + 4 * i, v, true));
    [n * 257, 65535 - n].forEach((v, i) => view.setUint16(at + 64 + 2 * i, v, true));
    [n, 2 * n, (3 * n) & 0xff, 200].forEach((v, i) => view.setUint8(at + 68 + i, v));
    [-n, n, -128, 127].forEach((v, i) => view.setInt8(at + 72 + i, v));
    view.setUint32(at + INSTANCE_BASE[0]!, 1000 + n, true);
    [n, n + 1, 200, 9].forEach((v, i) => view.setUint8(at + INSTANCE_BASE[1]! + i, v));
  }
  return bytes;
}
const VERTEX_BYTES = vertexBytes();

const R16_INDICES = [5, 0, 63, 31, 32, 7, 7, 1, 40, 2];
const R32_INDICES = [9, 3, 30, 21, 0, 11, 22, 6];
function indexBytes(): Uint8Array {
  const bytes = new Uint8Array(2 * TILE);
  const view = new DataView(bytes.buffer);
  R16_INDICES.forEach((index, i) => view.setUint16(R16_AT + 2 * i, index, true));
  R32_INDICES.forEach((index, i) => view.setUint32(R32_AT + 4 * i, index, true));
  return bytes;
}
const INDEX_BYTES = indexBytes();

/** The input layout: thirteen per-vertex elements of slot 0, and two per-instance ones of slots 1 and 2. */
const LAYOUT = [
  { format: 'R32G32B32A32_UINT', offset: 0 },
  { format: 'R32G32_FLOAT', offset: 16 },
  { format: 'R16G16B16A16_SINT', offset: 24 },
  { format: 'R8G8B8A8_UNORM', offset: 32 },
  { format: 'R16G16_SNORM', offset: 36 },
  { format: 'R10G10B10A2_UINT', offset: 40 },
  { format: 'R16G16B16A16_FLOAT', offset: APPEND_ALIGNED_ELEMENT },
  { format: 'R32G32B32_SINT', offset: 52 },
  { format: 'R16G16_UNORM', offset: APPEND_ALIGNED_ELEMENT },
  { format: 'B8G8R8A8_UNORM', offset: 68 },
  { format: 'R8G8B8A8_SINT', offset: APPEND_ALIGNED_ELEMENT },
] as const;
/** Byte offsets of LAYOUT's elements (APPEND resolved) and their sizes. */
const OFFSETS = [0, 16, 24, 32, 36, 40, 44, 52, 64, 68, 72];
const SIZES = [16, 8, 8, 4, 4, 4, 8, 12, 4, 4, 4];

/** The words the vertex shader makes of its input (WORDS in the shader, in this order). */
const WORD_COUNT = 28;
const VS_WORDS = [
  'input.ATTR0.x',
  'input.ATTR0.y',
  'input.ATTR0.z',
  'input.ATTR0.w',
  'bitcast<u32>(input.ATTR1.x)',
  'bitcast<u32>(input.ATTR1.y)',
  'bitcast<u32>(input.ATTR1.z)',
  'bitcast<u32>(input.ATTR1.w)',
  'bitcast<u32>(input.ATTR2.x)',
  'bitcast<u32>(input.ATTR2.y)',
  'bitcast<u32>(input.ATTR2.z)',
  'bitcast<u32>(input.ATTR2.w)',
  'pack4x8unorm(input.ATTR3)',
  'bitcast<u32>(i32(round(input.ATTR4.x * 32767.0)))',
  'bitcast<u32>(i32(round(input.ATTR4.y * 32767.0)))',
  'bitcast<u32>(input.ATTR4.w)',
  'input.ATTR5.x | (input.ATTR5.y << 10u) | (input.ATTR5.z << 20u) | (input.ATTR5.w << 30u)',
  'pack2x16float(input.ATTR6.xy)',
  'pack2x16float(input.ATTR6.zw)',
  'bitcast<u32>(input.ATTR7.x)',
  'bitcast<u32>(input.ATTR7.y)',
  'bitcast<u32>(input.ATTR7.z)',
  'bitcast<u32>(input.ATTR7.w)',
  'u32(round(input.ATTR8.x * 65535.0)) | (u32(round(input.ATTR8.y * 65535.0)) << 16u)',
  'pack4x8unorm(input.ATTR9)',
  'dot(vec4u(bitcast<vec4u>(input.ATTR10) & vec4u(0xffu)), vec4u(1u, 0x100u, 0x10000u, 0x1000000u))',
  'input.INST0.x',
  'input.INST1.x | (input.INST1.y << 8u) | (input.INST1.z << 16u) | (input.INST1.w << 24u)',
];
/** Words of the per-instance elements. */
const W_INST0 = 26;
const W_INST1 = 27;
const ALL_WORDS = 0xffffffff;

const ONE = f32Bits(1);

/** The CPU side of VS_WORDS: from each element's raw bytes (zeros where the fetch gave 0). */
function modelWords(element: (i: number) => DataView, inst0: DataView, inst1: DataView): number[] {
  const e = element;
  const u32 = (v: DataView, i: number): number => v.getUint32(4 * i, true);
  const snorm = (raw: number): number => Math.round(Math.max(raw / 32767, -1) * 32767);
  return [
    ...[0, 1, 2, 3].map((i) => u32(e(0), i)),
    u32(e(1), 0),
    u32(e(1), 1),
    0,
    ONE,
    ...[0, 1, 2, 3].map((i) => e(2).getInt16(2 * i, true) >>> 0),
    u32(e(3), 0),
    snorm(e(4).getInt16(0, true)) >>> 0,
    snorm(e(4).getInt16(2, true)) >>> 0,
    ONE,
    u32(e(5), 0),
    u32(e(6), 0),
    u32(e(6), 1),
    u32(e(7), 0),
    u32(e(7), 1),
    u32(e(7), 2),
    1,
    u32(e(8), 0),
    // B8G8R8A8: memory holds b, g, r, a; the shader packs r, g, b, a.
    (e(9).getUint8(2) | (e(9).getUint8(1) << 8) | (e(9).getUint8(0) << 16) | (e(9).getUint8(3) << 24)) >>> 0,
    u32(e(10), 0),
    u32(inst0, 0),
    u32(inst1, 0),
  ];
}

// ---- The model of a draw ----------------------------------------------------------------------------

/** Whether a byte of a buffer of `kind` is backed: a reserved buffer's second tile is NULL. */
const backed = (kind: Kind, byte: number): boolean => kind !== 'reserved' || byte < TILE;

/** `count` bytes at `start` of a vertex buffer view of `size` bytes at `base` (an element wholly inside, or zeros). */
function fetch(kind: Kind, bytes: Uint8Array, base: number, size: number, start: number, count: number): DataView {
  const out = new Uint8Array(16);
  if (start >= 0 && start + count <= size)
    for (let i = 0; i < count; i++) {
      const byte = base + start + i;
      out[i] = backed(kind, byte) ? (bytes[byte] as number) : 0;
    }
  return new DataView(out.buffer);
}

interface VertexView {
  base: number;
  size: number;
}
const FULL: VertexView = { base: 0, size: BUFFER_BYTES };
const INSTANCE_VIEWS: VertexView[] = INSTANCE_BASE.map((base) => ({ base, size: BUFFER_BYTES - base }));

/** The words of vertex `vertex` (a u32: out of range reads 0) and instance element indices. */
function vertexWords(kind: Kind, view: VertexView, vertex: number, inst: [number, number]): number[] {
  const record = vertex * STRIDE;
  return modelWords(
    (i) => fetch(kind, VERTEX_BYTES, view.base, view.size, record + (OFFSETS[i] as number), SIZES[i] as number),
    fetch(kind, VERTEX_BYTES, INSTANCE_VIEWS[0]!.base, INSTANCE_VIEWS[0]!.size, inst[0] * STRIDE, 4),
    fetch(kind, VERTEX_BYTES, INSTANCE_VIEWS[1]!.base, INSTANCE_VIEWS[1]!.size, inst[1] * STRIDE, 4),
  );
}

interface Draw {
  label: string;
  /** drawInstanced(count, instances, startVertex, startInstance), or indexed: drawIndexedInstanced(count, instances, startIndex, baseVertex, startInstance). */
  count: number;
  instances: number;
  startVertex?: number;
  startInstance: number;
  indexed?: {
    format: 'R16_UINT' | 'R32_UINT';
    startIndex: number;
    baseVertex: number;
    view: { at: number; size: number };
  };
  vertexView?: VertexView;
  /** The word each point writes: one of VS_WORDS, or ALL_WORDS: word j for instance startInstance + j. */
  word: number;
  /** Its first pixel (set when the draws are laid out). */
  base?: number;
}

/** The index at position `position` of an index buffer view (0 past the view or on a NULL tile). */
function modelIndex(kind: Kind, draw: Draw, position: number): number {
  const indexed = draw.indexed as NonNullable<Draw['indexed']>;
  const bytes = indexed.format === 'R16_UINT' ? 2 : 4;
  const offset = position * bytes;
  if (offset + bytes > indexed.view.size) return 0;
  const at = indexed.view.at + offset;
  if (!backed(kind, at)) return 0;
  const view = new DataView(INDEX_BYTES.buffer);
  return bytes === 2 ? view.getUint16(at, true) : view.getUint32(at, true);
}

/** The pixels a draw writes: pixel → word. */
function modelDraw(kind: Kind, draw: Draw, pixels: Map<number, number>): void {
  for (let j = 0; j < draw.instances; j++) {
    const instance = draw.startInstance + j;
    const inst: [number, number] = [instance, draw.startInstance + Math.floor(j / 2)];
    for (let k = 0; k < draw.count; k++) {
      const vertex = draw.indexed
        ? (modelIndex(kind, draw, draw.indexed.startIndex + k) + draw.indexed.baseVertex) >>> 0
        : (draw.startVertex ?? 0) + k;
      const words = vertexWords(kind, draw.vertexView ?? FULL, vertex, inst);
      pixels.set((draw.base as number) + j * draw.count + k, words[draw.word === ALL_WORDS ? j : draw.word] as number);
    }
  }
}

const DRAWS: Draw[] = [
  {
    label: 'every word of every vertex (instance j: word j)',
    count: VERTICES,
    instances: WORD_COUNT,
    startInstance: 0,
    word: ALL_WORDS,
  },
  { label: 'instancing, step rate 1', count: 1, instances: 70, startVertex: 3, startInstance: 5, word: W_INST0 },
  { label: 'instancing, step rate 2', count: 1, instances: 70, startVertex: 3, startInstance: 5, word: W_INST1 },
  {
    label: 'R16 indices, two past the view',
    count: R16_INDICES.length + 2,
    instances: 1,
    startInstance: 0,
    indexed: { format: 'R16_UINT', startIndex: 0, baseVertex: 0, view: { at: R16_AT, size: 2 * R16_INDICES.length } },
    word: 0,
  },
  {
    label: 'R16 indices from index 2, base vertex -2',
    count: 6,
    instances: 1,
    startInstance: 0,
    indexed: { format: 'R16_UINT', startIndex: 2, baseVertex: -2, view: { at: R16_AT, size: 2 * R16_INDICES.length } },
    word: 0,
  },
  {
    label: 'R32 indices across a tile boundary, from index 1, base vertex 10, two instances from 4',
    count: 7,
    instances: 2,
    startInstance: 4,
    indexed: { format: 'R32_UINT', startIndex: 1, baseVertex: 10, view: { at: R32_AT, size: 4 * R32_INDICES.length } },
    word: 0,
  },
  {
    label: 'R32 indices, the vertices’ first word',
    count: R32_INDICES.length,
    instances: 1,
    startInstance: 0,
    indexed: { format: 'R32_UINT', startIndex: 0, baseVertex: 0, view: { at: R32_AT, size: 4 * R32_INDICES.length } },
    word: 0,
  },
  {
    label: 'a vertex buffer view ending at byte 64 of vertex 40 (word 0)',
    count: VERTICES,
    instances: 1,
    startInstance: 0,
    vertexView: { base: 0, size: 40 * STRIDE + 64 },
    word: 0,
  },
  {
    label: 'a vertex buffer view ending at byte 64 of vertex 40 (R16G16_UNORM at byte 64)',
    count: VERTICES,
    instances: 1,
    startInstance: 0,
    vertexView: { base: 0, size: 40 * STRIDE + 64 },
    word: 23,
  },
];
{
  let next = 0;
  for (const draw of DRAWS) {
    draw.base = next;
    next += draw.count * draw.instances;
  }
  if (next > WIDTH * HEIGHT) throw new Error('the draws need a larger target');
}

// ---- Shaders and the file's device ---------------------------------------------------------------------

const SHADER = `
struct VsOut {
  @builtin(position) position: vec4f,
  @location(0) @interpolate(flat) word: u32,
}

// Root constants: 0 the draw's first pixel, 1 its start vertex, 2 its start instance, 3 its
// vertices per instance, 4 the word to write (0xffffffff: the instance's, from the start instance).
@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> VsOut {
  let input = d3d12_vertex_input(v, i);
  let words = array<u32, ${WORD_COUNT}>(
    ${VS_WORDS.join(',\n    ')}
  );
  let instance = i - d3d12_root_constant(2u);
  let pick = d3d12_root_constant(4u);
  let word = words[min(select(pick, instance, pick == ${ALL_WORDS}u), ${WORD_COUNT - 1}u)];
  let pixel = d3d12_root_constant(0u) + instance * d3d12_root_constant(3u) + (v - d3d12_root_constant(1u));
  let xy = vec2f(f32(pixel % ${WIDTH}u), f32(pixel / ${WIDTH}u)) + 0.5;
  return VsOut(vec4f(xy.x / ${WIDTH / 2}.0 - 1.0, 1.0 - xy.y / ${HEIGHT / 2}.0, 0.0, 1.0), word);
}

@fragment fn ps(in: VsOut) -> @location(0) vec4f {
  return unpack4x8unorm(in.word);
}`;

interface Setup {
  d3d: Device;
  gpu: GPUDevice;
  queue: CommandQueue;
  pipeline: PipelineState;
  target: GPUTexture;
  swapChain: SwapChain;
  rtv: CpuDescriptorHandle;
}

async function createSetup(gpu: GPUDevice): Promise<Setup> {
  const { d3d, queue } = await createRigDevice(gpu);
  const pipeline = await d3d.createGraphicsPipelineState({
    code: SHADER,
    vertexEntryPoint: 'vs',
    fragmentEntryPoint: 'ps',
    rtvFormats: ['R8G8B8A8_UNORM'],
    numRenderTargets: 1,
    primitiveTopologyType: 'POINT',
    inputLayout: {
      inputElementDescs: [
        ...LAYOUT.map((element, i) => ({
          semanticName: 'ATTR',
          semanticIndex: i,
          format: element.format,
          alignedByteOffset: element.offset,
        })),
        {
          semanticName: 'INST',
          semanticIndex: 0,
          format: 'R32_UINT',
          inputSlot: 1,
          inputSlotClass: 'PER_INSTANCE_DATA' as const,
          instanceDataStepRate: 1,
        },
        {
          semanticName: 'INST',
          semanticIndex: 1,
          format: 'R8G8B8A8_UINT',
          inputSlot: 2,
          inputSlotClass: 'PER_INSTANCE_DATA' as const,
          instanceDataStepRate: 2,
        },
      ],
    },
  });
  const { target, swapChain } = textureSwapChain(d3d, gpu, WIDTH, HEIGHT);
  const rtv = backBufferRtv(d3d, swapChain);
  return { d3d, gpu, queue, pipeline, target, swapChain, rtv };
}

/** The file's emulated device, back buffer and compiled pipeline, made once. */
const test = fileSetupTest(createSetup, (setup) => setup.target.destroy());

/** A vertex buffer and an index buffer of `kind`, filled (reserved: each first tile mapped, at heap tiles 2 and 1). */
async function createBuffers(
  d3d: Device,
  queue: CommandQueue,
  kind: Kind,
): Promise<{ vertices: Resource; indices: Resource; heap?: Heap }> {
  const { resources, heap } = kindResources(
    d3d,
    kind,
    {
      vertices: { name: 'vertices', desc: { dimension: 'BUFFER', width: BUFFER_BYTES }, placedAt: TILE },
      indices: { name: 'indices', desc: { dimension: 'BUFFER', width: 2 * TILE }, placedAt: 3 * TILE },
    },
    { placed: 5 * TILE, reserved: 3 * TILE },
  );
  const { vertices, indices } = resources;
  if (kind === 'reserved') {
    mapTiles(queue, vertices, heap as Heap, [{ subresource: 0, heapTile: 2 }]);
    mapTiles(queue, indices, heap as Heap, [{ subresource: 0, heapTile: 1 }]);
  }
  await runList(d3d, queue, (list) => {
    list.copyBufferRegion(vertices, 0, uploadBuffer(d3d, VERTEX_BYTES), 0, BUFFER_BYTES);
    list.copyBufferRegion(indices, 0, uploadBuffer(d3d, INDEX_BYTES), 0, INDEX_BYTES.length);
    list.resourceBarrier([
      ...transitions([vertices], 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER'),
      ...transitions([indices], 'COPY_DEST', 'INDEX_BUFFER'),
    ]);
  });
  return heap ? { vertices, indices, heap } : { vertices, indices };
}

function recordDraws(setup: Setup, list: GraphicsCommandList, vertices: Resource, indices: Resource): void {
  const backBuffer = setup.swapChain.getCurrentBackBuffer();
  const transition = (stateBefore: 'PRESENT' | 'RENDER_TARGET', stateAfter: 'PRESENT' | 'RENDER_TARGET') =>
    list.resourceBarrier([{ type: 'TRANSITION', transition: { resource: backBuffer, stateBefore, stateAfter } }]);
  transition('PRESENT', 'RENDER_TARGET');
  list.setPipelineState(setup.pipeline);
  list.omSetRenderTargets([setup.rtv]);
  list.clearRenderTargetView(setup.rtv, [0, 0, 0, 0]);
  list.iaSetPrimitiveTopology('POINTLIST');
  const va = vertices.getGPUVirtualAddress();
  for (const draw of DRAWS) {
    const view = draw.vertexView ?? FULL;
    list.iaSetVertexBuffers(0, [
      { bufferLocation: va + BigInt(view.base), sizeInBytes: view.size, strideInBytes: STRIDE },
      ...INSTANCE_VIEWS.map((v) => ({
        bufferLocation: va + BigInt(v.base),
        sizeInBytes: v.size,
        strideInBytes: STRIDE,
      })),
    ]);
    list.setGraphicsRoot32BitConstants(0, [
      draw.base as number,
      draw.indexed ? 0 : (draw.startVertex ?? 0),
      draw.startInstance,
      draw.count,
      draw.word,
    ]);
    if (draw.indexed) {
      list.iaSetIndexBuffer({
        bufferLocation: indices.getGPUVirtualAddress() + BigInt(draw.indexed.view.at),
        sizeInBytes: draw.indexed.view.size,
        format: draw.indexed.format,
      });
      list.drawIndexedInstanced(
        draw.count,
        draw.instances,
        draw.indexed.startIndex,
        draw.indexed.baseVertex,
        draw.startInstance,
      );
    } else {
      list.drawInstanced(draw.count, draw.instances, draw.startVertex ?? 0, draw.startInstance);
    }
  }
  transition('RENDER_TARGET', 'PRESENT');
}

/** The back buffer's pixels as words (R8G8B8A8: byte 0 is red). */
async function readTarget(setup: Setup): Promise<Uint32Array> {
  const { gpu, target } = setup;
  const read = gpu.createBuffer({ size: WIDTH * 4 * HEIGHT, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = gpu.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture: target }, { buffer: read, bytesPerRow: WIDTH * 4 }, [WIDTH, HEIGHT]);
  gpu.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(read.getMappedRange().slice(0));
  read.destroy();
  return words;
}

for (const kind of KINDS) {
  test(`${kind} buffers: vertices, per-instance elements and R16 / R32 indices are fetched as the model says${kind === 'reserved' ? ' (NULL tiles read 0)' : ''}`, async (setup) => {
    const { d3d, queue } = setup;
    const { vertices, indices } = await createBuffers(d3d, queue, kind);
    await runList(d3d, queue, (list) => recordDraws(setup, list, vertices, indices));
    const got = await readTarget(setup);
    const pixels = new Map<number, number>();
    for (const draw of DRAWS) modelDraw(kind, draw, pixels);
    for (const draw of DRAWS) {
      const first = draw.base as number;
      const count = draw.count * draw.instances;
      const hex = (w: number | undefined) => (w ?? 0).toString(16);
      const lines = (words: (number | undefined)[]) =>
        words.map(
          (w, i) =>
            `${draw.label}, point ${i} (vertex ${i % draw.count}, instance ${Math.floor(i / draw.count)}): ${hex(w)}`,
        );
      expect(lines(Array.from(got.subarray(first, first + count)))).toEqual(
        lines(Array.from({ length: count }, (_, i) => pixels.get(first + i))),
      );
    }
    // Pixels no point covers stay cleared.
    const drawn = DRAWS.reduce((sum, draw) => sum + draw.count * draw.instances, 0);
    expect(got.subarray(drawn).every((w) => w === 0)).toBe(true);
    expect(await d3d.readFaults()).toEqual([]);
  });
}

const QUAD_SHADER = `
struct QuadOut {
  @builtin(position) position: vec4f,
  @location(0) uv: vec2f,
}

@vertex fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> QuadOut {
  let input = d3d12_vertex_input(v, i);
  // b0 of the vertex stage: a scale of 0.5 (the pixel stage's b0, read as a float, is huge).
  let scale = d3d12_cbuffer_load_f32(d3d12_cbuffer(d3d12_b(0u, 0u)), 0u);
  return QuadOut(vec4f(input.POSITION0.xy * scale, 0.0, 1.0), input.TEXCOORD0.xy);
}

@fragment fn ps(in: QuadOut) -> @location(0) vec4f {
  let texel = d3d12_texture_sample(d3d12_texture2d(d3d12_t(0u, 0u)), d3d12_sampler(d3d12_s(0u, 0u)), in.uv);
  // b0 of the pixel stage: a mask for the texel's bytes.
  return unpack4x8unorm(pack4x8unorm(texel) ^ d3d12_cbuffer_load(d3d12_cbuffer(d3d12_b(0u, 0u)), 0u));
}`;

test('an indexed quad (TRIANGLELIST, R16) whose pixel shader samples (Sample, implicit derivatives) a table SRV with a static sampler, each stage reading its own root constants', async (setup) => {
  const { d3d, queue } = setup;
  const rootSignature = d3d.createRootSignature(0, {
    version: '1_1',
    desc_1_1: {
      parameters: [
        {
          parameterType: '32BIT_CONSTANTS',
          constants: { shaderRegister: 0, num32BitValues: 1 },
          shaderVisibility: 'VERTEX',
        },
        {
          parameterType: '32BIT_CONSTANTS',
          constants: { shaderRegister: 0, num32BitValues: 1 },
          shaderVisibility: 'PIXEL',
        },
        {
          parameterType: 'DESCRIPTOR_TABLE',
          descriptorTable: { descriptorRanges: [{ rangeType: 'SRV', numDescriptors: 1, baseShaderRegister: 0 }] },
          shaderVisibility: 'PIXEL',
        },
      ],
      staticSamplers: [{ filter: 'MIN_MAG_MIP_POINT', shaderRegister: 0, shaderVisibility: 'PIXEL' }],
      flags: 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT',
    },
  });
  const pipeline = await d3d.createGraphicsPipelineState({
    code: QUAD_SHADER,
    vertexEntryPoint: 'vs',
    fragmentEntryPoint: 'ps',
    rtvFormats: ['R8G8B8A8_UNORM'],
    numRenderTargets: 1,
    primitiveTopologyType: 'TRIANGLE',
    rootSignature,
    inputLayout: {
      inputElementDescs: [
        { semanticName: 'POSITION', format: 'R32G32_FLOAT', alignedByteOffset: 0 },
        { semanticName: 'TEXCOORD', format: 'R32G32_FLOAT', alignedByteOffset: APPEND_ALIGNED_ELEMENT },
      ],
    },
    rasterizerState: { cullMode: 'NONE' },
  });
  // An 8 × 8 texture over the middle of the target, x 16-47 and y 32-95: a texel per 4 × 8 pixels.
  const size = 8;
  const texture = d3d.createCommittedResource(
    { type: 'DEFAULT' },
    [],
    { dimension: 'TEXTURE2D', width: size, height: size, format: 'R8G8B8A8_UNORM' },
    'COPY_DEST',
  );
  const texels = Uint8Array.from({ length: size * size * 4 }, (_, i) => (i * 37 + 11) & 0xff);
  // x y u v, corners of the target (scaled by half in the shader); two triangles by R16 index, in a placed buffer.
  const vertices = new Float32Array([-1, 1, 0, 0, 1, 1, 1, 0, -1, -1, 0, 1, 1, -1, 1, 1]);
  const indices = new Uint16Array([0, 1, 2, 2, 1, 3]);
  const heap = d3d.createHeap({ sizeInBytes: TILE, properties: { type: 'DEFAULT' } });
  const buffer = d3d.createPlacedResource(heap, 0, { dimension: 'BUFFER', width: TILE }, 'COPY_DEST');
  const descriptors = d3d.createDescriptorHeap({ type: 'CBV_SRV_UAV', numDescriptors: 4, flags: 'SHADER_VISIBLE' });
  d3d.createShaderResourceView(texture, null, descriptorAt(d3d, descriptors, 2));
  const mask = 0x5a3c0ff0;
  await runList(d3d, queue, (list) => {
    copyTextureIn(d3d, list, texture, [texels]);
    list.copyBufferRegion(buffer, 0, uploadBuffer(d3d, new Uint8Array(vertices.buffer)), 0, vertices.byteLength);
    list.copyBufferRegion(buffer, 256, uploadBuffer(d3d, new Uint8Array(indices.buffer)), 0, indices.byteLength);
    list.resourceBarrier([
      ...transitions([texture], 'COPY_DEST', 'PIXEL_SHADER_RESOURCE'),
      ...transitions([buffer], 'COPY_DEST', 'VERTEX_AND_CONSTANT_BUFFER'),
    ]);
  });
  await runList(d3d, queue, (list) => {
    const backBuffer = setup.swapChain.getCurrentBackBuffer();
    list.resourceBarrier(transitions([backBuffer], 'PRESENT', 'RENDER_TARGET'));
    list.setPipelineState(pipeline);
    list.setGraphicsRootSignature(rootSignature);
    list.setDescriptorHeaps([descriptors]);
    list.setGraphicsRoot32BitConstant(0, f32Bits(0.5), 0);
    list.setGraphicsRoot32BitConstant(1, mask, 0);
    list.setGraphicsRootDescriptorTable(2, gpuDescriptorAt(d3d, descriptors, 2));
    list.omSetRenderTargets([setup.rtv]);
    list.clearRenderTargetView(setup.rtv, [0, 0, 0, 0]);
    list.iaSetPrimitiveTopology('TRIANGLELIST');
    const va = buffer.getGPUVirtualAddress();
    list.iaSetVertexBuffers(0, [{ bufferLocation: va, sizeInBytes: vertices.byteLength, strideInBytes: 16 }]);
    list.iaSetIndexBuffer({ bufferLocation: va + 256n, sizeInBytes: indices.byteLength, format: 'R16_UINT' });
    list.drawIndexedInstanced(6, 1, 0, 0, 0);
    list.resourceBarrier(transitions([backBuffer], 'RENDER_TARGET', 'PRESENT'));
  });
  const got = await readTarget(setup);
  const texelWords = new Uint32Array(texels.buffer);
  const want = Uint32Array.from({ length: WIDTH * HEIGHT }, (_, p) => {
    const [x, y] = [(p % WIDTH) - 16, Math.floor(p / WIDTH) - 32];
    if (x < 0 || x >= 32 || y < 0 || y >= 64) return 0;
    return ((texelWords[(y >> 3) * size + (x >> 2)] as number) ^ mask) >>> 0;
  });
  const rows = (words: Uint32Array) =>
    Array.from({ length: HEIGHT }, (_, y) =>
      Array.from(words.subarray(y * WIDTH, (y + 1) * WIDTH), (w) => w.toString(16)).join(' '),
    );
  expect(rows(got)).toEqual(rows(want));
  expect(await d3d.readFaults()).toEqual([]);
});
