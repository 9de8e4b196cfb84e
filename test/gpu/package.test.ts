/**
 * The published shape: `npm run build` emits both entries with their types and the WGSL they load
 * (vite's ?raw), and a plain Node.js process (no vitest, no Vulkan environment set up) imports
 * `d3d12-webgpu/node` by package name and runs the library's self-test on a device from it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { childEnv, PROJECT_ROOT } from '../harness/paths.js';

interface ExportTarget {
  types: string;
  default: string;
}

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, ExportTarget> };
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
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
    const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { equal: boolean; adapter: string; driver: string; icdLeft: string | null };
    expect(result.equal).toBe(true);
    expect(result.adapter).toMatch(/^vendor=/);
    // Found by the lookup itself, not handed down by the environment.
    expect(result.driver).not.toBe('env');
    expect(result.icdLeft).toBeNull();
  });
});
