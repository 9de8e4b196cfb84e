/**
 * Loads Dawn's Node.js addon (`dawn.node` from the npm package `webgpu`).
 *
 * Dawn opens the Vulkan loader by name (`libvulkan.so.1`), searching first the folder of its own
 * module, then the dynamic linker's path. When the linker cannot find a loader (no system Vulkan,
 * no LD_LIBRARY_PATH), a copy of `dawn.node` is placed in a cache folder beside a copy of the loader
 * and loaded from there, so no environment has to be set before Node.js starts.
 *
 * The addon is loaded by path rather than through the package's index.js, so it resolves from a
 * bundle too (CommonJS resolution honours NODE_PATH, as the GPU machine's env.sh expects).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cachedFolder } from './runtime-cache.js';

export interface DawnModule {
  /** Returns a `GPU` (navigator.gpu); flags are Dawn's, e.g. `enable-dawn-features=...`. */
  create(flags: string[]): GPU;
  /** The WebGPU interface objects and constants (`GPUBufferUsage`, `GPUMapMode`, ...). */
  globals: Record<string, unknown>;
}

const require = createRequire(import.meta.url);

function webgpuPackage(): { dir: string; version: string } {
  let manifest: string;
  try {
    manifest = require.resolve('webgpu/package.json');
  } catch {
    throw new Error('the npm package "webgpu" (Dawn for Node.js) is not installed: npm install webgpu');
  }
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { dir: dirname(manifest), version };
}

function addonPath(packageDir: string): string {
  const arch = process.platform === 'darwin' ? 'universal' : process.arch;
  return join(packageDir, 'dist', `${process.platform}-${arch}`, 'dawn.node');
}

const loaded = new Map<string, DawnModule>();

/** Loads Dawn; `loaderDir` is the folder of a `libvulkan.so.1` the dynamic linker cannot find. */
export function loadDawn(loaderDir: string | null): DawnModule {
  const key = loaderDir ?? '';
  const cached = loaded.get(key);
  if (cached) return cached;

  const pkg = webgpuPackage();
  let addon = addonPath(pkg.dir);
  if (loaderDir !== null) {
    const tag = createHash('sha256').update(loaderDir).digest('hex').slice(0, 12);
    const folder = cachedFolder(`dawn-${pkg.version}-beside-loader-${tag}`, (dir) => {
      copyFileSync(addon, join(dir, 'dawn.node'));
      copyFileSync(join(loaderDir, 'libvulkan.so.1'), join(dir, 'libvulkan.so.1'));
    });
    addon = join(folder, 'dawn.node');
  }
  const dawn = require(addon) as DawnModule;
  loaded.set(key, dawn);
  return dawn;
}
