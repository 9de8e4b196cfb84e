/**
 * The seeded API fuzzer (test/shared/fuzz/) on Dawn: every public method of Device, Heap, Resource,
 * QueryHeap, CommandQueue, GraphicsCommandList, Fence, ResidencyManager and ResidencySet, and every
 * function of the d3d12-webgpu/d3dx12 entry, with valid and wrong arguments. Each seed must end with no failure: every call returned or threw a
 * D3D12Error naming the call and the argument, changed nothing when it threw, broke no invariant,
 * raised no WebGPU error, and left no GPU work hanging.
 *
 * First, the fuzzer's own checks are shown to fail on planted defects (a check that cannot fail
 * would pass anything), and its catalogue is checked against the sources: a public method added to
 * the library, or a function added to the d3dx12 entry, fails the coverage test until the fuzzer
 * calls it.
 *
 *   D3D12_FUZZ_SEEDS=20 (seeds 1..20) or =7,42 (those), D3D12_FUZZ_CALLS=10000 (per seed),
 *   D3D12_FUZZ_STOP=n (stop after call n), D3D12_FUZZ_TRACE=1 (print every call),
 *   D3D12_FUZZ_STATS=1 (calls per method). npm run fuzz: 20 seeds.
 */
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import {
  CommandAllocator,
  CommandQueue,
  D3D12Error,
  DescriptorHeap,
  Device,
  Fence,
  GraphicsCommandList,
  Heap,
  QueryHeap,
  ResidencyManager,
  ResidencySet,
  Resource,
  RootSignature,
  SwapChain,
} from '../../../../src/index.js';
import * as d3dx12 from '../../../../src/d3dx12/index.js';
import { InfoQueue } from '../../../../src/d3d12/info-queue.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { fullCatalogue } from '../../../shared/fuzz/catalogue.js';
import { dispatchTargets } from '../../../shared/fuzz/catalogue-list.js';
import { isOpen, type FuzzContext } from '../../../shared/fuzz/pool.js';
import { failureReport, runFuzz, summaryLine, type Failure, type FuzzReport } from '../../../shared/fuzz/runner.js';
import { param, type MethodSpec } from '../../../shared/fuzz/spec.js';
import { invalid } from '../../../shared/fuzz/values.js';
import { deviceContext } from '../../../shared/device-context.js';

function parseSeeds(value: string | undefined): number[] {
  const text = value?.trim() || '3';
  if (/^\d+$/.test(text)) return Array.from({ length: Number(text) }, (_, i) => i + 1);
  const seeds = text.split(',').map((s) => Number(s.trim()));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0 || s >= 2 ** 32))
    throw new Error(
      `D3D12_FUZZ_SEEDS must be a count or a comma-separated list of seeds, got ${JSON.stringify(value)}`,
    );
  return seeds;
}

const SEEDS = parseSeeds(process.env.D3D12_FUZZ_SEEDS);
const CALLS = Number(process.env.D3D12_FUZZ_CALLS ?? 10_000);
const STOP = process.env.D3D12_FUZZ_STOP === undefined ? undefined : Number(process.env.D3D12_FUZZ_STOP);
const TRACE = process.env.D3D12_FUZZ_TRACE === '1';
const STATS = process.env.D3D12_FUZZ_STATS === '1';

const replay = (f: Failure): string =>
  `D3D12_FUZZ_SEEDS=${f.seed} D3D12_FUZZ_CALLS=${CALLS} D3D12_FUZZ_STOP=${f.index} D3D12_FUZZ_TRACE=1 npx vitest run --project gpu test/gpu/stress/d3d12/api-fuzz.test.ts -t "seed ${f.seed}:"`;

// ---- planted defects --------------------------------------------------------------------------

/** A method on a throwaway object whose body is `body` (it sees the fuzz context). */
function planted(
  name: string,
  body: (ctx: FuzzContext, args: readonly unknown[]) => unknown,
  extra: Partial<MethodSpec> = {},
): MethodSpec {
  return {
    cls: 'Planted',
    name,
    params: [param('value', () => invalid(NaN))],
    plan: (ctx) => ({
      receiver: { target: { [name]: (...args: unknown[]) => body(ctx, args) }, validity: 'valid' },
      args: [1],
    }),
    ...extra,
  };
}

function first<T>(items: readonly T[]): T {
  const item = items[0];
  if (item === undefined) throw new Error('planted defect: the pool has none');
  return item;
}

/** Throws what a correct method throws for a bad `value`. */
function refuse(name: string, args: readonly unknown[]): void {
  if (args[0] !== 1) throw new D3D12Error('E_INVALIDARG', name, 'value', `must be 1, got ${String(args[0])}`);
}

/** Changes one thing, then throws a clean D3D12Error: the snapshot must notice. */
function mutates(name: string, change: (ctx: FuzzContext) => void): MethodSpec {
  return planted(name, (ctx) => {
    change(ctx);
    throw new D3D12Error('E_INVALIDARG', name, 'value', 'planted after a change');
  });
}

function plantedCatalogue(gpuDevice: GPUDevice): MethodSpec[] {
  return [
    planted('plantTypeError', () => (null as unknown as { x: number }).x),
    planted('plantOtherCall', () => {
      throw new D3D12Error('E_INVALIDARG', 'someOtherMethod', 'value', 'planted');
    }),
    planted('plantNoParam', () => {
      throw new D3D12Error('E_INVALIDARG', 'plantNoParam', 'nonsense.field', 'planted');
    }),
    planted('plantBadHresult', () => {
      throw new D3D12Error('E_WHATEVER' as never, 'plantBadHresult', 'value', 'planted');
    }),
    planted('plantAccepts', () => undefined),
    planted('plantHang', () => new Promise(() => undefined), {
      async: true,
      plan: () => ({
        receiver: { target: { plantHang: () => new Promise(() => undefined) }, validity: 'valid' },
        args: [1],
        mustSettle: true,
      }),
      weight: 0.3,
    }),
    planted('plantWebGPU', () => void gpuDevice.createBuffer({ size: 4, usage: 0 }), { weight: 0.3 }),
    mutates('plantHeapCount', (ctx) => first(ctx.main.heaps).addResidencyReference()),
    mutates('plantStates', (ctx) => {
      const resource = first(ctx.main.resources);
      resource.setState(0, (resource.states[0] ?? 0) ^ 0x400);
    }),
    mutates('plantTiles', (ctx) => void first(ctx.main.reserved()).tileMappings?.heapIds.fill(999, 0, 1)),
    mutates('plantFence', (ctx) => first(ctx.main.fences).signal(ctx.main.nextFenceValue(first(ctx.main.fences)))),
    mutates('plantList', (ctx) => {
      const list = ctx.main.lists.find(isOpen) ?? first(ctx.main.lists);
      if (isOpen(list)) list.close();
      else list.reset();
    }),
    mutates('plantManager', (ctx) => {
      const manager = first(ctx.main.managers);
      const heap = ctx.main.device.createHeap({
        sizeInBytes: 65536,
        properties: { type: 'DEFAULT' },
        flags: ['CREATE_NOT_RESIDENT'],
      });
      manager.beginTrackingObject(heap);
    }),
    mutates('plantBudget', (ctx) => ctx.main.device.setResidencyDebugBudget(1 + ctx.rng.int(0, 1000))),
    mutates(
      'plantPages',
      (ctx) =>
        void (
          deviceContext(ctx.main.device).backend as unknown as {
            backing: { allocators: { LOCAL: { allocate(n: number): unknown } } };
          }
        ).backing.allocators.LOCAL.allocate(1),
    ),
    planted(
      'plantRefuses',
      () => {
        throw new D3D12Error('E_INVALIDARG', 'plantRefuses', 'value', 'refuses even a valid call');
      },
      { certain: true },
    ),
    planted('plantLongMessage', () => {
      throw new D3D12Error('E_INVALIDARG', 'plantLongMessage', 'value', `got ${'x'.repeat(20_000)}`);
    }),
    planted('plantClean', (_, args) => refuse('plantClean', args), { weight: 2, certain: true }),
    planted('plantAsyncClean', (_, args) => Promise.resolve().then(() => refuse('plantAsyncClean', args)), {
      async: true,
      weight: 2,
    }),
  ];
}

/** The public methods of a class, by its sources: what the prototype chain has, less private, protected and @internal members and …ForTesting hooks. */
function publicMethods(cls: { prototype: object; name: string }, files: string[]): string[] {
  const source = files
    .map((file) => readFileSync(new URL(`../../../../src/${file}`, import.meta.url), 'utf8'))
    .join('\n');
  const hidden = new Set<string>();
  const lines = source.split('\n');
  lines.forEach((line, i) => {
    const match =
      /^ {2}(?:(?:private|protected|public|static|override|async|readonly|abstract)\s+)*(?:get\s+|set\s+)?([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\(/.exec(
        line,
      );
    if (!match) return;
    const name = match[1] as string;
    let doc = '';
    for (let j = i - 1; j >= 0 && /^\s*(\/\*\*|\*|\*\/|\/\/)/.test(lines[j] as string); j--)
      doc = `${lines[j] as string}\n${doc}`;
    if (/^ {2}(private|protected)\b/.test(line) || doc.includes('@internal')) hidden.add(name);
  });
  const names = new Set<string>();
  for (
    let proto: object | null = cls.prototype;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (key === 'constructor' || typeof descriptor?.value !== 'function') continue;
      if (!hidden.has(key) && !key.endsWith('ForTesting')) names.add(key);
    }
  }
  return [...names].sort();
}

const CLASSES: [{ prototype: object; name: string }, string, string[]][] = [
  [Device, 'Device', ['d3d12/device.ts', 'd3d12/device-memory.ts']],
  [Heap, 'Heap', ['d3d12/heap.ts', 'd3d12/device-child.ts']],
  [Resource, 'Resource', ['d3d12/resource.ts', 'd3d12/device-child.ts']],
  [QueryHeap, 'QueryHeap', ['d3d12/query-heap.ts', 'd3d12/device-child.ts']],
  [CommandQueue, 'CommandQueue', ['d3d12/command-queue.ts']],
  [GraphicsCommandList, 'GraphicsCommandList', ['d3d12/command-list.ts', 'd3d12/command-list-base.ts']],
  [Fence, 'Fence', ['d3d12/fence.ts']],
  [InfoQueue, 'InfoQueue', ['d3d12/info-queue.ts']],
  [ResidencyManager, 'ResidencyManager', ['residency/residency-manager.ts']],
  [ResidencySet, 'ResidencySet', ['residency/residency-set.ts']],
  [DescriptorHeap, 'DescriptorHeap', ['d3d12/descriptor-heap.ts', 'd3d12/device-child.ts']],
  [RootSignature, 'RootSignature', ['d3d12/root-signature.ts', 'd3d12/device-child.ts']],
  [CommandAllocator, 'CommandAllocator', ['d3d12/command-allocator.ts', 'd3d12/device-child.ts']],
  [SwapChain, 'SwapChain', ['d3d12/swap-chain.ts']],
];

function printReport(report: FuzzReport): void {
  console.log(summaryLine(report));
  if (report.failures.length > 0) console.log(`[fuzz] seed ${report.seed} failures:\n${failureReport(report, replay)}`);
  if (report.notes.length > 0)
    console.log(`[fuzz] seed ${report.seed} notes:\n  ${report.notes.slice(0, 20).join('\n  ')}`);
  if (STATS) {
    const rows = [...report.perMethod]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([method, s]) => `  ${method}: ${s.calls} calls, ${s.ok} returned, ${s.threw} threw`);
    console.log(`[fuzz] seed ${report.seed} per method:\n${rows.join('\n')}`);
  }
}

describe('API fuzz', () => {
  gpuTest("the fuzzer's checks catch planted defects and pass clean methods", async ({ device: gpuDevice }) => {
    const report = await runFuzz(gpuDevice, {
      seed: 7,
      calls: 400,
      syncEvery: 40,
      hangTimeoutMs: 250,
      tailCalls: 0,
      catalogue: plantedCatalogue(gpuDevice),
    });
    const found = (method: string, kind: string, detail?: RegExp): boolean =>
      report.failures.some(
        (f) => f.method === `Planted.${method}` && f.kind === kind && (!detail || detail.test(f.key + f.detail)),
      );
    const expected: [string, string, RegExp?][] = [
      ['plantTypeError', 'threw a non-D3D12Error', /TypeError/],
      ['plantOtherCall', 'message names another call'],
      ['plantNoParam', 'message names no parameter'],
      ['plantBadHresult', 'bad HRESULT'],
      ['plantAccepts', 'accepted invalid argument', /value/],
      ['plantHang', 'hang'],
      ['plantHeapCount', 'state changed before throw', /heap#\d+\.count/],
      ['plantStates', 'state changed before throw', /resource#\d+\.states/],
      ['plantTiles', 'state changed before throw', /resource#\d+\.heapIds/],
      ['plantFence', 'state changed before throw', /fence#\d+\.reached/],
      ['plantList', 'state changed before throw', /list#\d+\.open/],
      ['plantManager', 'state changed before throw', /manager#\d+\.tracked/],
      ['plantBudget', 'state changed before throw', /main\.device\.(local|debugBudget)/],
      ['plantPages', 'state changed before throw', /main\.device\.freePages/],
      ['plantPages', 'invariant broken', /pool pages/],
      ['plantRefuses', 'refused a valid call'],
      ['plantLongMessage', 'message too long'],
    ];
    const missing = expected
      .filter(([method, kind, detail]) => !found(method, kind, detail))
      .map(([method, kind]) => `${method}: ${kind}`);
    const webgpu = report.failures.some((f) => f.kind === 'WebGPU error' && /validation/.test(f.detail));
    const clean = report.failures.filter((f) => /Clean$/.test(f.method));
    if (missing.length > 0 || !webgpu || clean.length > 0) printReport(report);
    expect(missing, 'planted defects the fuzzer did not report').toEqual([]);
    expect(webgpu, 'the planted WebGPU validation error was reported').toBe(true);
    expect(
      clean.map((f) => `${f.method}: ${f.kind}: ${f.detail}`),
      'failures reported for correct methods',
    ).toEqual([]);
    expect(report.perMethod.get('Planted.plantClean')?.ok, 'clean calls returned').toBeGreaterThan(0);
    expect(report.throws.E_INVALIDARG, 'clean calls threw').toBeGreaterThan(0);

    // A device removed by a call (here a failure recorded as if a readback had failed) is reported once.
    const removal = await runFuzz(gpuDevice, {
      seed: 8,
      calls: 30,
      tailCalls: 0,
      catalogue: [
        planted('plantRemoval', (ctx) =>
          deviceContext(ctx.main.device).removal.recordFailure('planted', new Error('planted')),
        ),
      ],
    });
    expect(removal.failures.filter((f) => f.kind === 'device removed').map((f) => f.count)).toEqual([1]);
  });

  gpuTest('the catalogue has every public method of the fuzzed classes', () => {
    const catalogued = new Set(fullCatalogue().map((spec) => `${spec.cls}.${spec.name}`));
    const missing = CLASSES.flatMap(([cls, name, files]) =>
      publicMethods(cls, files).map((method) => `${name}.${method}`),
    ).filter((key) => !catalogued.has(key));
    expect(missing, 'public methods the fuzzer never calls').toEqual([]);
    for (const module of ['createResidencyManager', 'serializeVersionedRootSignature', 'serializeRootSignature'])
      expect(catalogued.has(`module.${module}`), module).toBe(true);
    // The d3dx12 entry: every function it exports (its constants and types are no calls).
    const helpers = Object.entries(d3dx12)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name);
    expect(helpers, 'the d3dx12 entry as read here').toContain('updateSubresources');
    expect(
      helpers.filter((name) => !catalogued.has(`d3dx12.${name}`)),
      'functions of d3d12-webgpu/d3dx12 the fuzzer never calls',
    ).toEqual([]);
  });

  for (const seed of SEEDS) {
    gpuTest(
      `seed ${seed}: ${CALLS} calls`,
      { timeout: Math.max(120_000, CALLS * 12) },
      async ({ device: gpuDevice }) => {
        let context: FuzzContext | undefined;
        const report = await runFuzz(gpuDevice, {
          seed,
          calls: CALLS,
          stopAt: STOP,
          trace: TRACE ? (line) => console.log(line) : undefined,
          prepare: (ctx) => (context = ctx),
        });
        printReport(report);
        const dispatches = context ? dispatchTargets(context) : { recorded: 0, live: 0 };
        console.log(
          `[fuzz] seed ${seed}: ${dispatches.recorded} dispatches recorded, ${dispatches.live} of them aimed at a live resource`,
        );
        // Short runs (a replay, a quick look) need not reach every method.
        if (STOP === undefined && CALLS >= 5000) {
          const uncalled = fullCatalogue()
            .map((spec) => `${spec.cls}.${spec.name}`)
            .filter((key) => !report.perMethod.has(key));
          expect(uncalled, 'catalogued methods this seed never called').toEqual([]);
          // Dispatches reach emulated memory: most recorded ones have root descriptor 1 (the fuzz
          // shader's address) inside a live resource, with the access on. Before dispatch plans aimed
          // their lists, about one in 30 had (0 or 1 per seed of 10,000 calls).
          expect(
            dispatches.live,
            `dispatches aimed at a live resource, of ${dispatches.recorded} recorded`,
          ).toBeGreaterThanOrEqual(Math.max(5, Math.ceil(dispatches.recorded / 2)));
        }
        expect(
          report.failures.map(
            (f) => `${f.kind}: ${f.method}: ${f.detail.split('\n')[0] ?? ''} (seed ${f.seed}, call #${f.index})`,
          ),
          'fuzz failures (printed above with reproductions)',
        ).toEqual([]);
      },
    );
  }
});
