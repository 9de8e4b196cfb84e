/**
 * The published shape: `npm run build` emits both entries with their types, and a plain Node.js
 * process (no vitest, no environment set up) imports `d3d12-webgpu/node` by package name and gets a
 * working Dawn device from it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../harness/browser/serve.js';

interface ExportTarget {
  types: string;
  default: string;
}

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, ExportTarget> };

beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
}, 120_000);

describe('package: the built entries', () => {
  for (const [entry, target] of Object.entries(pkg.exports)) {
    test(`exports["${entry}"] points at emitted code and types`, () => {
      expect(existsSync(join(PROJECT_ROOT, target.default)), target.default).toBe(true);
      expect(existsSync(join(PROJECT_ROOT, target.types)), target.types).toBe(true);
    });
  }

  test('a plain node process gets a device through d3d12-webgpu/node and runs a copy on it', () => {
    // Self-reference by package name resolves through the exports map, as for a consumer.
    const script = `
      import { createNodeDevice, formatAdapter, summarizeAdapter } from 'd3d12-webgpu/node';
      const device = await createNodeDevice();
      const src = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
      new Uint32Array(src.getMappedRange()).set([1, 2, 3, 0xdeadbeef]);
      src.unmap();
      const dst = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(src, 0, dst, 0, 16);
      device.queue.submit([encoder.finish()]);
      await dst.mapAsync(GPUMapMode.READ);
      console.log(JSON.stringify({ words: [...new Uint32Array(dst.getMappedRange())], adapter: formatAdapter(summarizeAdapter(device.adapterInfo)) }));
      dst.unmap();
      device.destroy();
    `;
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { words: number[]; adapter: string };
    expect(result.words).toEqual([1, 2, 3, 0xdeadbeef]);
    expect(result.adapter).toMatch(/^vendor=/);
  });
});
