/**
 * The rig of the operation tests that read and write resources through descriptors and the input
 * assembler (test/gpu/operation/d3d12/descriptor-views, descriptor-checked-loads, descriptor-stores,
 * descriptor-tables and input-assembler.test.ts): one emulated device per file made by a file-scoped
 * fixture, DEFAULT buffers filled through an UPLOAD buffer, textures filled subresource by
 * subresource, the same resources made committed, placed or reserved (`Kind`), compute passes
 * compiled one after another, jobs that such a pass reads from a root SRV (its root parameters and
 * the start of its shader; the structured reads the read tests share), and descriptor handle
 * arithmetic. Each test file keeps its own data, CPU model and assertions. Bytes go in and out
 * through test/shared/d3d12-helpers.ts (uploadBuffer, runList, readBuffer).
 */
import {
  createDevice,
  type CommandQueue,
  type CpuDescriptorHandle,
  type DescriptorHeap,
  type Device,
  type GpuDescriptorHandle,
  type GraphicsCommandList,
  type Heap,
  type PipelineState,
  type Resource,
  type ResourceBarrier,
  type ResourceDesc,
  type ResourceFlag,
  type ResourceState,
  type RootParameter,
  type RootSignature,
} from '../../src/index.js';
import { gpuTest } from '../harness/gpu-test.js';
import { runList, TILE, uploadBuffer } from './d3d12-helpers.js';

/** How a test's resources are made: committed, placed in one DEFAULT heap, or reserved with tiles mapped from one. */
export type Kind = 'committed' | 'placed' | 'reserved';
export const KINDS: readonly Kind[] = ['committed', 'placed', 'reserved'];

/** The f32 bits of a value. */
export const f32Bits = (value: number): number => new Uint32Array(new Float32Array([value]).buffer)[0] as number;

/** Words as 8-digit hex, space-separated: how the read tests print a result next to its job's label. */
export const hex = (words: number[]): string => words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');

// ---- The file's device -----------------------------------------------------------------------------

/** The file's emulated device and its DIRECT queue. */
export interface RigDevice {
  d3d: Device;
  queue: CommandQueue;
}

/** An emulated device of 16 MiB LOCAL and 8 MiB NON_LOCAL memory that reports page faults, and its DIRECT queue. */
export async function createRigDevice(gpuDevice: GPUDevice, tiledResourcesTier?: 4): Promise<RigDevice> {
  const d3d = await createDevice({
    gpuDevice,
    localMemoryBytes: 16 << 20,
    nonLocalMemoryBytes: 8 << 20,
    onPageFault: 'report',
    ...(tiledResourcesTier ? { tiledResourcesTier } : {}),
  });
  return { d3d, queue: d3d.createCommandQueue({ type: 'DIRECT' }) };
}

/**
 * A test function over the file's setup: `createSetup` runs once for the file (its device, resources
 * and compiled pipelines), `destroy` after the file's last test (the device is always destroyed).
 * Each test also takes `device`, which runs its body inside WebGPU error scopes (gpu-test.ts).
 */
export function fileSetupTest<S extends { d3d: Device }>(
  createSetup: (gpuDevice: GPUDevice) => Promise<S>,
  destroy: (setup: S) => void = () => undefined,
): (name: string, body: (setup: S) => Promise<void>) => void {
  const test = gpuTest.extend<{ $file: { setup: S } }>({
    setup: [
      async ({ fileDevice }, use) => {
        const setup = await createSetup(await fileDevice.current());
        await use(setup);
        setup.d3d.destroy();
        destroy(setup);
      },
      { scope: 'file' },
    ],
  });
  return (name, body) =>
    test(name, async ({ setup, device }) => {
      void device; // the test's WebGPU error scopes
      await body(setup);
    });
}

/** Compute pipelines of one root signature, one per pass, compiled one after another (on SwiftShader, at once takes longer). */
export async function compilePasses<P extends string>(
  d3d: Device,
  rootSignature: RootSignature,
  passes: readonly P[],
  shader: (pass: P) => string,
): Promise<Record<P, PipelineState>> {
  const pipelines = {} as Record<P, PipelineState>;
  for (const pass of passes)
    pipelines[pass] = await d3d.createComputePipelineState({
      code: shader(pass),
      entryPoint: 'main',
      rootSignature,
      label: pass,
    });
  return pipelines;
}

// ---- Jobs of a compute pass ------------------------------------------------------------------------

/** Root parameter 0 of a job pass: the jobs, a root SRV at t0, space 1. */
export const JOBS_PARAMETER: RootParameter = {
  parameterType: 'SRV',
  descriptor: { shaderRegister: 0, registerSpace: 1 },
};
/** Root parameter 1 of a job pass that writes its results to a buffer: a root UAV at u0, space 1. */
export const RESULTS_PARAMETER: RootParameter = {
  parameterType: 'UAV',
  descriptor: { shaderRegister: 0, registerSpace: 1 },
};

/** A descriptor table of `srvs` SRVs from t0, then `cbvs` CBVs from b0. */
export const srvCbvTable = (srvs: number, cbvs: number): RootParameter => ({
  parameterType: 'DESCRIPTOR_TABLE',
  descriptorTable: {
    descriptorRanges: [
      { rangeType: 'SRV', numDescriptors: srvs, baseShaderRegister: 0 },
      { rangeType: 'CBV', numDescriptors: cbvs, baseShaderRegister: 0 },
    ],
  },
});

/**
 * The start of a job pass's shader, `main` over workgroups of 64: invocation i reads job i
 * (`jobBytes` bytes at `jobBytes` i of `jobs`, the root SRV) into `job` (its first 16 bytes) and
 * `op` (`job.x & 0xff`), and returns where `op` is `none` (the jobs that pad the last workgroup).
 * The caller writes the rest of `main` and its closing brace.
 */
export const jobShaderStart = (none: number, jobBytes = 16): string => `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let jobs = d3d12_buffer(d3d12_t(0u, 1u));
  let job = d3d12_buffer_load_word4(jobs, id.x * ${jobBytes}u);
  let op = job.x & 0xffu;
  if (op == ${none}u) {
    return;
  }`;

/**
 * The (element, byte in the element) reads of a structured view of `count` elements of `stride`
 * bytes from element `first` of its buffer: each word of the first element and of the element that
 * holds the first tile's last byte (across the tile's end when `stride` does not divide it), the
 * last element's last word, the element past the last, and a byte past the stride.
 */
export function structuredReads(first: number, stride: number, count: number): [number, number][] {
  const words = Array.from({ length: stride / 4 }, (_, i) => 4 * i);
  const acrossTile = Math.floor((TILE - 1) / stride) - first;
  return [
    ...words.map((byte): [number, number] => [0, byte]),
    ...words.map((byte): [number, number] => [acrossTile, byte]),
    [count - 1, stride - 4],
    [count, 0],
    [3, stride],
  ];
}

// ---- Buffers and textures --------------------------------------------------------------------------

/** A committed DEFAULT buffer. */
export const defaultBuffer = (d3d: Device, width: number, state: ResourceState, flags: ResourceFlag[] = []): Resource =>
  d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width, flags }, state);

/** One TRANSITION barrier per resource, from `before` to `after`. */
export const transitions = (
  resources: Extract<ResourceBarrier, { type: 'TRANSITION' }>['transition']['resource'][],
  before: ResourceState,
  after: ResourceState,
): ResourceBarrier[] =>
  resources.map((resource) => ({
    type: 'TRANSITION',
    transition: { resource, stateBefore: before, stateAfter: after },
  }));

/** A committed DEFAULT buffer holding `bytes` (copied from an UPLOAD buffer), in state `after`. */
export async function filledBuffer(
  d3d: Device,
  queue: CommandQueue,
  bytes: Uint8Array,
  after: ResourceState,
): Promise<Resource> {
  const resource = defaultBuffer(d3d, bytes.byteLength, 'COPY_DEST');
  await runList(d3d, queue, (list) => {
    list.copyBufferRegion(resource, 0, uploadBuffer(d3d, bytes), 0, bytes.byteLength);
    list.resourceBarrier(transitions([resource], 'COPY_DEST', after));
  });
  return resource;
}

/** Records copies of `subresources` (subresource i's rows, packed) into `texture` (in COPY_DEST) through one UPLOAD buffer. */
export function copyTextureIn(d3d: Device, list: GraphicsCommandList, texture: Resource, subresources: Uint8Array[]) {
  const footprints = d3d.getCopyableFootprints(texture.getDesc(), 0, subresources.length, 0);
  const staging = new Uint8Array(footprints.totalBytes);
  subresources.forEach((bytes, i) => {
    const layout = footprints.layouts[i] as (typeof footprints.layouts)[number];
    const row = footprints.rowSizeInBytes[i] as number;
    for (let y = 0; y < layout.footprint.height; y++)
      staging.set(bytes.subarray(y * row, (y + 1) * row), layout.offset + y * layout.footprint.rowPitch);
  });
  const upload = uploadBuffer(d3d, staging);
  subresources.forEach((_, i) =>
    list.copyTextureRegion({ resource: texture, type: 'SUBRESOURCE_INDEX', subresourceIndex: i }, 0, 0, 0, {
      resource: upload,
      type: 'PLACED_FOOTPRINT',
      placedFootprint: footprints.layouts[i] as (typeof footprints.layouts)[number],
    }),
  );
}

// ---- Committed, placed and reserved resources --------------------------------------------------------

/** One resource of a kind: its name (after the kind), its desc for that kind, and its offset in the placed heap. */
export interface KindResourceSpec {
  name: string;
  desc: ResourceDesc;
  placedAt: number;
}

/**
 * The resources of `specs` as `kind`, in COPY_DEST and named `${kind} ${spec.name}`: committed;
 * placed at `placedAt` in one heap of `heapBytes.placed`; or reserved, with a heap of
 * `heapBytes.reserved` returned for the caller's tile mappings (`mapTiles`), all of them NULL until then.
 */
export function kindResources<N extends string>(
  d3d: Device,
  kind: Kind,
  specs: Record<N, KindResourceSpec>,
  heapBytes: { placed: number; reserved: number },
): { resources: Record<N, Resource>; heap?: Heap } {
  const heap =
    kind === 'committed'
      ? undefined
      : d3d.createHeap({ sizeInBytes: heapBytes[kind], properties: { type: 'DEFAULT' } });
  const resources = {} as Record<N, Resource>;
  for (const [name, spec] of Object.entries(specs) as [N, KindResourceSpec][]) {
    const resource =
      kind === 'committed'
        ? d3d.createCommittedResource({ type: 'DEFAULT' }, [], spec.desc, 'COPY_DEST')
        : kind === 'placed'
          ? d3d.createPlacedResource(heap as Heap, spec.placedAt, spec.desc, 'COPY_DEST')
          : d3d.createReservedResource(spec.desc, 'COPY_DEST');
    resource.setName(`${kind} ${spec.name}`);
    resources[name] = resource;
  }
  return heap ? { resources, heap } : { resources };
}

/** Maps the first tile of each listed subresource (a packed mip tail, for a packed one) of `resource` to a tile of `heap`. */
export function mapTiles(
  queue: CommandQueue,
  resource: Resource,
  heap: Heap,
  tiles: { subresource: number; heapTile: number }[],
): void {
  queue.updateTileMappings(
    resource,
    tiles.map(({ subresource }) => ({ x: 0, y: 0, z: 0, subresource })),
    tiles.map(() => ({ numTiles: 1 })),
    heap,
    tiles.map(() => 'NONE' as const),
    tiles.map(({ heapTile }) => heapTile),
    tiles.map(() => 1),
  );
}

// ---- Descriptors -----------------------------------------------------------------------------------

/** Descriptor `index` of `heap`. */
export const descriptorAt = (d3d: Device, heap: DescriptorHeap, index: number): CpuDescriptorHandle => ({
  ptr:
    heap.getCPUDescriptorHandleForHeapStart().ptr + index * d3d.getDescriptorHandleIncrementSize(heap.getDesc().type),
});

/** Descriptor `index` of a shader-visible `heap`, as a table's start. */
export const gpuDescriptorAt = (d3d: Device, heap: DescriptorHeap, index: number): GpuDescriptorHandle => ({
  ptr:
    heap.getGPUDescriptorHandleForHeapStart().ptr +
    BigInt(index * d3d.getDescriptorHandleIncrementSize(heap.getDesc().type)),
});

/** A BUFFER view's desc (SRV or UAV): `extra` adds flags or a structure stride. */
export const bufferView = (
  format: string,
  firstElement: number,
  numElements: number,
  extra: { flags?: 'RAW'; structureByteStride?: number } = {},
) => ({ format, viewDimension: 'BUFFER' as const, buffer: { firstElement, numElements, ...extra } });
