/**
 * The API fuzzer's catalogue of resource binding on command lists: D3D12's reset(allocator, state),
 * setDescriptorHeaps, set{Compute,Graphics}RootSignature, descriptor tables, root constants and root
 * views against the root signature set, dispatches through the table pipeline, the input assembler
 * and drawIndexedInstanced, UAV clears by descriptor handles, and render targets by RTV handles.
 *
 * Invariants: a valid plan records on an open list of a type that allows the command: a table's
 * descriptors lie in the heap of its kind set on the list, root arguments fit the root signature set,
 * a render target is the swap chain's current back buffer. A plan may first make valid calls that put
 * its list in the state it needs (a root signature, descriptor heaps, a pipeline state, a render
 * target, a descriptor written), as catalogue-list.ts's aimAtLiveResource does: the runner neither
 * judges nor traces them. 'invalid' follows values.ts; what only the emulator refuses (depth-stencil
 * targets, rectangles in a render-target clear, more than one render target) is 'maybe'.
 */
import type {
  CpuDescriptorHandle,
  DescriptorHeap,
  GpuDescriptorHandle,
  GraphicsCommandList,
  Resource,
  RootSignature,
} from '../../../src/index.js';
import { PRIMITIVE_TOPOLOGY_NAMES, UNBOUNDED_DESCRIPTOR_RANGE } from '../../../src/api/binding-types.js';
import type { CheckedParameter } from '../../../src/validation/root-signature.js';
import type { Random } from '../../../src/validate/random.js';
import {
  allocatorFree,
  BACK_BUFFER_SIZE,
  badAllocator,
  badCpuHandle,
  cpu,
  gpu,
  heapsOf,
  isVisible,
  live,
  plan,
  sizeOf,
  slotOf,
  wrong,
} from './catalogue-binding.js';
import { badArrayOf } from './catalogue-objects.js';
import { ALL, GRAPHICS, openList, recording, SHADER, unfitList } from './catalogue-list.js';
import { badRef, badRefArray, isOpen, pickOf, type FuzzContext } from './pool.js';
import { field } from './snapshot.js';
import { param, type CallPlan, type MethodSpec } from './spec.js';
import { badBoolean, badEnum, badField, badUint, invalid, maybe, notAnArray, valid, type Arg } from './values.js';

/**
 * A GPU handle that is no descriptor of `set` (the shader-visible heap set on the list): not a
 * handle, between descriptors, past its end, or in another shader-visible heap of this device.
 * (Another device's, or a released heap's, address may be this heap's: addresses are numbers.)
 */
function badGpuHandle(ctx: FuzzContext, good: unknown, set: DescriptorHeap | undefined): Arg {
  const { rng } = ctx;
  const ptr = (good as GpuDescriptorHandle | null | undefined)?.ptr;
  const r = rng.float();
  if (r < 0.3 || typeof ptr !== 'bigint' || !set)
    return invalid(rng.pick<unknown>([null, undefined, 5, {}, { ptr: 65536 }, { ptr: -1n }, { ptr: '0x10000' }]));
  if (r < 0.5) return invalid({ ptr: ptr + BigInt(rng.pick([1, 4, set.incrementSize / 2])) });
  if (r < 0.65) return invalid(gpu(set, sizeOf(set)));
  const other = pickOf(
    rng,
    ctx.main.visibleDescriptorHeaps().filter((h) => h !== set),
  );
  return invalid(other ? gpu(other, rng.int(0, sizeOf(other) - 1)) : { ptr: 0n });
}

// ---- the list's binding state (read as the snapshot reads it) -----------------------------------

interface RootState {
  rootSignature: RootSignature | undefined;
}

const rootOf = (list: GraphicsCommandList, graphics: boolean): RootState =>
  field<RootState>(list, graphics ? 'graphicsRoot' : 'root');

/** The shader-visible heap of a kind set on `list` (undefined: none, or one released since). */
function boundHeap(list: GraphicsCommandList, sampler: boolean): DescriptorHeap | undefined {
  const heaps = field<Partial<Record<string, DescriptorHeap>>>(field<object>(list, 'heaps'), 'heaps');
  return heaps[sampler ? 'SAMPLER' : 'CBV_SRV_UAV'];
}

const parametersOf = (signature: RootSignature): readonly CheckedParameter[] => signature.layout.parameters;

/** Descriptors from a table's base its ranges reach (an unbounded range counts one, as the checks do). */
function tableSpan(parameter: CheckedParameter): number {
  return Math.max(1, ...parameter.ranges.map((r) => r.offset + (r.count === UNBOUNDED_DESCRIPTOR_RANGE ? 1 : r.count)));
}

/**
 * Puts a root signature whose parameters include one `wanted` takes on `list` (compute or graphics),
 * unless the one set has one already: a valid call made while planning. Answers the index and the
 * parameter, or undefined when the pool has no such root signature.
 */
function signatureParameter(
  ctx: FuzzContext,
  list: GraphicsCommandList,
  graphics: boolean,
  wanted: (parameter: CheckedParameter) => boolean,
): [number, CheckedParameter] | undefined {
  const matching = (signature: RootSignature): [number, CheckedParameter][] =>
    parametersOf(signature).flatMap((p, i): [number, CheckedParameter][] => (wanted(p) ? [[i, p]] : []));
  let signature = rootOf(list, graphics).rootSignature;
  if (!signature || matching(signature).length === 0) {
    signature = pickOf(
      ctx.rng,
      ctx.main.rootSignatures.filter((s) => matching(s).length > 0),
    );
    if (!signature) return undefined;
    if (graphics) list.setGraphicsRootSignature(signature);
    else list.setComputeRootSignature(signature);
  }
  return pickOf(ctx.rng, matching(signature));
}

/**
 * Sets a shader-visible heap of a kind that holds `span` descriptors on `list` (keeping the other
 * kind's heap where it is live), unless the one set does: a valid call made while planning.
 */
function ensureHeap(
  ctx: FuzzContext,
  list: GraphicsCommandList,
  sampler: boolean,
  span = 1,
): DescriptorHeap | undefined {
  const set = boundHeap(list, sampler);
  if (set && !set.released && sizeOf(set) >= span) return set;
  const chosen = pickOf(
    ctx.rng,
    ctx.main.visibleDescriptorHeaps(sampler ? 'SAMPLER' : 'CBV_SRV_UAV').filter((h) => sizeOf(h) >= span),
  );
  if (!chosen) return undefined;
  const other = boundHeap(list, !sampler);
  list.setDescriptorHeaps(other && !other.released ? [chosen, other] : [chosen]);
  return chosen;
}

// ---- GraphicsCommandList: D3D12's reset, and binding -------------------------------------------

/** D3D12's Reset(pAllocator, pInitialState); catalogue-list.ts's reset is the shorter reset(pInitialState). */
function resetSpec(): MethodSpec {
  return {
    cls: 'GraphicsCommandList',
    name: 'reset',
    certain: true,
    weight: 1,
    params: [
      {
        name: 'commandAllocator',
        bad: (ctx, _, p) => badAllocator(ctx, (p.receiver.target as GraphicsCommandList).type),
      },
      {
        name: 'initialState',
        bad: (ctx, _, p) => {
          const pso = pickOf(ctx.rng, ctx.main.computePipelines);
          return (p.receiver.target as GraphicsCommandList).type === 'COPY' && pso && ctx.rng.chance(0.4)
            ? maybe(pso)
            : badRef(ctx, 'pipeline', { nullable: true });
        },
      },
    ],
    plan: (ctx) => {
      const { rng } = ctx;
      const list = pickOf(
        rng,
        ctx.main.lists.filter((l) => !isOpen(l)),
      );
      const allocator =
        list &&
        pickOf(
          rng,
          ctx.main.allocators.filter((a) => a.type === list.type && allocatorFree(a)),
        );
      if (!list || !allocator) return undefined;
      const pso = list.type !== 'COPY' && rng.chance(0.3) ? pickOf(rng, ctx.main.computePipelines) : undefined;
      return plan(list, [allocator, pso ?? null]);
    },
    badReceiver: (ctx) => wrong(openList(ctx, ALL)),
  };
}

const tableIndex = (sampler?: boolean) => (p: CheckedParameter) =>
  p.type === 'DESCRIPTOR_TABLE' && (sampler === undefined || (p.ranges[0]?.type === 'SAMPLER') === sampler);

/** A root parameter index wrong for a call that sets `kind`: past the parameters, or of another kind. */
function badParameterIndex(ctx: FuzzContext, list: GraphicsCommandList, graphics: boolean, kind: string): Arg {
  const { rng } = ctx;
  const parameters = rootOf(list, graphics).rootSignature
    ? parametersOf(rootOf(list, graphics).rootSignature as RootSignature)
    : [];
  const otherKind = parameters.flatMap((p, i) => (p.type !== kind ? [i] : []));
  if (otherKind.length > 0 && rng.chance(0.4)) return invalid(rng.pick(otherKind));
  if (rng.chance(0.4)) return invalid(parameters.length + rng.int(0, 2));
  return badUint(rng);
}

function listBindingSpecs(): MethodSpec[] {
  const specs: MethodSpec[] = [
    recording(
      'setDescriptorHeaps',
      SHADER,
      [
        {
          name: 'descriptorHeaps',
          bad: (ctx, good) => {
            const { rng } = ctx;
            const r = rng.float();
            const notVisible = pickOf(
              rng,
              ctx.main.descriptorHeaps.filter((h) => !isVisible(h)),
            );
            if (r < 0.2 && notVisible) return invalid([notVisible]);
            const [views, samplers] = [
              ctx.main.visibleDescriptorHeaps('CBV_SRV_UAV'),
              ctx.main.visibleDescriptorHeaps('SAMPLER'),
            ];
            // Two of one type, or three heaps.
            if (r < 0.35 && views.length > 0) return invalid([views[0], rng.pick(views)]);
            if (r < 0.45 && views.length > 0 && samplers.length > 0)
              return invalid([rng.pick(views), rng.pick(samplers), rng.pick(views)]);
            const bad = badRefArray(ctx, 'descriptorHeap', good as unknown[]);
            return bad.validity === 'maybe' && Array.isArray(bad.value) && bad.value.length === 0 ? valid([]) : bad;
          },
        },
      ],
      (ctx) => {
        const { rng } = ctx;
        const views = pickOf(rng, ctx.main.visibleDescriptorHeaps('CBV_SRV_UAV'));
        const samplers = pickOf(rng, ctx.main.visibleDescriptorHeaps('SAMPLER'));
        const heaps = [
          ...(views && rng.chance(0.85) ? [views] : []),
          ...(samplers && rng.chance(0.5) ? [samplers] : []),
        ];
        return [rng.chance(0.5) ? heaps.reverse() : heaps];
      },
      { certain: true, weight: 0.8 },
    ),
  ];
  for (const graphics of [false, true]) {
    const prefix = graphics ? 'Graphics' : 'Compute';
    const types = graphics ? GRAPHICS : SHADER;
    specs.push(
      recording(
        `set${prefix}RootSignature`,
        types,
        [param('rootSignature', (ctx) => badRef(ctx, 'rootSignature'))],
        (ctx) => {
          const signature = pickOf(ctx.rng, ctx.main.rootSignatures);
          return signature && [signature];
        },
        { certain: true, weight: 0.6 },
      ),
      recording(
        `set${prefix}RootDescriptorTable`,
        types,
        [
          {
            name: 'rootParameterIndex',
            bad: (ctx, _, p) =>
              badParameterIndex(ctx, p.receiver.target as GraphicsCommandList, graphics, 'DESCRIPTOR_TABLE'),
          },
          {
            name: 'baseDescriptor',
            bad: (ctx, good, p) => {
              const list = p.receiver.target as GraphicsCommandList;
              const parameter = parametersOf(rootOf(list, graphics).rootSignature as RootSignature)[
                p.args[0] as number
              ];
              return badGpuHandle(ctx, good, boundHeap(list, parameter?.ranges[0]?.type === 'SAMPLER'));
            },
          },
        ],
        (ctx, list) => {
          const found = signatureParameter(ctx, list, graphics, tableIndex());
          if (!found) return undefined;
          const [index, parameter] = found;
          const span = tableSpan(parameter);
          const heap = ensureHeap(ctx, list, parameter.ranges[0]?.type === 'SAMPLER', span);
          return heap && [index, gpu(heap, ctx.rng.int(0, sizeOf(heap) - span))];
        },
        { certain: true, weight: 0.8 },
      ),
      recording(
        `set${prefix}Root32BitConstants`,
        types,
        [
          {
            name: 'rootParameterIndex',
            bad: (ctx, _, p) =>
              badParameterIndex(ctx, p.receiver.target as GraphicsCommandList, graphics, '32BIT_CONSTANTS'),
          },
          {
            name: 'srcData',
            bad: (ctx, good, p) => {
              const list = p.receiver.target as GraphicsCommandList;
              const parameter = parametersOf(rootOf(list, graphics).rootSignature as RootSignature)[
                p.args[0] as number
              ];
              // More values than the parameter holds: too many from any offset (another argument may change too).
              if (ctx.rng.chance(0.3)) return invalid(new Array<number>((parameter?.values ?? 0) + 1).fill(1));
              if (ctx.rng.chance(0.2)) return invalid(ctx.rng.pick<unknown>(['1234', 5, {}, null]));
              return badArrayOf(
                ctx,
                good,
                (g) => invalid(g.pick<unknown>([2 ** 32, 1.5, NaN, '1', null, -(2 ** 31) - 1])),
                {
                  lengthValidity: 'maybe',
                },
              );
            },
          },
          {
            name: 'destOffsetIn32BitValues',
            bad: (ctx, _, p) => {
              const list = p.receiver.target as GraphicsCommandList;
              const parameter = parametersOf(rootOf(list, graphics).rootSignature as RootSignature)[
                p.args[0] as number
              ];
              return ctx.rng.chance(0.4) ? invalid((parameter?.values ?? 0) + 1) : badUint(ctx.rng, { optional: true });
            },
          },
        ],
        (ctx, list) => {
          const found = signatureParameter(ctx, list, graphics, (p) => p.type === '32BIT_CONSTANTS');
          if (!found) return undefined;
          const [index, parameter] = found;
          const offset = ctx.rng.int(0, parameter.values);
          const words = Array.from({ length: ctx.rng.int(0, parameter.values - offset) }, () =>
            ctx.rng.pick([0, 1, ctx.rng.next(), -1]),
          );
          return offset === 0 && ctx.rng.chance(0.3) ? [index, words] : [index, words, offset];
        },
        { certain: true, weight: 0.5 },
      ),
      recording(
        `set${prefix}Root32BitConstant`,
        types,
        [
          {
            name: 'rootParameterIndex',
            bad: (ctx, _, p) =>
              badParameterIndex(ctx, p.receiver.target as GraphicsCommandList, graphics, '32BIT_CONSTANTS'),
          },
          param('srcData', (ctx) => invalid(ctx.rng.pick<unknown>([2 ** 32, 1.5, NaN, '1', null, -(2 ** 31) - 1, 1n]))),
          {
            name: 'destOffsetIn32BitValues',
            bad: (ctx, _, p) => {
              const list = p.receiver.target as GraphicsCommandList;
              const parameter = parametersOf(rootOf(list, graphics).rootSignature as RootSignature)[
                p.args[0] as number
              ];
              return ctx.rng.chance(0.4) ? invalid(parameter?.values ?? 1) : badUint(ctx.rng);
            },
          },
        ],
        (ctx, list) => {
          const found = signatureParameter(ctx, list, graphics, (p) => p.type === '32BIT_CONSTANTS');
          if (!found) return undefined;
          const [index, parameter] = found;
          return [index, ctx.rng.pick([0, 1, ctx.rng.next(), -1]), ctx.rng.int(0, parameter.values - 1)];
        },
        { certain: true, weight: 0.4 },
      ),
      ...(['ConstantBuffer', 'ShaderResource', 'UnorderedAccess'] as const).map((view) => {
        const kind = view === 'ConstantBuffer' ? 'CBV' : view === 'ShaderResource' ? 'SRV' : 'UAV';
        return recording(
          `set${prefix}Root${view}View`,
          types,
          [
            {
              name: 'rootParameterIndex',
              bad: (ctx, _, p) => badParameterIndex(ctx, p.receiver.target as GraphicsCommandList, graphics, kind),
            },
            param('bufferLocation', (ctx) =>
              invalid(ctx.rng.pick<unknown>([65536, -1n, 2n ** 64n, '0x10000', null, undefined, {}, NaN])),
            ),
          ],
          (ctx, list) => {
            const found = signatureParameter(ctx, list, graphics, (p) => p.type === kind);
            if (!found) return undefined;
            const target = pickOf(ctx.rng, ctx.main.resources);
            const address =
              target && ctx.rng.chance(0.8) ? target.getGPUVirtualAddress() : BigInt(ctx.rng.next()) * 256n;
            return [found[0], address];
          },
          { certain: true, weight: 0.25 },
        );
      }),
    );
  }
  specs.push(
    // A dispatch through the table pipeline: root signature, heaps and table set while planning.
    {
      cls: 'GraphicsCommandList',
      name: 'dispatch',
      weight: 0.5,
      params: [param('threadGroupCountX', (ctx) => (ctx.rng.chance(0.4) ? invalid(65536) : badUint(ctx.rng)))],
      plan: (ctx) => tableDispatchPlan(ctx),
      badReceiver: (ctx) => unfitList(ctx, SHADER),
    },
    ...inputAssemblerCatalogue(),
    ...targetCatalogue(),
  );
  return specs;
}

/** The table pipeline (TABLE_WGSL) on an open list, with its root signature, a heap and table 1 set, root constant 0 on. */
function tableDispatchPlan(ctx: FuzzContext): CallPlan | undefined {
  const { rng } = ctx;
  const pso = ctx.main.computePipelines.find((p) => p.rootSignature !== undefined);
  const list = openList(ctx, SHADER);
  if (!pso || !list) return undefined;
  const signature = pickOf(
    rng,
    ctx.main.rootSignatures.filter((s) => s.matches(pso.rootSignature as RootSignature)),
  );
  if (!signature) return undefined;
  const parameter = parametersOf(signature)[1] as CheckedParameter;
  if (field<{ id: number } | undefined>(list, 'pipeline') !== pso) list.setPipelineState(pso);
  if (rootOf(list, false).rootSignature !== signature) list.setComputeRootSignature(signature);
  const heap = ensureHeap(ctx, list, false, tableSpan(parameter));
  if (!heap) return undefined;
  list.setComputeRootDescriptorTable(1, gpu(heap, rng.int(0, sizeOf(heap) - tableSpan(parameter))));
  list.setComputeRoot32BitConstant(0, rng.chance(0.8) ? 1 : 0, 0);
  return { receiver: live(list), args: [rng.int(1, 2)] };
}

function inputAssemblerCatalogue(): MethodSpec[] {
  const address = (ctx: FuzzContext, alignment: number): bigint => {
    const target = pickOf(ctx.rng, ctx.main.buffers());
    if (!target || ctx.rng.chance(0.1)) return 0n;
    return (
      target.getGPUVirtualAddress() + BigInt(alignment * ctx.rng.int(0, Math.floor(target.desc.width / alignment) - 1))
    );
  };
  const badAddress = (rng: Random, alignment: number, good: bigint): unknown =>
    rng.pick<unknown>([
      65536,
      -2n * BigInt(alignment),
      2n ** 64n,
      '0x10000',
      null,
      NaN,
      ...(alignment > 1 ? [good + 1n] : []),
    ]);
  return [
    recording(
      'iaSetPrimitiveTopology',
      GRAPHICS,
      [param('primitiveTopology', (ctx) => badEnum(ctx.rng, PRIMITIVE_TOPOLOGY_NAMES))],
      (ctx) => [ctx.rng.pick(PRIMITIVE_TOPOLOGY_NAMES)],
      { certain: true, weight: 0.4 },
    ),
    recording(
      'iaSetVertexBuffers',
      GRAPHICS,
      [
        param('startSlot', (ctx) => (ctx.rng.chance(0.4) ? invalid(32) : badUint(ctx.rng, { max: 31 }))),
        {
          name: 'views',
          bad: (ctx, good, p) => {
            const { rng } = ctx;
            if (rng.chance(0.15)) return notAnArray(rng);
            // Past the 32 slots.
            if (rng.chance(0.15)) return invalid(new Array<null>(33 - (p.args[0] as number)).fill(null));
            const items = [...(good as unknown[])];
            const at = rng.int(0, items.length - 1);
            const view = items[at] ?? { bufferLocation: 0n, sizeInBytes: 0, strideInBytes: 0 };
            items[at] = rng.chance(0.15)
              ? rng.pick<unknown>([5, 'view', true])
              : badField(rng, view, {
                  bufferLocation: (g) => invalid(badAddress(g, 1, 0n)),
                  sizeInBytes: (g) => badUint(g),
                  strideInBytes: (g) => (g.chance(0.5) ? invalid(2049) : badUint(g, { max: 2048 })),
                }).value;
            return invalid(items);
          },
        },
      ],
      (ctx) => {
        const { rng } = ctx;
        const start = rng.int(0, 31);
        const views = Array.from({ length: rng.int(1, Math.min(3, 32 - start)) }, () =>
          rng.chance(0.15)
            ? null
            : {
                bufferLocation: address(ctx, 4),
                sizeInBytes: rng.int(0, 4096),
                strideInBytes: rng.pick([0, 4, 16, 2048]),
              },
        );
        return [start, views];
      },
      { certain: true, weight: 0.4 },
    ),
    recording(
      'iaSetIndexBuffer',
      GRAPHICS,
      [
        {
          name: 'view',
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (good === null || rng.chance(0.15)) return invalid(rng.pick<unknown>([5, 'view', true, []]));
            const view = good as { bufferLocation: bigint; format: string };
            return badField(rng, view, {
              bufferLocation: (g) => invalid(badAddress(g, view.format === 'R16_UINT' ? 2 : 4, view.bufferLocation)),
              sizeInBytes: (g) => badUint(g),
              format: (g) =>
                g.chance(0.5)
                  ? invalid(g.pick(['R8_UINT', 'R32_FLOAT', 'R16_SINT']))
                  : badEnum(g, ['R16_UINT', 'R32_UINT']),
            });
          },
        },
      ],
      (ctx) => {
        const { rng } = ctx;
        if (rng.chance(0.15)) return [null];
        const format = rng.pick(['R16_UINT', 'R32_UINT'] as const);
        return [{ bufferLocation: address(ctx, format === 'R16_UINT' ? 2 : 4), sizeInBytes: rng.int(0, 4096), format }];
      },
      { certain: true, weight: 0.4 },
    ),
    recording(
      'drawIndexedInstanced',
      GRAPHICS,
      [
        param('indexCountPerInstance', (ctx) => badUint(ctx.rng)),
        param('instanceCount', (ctx) => badUint(ctx.rng)),
        param('startIndexLocation', (ctx) => badUint(ctx.rng)),
        param('baseVertexLocation', (ctx) =>
          invalid(ctx.rng.pick<unknown>([2 ** 31, -(2 ** 31) - 1, 1.5, NaN, '0', null, undefined, Infinity])),
        ),
        param('startInstanceLocation', (ctx) => badUint(ctx.rng)),
      ],
      () => undefined,
      {
        weight: 0.5,
        plan: (ctx) =>
          drawPlan(ctx, (list) => {
            if (ctx.rng.chance(0.7)) prepareDraw(ctx, list, true);
            return [
              ctx.rng.int(0, 6),
              ctx.rng.int(0, 2),
              ctx.rng.int(0, 8),
              ctx.rng.pick([0, -1, 3, -(2 ** 31)]),
              ctx.rng.int(0, 1),
            ];
          }),
      },
    ),
    // A draw on a list made ready to draw while planning (catalogue-list.ts's plans one as the list stands).
    recording(
      'drawInstanced',
      GRAPHICS,
      [
        param('vertexCountPerInstance', (ctx) => badUint(ctx.rng)),
        param('instanceCount', (ctx) => badUint(ctx.rng)),
        param('startVertexLocation', (ctx) => badUint(ctx.rng, { optional: true })),
        param('startInstanceLocation', (ctx) => badUint(ctx.rng, { optional: true })),
      ],
      () => undefined,
      {
        weight: 0.3,
        plan: (ctx) =>
          drawPlan(ctx, (list) =>
            prepareDraw(ctx, list, false) ? [ctx.rng.int(0, 6), ctx.rng.int(0, 2), ctx.rng.int(0, 4), 0] : undefined,
          ),
      },
    ),
  ];
}

/** A draw's plan on an open DIRECT list, mostly one with no graphics root signature set (the pool's graphics pipelines have none). */
function drawPlan(ctx: FuzzContext, args: (list: GraphicsCommandList) => unknown[] | undefined): CallPlan | undefined {
  const open = ctx.main.lists.filter((l) => isOpen(l) && l.type === 'DIRECT');
  const fixed = open.filter((l) => !rootOf(l, true).rootSignature);
  const list = pickOf(ctx.rng, fixed.length > 0 && ctx.rng.chance(0.9) ? fixed : open);
  const built = list && args(list);
  return built && { receiver: live(list), args: built };
}

/**
 * Readies `list` (DIRECT, open) to draw with valid calls made while planning: a graphics pipeline of
 * the back buffers' format, the current back buffer as its render target, a viewport inside it, a
 * triangle topology, and (`indexed`) an index buffer. False when it cannot (a graphics root
 * signature set, which only reset() takes away, or no such pipeline).
 */
function prepareDraw(ctx: FuzzContext, list: GraphicsCommandList, indexed: boolean): boolean {
  const { rng } = ctx;
  const chain = ctx.main.swapChain;
  const pso = pickOf(
    rng,
    ctx.main.graphicsPipelines.filter((p) => chain && p.rtvFormat === chain.format && !p.rootSignature),
  );
  if (!chain || !pso || rootOf(list, true).rootSignature) return false;
  list.setPipelineState(pso);
  list.omSetRenderTargets([chain.getCurrentBackBuffer()]);
  const width = rng.int(1, BACK_BUFFER_SIZE);
  list.rsSetViewports([
    { topLeftX: rng.int(0, BACK_BUFFER_SIZE - width), topLeftY: 0, width, height: BACK_BUFFER_SIZE },
  ]);
  const topology = field<string | undefined>(field<object>(list, 'draws'), 'topology');
  if (topology !== undefined && topology !== 'TRIANGLELIST' && topology !== 'TRIANGLESTRIP')
    list.iaSetPrimitiveTopology(rng.pick(['TRIANGLELIST', 'TRIANGLESTRIP'] as const));
  const buffer = pickOf(rng, ctx.main.buffers());
  if (indexed && buffer && field<unknown>(field<object>(list, 'draws'), 'indexBuffer') === undefined)
    list.iaSetIndexBuffer({
      bufferLocation: buffer.getGPUVirtualAddress(),
      sizeInBytes: Math.min(buffer.desc.width, 4096),
      format: 'R16_UINT',
    });
  return true;
}

/** RTV descriptors of this device's heaps that describe the swap chain's current back buffer. */
function currentTargetViews(ctx: FuzzContext): CpuDescriptorHandle[] {
  const current = ctx.main.swapChain?.getCurrentBackBuffer();
  return heapsOf(ctx.main, 'RTV').flatMap((heap) =>
    heap.records.flatMap((record, i) =>
      record?.kind === 'RTV' && record.target !== null && record.target === current ? [cpu(heap, i)] : [],
    ),
  );
}

/** An RTV descriptor of the current back buffer: one written before, or one written now (a valid call made while planning). */
function currentTargetView(ctx: FuzzContext): CpuDescriptorHandle | undefined {
  const written = pickOf(ctx.rng, currentTargetViews(ctx));
  if (written && ctx.rng.chance(0.8)) return written;
  const slot = slotOf(ctx, 'RTV');
  const chain = ctx.main.swapChain;
  // A destroyed device writes no descriptor.
  if (!slot || !chain || ctx.main.destroyed) return written;
  ctx.main.device.createRenderTargetView(chain.getCurrentBackBuffer(), null, cpu(slot.heap, slot.index));
  return cpu(slot.heap, slot.index);
}

/** A UAV descriptor of a live resource of this device, in a CBV_SRV_UAV heap (written now when none is). */
function uavDescriptor(
  ctx: FuzzContext,
  kind: 'Uint' | 'Float',
): { handle: CpuDescriptorHandle; resource: Resource } | undefined {
  const { rng } = ctx;
  const floatOk = (record: { plan: { format: string } }): boolean =>
    kind === 'Uint' || /FLOAT|UNORM/.test(record.plan.format);
  const found = heapsOf(ctx.main, 'CBV_SRV_UAV').flatMap((heap) =>
    heap.records.flatMap((record, i) =>
      record?.kind === 'UAV' && record.resource && !record.resource.released && floatOk(record as never)
        ? [{ handle: cpu(heap, i), resource: record.resource }]
        : [],
    ),
  );
  const pick = pickOf(rng, found);
  if (pick && rng.chance(0.8)) return pick;
  const buffer = pickOf(
    rng,
    ctx.main.buffers().filter((b) => b.desc.flags.includes('ALLOW_UNORDERED_ACCESS') && b.desc.width >= 16),
  );
  const slot = slotOf(ctx, 'CBV_SRV_UAV');
  if (!buffer || !slot || ctx.main.destroyed) return pick;
  const elements = Math.floor(buffer.desc.width / 4);
  const first = rng.int(0, elements - 1);
  const desc =
    kind === 'Float' || rng.chance(0.5)
      ? {
          format: 'R32_FLOAT',
          viewDimension: 'BUFFER',
          buffer: { firstElement: first, numElements: rng.int(1, elements - first) },
        }
      : {
          format: 'R32_TYPELESS',
          viewDimension: 'BUFFER',
          buffer: { firstElement: first, numElements: elements - first, flags: 'RAW' },
        };
  ctx.main.device.createUnorderedAccessView(buffer, null, desc as never, cpu(slot.heap, slot.index));
  return { handle: cpu(slot.heap, slot.index), resource: buffer };
}

function targetCatalogue(): MethodSpec[] {
  const clears = (['Uint', 'Float'] as const).map((kind) =>
    recording(
      `clearUnorderedAccessView${kind}`,
      SHADER,
      [
        // A first argument that is no { ptr: bigint } makes the call the emulator's older form
        // (resource, values, rects, view), whose checks name those parameters: `view` is an alias.
        {
          name: 'viewGPUHandleInCurrentHeap',
          bad: (ctx, good, p) => badGpuHandle(ctx, good, boundHeap(p.receiver.target as GraphicsCommandList, false)),
        },
        { name: 'viewCPUHandle', bad: (ctx, good) => badCpuHandle(ctx, 'CBV_SRV_UAV', good) },
        param('resource', (ctx) => badRef(ctx, 'resource')),
        param(
          'values',
          (ctx) => invalid(ctx.rng.pick<unknown>([[1, 2, 3], '1234', null, [1, 2, 3, '4'], [undefined, 0, 0, 0]])),
          ['view'],
        ),
        param('rects', (ctx) =>
          invalid(ctx.rng.pick<unknown>([{}, 5, [null], [{ left: 0.5, top: 0, right: 1, bottom: 1 }]])),
        ),
      ],
      (ctx, list) => {
        const uav = uavDescriptor(ctx, kind);
        const heap = uav && ensureHeap(ctx, list, false);
        if (!uav || !heap) return undefined;
        const values = kind === 'Uint' ? [ctx.rng.next(), 0, 1, 7] : [ctx.rng.float(), -1, 2, 0.5];
        return [
          gpu(heap, ctx.rng.int(0, sizeOf(heap) - 1)),
          uav.handle,
          uav.resource,
          values,
          ctx.rng.chance(0.6) ? null : [],
        ];
      },
      { weight: 0.4 },
    ),
  );
  return [
    ...clears,
    recording(
      'omSetRenderTargets',
      GRAPHICS,
      [
        {
          name: 'renderTargets',
          bad: (ctx, good) => {
            const { rng } = ctx;
            if (rng.chance(0.2)) return notAnArray(rng);
            // A presented back buffer, or two targets (one is emulated).
            const chain = ctx.main.swapChain;
            if (chain && rng.chance(0.2)) {
              const presented = chain.getBuffer((chain.getCurrentBackBufferIndex() + 1) % chain.bufferCount);
              return invalid([presented]);
            }
            if (rng.chance(0.1)) return maybe([...(good as unknown[]), ...(good as unknown[])]);
            return invalid([badCpuHandle(ctx, 'RTV', (good as unknown[])[0]).value]);
          },
        },
        param('rtsSingleHandleToDescriptorRange', (ctx) => badBoolean(ctx.rng)),
        // Depth-stencil targets are D3D12's; the emulator refuses any (DXGI_ERROR_UNSUPPORTED).
        param('depthStencilDescriptor', (ctx) => {
          const dsv = slotOf(ctx, 'DSV');
          return dsv && ctx.rng.chance(0.5)
            ? maybe(cpu(dsv.heap, dsv.index))
            : invalid(ctx.rng.pick<unknown>([5, 'dsv', {}]));
        }),
      ],
      (ctx) => {
        const { rng } = ctx;
        const chain = ctx.main.swapChain;
        if (!chain) return undefined;
        const target = rng.chance(0.3) ? chain.getCurrentBackBuffer() : currentTargetView(ctx);
        if (!target) return undefined;
        return rng.chance(0.5) ? [[target]] : [[target], rng.chance(0.5), null];
      },
      { certain: true, weight: 0.6 },
    ),
    recording(
      'clearRenderTargetView',
      GRAPHICS,
      [
        {
          name: 'renderTargetView',
          bad: (ctx, good) => {
            const chain = ctx.main.swapChain;
            if (chain && ctx.rng.chance(0.2))
              return invalid(chain.getBuffer((chain.getCurrentBackBufferIndex() + 1) % chain.bufferCount));
            return badCpuHandle(ctx, 'RTV', good);
          },
        },
        param('colorRGBA', (ctx) =>
          invalid(ctx.rng.pick<unknown>([[1, 0, 0], [NaN, 0, 0, 1], [0, 0, 0, Infinity], 'red', null, [0, 0, 0, '1']])),
        ),
        // Rectangles are D3D12's; the emulator clears whole targets only.
        param('rects', (ctx) =>
          ctx.rng.chance(0.5)
            ? maybe([{ left: 0, top: 0, right: 4, bottom: 4 }])
            : invalid(ctx.rng.pick<unknown>([5, 'rects', {}])),
        ),
      ],
      (ctx) => {
        const view = currentTargetView(ctx);
        return view && [view, [ctx.rng.float(), 0, 1, 1], ...(ctx.rng.chance(0.5) ? [ctx.rng.pick([null, []])] : [])];
      },
      { certain: true, weight: 0.4 },
    ),
  ];
}

/** The command lists' binding calls. */
export function bindingListCatalogue(): MethodSpec[] {
  return [resetSpec(), ...listBindingSpecs()];
}
