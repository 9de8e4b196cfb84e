/**
 * `npm run validate` without a GPU: its flags (validate/node/args.ts), the exit code and output of a
 * refused command line, and the static server of its browser target (tools/browser/static-server.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseCliArgs, USAGE } from '../../../../validate/node/args.js';
import { runCli } from '../../../../validate/node/run-cli.js';
import { resolveStaticPath, serveStatic } from '../../../../tools/browser/static-server.js';
import { validationChromiumArgs } from '../../../../validate/node/browser-target.js';

describe('flags', () => {
  test('defaults: seed 1, 1 seed, 500 ops, tier 3, no plant, both targets', () => {
    expect(parseCliArgs([])).toEqual({
      ok: true,
      value: { seed: 1, seeds: 1, ops: 500, tier: 3, targets: ['node', 'browser'], help: false },
    });
  });

  test('every flag read', () => {
    expect(
      parseCliArgs(['--seeds=3', '--ops=40', '--seed=0x20', '--tier=2', '--plant=corrupt-entry', '--target=node']),
    ).toEqual({
      ok: true,
      value: { seed: 32, seeds: 3, ops: 40, tier: 2, plant: 'corrupt-entry', targets: ['node'], help: false },
    });
    expect(parseCliArgs(['--target=browser'])).toMatchObject({ ok: true, value: { targets: ['browser'] } });
    expect(parseCliArgs(['--help'])).toMatchObject({ ok: true, value: { help: true } });
  });

  test('bad values, unknown flags and stray arguments are refused, each named', () => {
    expect(
      parseCliArgs(['--ops=0', '--tier=x', '--target=gpu', '--plant=yes', '--opps=3', '--ops', 'seeds=2']),
    ).toEqual({
      ok: false,
      errors: [
        'unexpected argument "--ops" (flags take the form --name=value)',
        'unexpected argument "seeds=2" (flags take the form --name=value)',
        '--ops must be an integer from 1 to 1000000, got "0"',
        '--tier must be one of 1, 2, 3, 4 (the tiled resources tier), got "x"',
        '--target must be node, browser or both, got "gpu"',
        '--plant must be corrupt-entry or drop-write (or off), got "yes"',
        'unknown flag --opps (known: --seed, --seeds, --ops, --tier, --plant, --target)',
      ],
    });
    expect(parseCliArgs(['--seeds=2', '--seeds=3'])).toEqual({ ok: false, errors: ['--seeds is given twice'] });
  });

  test('a refused command line prints the errors and the usage, runs nothing and exits 2', async () => {
    const lines: string[] = [];
    expect(await runCli(['--ops=abc'], { log: (line) => lines.push(line) })).toBe(2);
    expect(lines).toEqual(['validate: --ops must be an integer from 1 to 1000000, got "abc"', USAGE]);
  });

  test('--help prints the usage and exits 0', async () => {
    const lines: string[] = [];
    expect(await runCli(['--help'], { log: (line) => lines.push(line) })).toBe(0);
    expect(lines).toEqual([USAGE]);
  });

  test('Chromium runs on the GPU unless D3D12_WEBGPU_BROWSER_GPU=software', () => {
    expect(validationChromiumArgs({})).toContain('--enable-unsafe-webgpu');
    expect(validationChromiumArgs({}).some((arg) => arg.includes('swiftshader'))).toBe(false);
    expect(validationChromiumArgs({ D3D12_WEBGPU_BROWSER_GPU: 'software' })).toContain('--use-vulkan=swiftshader');
  });
});

describe('static server', () => {
  const root = mkdtempSync(join(tmpdir(), 'validate-page-'));
  mkdirSync(join(root, 'validation'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'validation', 'index.html'), '<!doctype html><title>v</title>');
  writeFileSync(join(root, 'assets', 'main.js'), 'export {};');
  writeFileSync(join(root, 'assets', 'style.css'), 'body {}');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test('resolves files and folders (a folder without its slash redirects), refuses paths outside the root', () => {
    expect(resolveStaticPath(root, '/validation/?seed=1')).toEqual({ file: join(root, 'validation', 'index.html') });
    expect(resolveStaticPath(root, '/validation?seed=1')).toEqual({ redirect: '/validation/?seed=1' });
    expect(resolveStaticPath(root, '/assets/main.js')).toEqual({ file: join(root, 'assets', 'main.js') });
    expect(resolveStaticPath(root, '/../etc/passwd')).toBeUndefined();
    expect(resolveStaticPath(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
    expect(resolveStaticPath(root, '/missing.js')).toBeUndefined();
    expect(resolveStaticPath(root, '/assets/')).toBeUndefined();
    expect(resolveStaticPath(root, '/%E0%A4%A')).toBeUndefined();
  });

  test('serves them on 127.0.0.1 with their content types; 404 otherwise', async () => {
    const server = await serveStatic(root);
    try {
      expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page = await fetch(`${server.origin}/validation/?seed=2`);
      expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([
        200,
        'text/html; charset=utf-8',
        '<!doctype html><title>v</title>',
      ]);
      const script = await fetch(`${server.origin}/assets/main.js`);
      expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      expect((await fetch(`${server.origin}/assets/style.css`)).headers.get('content-type')).toBe(
        'text/css; charset=utf-8',
      );
      const redirect = await fetch(`${server.origin}/validation?seed=2`, { redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/validation/?seed=2']);
      expect((await fetch(`${server.origin}/nothing`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
