/**
 * Finds a Vulkan driver for Dawn on Linux, in this order:
 *   1. `VK_ICD_FILENAMES` / `VK_DRIVER_FILES` already set by the user (kept as they are),
 *   2. a system driver: an ICD manifest in the loader's standard folders (or where NVIDIA's
 *      container runtime puts it), with the system's Vulkan loader, or, on a machine that has the
 *      GPU driver but no `libvulkan.so.1` (a container with only the driver mounted), with the
 *      loader shipped beside the bundled SwiftShader and the manifests named in `VK_ICD_FILENAMES`,
 *   3. SwiftShader from Debian's chromium package (`/usr/lib/chromium`),
 *   4. SwiftShader shipped inside `@sparticuz/chromium`, unpacked once into the runtime cache.
 * `D3D12_WEBGPU_VULKAN=bundled` skips 1 to 3, as a machine with only Node.js would. The bundled
 * SwiftShader is a Linux x64 build.
 *
 * The result also says where the Vulkan loader (`libvulkan.so.1`) is when the dynamic linker
 * cannot find one by itself (`loaderDir`); `dawn-module.ts` then loads Dawn beside it.
 * Other platforms (macOS: Metal, Windows: D3D12) need none of this.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { bundledSwiftShader, type SwiftShaderFiles } from './bundled-chromium.js';

export type VulkanDriverSource = 'native' | 'env' | 'system' | 'debian-chromium' | 'bundled';

export interface VulkanDriver {
  source: VulkanDriverSource;
  /** An ICD manifest to export as `VK_ICD_FILENAMES`; undefined leaves the loader's own search. */
  icdManifest?: string;
  /** The folder of the `libvulkan.so.1` to use; null where the dynamic linker finds one itself. */
  loaderDir: string | null;
}

const LOADER = 'libvulkan.so.1';
const DEBIAN_CHROMIUM_DIR = '/usr/lib/chromium';
/**
 * Where NVIDIA's container runtime mounts the driver's ICD manifest besides the standard folders;
 * the loader does not search it, so a manifest found only here is named in VK_ICD_FILENAMES.
 */
const VENDOR_ICD_DIRS = ['/usr/local/nvidia/share/vulkan/icd.d'];

/** What the resolver asks of the machine; replaced in unit tests. */
export interface SystemProbe {
  platform: NodeJS.Platform;
  arch: NodeJS.Architecture;
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
  listDir(path: string): string[];
  /** Whether the dynamic linker finds `library` by name (ld.so cache, default folders, LD_LIBRARY_PATH). */
  linkerFinds(library: string): boolean;
  /** A small text file's contents (an ICD manifest), or undefined. */
  readFile(path: string): string | undefined;
  bundledSwiftShader(): SwiftShaderFiles;
}

/** The folders where the Vulkan loader looks for ICD manifests on Linux, in its order. */
export function icdManifestDirs(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? homedir();
  const configHome = env.XDG_CONFIG_HOME || join(home, '.config');
  const configDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':');
  const dataHome = env.XDG_DATA_HOME || join(home, '.local/share');
  const dataDirs = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':');
  return [configHome, ...configDirs, '/etc', dataHome, ...dataDirs]
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'vulkan/icd.d'));
}

export interface ResolveOptions {
  /** Skip the environment, the system and Debian chromium (as `D3D12_WEBGPU_VULKAN=bundled`). */
  bundledOnly?: boolean;
}

export function resolveVulkanDriver(probe: SystemProbe = machineProbe(), options: ResolveOptions = {}): VulkanDriver {
  if (probe.platform !== 'linux') return { source: 'native', loaderDir: null };

  const mode = probe.env.D3D12_WEBGPU_VULKAN ?? 'auto';
  if (mode !== 'auto' && mode !== 'bundled') {
    throw new Error(`D3D12_WEBGPU_VULKAN must be auto or bundled, not "${mode}"`);
  }
  const systemLoader = probe.linkerFinds(LOADER);
  const bundledOnly = options.bundledOnly === true || mode === 'bundled';
  const bundled = (): SwiftShaderFiles => {
    if (probe.arch !== 'x64') {
      throw new Error(
        `no Vulkan driver found, and the bundled SwiftShader is Linux x64 only (this is ${probe.arch}): install a Vulkan driver (e.g. mesa-vulkan-drivers) or set VK_ICD_FILENAMES`,
      );
    }
    return probe.bundledSwiftShader();
  };
  // Any loader works with any ICD: prefer the system's, else the one shipped with SwiftShader.
  const loaderDir = (): string | null => (systemLoader ? null : bundled().loaderDir);

  if (!bundledOnly) {
    if (probe.env.VK_ICD_FILENAMES || probe.env.VK_DRIVER_FILES) {
      return { source: 'env', loaderDir: loaderDir() };
    }
    const manifests = (dirs: string[]): string[] =>
      dirs.flatMap((dir) =>
        probe
          .listDir(dir)
          .filter((file) => file.endsWith('.json'))
          .map((file) => join(dir, file)),
      );
    const standard = manifests(icdManifestDirs(probe.env));
    const vendor = manifests(VENDOR_ICD_DIRS);
    if (systemLoader && standard.length > 0) return { source: 'system', loaderDir: null };
    if (standard.length + vendor.length > 0 && probe.arch === 'x64') {
      // The GPU driver is here but the loader is not (or the manifest is where the loader does not
      // look): the bundled loader, told where the manifests are.
      return { source: 'system', icdManifest: [...standard, ...vendor].join(':'), loaderDir: loaderDir() };
    }

    const debianIcd = join(DEBIAN_CHROMIUM_DIR, 'vk_swiftshader_icd.json');
    if (probe.exists(debianIcd)) {
      const beside = probe.exists(join(DEBIAN_CHROMIUM_DIR, LOADER)) && !systemLoader;
      return {
        source: 'debian-chromium',
        icdManifest: debianIcd,
        loaderDir: beside ? DEBIAN_CHROMIUM_DIR : loaderDir(),
      };
    }
  }
  const swiftShader = bundled();
  return {
    source: 'bundled',
    icdManifest: swiftShader.icdManifest,
    loaderDir: systemLoader ? null : swiftShader.loaderDir,
  };
}

/** What NVIDIA's Vulkan driver loads beside itself: the GL vendor-neutral dispatch (libglvnd). */
const NVIDIA_NEEDS = ['libGLdispatch.so.0', 'libGLX.so.0'];

/**
 * Why a system driver gave Dawn no adapter, in words for the one warning createNodeDevice prints
 * before it falls back to SwiftShader: NVIDIA's driver without the GL dispatch libraries it needs,
 * or (nothing missing that we know of) no GPU that driver can open.
 */
export function fallbackReason(
  driver: VulkanDriver,
  probe: Pick<SystemProbe, 'linkerFinds' | 'readFile'> = machineProbe(),
): string {
  const manifests = driver.icdManifest ? driver.icdManifest.split(':') : [];
  const nvidia = manifests.some((path) => /nvidia/i.test(path) || /GLX_nvidia/.test(probe.readFile(path) ?? ''));
  const missing = nvidia ? NVIDIA_NEEDS.filter((library) => !probe.linkerFinds(library)) : [];
  const where = manifests.length > 0 ? ` (${manifests.join(', ')})` : '';
  if (missing.length > 0) {
    return `the system Vulkan driver${where} is NVIDIA's, which needs the GL dispatch libraries ${NVIDIA_NEEDS.join(' and ')} (libglvnd: Debian/Ubuntu packages libglvnd0 and libglx0), and the dynamic linker does not find ${missing.join(' or ')}`;
  }
  return `the system Vulkan driver${where} gave Dawn no adapter (no GPU it can open here)`;
}

/** The folders the dynamic linker searches without an ld.so cache entry. */
function defaultLibraryDirs(): string[] {
  const triplet = process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
  return [`/lib/${triplet}`, `/usr/lib/${triplet}`, '/lib64', '/usr/lib64', '/lib', '/usr/lib'];
}

function ldconfigKnows(library: string): boolean {
  for (const ldconfig of ['/sbin/ldconfig', '/usr/sbin/ldconfig', 'ldconfig']) {
    try {
      const cache = execFileSync(ldconfig, ['-p'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return cache.split('\n').some((line) => line.trim().startsWith(`${library} `));
    } catch {
      // try the next location
    }
  }
  return false;
}

export function machineProbe(): SystemProbe {
  return {
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    exists: existsSync,
    listDir: (path) => {
      try {
        return readdirSync(path);
      } catch {
        return [];
      }
    },
    linkerFinds: (library) => {
      // LD_LIBRARY_PATH counts only as the process started with it; later changes do not reach ld.so.
      const searched = [...(process.env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean), ...defaultLibraryDirs()];
      return searched.some((dir) => existsSync(join(dir, library))) || ldconfigKnows(library);
    },
    readFile: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    bundledSwiftShader,
  };
}
