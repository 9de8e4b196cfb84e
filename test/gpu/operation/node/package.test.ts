/**
 * The published shape: `npm run build` emits both entries with their types and the WGSL they load
 * (vite's ?raw), and a plain Node.js process (no vitest, no Vulkan environment set up) imports
 * `d3d12-webgpu/node` by package name and runs the library's self-test on a device from it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../../../harness/paths.js';

interface ExportTarget {
  types: string;
  default: string;
}

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget>;
};
/** How long a build or a child process may take on a slow CI machine. */
const CHILD_TIMEOUT_MS = 90_000;

beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'pipe', timeout: CHILD_TIMEOUT_MS });
}, CHILD_TIMEOUT_MS + 10_000);

describe('package: the built entries', () => {
  for (const [entry, target] of Object.entries(pkg.exports)) {
    test(`exports["${entry}"] points at emitted code and types`, () => {
      expect(existsSync(join(PROJECT_ROOT, target.default)), target.default).toBe(true);
      expect(existsSync(join(PROJECT_ROOT, target.types)), target.types).toBe(true);
    });
  }

  test('the built code carries shaders/smoke_pattern.wgsl as text', () => {
    const wgsl = readFileSync(join(PROJECT_ROOT, 'shaders/smoke_pattern.wgsl'), 'utf8');
    const line = wgsl.split('\n').find((l) => l.includes('@workgroup_size'));
    expect(line).toBeDefined();
    const dist = join(PROJECT_ROOT, 'dist');
    const bundle = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(dist, file), 'utf8'))
      .join('\n');
    expect(bundle).toContain(line?.trim());
  });

  test('a plain node process gets a device through d3d12-webgpu/node and passes the self-test', () => {
    // Self-reference by package name resolves through the exports map, as for a consumer.
    const script = `
      import { createNodeDevice, formatAdapter, nodeDeviceDriver, runSmokePattern, smokePatternReference, summarizeAdapter } from 'd3d12-webgpu/node';
      const device = await createNodeDevice();
      const args = { count: 4096, seed: 7 };
      const words = await runSmokePattern(device, args);
      const expected = smokePatternReference(args);
      console.log(JSON.stringify({
        equal: words.length === expected.length && words.every((w, i) => w === expected[i]),
        adapter: formatAdapter(summarizeAdapter(device.adapterInfo)),
        driver: nodeDeviceDriver()?.source,
        icdLeft: process.env.VK_ICD_FILENAMES ?? null,
      }));
      device.destroy();
    `;
    const env = childEnv();
    delete env.VK_ICD_FILENAMES;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      env,
      encoding: 'utf8',
      timeout: CHILD_TIMEOUT_MS,
    });
    const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
      equal: boolean;
      adapter: string;
      driver: string;
      icdLeft: string | null;
    };
    expect(result.equal).toBe(true);
    expect(result.adapter).toMatch(/^vendor=/);
    // Found by the lookup itself, not handed down by the environment.
    expect(result.driver).not.toBe('env');
    expect(result.icdLeft).toBeNull();
  });
});

/** What a class of the published types exposes: its public members (private ones show only as names). */
function publicMembers(declarations: string, className: string): string[] {
  const match = new RegExp(`export declare (?:abstract )?class ${className}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(
    declarations,
  );
  if (!match) throw new Error(`publicMembers: no class ${className} in the declarations`);
  const body = (match[1] as string).replace(/\/\*\*[\s\S]*?\*\//g, '');
  const names = [
    ...body.matchAll(
      /^ {4}(?!private |protected |#)(?:readonly |static |abstract |get |set )*([A-Za-z_$][\w$]*)\s*[(<:?;]/gm,
    ),
  ].map((m) => m[1] as string);
  return [...new Set(names)].sort();
}

/**
 * The published .d.ts of each public class, member by member: the D3D12 API, the emulator's
 * documented additions, no test hook (those are d3d12-webgpu/testing's), and nothing of the internal state (stripInternal
 * removes what is marked @internal). A new public member must be added here on purpose. Each class
 * lists the members its own declaration has (an override included); inherited ones are listed
 * under the base class that declares them (DeviceMemory, CommandListBase, DeviceChild).
 */
const PUBLISHED: Record<string, { file: string; members: string[] }> = {
  // Device's own members; the memory calls it inherits are DeviceMemory's (below).
  Device: {
    file: 'd3d12/device.d.ts',
    members: [
      'copyDescriptors',
      'copyDescriptorsSimple',
      'createCommandAllocator',
      'createCommandList',
      'createCommandQueue',
      'createComputePipelineState',
      'createConstantBufferView',
      'createDepthStencilView',
      'createDescriptorHeap',
      'createFence',
      'createGraphicsPipelineState',
      'createQueryHeap',
      'createRenderTargetView',
      'createRootSignature',
      'createSampler',
      'createShaderResourceView',
      'createSwapChain',
      'createUnorderedAccessView',
      'destroy',
      'getDescriptorHandleIncrementSize',
      'readFaults',
      'readUnmappedAccesses',
      'validateTileMappings',
      'writeTextureDescriptor',
    ],
  },
  DeviceMemory: {
    file: 'd3d12/device-memory.d.ts',
    members: [
      'buildStatsString',
      'checkFeatureSupport',
      'createCommittedResource',
      'createHeap',
      'createPlacedResource',
      'createReservedResource',
      'enqueueMakeResident',
      'evict',
      'getCopyableFootprints',
      'getDeviceRemovedReason',
      'getInfoQueue',
      'getMemoryStats',
      'getPageFaultReport',
      'getPagingStats',
      'getReleaseCount',
      'getResidencyStatus',
      'getResourceAllocationInfo',
      'getResourceTiling',
      'gpuDevice',
      'makeResident',
      'queryVideoMemoryInfo',
      'setResidencyDebugBudget',
      'setResidencyPriority',
      'setVideoMemoryReservation',
    ],
  },
  Heap: {
    file: 'd3d12/heap.d.ts',
    members: ['getDesc', 'id', 'label', 'release'],
  },
  Resource: {
    file: 'd3d12/resource.d.ts',
    members: ['getDesc', 'getGPUVirtualAddress', 'id', 'label', 'map', 'release', 'unmap'],
  },
  DeviceChild: { file: 'd3d12/device-child.d.ts', members: ['getName', 'label', 'released', 'setName'] },
  CommandQueue: {
    file: 'd3d12/command-queue.d.ts',
    members: [
      'copyTileMappings',
      'executeCommandLists',
      'getDesc',
      'getTimestampFrequency',
      'signal',
      'type',
      'updateTileMappings',
      'validateExecuteCommandLists',
      'validateThenExecuteCommandLists',
      'wait',
    ],
  },
  Fence: {
    file: 'd3d12/fence.d.ts',
    members: ['getCompletedValue', 'getSubmittedValue', 'id', 'setEventOnCompletion', 'signal'],
  },
  QueryHeap: { file: 'd3d12/query-heap.d.ts', members: ['getDesc', 'id', 'label', 'release'] },
  PipelineState: { file: 'd3d12/pipeline-state.d.ts', members: ['id', 'label'] },
  // GraphicsCommandList's own members (pipelines, binding, dispatches, drawing); what every list
  // records (copies, barriers, queries, UAV clears, close, reset) is CommandListBase's (below).
  GraphicsCommandList: {
    file: 'd3d12/command-list.d.ts',
    members: [
      'clearRenderTargetView',
      'dispatch',
      'drawIndexedInstanced',
      'drawInstanced',
      'iaSetIndexBuffer',
      'iaSetPrimitiveTopology',
      'iaSetVertexBuffers',
      'omSetRenderTargets',
      'rsSetScissorRects',
      'rsSetViewports',
      'setComputeRoot32BitConstant',
      'setComputeRoot32BitConstants',
      'setComputeRootConstantBufferView',
      'setComputeRootDescriptorTable',
      'setComputeRootShaderResourceView',
      'setComputeRootSignature',
      'setComputeRootUnorderedAccessView',
      'setDescriptorHeaps',
      'setGraphicsRoot32BitConstant',
      'setGraphicsRoot32BitConstants',
      'setGraphicsRootConstantBufferView',
      'setGraphicsRootDescriptorTable',
      'setGraphicsRootShaderResourceView',
      'setGraphicsRootSignature',
      'setGraphicsRootUnorderedAccessView',
      'setPipelineState',
    ],
  },
  CommandListBase: {
    file: 'd3d12/command-list-base.d.ts',
    members: [
      'clearUnorderedAccessViewFloat',
      'clearUnorderedAccessViewUint',
      'close',
      'copyBufferRegion',
      'copyResource',
      'copyTextureRegion',
      'copyTiles',
      'discardResource',
      'endQuery',
      'getName',
      'id',
      'label',
      'reset',
      'resolveQueryData',
      'resourceBarrier',
      'setName',
      'setPipelineState',
      'type',
    ],
  },
  SwapChain: {
    file: 'd3d12/swap-chain.d.ts',
    members: ['bufferCount', 'format', 'getBuffer', 'getCurrentBackBuffer', 'getCurrentBackBufferIndex', 'present'],
  },
  BackBuffer: { file: 'd3d12/swap-chain.d.ts', members: ['format', 'height', 'label', 'width'] },
  DescriptorHeap: {
    file: 'd3d12/descriptor-heap.d.ts',
    members: [
      'getCPUDescriptorHandleForHeapStart',
      'getDesc',
      'getGPUDescriptorHandleForHeapStart',
      'id',
      'label',
      'release',
    ],
  },
  RootSignature: { file: 'd3d12/root-signature.d.ts', members: ['id', 'label', 'release'] },
  CommandAllocator: { file: 'd3d12/command-allocator.d.ts', members: ['id', 'label', 'release', 'reset', 'type'] },
  ResidencySet: { file: 'residency/residency-set.d.ts', members: ['close', 'insert', 'open', 'size'] },
};

describe('package: the published types show the D3D12 API, not the internal state', () => {
  for (const [className, { file, members }] of Object.entries(PUBLISHED)) {
    test(`${className} (${file})`, () => {
      const declarations = readFileSync(join(PROJECT_ROOT, 'dist/types', file), 'utf8');
      expect(publicMembers(declarations, className)).toEqual([...members].sort());
    });
  }

  test('no declaration marked @internal is left in dist/types', () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.d.ts') ? [join(dir, entry.name)] : [],
      );
    const left = walk(join(PROJECT_ROOT, 'dist/types')).filter((path) =>
      readFileSync(path, 'utf8').includes('@internal'),
    );
    expect(left).toEqual([]);
  });

  // A strict consumer with full lib checking (skipLibCheck off) compiles against the published types:
  // stripping must not leave a class that names a stripped member (an `implements` clause did: TS2420).
  test(
    'a strict TypeScript consumer compiles against every entry by package name',
    () => {
      const dir = join(PROJECT_ROOT, 'dist/consumer-check');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'use.ts'), CONSUMER_SOURCE);
      const tsc = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
      const flags = [
        '--ignoreConfig',
        '--noEmit',
        '--skipLibCheck',
        'false',
        '--strict',
        '--target',
        'ES2022',
        '--lib',
        'ES2023,DOM,DOM.Iterable',
        '--module',
        'ESNext',
        '--moduleResolution',
        'bundler',
        '--types',
        'node',
      ];
      const run = (file: string): string => {
        try {
          execFileSync(process.execPath, [tsc, ...flags, file], {
            cwd: PROJECT_ROOT,
            encoding: 'utf8',
            timeout: CHILD_TIMEOUT_MS,
          });
          return '';
        } catch (error) {
          return String((error as { stdout?: string }).stdout ?? error);
        }
      };
      expect(run(join(dir, 'use.ts'))).toBe('');
      // Control: the same compile sees a member the published types do not have.
      writeFileSync(
        join(dir, 'misuse.ts'),
        `${CONSUMER_SOURCE}\nexport const hidden = (heap: import('d3d12-webgpu').Heap) => heap.resident;\n`,
      );
      expect(run(join(dir, 'misuse.ts'))).toMatch(/TS2339: Property 'resident' does not exist/);
    },
    CHILD_TIMEOUT_MS + 10_000,
  );

  test('the check reads members: a planted declaration with an internal field is seen', () => {
    const planted =
      'export declare class Heap {\n    #private;\n    private readonly hidden;\n    get resident(): boolean;\n    release(): void;\n}\n';
    expect(publicMembers(planted, 'Heap')).toEqual(['release', 'resident']);
  });
});

/** What a user writes: both entries by package name, a heap, its published id, the memory statistics. */
const CONSUMER_SOURCE = `import { createDevice, D3D12Error, type MemoryStats } from 'd3d12-webgpu';
import { createNodeDevice } from 'd3d12-webgpu/node';
import { runValidation, type ValidationMismatch, type ValidationResult } from 'd3d12-webgpu/validate';
export async function use(): Promise<MemoryStats> {
  const device = await createDevice({ gpuDevice: await createNodeDevice() });
  const heap = device.createHeap({ sizeInBytes: 65536, properties: { type: 'DEFAULT' } });
  const id: number = heap.id;
  if (!(id >= 0)) throw new D3D12Error('E_INVALIDARG', 'use', 'heap.id', 'is a number');
  return device.getMemoryStats();
}
export async function validate(): Promise<ValidationMismatch[]> {
  const result: ValidationResult = await runValidation({ gpuDevice: await createNodeDevice(), seed: 1, ops: 10, tier: 2, onProgress: (p) => p.opsDone });
  return result.mismatches;
}
`;

// d3d12-webgpu/validate (issue 13): the entry is published, and its built bundle runs in a plain
// Node.js process by package name (the differential run's shader is carried as text).
describe('package: d3d12-webgpu/validate', () => {
  test('exports["./validate"] is published', () => {
    expect(pkg.exports['./validate']).toEqual({
      types: './dist/types/validate/index.d.ts',
      default: './dist/validate.js',
    });
  });

  test(
    'a plain node process runs runDifferential from d3d12-webgpu/validate on a device from d3d12-webgpu/node',
    () => {
      const script = `
      import { createNodeDevice } from 'd3d12-webgpu/node';
      import { runDifferential } from 'd3d12-webgpu/validate';
      const gpuDevice = await createNodeDevice();
      const result = await runDifferential({ gpuDevice, seed: 5, ops: 40, tier: 3 });
      console.log(JSON.stringify({ ops: result.ops, mismatches: result.mismatches, bytesCompared: result.bytesCompared, pagesValidated: result.pagesValidated }));
      gpuDevice.destroy();
    `;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: PROJECT_ROOT,
        env: childEnv(),
        encoding: 'utf8',
        timeout: CHILD_TIMEOUT_MS,
      });
      const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
        ops: number;
        mismatches: unknown[];
        bytesCompared: number;
        pagesValidated: number;
      };
      expect(result.mismatches).toEqual([]);
      expect(result.ops).toBe(40);
      expect(result.bytesCompared).toBeGreaterThan(0);
      expect(result.pagesValidated).toBeGreaterThan(0);
    },
    CHILD_TIMEOUT_MS + 10_000,
  );
});
