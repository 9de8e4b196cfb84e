/**
 * A cache folder for runtime files unpacked on first use (SwiftShader, the bundled Chromium, a copy
 * of Dawn placed beside a Vulkan loader).
 *
 * Invariants: an entry is either absent or complete. It is filled in a private temporary folder and
 * renamed into place in one step, so concurrent processes (vitest workers) never see half an entry;
 * the loser of a race discards its copy and uses the winner's.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Returns the folder `<cache root>/<name>`, calling `fill(folder)` to create it if it does not
 * exist yet. `name` should carry a version, so that a new version gets a new entry.
 */
export function cachedFolder(name: string, fill: (folder: string) => void, root = cacheRoot()): string {
  const folder = join(root, name);
  if (existsSync(join(folder, COMPLETE_MARKER))) return folder;

  mkdirSync(root, { recursive: true });
  const staging = join(root, `${name}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    mkdirSync(staging);
    fill(staging);
    writeFileSync(join(staging, COMPLETE_MARKER), new Date().toISOString());
    // A leftover without the marker (a process killed mid-rename) is stale: clear it first.
    if (existsSync(folder) && !existsSync(join(folder, COMPLETE_MARKER))) {
      rmSync(folder, { recursive: true, force: true });
    }
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another process renamed its complete copy into place first: use that one.
      if (!existsSync(join(folder, COMPLETE_MARKER))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return folder;
}
