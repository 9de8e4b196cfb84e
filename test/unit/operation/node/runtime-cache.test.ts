import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { cacheRoot, cachedFolder } from '../../../../src/node/runtime-cache.js';

/** A fresh cache root, removed when the test finishes. */
function newRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'cache-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('cacheRoot', () => {
  test('D3D12_WEBGPU_CACHE_DIR wins, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(cacheRoot({ D3D12_WEBGPU_CACHE_DIR: '/x', XDG_CACHE_HOME: '/y' })).toBe('/x');
    expect(cacheRoot({ XDG_CACHE_HOME: '/y' })).toBe('/y/d3d12-webgpu');
    expect(cacheRoot({})).toMatch(/\.cache\/d3d12-webgpu$/);
  });
});

describe('cachedFolder', () => {
  test('fills an entry once and reuses it', () => {
    const root = newRoot();
    let fills = 0;
    const fill = (dir: string): void => {
      fills++;
      writeFileSync(join(dir, 'data'), 'v1');
    };
    const first = cachedFolder('thing-1', fill, root);
    const second = cachedFolder('thing-1', fill, root);
    expect(first).toBe(join(root, 'thing-1'));
    expect(second).toBe(first);
    expect(fills).toBe(1);
    expect(readFileSync(join(first, 'data'), 'utf8')).toBe('v1');
  });

  test('a failed fill leaves neither the entry nor its staging folder', () => {
    const root = newRoot();
    expect(() =>
      cachedFolder(
        'broken',
        (dir) => {
          writeFileSync(join(dir, 'half'), 'x');
          throw new Error('disk full');
        },
        root,
      ),
    ).toThrow('disk full');
    expect(readdirSync(root)).toEqual([]);
  });

  test('an entry without its completion marker is rebuilt', () => {
    const root = newRoot();
    mkdirSync(join(root, 'stale'));
    writeFileSync(join(root, 'stale', 'half'), 'x');
    const folder = cachedFolder('stale', (dir) => writeFileSync(join(dir, 'whole'), 'y'), root);
    expect(existsSync(join(folder, 'half'))).toBe(false);
    expect(readFileSync(join(folder, 'whole'), 'utf8')).toBe('y');
  });

  test("a dead process's staging folder is swept; a live process's is left alone", () => {
    const root = newRoot();
    const dead = join(root, `swept.tmp-${deadPid()}-abc123`);
    const live = join(root, `swept.tmp-${process.pid}-def456`);
    for (const dir of [dead, live]) mkdirSync(dir);
    cachedFolder('swept', (dir) => writeFileSync(join(dir, 'x'), 'x'), root);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  test('when another process completes the entry first, its copy is used and ours discarded', () => {
    const root = newRoot();
    const folder = cachedFolder(
      'raced',
      (dir) => {
        writeFileSync(join(dir, 'who'), 'loser');
        // The "other process" finishes while we are still filling.
        cachedFolder('raced', (other) => writeFileSync(join(other, 'who'), 'winner'), root);
      },
      root,
    );
    expect(readFileSync(join(folder, 'who'), 'utf8')).toBe('winner');
    expect(readdirSync(root)).toEqual(['raced']);
  });
});
