/**
 * Loads Dawn's Node.js addon (`dawn.node` from the npm package `webgpu`).
 *
 * Dawn opens the Vulkan loader by name (`libvulkan.so.1`), searching first the folder of its own
 * module, then the dynamic linker's path. When the linker cannot find a loader (no system Vulkan,
 * no LD_LIBRARY_PATH), a copy of `dawn.node` is placed in a cache folder beside a copy of the loader
 * and loaded from there, so no environment has to be set before Node.js starts.
 *
 * The addon is loaded by path rather than through the package's index.js, so it resolves from a
 * bundle too (CommonJS resolution honours NODE_PATH, as the GPU machine's env.sh expects); the one
 * fix that index.js applies (destroy() unmaps the device's buffers, as the WebGPU spec says) is
 * applied here. A process that also imports `webgpu` itself gets a second copy of Dawn, whose
 * objects are not `instanceof` this copy's classes.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
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

/** Names a file's current content cheaply: a new build of either file gets a new cache entry. */
function fileIdentity(path: string): string {
  const { size, mtimeMs } = statSync(path);
  return `${path}:${size}:${mtimeMs}`;
}

/**
 * dawn.node leaves a destroyed device's buffers mapped, with their ArrayBuffers attached; the
 * WebGPU spec (and a browser) unmaps them. Buffers are tracked weakly per device and the live mapped
 * ones unmapped on destroy. The key is the one the `webgpu` package uses, so neither patches twice.
 */
const PATCHED = Symbol.for('webgpu.deviceDestroyUnmapsBuffers');

function patchDestroyUnmapsBuffers(globals: Record<string, unknown>): void {
  const prototype = (globals.GPUDevice as { prototype?: Record<PropertyKey, unknown> } | undefined)?.prototype;
  if (!prototype || prototype[PATCHED]) return;
  const buffersOf = new WeakMap<GPUDevice, Set<WeakRef<GPUBuffer>>>();
  const createBuffer = prototype.createBuffer as GPUDevice['createBuffer'];
  const destroy = prototype.destroy as GPUDevice['destroy'];
  prototype.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor): GPUBuffer {
    const buffer = createBuffer.call(this, descriptor);
    let buffers = buffersOf.get(this);
    if (!buffers) buffersOf.set(this, (buffers = new Set()));
    buffers.add(new WeakRef(buffer));
    // Drop references to collected buffers now and then, so the set tracks live ones only.
    if (buffers.size % 1024 === 0) for (const ref of buffers) if (!ref.deref()) buffers.delete(ref);
    return buffer;
  };
  prototype.destroy = function (this: GPUDevice): void {
    for (const ref of buffersOf.get(this) ?? []) {
      const buffer = ref.deref();
      if (buffer?.mapState === 'mapped') buffer.unmap();
    }
    buffersOf.delete(this);
    destroy.call(this);
  };
  prototype[PATCHED] = true;
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
    const loader = join(loaderDir, 'libvulkan.so.1');
    const tag = createHash('sha256')
      .update(`${fileIdentity(addon)}|${fileIdentity(loader)}`)
      .digest('hex')
      .slice(0, 16);
    const folder = cachedFolder(`dawn-${pkg.version}-beside-loader-${tag}`, (dir) => {
      copyFileSync(addon, join(dir, 'dawn.node'));
      copyFileSync(loader, join(dir, 'libvulkan.so.1'));
    });
    addon = join(folder, 'dawn.node');
  }
  const dawn = require(addon) as DawnModule;
  patchDestroyUnmapsBuffers(dawn.globals);
  loaded.set(key, dawn);
  return dawn;
}
