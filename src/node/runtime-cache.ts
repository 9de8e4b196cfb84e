/**
 * A cache folder for runtime files unpacked on first use (SwiftShader, the bundled Chromium, a copy
 * of Dawn placed beside a Vulkan loader).
 *
 * Invariants: an entry is either absent or complete. It is filled in a private staging folder and
 * renamed into place in one step, so concurrent processes (vitest workers) never see half an entry;
 * the loser of a race discards its copy and uses the winner's. Leftovers of killed processes (staging
 * folders, an entry without its completion marker) are moved aside atomically before they are
 * deleted; at worst a racing process swaps a complete entry for its own complete copy, which is
 * harmless on Linux (files already open or loaded stay valid).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Written last into a filled entry; an entry without it is ignored and rebuilt. */
const COMPLETE_MARKER = '.complete';

/**
 * The cache root: `D3D12_WEBGPU_CACHE_DIR`, else `$XDG_CACHE_HOME/d3d12-webgpu`, else
 * `~/.cache/d3d12-webgpu`.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.D3D12_WEBGPU_CACHE_DIR) return env.D3D12_WEBGPU_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'd3d12-webgpu');
}

const uniqueSuffix = (): string => `${process.pid}-${Math.random().toString(36).slice(2)}`;

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Moves `path` aside under a unique name (atomic), then deletes it; gone already is fine. */
function discard(path: string): void {
  const aside = `${path}.stale-${uniqueSuffix()}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  rmSync(aside, { recursive: true, force: true });
}

/** Deletes staging folders of `name` whose process has died, and stale folders moved aside. */
function sweepLeftovers(root: string, name: string): void {
  for (const entry of readdirSync(root)) {
    if (!entry.startsWith(`${name}.`)) continue;
    const staging = /\.tmp-(\d+)-[a-z0-9]+$/.exec(entry);
    const stale = /\.stale-\d+-[a-z0-9]+$/.test(entry);
    if ((staging && !processIsAlive(Number(staging[1]))) || stale) {
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
}

/**
 * Returns the folder `<cache root>/<name>`, calling `fill(folder)` to create it if it does not
 * exist yet. `name` should carry a version, so that a new version gets a new entry.
 */
export function cachedFolder(name: string, fill: (folder: string) => void, root = cacheRoot()): string {
  const folder = join(root, name);
  const complete = (): boolean => existsSync(join(folder, COMPLETE_MARKER));
  if (complete()) return folder;

  mkdirSync(root, { recursive: true });
  sweepLeftovers(root, name);
  const staging = join(root, `${name}.tmp-${uniqueSuffix()}`);
  try {
    mkdirSync(staging);
    fill(staging);
    writeFileSync(join(staging, COMPLETE_MARKER), new Date().toISOString());
    // A folder without the marker is a leftover (a delete that was interrupted): set it aside.
    if (existsSync(folder) && !complete()) discard(folder);
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another process renamed its complete copy into place first: use that one.
      if (!complete()) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return folder;
}
