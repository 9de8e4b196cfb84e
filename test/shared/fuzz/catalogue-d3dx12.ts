/**
 * The API fuzzer's catalogue of the d3d12-webgpu/d3dx12 entry (src/d3dx12/index.ts): one spec per
 * exported function, `d3dx12.<name>`.
 *
 * The helpers that take objects or compute from numbers check their arguments themselves
 * (updateSubresources, getRequiredIntermediateSize, cpuDescriptorHandle, gpuDescriptorHandle,
 * d3dx12SerializeVersionedRootSignature's maxVersion): their specs call them as they are, and a bad
 * argument must throw a D3D12Error naming the helper (or the call it makes: updateSubresources maps
 * the intermediate and records copies) and change nothing; updateSubresources must also leave the
 * intermediate's bytes as they were (`keeps`). The others fill a description, a barrier or a number
 * and check nothing, as d3dx12.h's do (src/d3dx12/descs.ts): their specs pass what the helper built
 * to the call D3D12 code passes it to (a barrier to resourceBarrier, a heap description to
 * createHeap, a root parameter to serializeVersionedRootSignature...), so a bad argument must reach
 * that call intact and be refused there (`checkedBy`), with nothing changed. A helper that dropped or
 * replaced a bad value (a default where the caller gave garbage, arithmetic that turns a negative
 * index into a valid one) shows as an accepted invalid argument.
 *
 * Invariants: valid plans are the pool's objects and small sizes (an UPLOAD buffer of a tile holds
 * the subresources an upload writes); 'invalid' follows values.ts (a value no D3D12 call takes for
 * that argument), 'maybe' what only the emulator refuses.
 */
import * as d3dx12 from '../../../src/d3dx12/index.js';
import {
  serializeVersionedRootSignature,
  type CommandQueue,
  type DescriptorHeap,
  type Device,
  type GraphicsCommandList,
  type Heap,
  type Resource,
  type ResourceBarrier,
  type RootParameter,
  type RootSignatureDesc,
  type VersionedRootSignatureDesc,
} from '../../../src/index.js';
import {
  COMPARISON_FUNCS,
  DESCRIPTOR_RANGE_OFFSET_APPEND,
  DESCRIPTOR_RANGE_TYPES,
  FILTERS,
  FLOAT32_MAX,
  ROOT_DESCRIPTOR_FLAGS,
  SHADER_VISIBILITIES,
  STATIC_BORDER_COLORS,
  TEXTURE_ADDRESS_MODES,
  type DescriptorRange,
} from '../../../src/api/binding-types.js';
import { RESOURCE_STATE_BITS } from '../../../src/api/types.js';
import type { Random } from '../../../src/validate/random.js';
import { TILE } from '../d3d12-helpers.js';
import {
  BAD_SAMPLER_FIELDS,
  badRootParameter,
  badRootSignatureDesc,
  cpu,
  gpu,
  isVisible,
  rootSignatureDesc,
} from './catalogue-binding.js';
import { ALL, GRAPHICS, knownState, openList, unfitList } from './catalogue-list.js';
import { badSize, FORMATS, heapFlags, heapSize, badHeapFlags, stateNamesOf, badState } from './descs.js';
import { badRef, isOpen, pickOf, type FuzzContext } from './pool.js';
import { field } from './snapshot.js';
import { param, type CallPlan, type MethodSpec, type Param, type Receiver } from './spec.js';
import { tileRegion } from './tiles.js';
import { badEnum, badField, badUint, invalid, maybe, notAnArray, type Arg } from './values.js';

type Fn = (...args: never[]) => unknown;
const helpers = d3dx12 as unknown as Record<string, Fn>;
/** Calls the d3dx12 helper `name` with `args`. */
const call = (name: string, args: readonly unknown[]): unknown =>
  (helpers[name] as (...a: unknown[]) => unknown)(...args);

const live = (target: object): Receiver => ({ target, validity: 'valid' });
const NO_RECEIVER = (): Receiver => live({});

/** A spec of a helper that checks its own arguments: called as it is. */
function checking(
  name: string,
  params: readonly Param[],
  plan: MethodSpec['plan'],
  extra: Partial<MethodSpec> = {},
): MethodSpec {
  return { cls: 'd3dx12', name, params, plan, invoke: (_, args) => call(name, args), ...extra };
}

/**
 * A spec of a helper that fills something and checks nothing: the helper's result goes to
 * `consume(receiver, result, args)`, the call that takes it (named in `checkedBy`); every parameter
 * also answers to `aliases` (that call's argument holding the result).
 */
function filling(
  name: string,
  checkedBy: readonly string[],
  aliases: readonly string[],
  params: readonly Param[],
  plan: MethodSpec['plan'],
  consume: (receiver: object, result: unknown, args: readonly unknown[]) => unknown,
  extra: Partial<MethodSpec> = {},
): MethodSpec {
  return {
    cls: 'd3dx12',
    name,
    checkedBy,
    params: params.map((p) => ({ ...p, aliases: [...(p.aliases ?? []), ...aliases] })),
    plan,
    invoke: (target, args) => consume(target, call(name, args), args),
    ...extra,
  };
}

/** Leaves out trailing arguments now and then: the helper's defaults apply (d3dx12's default arguments). */
function trimmed(rng: Random, args: unknown[], required: number): unknown[] {
  if (!rng.chance(0.4)) return args;
  return args.slice(0, rng.int(required, args.length));
}

// ---- objects --------------------------------------------------------------------------------------

/** A resource argument made wrong: released, not a resource, or not an object (another device's is a resource). */
function badResource(ctx: FuzzContext): Arg {
  const { rng, main } = ctx;
  const r = rng.float();
  const released = pickOf(rng, main.released('resource'));
  if (r < 0.35 && released) return invalid(released);
  const wrong = pickOf(rng, main.wrongKind('resource'));
  if (r < 0.7 && wrong) return invalid(wrong);
  return invalid(rng.pick<unknown>([null, undefined, {}, 1, 'resource', { id: 1, released: false }, [], new Date(0)]));
}

const subresourcesOf = (resource: Resource): number => {
  const desc = resource.getDesc();
  if (desc.dimension === 'BUFFER') return 1;
  return desc.mipLevels * (desc.dimension === 'TEXTURE3D' ? 1 : desc.depthOrArraySize);
};

/** Buffers in an UPLOAD heap (what updateSubresources writes through). */
const uploadBuffers = (ctx: FuzzContext): Resource[] =>
  ctx.main.buffers().filter((r) => r.kind !== 'reserved' && r.heap?.desc.properties.type === 'UPLOAD');

/** Resources a copy may write: not in an UPLOAD heap (whose state is GENERIC_READ for good). */
const copyDestinations = (ctx: FuzzContext): Resource[] =>
  ctx.main.resources.filter((r) => r.heap?.desc.properties.type !== 'UPLOAD' || r.kind === 'reserved');

// ---- uploads --------------------------------------------------------------------------------------

/** D3D12_SUBRESOURCE_DATA for each footprint: rows at a row pitch of the row size or a little more. */
function sourcesFor(
  rng: Random,
  device: Device,
  resource: Resource,
  first: number,
  num: number,
): d3dx12.SubresourceData[] {
  const fp = device.getCopyableFootprints(resource.getDesc(), first, num, 0);
  return fp.layouts.map((layout, i) => {
    const rows = fp.numRows[i] as number;
    const rowSize = fp.rowSizeInBytes[i] as number;
    const rowPitch = rowSize + (rng.chance(0.5) ? 0 : 4 * rng.int(1, 8));
    const slicePitch = rows * rowPitch;
    // Exactly the bytes the rows need (the last row without its padding): one byte less is too few.
    const needed = (layout.footprint.depth - 1) * slicePitch + (rows - 1) * rowPitch + rowSize;
    const bytes = new Uint8Array(needed).map((_, j) => (j * 31 + i) & 0xff);
    const data = rng.pick<ArrayBuffer | ArrayBufferView>([bytes, bytes.buffer, new DataView(bytes.buffer)]);
    return { data, rowPitch, slicePitch };
  });
}

/** A valid updateSubresources call: an open list, a destination, a range of its subresources that fits an UPLOAD buffer. */
function uploadPlan(ctx: FuzzContext): CallPlan | undefined {
  const { rng, main } = ctx;
  const list = openList(ctx, ALL);
  const destination = pickOf(rng, copyDestinations(ctx));
  const uploads = uploadBuffers(ctx);
  if (!list || !destination || uploads.length === 0) return undefined;
  const count = subresourcesOf(destination);
  const buffer = destination.getDesc().dimension === 'BUFFER';
  // What the list leaves each subresource in must become COPY_DEST by itself (COMMON promotes).
  const copyable = (sub: number): boolean =>
    [0, RESOURCE_STATE_BITS.COPY_DEST].includes(knownState(list, destination, sub));
  for (let attempt = 0; attempt < 6; attempt++) {
    const first = buffer ? 0 : rng.int(0, count - 1);
    const num = buffer ? 1 : rng.int(1, Math.min(3, count - first));
    if (!Array.from({ length: num }, (_, i) => first + i).every(copyable)) continue;
    const bytes = d3dx12.getRequiredIntermediateSize(destination, first, num);
    const intermediate = pickOf(
      rng,
      uploads.filter((u) => u.getDesc().width >= bytes),
    );
    if (!intermediate) continue;
    const room = intermediate.getDesc().width - bytes;
    const align = buffer ? 4 : 512;
    const offset = align * rng.int(0, Math.floor(room / align));
    return {
      receiver: NO_RECEIVER(),
      args: [
        list,
        destination,
        intermediate,
        offset,
        first,
        num,
        sourcesFor(rng, main.device, destination, first, num),
      ],
    };
  }
  return undefined;
}

/** The intermediate's bytes now, if it is a live buffer the CPU writes: the check a throw must pass. */
function keepsIntermediate(_: object, args: readonly unknown[]): () => string | undefined {
  const upload = args[2] as Resource | undefined;
  const heap = (upload as { heap?: Heap } | undefined)?.heap;
  if (!upload || typeof upload !== 'object' || upload.released || !heap || heap.released) return () => undefined;
  const cpuCopy = field<Uint8Array | undefined>(heap, 'cpuCopy');
  if (!cpuCopy || upload.getDesc().dimension !== 'BUFFER') return () => undefined;
  const start = field<number>(upload, 'heapOffset');
  const before = cpuCopy.slice(start, start + upload.getDesc().width);
  return () => {
    const now = cpuCopy.subarray(start, start + before.length);
    const at = now.findIndex((byte, i) => byte !== before[i]);
    return at < 0 ? undefined : `${upload.label}.bytes: changed from byte ${at}`;
  };
}

function uploadSpecs(): MethodSpec[] {
  return [
    checking(
      'getRequiredIntermediateSize',
      [
        param('destination', badResource),
        {
          name: 'firstSubresource',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.4) ? invalid(subresourcesOf(p.args[0] as Resource) + 1) : badUint(ctx.rng),
        },
        {
          name: 'numSubresources',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.4)
              ? invalid(subresourcesOf(p.args[0] as Resource) - (p.args[1] as number) + 1)
              : badUint(ctx.rng),
        },
      ],
      (ctx) => {
        const resource = pickOf(ctx.rng, ctx.main.resources);
        if (!resource) return undefined;
        const count = subresourcesOf(resource);
        const first = ctx.rng.int(0, count - 1);
        return { receiver: NO_RECEIVER(), args: [resource, first, ctx.rng.int(0, count - first)] };
      },
      { certain: true, weight: 0.4 },
    ),
    checking(
      'updateSubresources',
      [
        {
          name: 'list',
          bad: (ctx) => {
            const closed = pickOf(
              ctx.rng,
              ctx.main.lists.filter((l) => !isOpen(l)),
            );
            return closed && ctx.rng.chance(0.4) ? invalid(closed) : badRef(ctx, 'list');
          },
        },
        // The copies it records name the destination and the intermediate as theirs.
        param(
          'destination',
          (ctx) => {
            // Another device's resource is a resource; its list is this device's: the copy refuses it.
            const foreign = pickOf(ctx.rng, ctx.other.resources);
            return foreign && ctx.rng.chance(0.25) ? invalid(foreign) : badResource(ctx);
          },
          ['dst', 'dstBuffer'],
        ),
        {
          name: 'intermediate',
          aliases: ['src', 'srcBuffer'],
          bad: (ctx, _, p) => {
            const { rng, main } = ctx;
            const r = rng.float();
            // A buffer the CPU cannot write, a texture, an UPLOAD buffer too small for the upload.
            const gpuOnly = pickOf(
              rng,
              main.buffers().filter((b) => b.heap?.desc.properties.type === 'DEFAULT' || b.kind === 'reserved'),
            );
            if (r < 0.25 && gpuOnly) return invalid(gpuOnly);
            const texture = pickOf(rng, main.textures());
            if (r < 0.4 && texture) return invalid(texture);
            const needed =
              (p.args[3] as number) +
              d3dx12.getRequiredIntermediateSize(p.args[1] as Resource, p.args[4] as number, p.args[5] as number);
            const small = pickOf(
              rng,
              uploadBuffers(ctx).filter((u) => u.getDesc().width < needed),
            );
            if (r < 0.6 && small) return invalid(small);
            return badResource(ctx);
          },
        },
        {
          name: 'intermediateOffset',
          bad: (ctx, good, p) => {
            const texture = (p.args[1] as Resource).getDesc().dimension !== 'BUFFER';
            const r = ctx.rng.float();
            if (r < 0.3 && texture) return invalid((good as number) + ctx.rng.pick([1, 4, 256]));
            if (r < 0.5) return invalid((p.args[2] as Resource).getDesc().width + 512 * ctx.rng.int(0, 4));
            return badUint(ctx.rng, { wide: true });
          },
        },
        {
          name: 'firstSubresource',
          bad: (ctx, _, p) => (ctx.rng.chance(0.4) ? invalid(subresourcesOf(p.args[1] as Resource)) : badUint(ctx.rng)),
        },
        {
          name: 'numSubresources',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.3)
              ? invalid(ctx.rng.chance(0.5) ? 0 : subresourcesOf(p.args[1] as Resource) - (p.args[4] as number) + 1)
              : badUint(ctx.rng),
        },
        {
          name: 'srcData',
          bad: (ctx, good) => {
            const { rng } = ctx;
            const items = [...(good as d3dx12.SubresourceData[])];
            const r = rng.float();
            if (r < 0.15) return notAnArray(rng);
            if (r < 0.3) return invalid(items.slice(0, items.length - 1));
            const i = rng.int(0, items.length - 1);
            const item = items[i] as d3dx12.SubresourceData;
            const size = ArrayBuffer.isView(item.data) ? item.data.byteLength : item.data.byteLength;
            const wrong = badField(rng, item, {
              data: (g) =>
                g.chance(0.5)
                  ? invalid(new Uint8Array(Math.max(0, size - g.int(1, 16))))
                  : invalid(g.pick<unknown>([null, undefined, 'bytes', [1, 2, 3], 5, {}])),
              rowPitch: (g) => (g.chance(0.3) ? maybe(0) : badUint(g)),
              slicePitch: (g) => (g.chance(0.3) ? maybe(0) : badUint(g)),
            });
            items[i] = wrong.value as d3dx12.SubresourceData;
            return { value: rng.chance(0.1) ? [...items.slice(0, i), null] : items, validity: wrong.validity };
          },
        },
      ],
      uploadPlan,
      { keeps: keepsIntermediate, checkedBy: ['copyTextureRegion', 'copyBufferRegion', 'Resource.map'], weight: 0.8 },
    ),
  ];
}

// ---- barriers and descriptor handles --------------------------------------------------------------

const BARRIER_FLAGS = ['NONE', 'BEGIN_ONLY', 'END_ONLY'] as const;

/** A barrier helper's spec: its result goes to resourceBarrier on an open list. */
function barrierSpec(
  name: string,
  params: readonly Param[],
  args: (ctx: FuzzContext, list: GraphicsCommandList) => unknown[] | undefined,
): MethodSpec {
  return filling(
    name,
    ['resourceBarrier'],
    ['barriers'],
    params,
    (ctx) => {
      const list = openList(ctx, ALL);
      const built = list && args(ctx, list);
      return built && { receiver: live(list), args: built };
    },
    (list, barrier) => (list as GraphicsCommandList).resourceBarrier([barrier as ResourceBarrier]),
    { badReceiver: (ctx) => unfitList(ctx, ALL), weight: 0.6 },
  );
}

function handleSpec(name: 'cpuDescriptorHandle' | 'gpuDescriptorHandle'): MethodSpec {
  const gpuHandle = name === 'gpuDescriptorHandle';
  return checking(
    name,
    [
      param('base', (ctx) =>
        invalid(
          ctx.rng.pick<unknown>(
            gpuHandle
              ? [null, undefined, {}, { ptr: 4096 }, { ptr: '1' }, 5n, { ptr: null }, 'handle']
              : [null, undefined, {}, { ptr: 1.5 }, { ptr: 2 ** 53 }, { ptr: NaN }, { ptr: 1n }, { ptr: '64' }, 64],
          ),
        ),
      ),
      param('offsetInDescriptors', (ctx) => badUint(ctx.rng, { optional: true })),
      param('descriptorIncrementSize', (ctx) => badUint(ctx.rng, { optional: true })),
    ],
    (ctx) => {
      const heaps: DescriptorHeap[] = gpuHandle ? ctx.main.descriptorHeaps.filter(isVisible) : ctx.main.descriptorHeaps;
      const heap = pickOf(ctx.rng, heaps);
      if (!heap) return undefined;
      const index = ctx.rng.int(0, heap.desc.numDescriptors - 1);
      const increment = ctx.main.device.getDescriptorHandleIncrementSize(heap.desc.type);
      const base = gpuHandle ? gpu(heap, 0) : cpu(heap, 0);
      return { receiver: NO_RECEIVER(), args: trimmed(ctx.rng, [base, index, increment], 1) };
    },
    { certain: true, weight: 0.3 },
  );
}

function barrierAndHandleSpecs(): MethodSpec[] {
  const resourceOrNull = (ctx: FuzzContext): Arg => {
    const bad = badRef(ctx, 'resource', { nullable: true });
    return bad;
  };
  return [
    barrierSpec(
      'transitionBarrier',
      [
        param('resource', (ctx) => (ctx.rng.chance(0.2) ? invalid(null) : badRef(ctx, 'resource'))),
        param('stateBefore', (ctx) => badState(ctx.rng)),
        {
          name: 'stateAfter',
          bad: (ctx, _, p) => (ctx.rng.chance(0.3) ? invalid(p.args[1]) : badState(ctx.rng)),
        },
        {
          name: 'subresource',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.5) ? invalid((p.args[0] as Resource).states.length) : badUint(ctx.rng, { optional: true }),
        },
        param('flags', (ctx) => badEnum(ctx.rng, BARRIER_FLAGS, { optional: true })),
      ],
      (ctx, list) => {
        const { rng } = ctx;
        const resource = pickOf(
          rng,
          ctx.main.resources.filter((r) => r.fixedState === undefined),
        );
        if (!resource) return undefined;
        const all = rng.chance(0.5);
        const subresource = all ? d3dx12.RESOURCE_BARRIER_ALL_SUBRESOURCES : rng.int(0, resource.states.length - 1);
        const before = knownState(list, resource, all ? 0 : subresource);
        const uav = resource.desc.flags.includes('ALLOW_UNORDERED_ACCESS');
        const afters = [
          'COMMON',
          'COPY_DEST',
          'COPY_SOURCE',
          'NON_PIXEL_SHADER_RESOURCE',
          ...(uav ? ['UNORDERED_ACCESS'] : []),
        ];
        const after = rng.pick(afters.filter((state) => stateNamesOf(before) !== state));
        const args: unknown[] = [resource, stateNamesOf(before), after, subresource];
        if (rng.chance(0.1)) args.push(rng.pick(BARRIER_FLAGS));
        return all && args.length === 4 && rng.chance(0.5) ? args.slice(0, 3) : args;
      },
    ),
    barrierSpec('uavBarrier', [param('resource', resourceOrNull)], (ctx) => [
      ctx.rng.chance(0.4) ? null : (pickOf(ctx.rng, ctx.main.resources) ?? null),
    ]),
    barrierSpec(
      'aliasingBarrier',
      [param('resourceBefore', resourceOrNull), param('resourceAfter', resourceOrNull)],
      (ctx) => [null, ctx.rng.chance(0.5) ? (pickOf(ctx.rng, ctx.main.resources) ?? null) : null],
    ),
    handleSpec('cpuDescriptorHandle'),
    handleSpec('gpuDescriptorHandle'),
  ];
}

// ---- root signatures ------------------------------------------------------------------------------

/** Not an array; null and undefined are none (D3D12: a NULL array of 0), which the description takes. */
function notAnArrayOrNone(rng: Random): Arg {
  const bad = notAnArray(rng);
  return bad.value === null || bad.value === undefined ? maybe(bad.value) : bad;
}

const serialize = (desc: unknown): Uint8Array => serializeVersionedRootSignature(desc as VersionedRootSignatureDesc);
const SERIALIZE = ['serializeVersionedRootSignature'];
const visibility = (rng: Random): string => rng.pick(['ALL', 'ALL', 'VERTEX', 'PIXEL']);
const badVisibility = (ctx: FuzzContext): Arg => badEnum(ctx.rng, SHADER_VISIBILITIES, { optional: true });
const badSpace = (ctx: FuzzContext): Arg =>
  ctx.rng.chance(0.3) ? invalid(ctx.rng.pick([0xfffffff0, 0xffffffff])) : badUint(ctx.rng, { optional: true });
const RANGE_REGISTER = { SRV: 't', UAV: 'u', CBV: 'b', SAMPLER: 's' } as const;

/** A root signature description of one parameter: 1.1 where it has flags, else 1.0. */
const oneParameter = (parameter: unknown, v11: boolean): VersionedRootSignatureDesc =>
  v11
    ? { version: '1_1', desc_1_1: { parameters: [parameter as RootParameter] } }
    : { version: '1_0', desc_1_0: { parameters: [parameter as RootParameter] } };

function rangeArgs(rng: Random, v11: boolean): unknown[] {
  const rangeType = rng.pick(DESCRIPTOR_RANGE_TYPES);
  const num = rng.chance(0.1) ? 0xffffffff : rng.int(1, 8);
  const args: unknown[] = [rangeType, num, rng.int(0, 20), rng.int(0, 3)];
  if (v11) {
    const flags =
      rangeType === 'SAMPLER'
        ? rng.pick<unknown>(['NONE', ['DESCRIPTORS_VOLATILE']])
        : rng.pick<unknown>([
            'NONE',
            ['DESCRIPTORS_VOLATILE'],
            ['DATA_STATIC'],
            'DATA_VOLATILE',
            ['DESCRIPTORS_VOLATILE', 'DATA_VOLATILE'],
          ]);
    args.push(flags);
  }
  args.push(rng.chance(0.5) ? DESCRIPTOR_RANGE_OFFSET_APPEND : rng.int(0, 4));
  return trimmed(rng, args, 3);
}

function rangeParams(v11: boolean): Param[] {
  const params: Param[] = [
    param('rangeType', (ctx) => badEnum(ctx.rng, DESCRIPTOR_RANGE_TYPES)),
    param('numDescriptors', (ctx) => (ctx.rng.chance(0.3) ? invalid(0) : badUint(ctx.rng))),
    param('baseShaderRegister', (ctx) => badUint(ctx.rng)),
    param('registerSpace', badSpace),
  ];
  if (v11)
    params.push({
      name: 'flags',
      bad: (ctx, _, p) => {
        const { rng } = ctx;
        if (rng.chance(0.3))
          return invalid(
            p.args[0] === 'SAMPLER'
              ? rng.pick<unknown>([['DATA_STATIC'], ['DATA_VOLATILE'], 'DATA_STATIC_WHILE_SET_AT_EXECUTE'])
              : rng.pick<unknown>([
                  ['DATA_STATIC', 'DATA_VOLATILE'],
                  ['DESCRIPTORS_VOLATILE', 'DATA_STATIC'],
                ]),
          );
        return badEnum(rng, ['NONE', 'DESCRIPTORS_VOLATILE', 'DATA_VOLATILE'], { optional: true });
      },
    });
  params.push(param('offsetInDescriptorsFromTableStart', (ctx) => badUint(ctx.rng, { optional: true })));
  return params;
}

/** Ranges of one table, on registers of their own (a sampler table holds only samplers). */
function tableRanges(rng: Random, v11: boolean): DescriptorRange[] {
  const sampler = rng.chance(0.25);
  const next = { t: 0, u: 0, b: 0, s: 0 };
  return Array.from({ length: sampler ? 1 : rng.int(1, 3) }, (): DescriptorRange => {
    const rangeType = sampler ? 'SAMPLER' : rng.pick(['SRV', 'UAV', 'CBV'] as const);
    const numDescriptors = rng.int(1, 3);
    const register = RANGE_REGISTER[rangeType];
    const range: DescriptorRange = { rangeType, numDescriptors, baseShaderRegister: next[register] };
    next[register] += numDescriptors;
    if (v11 && rng.chance(0.3)) range.flags = sampler ? ['DESCRIPTORS_VOLATILE'] : 'DATA_VOLATILE';
    return range;
  });
}

function rootViewSpec(
  name: 'rootConstantBufferView' | 'rootShaderResourceView' | 'rootUnorderedAccessView',
): MethodSpec {
  return filling(
    name,
    SERIALIZE,
    ['desc'],
    [
      param('shaderRegister', (ctx) => badUint(ctx.rng)),
      param('registerSpace', badSpace),
      {
        name: 'flags',
        bad: (ctx) =>
          ctx.rng.chance(0.3)
            ? invalid(ctx.rng.pick<unknown>([['DATA_STATIC', 'DATA_VOLATILE'], ['DESCRIPTORS_VOLATILE']]))
            : badEnum(ctx.rng, ROOT_DESCRIPTOR_FLAGS, { optional: true }),
      },
      param('shaderVisibility', badVisibility),
    ],
    (ctx) => {
      const { rng } = ctx;
      // Flags undefined: a version 1.0 parameter.
      const flags = rng.chance(0.3)
        ? undefined
        : rng.pick<unknown>(['NONE', 'DATA_STATIC', 'DATA_VOLATILE', ['DATA_STATIC_WHILE_SET_AT_EXECUTE']]);
      return {
        receiver: NO_RECEIVER(),
        args: trimmed(rng, [rng.int(0, 20), rng.int(0, 3), flags, visibility(rng)], 1),
      };
    },
    (_, parameter, args) => serialize(oneParameter(parameter, args.length < 3 || args[2] !== undefined)),
    { certain: true, weight: 0.25 },
  );
}

function staticSamplerOptions(rng: Random): d3dx12.StaticSamplerOptions {
  const options: Record<string, unknown> = {};
  if (rng.chance(0.6)) options.filter = rng.pick(FILTERS);
  for (const axis of ['addressU', 'addressV', 'addressW'])
    if (rng.chance(0.5)) options[axis] = rng.pick(TEXTURE_ADDRESS_MODES);
  if (rng.chance(0.3)) options.mipLODBias = rng.pick([0, -16, 15.99, 1.5]);
  if (rng.chance(0.3)) options.maxAnisotropy = rng.int(1, 16);
  if (rng.chance(0.3)) options.comparisonFunc = rng.pick(COMPARISON_FUNCS.filter((f) => f !== 'NONE'));
  if (rng.chance(0.3)) options.borderColor = rng.pick(STATIC_BORDER_COLORS);
  if (rng.chance(0.3))
    [options.minLOD, options.maxLOD] = rng.pick([
      [0, FLOAT32_MAX],
      [1, 1],
      [0, 4],
    ]);
  if (rng.chance(0.3)) options.shaderVisibility = visibility(rng);
  if (rng.chance(0.3)) options.registerSpace = rng.int(0, 3);
  return options;
}

function rootSignatureSpecs(): MethodSpec[] {
  const v10 = (desc: VersionedRootSignatureDesc): RootSignatureDesc => desc.desc_1_0 ?? {};
  const bodyOf = (rng: Random, version: '1_0' | '1_1'): RootSignatureDesc => {
    for (let i = 0; i < 20; i++) {
      const desc = rootSignatureDesc(rng);
      if (desc.version === version) return (version === '1_0' ? v10(desc) : desc.desc_1_1) ?? {};
    }
    return {};
  };
  const versioned = (name: 'versionedRootSignatureDesc_1_0' | 'versionedRootSignatureDesc_1_1'): MethodSpec => {
    const version = name.endsWith('1_0') ? '1_0' : '1_1';
    return filling(
      name,
      SERIALIZE,
      ['desc'],
      [
        {
          name: 'parameters',
          bad: (ctx, good) =>
            ctx.rng.chance(0.2)
              ? notAnArrayOrNone(ctx.rng)
              : invalid([
                  ...(good as RootParameter[]),
                  badRootParameter(ctx.rng, version, { parameters: good as RootParameter[] }),
                ]),
        },
        {
          name: 'staticSamplers',
          bad: (ctx, good) =>
            ctx.rng.chance(0.2)
              ? notAnArrayOrNone(ctx.rng)
              : invalid([
                  ...((good as unknown[] | undefined) ?? []),
                  ctx.rng.pick<unknown>([
                    { filter: 'FUZZ', shaderRegister: 951 },
                    { filter: 'MIN_MAG_MIP_POINT', shaderRegister: 952, borderColor: 'PINK' },
                    { filter: 'MIN_MAG_MIP_POINT', shaderRegister: 953, mipLODBias: 16 },
                    'sampler',
                  ]),
                ]),
        },
        param('flags', (ctx) =>
          ctx.rng.chance(0.5)
            ? invalid(ctx.rng.pick<unknown>([['FUZZ'], 'toString', 5, ['NONE', 'DENY_EVERYTHING']]))
            : badEnum(ctx.rng, ['NONE', 'ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT'], { optional: true }),
        ),
      ],
      (ctx) => {
        const body = bodyOf(ctx.rng, version);
        const args: unknown[] = [body.parameters ?? [], body.staticSamplers ?? [], body.flags ?? 'NONE'];
        return { receiver: NO_RECEIVER(), args: trimmed(ctx.rng, args, 1) };
      },
      (_, desc) => serialize(desc),
      { certain: true, weight: 0.3 },
    );
  };
  return [
    checking(
      'd3dx12SerializeVersionedRootSignature',
      [
        { name: 'desc', bad: (ctx, good) => badRootSignatureDesc(ctx.rng, good as VersionedRootSignatureDesc) },
        // badEnum's wrong-case names are the names themselves here ('1_1' has no letters).
        param('maxVersion', (ctx) =>
          invalid(ctx.rng.pick<unknown>(['1_2', '1.1', '1_0|1_1', '', 'toString', 1, 1.1, null, undefined, {}])),
        ),
      ],
      (ctx) => ({ receiver: NO_RECEIVER(), args: [rootSignatureDesc(ctx.rng), ctx.rng.pick(['1_0', '1_1'])] }),
      { certain: true, weight: 0.3, checkedBy: SERIALIZE },
    ),
    ...([false, true] as const).map((v11) =>
      filling(
        v11 ? 'descriptorRange1' : 'descriptorRange',
        SERIALIZE,
        ['desc'],
        rangeParams(v11),
        (ctx) => ({ receiver: NO_RECEIVER(), args: rangeArgs(ctx.rng, v11) }),
        (_, range) =>
          serialize(
            oneParameter({ parameterType: 'DESCRIPTOR_TABLE', descriptorTable: { descriptorRanges: [range] } }, v11),
          ),
        { certain: true, weight: 0.25 },
      ),
    ),
    filling(
      'rootDescriptorTable',
      SERIALIZE,
      ['desc'],
      [
        {
          name: 'descriptorRanges',
          bad: (ctx, good) => {
            const { rng } = ctx;
            const r = rng.float();
            if (r < 0.2) return notAnArray(rng);
            if (r < 0.35) return invalid([]);
            const ranges = [...(good as DescriptorRange[])];
            // A sampler range among others, or another range among samplers: a table holds one or the other.
            const samplers = ranges.every((range) => range.rangeType === 'SAMPLER');
            ranges.splice(
              rng.int(0, ranges.length),
              0,
              rng.pick<unknown>([
                null,
                { rangeType: 'FUZZ', numDescriptors: 1, baseShaderRegister: 800 },
                { rangeType: 'SRV', numDescriptors: 0, baseShaderRegister: 801 },
                { rangeType: samplers ? 'SRV' : 'SAMPLER', numDescriptors: 1, baseShaderRegister: 802 },
                'range',
              ]) as DescriptorRange,
            );
            return invalid(ranges);
          },
        },
        param('shaderVisibility', badVisibility),
      ],
      (ctx) => {
        const v11 = ctx.rng.chance(0.5);
        const args = trimmed(ctx.rng, [tableRanges(ctx.rng, v11), visibility(ctx.rng)], 1);
        // The version is the ranges': 1.1 where one has flags.
        return { receiver: NO_RECEIVER(), args };
      },
      (_, parameter, args) =>
        serialize(
          oneParameter(
            parameter,
            Array.isArray(args[0]) &&
              (args[0] as unknown[]).some((r) => (r as { flags?: unknown } | null)?.flags !== undefined),
          ),
        ),
      { certain: true, weight: 0.25 },
    ),
    filling(
      'rootConstants',
      SERIALIZE,
      ['desc'],
      [
        param('num32BitValues', (ctx) =>
          ctx.rng.chance(0.4) ? invalid(ctx.rng.pick([0, 65, 1000])) : badUint(ctx.rng),
        ),
        param('shaderRegister', (ctx) => badUint(ctx.rng)),
        param('registerSpace', badSpace),
        param('shaderVisibility', badVisibility),
      ],
      (ctx) => ({
        receiver: NO_RECEIVER(),
        args: trimmed(ctx.rng, [ctx.rng.int(1, 16), ctx.rng.int(0, 20), ctx.rng.int(0, 3), visibility(ctx.rng)], 2),
      }),
      (_, parameter) => serialize(oneParameter(parameter, false)),
      { certain: true, weight: 0.25 },
    ),
    rootViewSpec('rootConstantBufferView'),
    rootViewSpec('rootShaderResourceView'),
    rootViewSpec('rootUnorderedAccessView'),
    filling(
      'staticSamplerDesc',
      SERIALIZE,
      ['desc'],
      [
        param('shaderRegister', (ctx) => badUint(ctx.rng)),
        {
          name: 'options',
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (rng.chance(0.15)) return invalid(rng.pick<unknown>([null, 5, 'options', true, Symbol('options')]));
            const options = { filter: 'MIN_MAG_MIP_POINT', ...(good as object) };
            if (rng.chance(0.1))
              return invalid({ ...options, filter: 'COMPARISON_MIN_MAG_MIP_POINT', comparisonFunc: 'NONE' });
            if (rng.chance(0.1)) return invalid({ ...options, minLOD: 3, maxLOD: 2 });
            return badField(rng, options, {
              filter: (g) => badEnum(g, FILTERS, { optional: true }),
              ...BAD_SAMPLER_FIELDS,
              borderColor: (g) => badEnum(g, STATIC_BORDER_COLORS, { optional: true }),
              minLOD: (g) => invalid(g.pick<unknown>([NaN, '0', {}])),
              maxLOD: (g) => invalid(g.pick<unknown>([NaN, '15', -Infinity])),
              shaderVisibility: (g) => badEnum(g, SHADER_VISIBILITIES, { optional: true }),
              registerSpace: (g) => (g.chance(0.3) ? invalid(0xfffffff0) : badUint(g, { optional: true })),
            });
          },
        },
      ],
      (ctx) => ({
        receiver: NO_RECEIVER(),
        args: trimmed(ctx.rng, [ctx.rng.int(0, 15), staticSamplerOptions(ctx.rng)], 1),
      }),
      (_, sampler) => serialize({ version: '1_1', desc_1_1: { parameters: [], staticSamplers: [sampler] } }),
      { certain: true, weight: 0.3 },
    ),
    versioned('versionedRootSignatureDesc_1_0'),
    versioned('versionedRootSignatureDesc_1_1'),
  ];
}

// ---- descriptions ---------------------------------------------------------------------------------

const HEAP_TYPES = ['DEFAULT', 'UPLOAD', 'READBACK'] as const;
const initialStateFor = (type: unknown): string =>
  type === 'UPLOAD' ? 'GENERIC_READ' : type === 'READBACK' ? 'COPY_DEST' : 'COMMON';
const badAlignment = (ctx: FuzzContext): Arg =>
  ctx.rng.chance(0.5) ? invalid(ctx.rng.pick([1, 3, 512, 65537])) : badUint(ctx.rng, { optional: true, wide: true });
const badResourceFlags = (ctx: FuzzContext): Arg => {
  const { rng } = ctx;
  if (rng.chance(0.1)) return maybe(null);
  if (rng.chance(0.4)) return invalid(rng.pick<unknown>(['ALLOW_UNORDERED_ACCESS', 8, {}]));
  return { value: [badEnum(rng, ['NONE']).value], validity: 'invalid' };
};
const badExtent = (ctx: FuzzContext): Arg =>
  ctx.rng.chance(0.3) ? invalid(ctx.rng.pick([0, 16385, 2 ** 32])) : badUint(ctx.rng, { min: 1 });

function descSpecs(): MethodSpec[] {
  const device = (ctx: FuzzContext): Receiver => live(ctx.main.device);
  const addResource = (ctx: FuzzContext) => (resource: unknown) => ctx.main.addResource(resource as Resource);
  const committed = (target: object, properties: unknown, desc: unknown, state: string): unknown =>
    (target as Device).createCommittedResource(properties as never, [], desc as never, state as never);
  return [
    filling(
      'heapProperties',
      ['createCommittedResource'],
      ['heapProperties'],
      [
        param('type', (ctx) => badEnum(ctx.rng, HEAP_TYPES)),
        param('creationNodeMask', (ctx) =>
          ctx.rng.chance(0.3) ? invalid(2) : badUint(ctx.rng, { max: 1, optional: true }),
        ),
        param('visibleNodeMask', (ctx) =>
          ctx.rng.chance(0.3) ? invalid(3) : badUint(ctx.rng, { max: 1, optional: true }),
        ),
      ],
      (ctx) => ({
        receiver: device(ctx),
        args: trimmed(ctx.rng, [ctx.rng.pick(HEAP_TYPES), 1, 1], 1),
        onSuccess: addResource(ctx),
      }),
      (target, properties, args) =>
        committed(target, properties, { dimension: 'BUFFER', width: TILE }, initialStateFor(args[0])),
      { weight: 0.3 },
    ),
    filling(
      'heapDesc',
      ['createHeap'],
      ['desc'],
      [
        param('sizeInBytes', (ctx) => badSize(ctx.rng)),
        param('type', (ctx) => badEnum(ctx.rng, HEAP_TYPES)),
        param('alignment', badAlignment),
        param('flags', (ctx) => badHeapFlags(ctx.rng)),
      ],
      (ctx) => {
        const { rng } = ctx;
        const type = rng.pick(HEAP_TYPES);
        const args = [
          heapSize(rng),
          type,
          rng.pick([0, 65536]),
          heapFlags(rng, type, type === 'DEFAULT' && rng.chance(0.3)),
        ];
        return {
          receiver: device(ctx),
          args: trimmed(rng, args, 2),
          onSuccess: (heap) => ctx.main.addHeap(heap as Heap),
        };
      },
      (target, desc) => (target as Device).createHeap(desc as never),
      { weight: 0.3 },
    ),
    filling(
      'bufferResourceDesc',
      ['createCommittedResource'],
      ['desc'],
      [
        param('width', (ctx) =>
          ctx.rng.chance(0.3) ? invalid(ctx.rng.pick([0, 2 ** 53, 1e300])) : badUint(ctx.rng, { min: 1, wide: true }),
        ),
        param('flags', badResourceFlags),
        param('alignment', badAlignment),
      ],
      (ctx) => {
        const { rng } = ctx;
        const args = [rng.int(1, 2 * TILE), rng.pick<unknown>([[], ['ALLOW_UNORDERED_ACCESS']]), rng.pick([0, 65536])];
        return { receiver: device(ctx), args: trimmed(rng, args, 1), onSuccess: addResource(ctx) };
      },
      (target, desc) => committed(target, { type: 'DEFAULT' }, desc, 'COMMON'),
      { weight: 0.3 },
    ),
    filling(
      'tex2DResourceDesc',
      ['createCommittedResource'],
      ['desc'],
      [
        param('format', (ctx) => badEnum(ctx.rng, FORMATS)),
        param('width', badExtent),
        // Left out (undefined), a description's height is 1.
        param('height', (ctx) =>
          ctx.rng.chance(0.3)
            ? invalid(ctx.rng.pick([0, 16385, 2 ** 32]))
            : badUint(ctx.rng, { min: 1, optional: true }),
        ),
        param('arraySize', (ctx) =>
          ctx.rng.chance(0.3) ? invalid(0) : badUint(ctx.rng, { min: 1, max: 0xffff, optional: true }),
        ),
        param('mipLevels', (ctx) =>
          ctx.rng.chance(0.4)
            ? invalid(ctx.rng.pick([9, 16, 0xffff + 1]))
            : badUint(ctx.rng, { max: 0xffff, optional: true }),
        ),
        param('sampleCount', (ctx) =>
          ctx.rng.chance(0.3)
            ? maybe(4)
            : ctx.rng.chance(0.5)
              ? invalid(ctx.rng.pick([0, 3, NaN, '1']))
              : badUint(ctx.rng, { min: 1, optional: true }),
        ),
        param('sampleQuality', (ctx) => (ctx.rng.chance(0.3) ? maybe(1) : badUint(ctx.rng, { optional: true }))),
        param('flags', badResourceFlags),
        param('layout', (ctx) =>
          ctx.rng.chance(0.4)
            ? invalid('ROW_MAJOR')
            : badEnum(ctx.rng, ['UNKNOWN', '64KB_UNDEFINED_SWIZZLE', '64KB_STANDARD_SWIZZLE'], { optional: true }),
        ),
        param('alignment', badAlignment),
      ],
      (ctx) => {
        const { rng } = ctx;
        const format = rng.pick(FORMATS);
        const uav = (format === 'R8G8B8A8_UNORM' || format === 'R32_FLOAT') && rng.chance(0.3);
        const args: unknown[] = [
          format,
          rng.pick([16, 32, 64]),
          rng.pick([16, 32, 64]),
          rng.int(1, 2),
          rng.int(0, 3),
          1,
          0,
          uav ? ['ALLOW_UNORDERED_ACCESS'] : [],
          'UNKNOWN',
          rng.pick([0, 65536]),
        ];
        return { receiver: device(ctx), args: trimmed(rng, args, 3), onSuccess: addResource(ctx) };
      },
      (target, desc) => committed(target, { type: 'DEFAULT' }, desc, 'COMMON'),
      { weight: 0.3 },
    ),
    ...(['defaultRasterizerDesc', 'defaultBlendDesc'] as const).map((name) =>
      filling(
        name,
        ['createGraphicsPipelineState'],
        ['desc'],
        [],
        (ctx) => ({
          receiver: device(ctx),
          args: [],
          mustSettle: true,
          onSuccess: (pso) => ctx.main.addPipeline(pso as never),
        }),
        (target, state) =>
          (target as Device).createGraphicsPipelineState({
            code: GRAPHICS_CODE,
            vertexEntryPoint: 'vs',
            fragmentEntryPoint: 'fs',
            rtvFormat: 'B8G8R8A8_UNORM',
            [name === 'defaultRasterizerDesc' ? 'rasterizerState' : 'blendState']: state,
          }),
        { certain: true, async: true, weight: 0.2 },
      ),
    ),
    ...(['tiledResourceCoordinate', 'tileRegionSize'] as const).map((name) => tileSpec(name)),
    filling(
      'viewport',
      ['rsSetViewports'],
      ['viewports'],
      [
        param('topLeftX', (ctx) => invalid(ctx.rng.pick<unknown>([NaN, Infinity, '0', null, undefined]))),
        param('topLeftY', (ctx) => invalid(ctx.rng.pick<unknown>([NaN, -Infinity, {}, undefined]))),
        param('width', (ctx) => invalid(ctx.rng.pick<unknown>([0, -1, NaN, Infinity, '64']))),
        param('height', (ctx) => invalid(ctx.rng.pick<unknown>([0, -64, NaN, null]))),
        param('minDepth', (ctx) => invalid(ctx.rng.pick<unknown>([-0.5, 2, NaN, '0']))),
        param('maxDepth', (ctx) => invalid(ctx.rng.pick<unknown>([1.5, -1, NaN, {}]))),
      ],
      (ctx) => {
        const { rng } = ctx;
        const list = openList(ctx, GRAPHICS);
        const depth = rng.pick([
          [0, 1],
          [0, 0.5],
          [1, 1],
        ]);
        const args = [rng.int(0, 8), 0, rng.int(1, 64), rng.int(1, 64), ...depth];
        return list && { receiver: live(list), args: trimmed(rng, args, 4) };
      },
      (list, vp) => (list as GraphicsCommandList).rsSetViewports([vp as never]),
      { certain: true, weight: 0.3, badReceiver: (ctx) => unfitList(ctx, GRAPHICS) },
    ),
    filling(
      'rect',
      ['rsSetScissorRects'],
      ['rects'],
      [
        param('left', (ctx) => (ctx.rng.chance(0.2) ? maybe(-1) : invalid(ctx.rng.pick<unknown>([NaN, 1.5, '0'])))),
        param('top', (ctx) => invalid(ctx.rng.pick<unknown>([Infinity, null, 0.5]))),
        {
          name: 'right',
          bad: (ctx, _, p) =>
            ctx.rng.chance(0.3) ? invalid((p.args[0] as number) - 1) : invalid(ctx.rng.pick<unknown>([0.25, {}, NaN])),
        },
        param('bottom', (ctx) => invalid(ctx.rng.pick<unknown>([NaN, undefined, '8']))),
      ],
      (ctx) => {
        const list = openList(ctx, GRAPHICS);
        const [left, top] = [ctx.rng.int(0, 16), ctx.rng.int(0, 16)];
        return list && { receiver: live(list), args: [left, top, left + ctx.rng.int(0, 64), top + ctx.rng.int(0, 64)] };
      },
      (list, r) => (list as GraphicsCommandList).rsSetScissorRects([r as never]),
      { certain: true, weight: 0.3, badReceiver: (ctx) => unfitList(ctx, GRAPHICS) },
    ),
    filling(
      'calcSubresource',
      ['getCopyableFootprints'],
      ['firstSubresource', 'numSubresources'],
      [
        { name: 'mipSlice', bad: (ctx, _, p) => (ctx.rng.chance(0.3) ? maybe(p.args[3]) : badUint(ctx.rng)) },
        { name: 'arraySlice', bad: (ctx, _, p) => (ctx.rng.chance(0.3) ? maybe(p.args[4]) : badUint(ctx.rng)) },
        param('planeSlice', (ctx) => (ctx.rng.chance(0.3) ? maybe(1) : badUint(ctx.rng))),
        param('mipLevels', (ctx) => badUint(ctx.rng)),
        param('arraySize', (ctx) => badUint(ctx.rng)),
      ],
      (ctx) => {
        const { rng } = ctx;
        const texture = pickOf(
          rng,
          ctx.main.textures().filter((t) => t.getDesc().dimension !== 'TEXTURE3D'),
        );
        if (!texture) return undefined;
        const desc = texture.getDesc();
        const args = [
          rng.int(0, desc.mipLevels - 1),
          rng.int(0, desc.depthOrArraySize - 1),
          0,
          desc.mipLevels,
          desc.depthOrArraySize,
        ];
        // The texture's description rides in the receiver: what getCopyableFootprints takes beside the index.
        return { receiver: live({ device: ctx.main.device, desc }), args };
      },
      // The footprint of that subresource of a texture of those mips and slices (D3D12CalcSubresource's use).
      (target, subresource) => {
        const { device: d, desc } = target as { device: Device; desc: ReturnType<Resource['getDesc']> };
        return d.getCopyableFootprints(desc, subresource as number, 1, 0);
      },
      { certain: true, weight: 0.3 },
    ),
  ];
}

const GRAPHICS_CODE = `
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f { return vec4f(f32(v % 2u), f32(v / 2u), 0.0, 1.0); }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.25, 1.0); }`;

/** A tile helper's spec: its coordinate or size goes to updateTileMappings, unmapping that region of a reserved resource. */
function tileSpec(name: 'tiledResourceCoordinate' | 'tileRegionSize'): MethodSpec {
  const coordinate = name === 'tiledResourceCoordinate';
  const params: Param[] = coordinate
    ? [
        param('x', (ctx) => (ctx.rng.chance(0.3) ? invalid(100000) : badUint(ctx.rng))),
        param('y', (ctx) => (ctx.rng.chance(0.3) ? invalid(100000) : badUint(ctx.rng, { optional: true }))),
        param('z', (ctx) => (ctx.rng.chance(0.3) ? invalid(100000) : badUint(ctx.rng, { optional: true }))),
        param('subresource', (ctx) => (ctx.rng.chance(0.3) ? invalid(100000) : badUint(ctx.rng, { optional: true }))),
      ]
    : [
        param('numTiles', (ctx) => (ctx.rng.chance(0.3) ? invalid(1_000_000) : badUint(ctx.rng))),
        // Not null (a box left out, for D3D12's BOOL): a width, height or depth made wrong with it is then ignored.
        param('useBox', (ctx) => invalid(ctx.rng.pick<unknown>([0, 1, 'true', 'false', {}, NaN, 1n]))),
        ...(['width', 'height', 'depth'] as const).map((axis, i): Param => ({
          name: axis,
          // Without a box D3D12 ignores width, height and depth. Left out, each is 0 here (d3dx12's
          // default), which a box refuses; null is the call's to read as left out (1) or refuse.
          bad: (ctx, _, p) =>
            p.args[1] === true
              ? ctx.rng.chance(0.3)
                ? invalid(0)
                : badUint(ctx.rng, { min: 1, optional: true, ...(i > 0 ? { max: 0xffff } : {}) })
              : maybe(ctx.rng.pick<unknown>([-1, NaN, 1.5])),
        })),
      ];
  return filling(
    name,
    ['updateTileMappings'],
    [coordinate ? 'regionStartCoordinates' : 'regionSizes'],
    params,
    (ctx) => {
      const queue = pickOf(ctx.rng, ctx.main.queues);
      const resource = pickOf(ctx.rng, ctx.main.reserved());
      if (!queue || !resource) return undefined;
      const region = tileRegion(ctx, resource, 4);
      const { x, y, z, subresource } = region.coordinate;
      const size = region.size;
      const args = coordinate
        ? [x, y, z, subresource]
        : size.useBox
          ? [size.numTiles, true, size.width, size.height, size.depth]
          : [size.numTiles, false];
      // The other half of the region rides in the plan's receiver: what the call takes beside the helper's result.
      return {
        receiver: live({ queue, resource, region }),
        args,
      };
    },
    (target, built) => {
      const { queue, resource, region } = target as {
        queue: CommandQueue;
        resource: Resource;
        region: ReturnType<typeof tileRegion>;
      };
      const coordinates = [coordinate ? built : region.coordinate];
      const sizes = [coordinate ? region.size : built];
      return queue.updateTileMappings(resource, coordinates as never, sizes as never, null, ['NULL'], null, null);
    },
    { weight: 0.3 },
  );
}

/** Every exported function of d3d12-webgpu/d3dx12, by name. */
export function d3dx12Catalogue(): MethodSpec[] {
  return [...uploadSpecs(), ...barrierAndHandleSpecs(), ...rootSignatureSpecs(), ...descSpecs()];
}
