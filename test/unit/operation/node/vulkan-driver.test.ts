import { describe, expect, test } from 'vitest';
import {
  fallbackReason,
  icdManifestDirs,
  resolveVulkanDriver,
  type SystemProbe,
} from '../../../../src/node/vulkan-driver.js';

const BUNDLED = { folder: '/cache/ss', icdManifest: '/cache/ss/vk_swiftshader_icd.json', loaderDir: '/cache/ss' };

interface Machine {
  platform?: NodeJS.Platform;
  arch?: NodeJS.Architecture;
  env?: NodeJS.ProcessEnv;
  files?: string[];
  systemLoader?: boolean;
}

/** A fake machine: `files` lists every existing file; folders are derived from them. */
function probe({
  platform = 'linux',
  arch = 'x64',
  env = { HOME: '/home/u' },
  files = [],
  systemLoader = false,
}: Machine): SystemProbe & { unpacked: number } {
  const fake = {
    unpacked: 0,
    platform,
    arch,
    env,
    exists: (path: string) => files.includes(path),
    listDir: (dir: string) => files.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1)),
    linkerFinds: (library: string) => systemLoader && library === 'libvulkan.so.1',
    readFile: () => undefined,
    bundledSwiftShader: () => {
      fake.unpacked++;
      return BUNDLED;
    },
  };
  return fake;
}

const SYSTEM_ICD = '/usr/share/vulkan/icd.d/nvidia_icd.json';
const DEBIAN_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

describe('resolveVulkanDriver: the lookup order', () => {
  test('1. VK_ICD_FILENAMES set: kept, with the system loader', () => {
    const machine = probe({ env: { VK_ICD_FILENAMES: '/my/icd.json' }, systemLoader: true, files: [SYSTEM_ICD] });
    expect(resolveVulkanDriver(machine)).toEqual({ source: 'env', loaderDir: null });
    expect(machine.unpacked).toBe(0);
  });
  test('1. VK_DRIVER_FILES counts the same', () => {
    expect(resolveVulkanDriver(probe({ env: { VK_DRIVER_FILES: '/my/icd.json' }, systemLoader: true })).source).toBe(
      'env',
    );
  });
  test('1. VK_ICD_FILENAMES set but no system loader: the bundled loader is used with it', () => {
    expect(resolveVulkanDriver(probe({ env: { VK_ICD_FILENAMES: '/my/icd.json' } }))).toEqual({
      source: 'env',
      loaderDir: '/cache/ss',
    });
  });

  test('2. a system loader and a system ICD manifest: the system driver', () => {
    const machine = probe({ systemLoader: true, files: [SYSTEM_ICD, DEBIAN_ICD] });
    expect(resolveVulkanDriver(machine)).toEqual({ source: 'system', loaderDir: null });
    expect(machine.unpacked).toBe(0);
  });
  test('2. a system ICD manifest without a loader (the GPU driver mounted into a container): the bundled loader, told where the manifest is', () => {
    const machine = probe({ files: [SYSTEM_ICD, DEBIAN_ICD] });
    expect(resolveVulkanDriver(machine)).toEqual({ source: 'system', icdManifest: SYSTEM_ICD, loaderDir: '/cache/ss' });
    expect(machine.unpacked).toBe(1);
  });
  test("2. a manifest where NVIDIA's container runtime puts it, outside the loader's folders: named, with the system loader or the bundled one", () => {
    const vendor = '/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json';
    expect(resolveVulkanDriver(probe({ files: [vendor] }))).toEqual({
      source: 'system',
      icdManifest: vendor,
      loaderDir: '/cache/ss',
    });
    expect(resolveVulkanDriver(probe({ systemLoader: true, files: [vendor] }))).toEqual({
      source: 'system',
      icdManifest: vendor,
      loaderDir: null,
    });
    // Both kinds of folder: every manifest, the standard ones first.
    expect(resolveVulkanDriver(probe({ files: [vendor, SYSTEM_ICD] })).icdManifest).toBe(`${SYSTEM_ICD}:${vendor}`);
  });
  test('2. a system loader without an ICD manifest is not a system driver', () => {
    expect(resolveVulkanDriver(probe({ systemLoader: true })).source).toBe('bundled');
  });
  test('2. a file in icd.d that is not a manifest does not count', () => {
    expect(resolveVulkanDriver(probe({ systemLoader: true, files: ['/usr/share/vulkan/icd.d/README'] })).source).toBe(
      'bundled',
    );
  });

  test("3. Debian chromium's SwiftShader, with the system loader", () => {
    expect(resolveVulkanDriver(probe({ systemLoader: true, files: [DEBIAN_ICD] }))).toEqual({
      source: 'debian-chromium',
      icdManifest: DEBIAN_ICD,
      loaderDir: null,
    });
  });
  test("3. Debian chromium's SwiftShader, with the loader beside it when the system has none", () => {
    expect(resolveVulkanDriver(probe({ files: [DEBIAN_ICD, '/usr/lib/chromium/libvulkan.so.1'] }))).toEqual({
      source: 'debian-chromium',
      icdManifest: DEBIAN_ICD,
      loaderDir: '/usr/lib/chromium',
    });
  });
  test("3. Debian chromium's SwiftShader with no loader anywhere borrows the bundled loader", () => {
    expect(resolveVulkanDriver(probe({ files: [DEBIAN_ICD] })).loaderDir).toBe('/cache/ss');
  });

  test('4. nothing on the machine: the bundled SwiftShader and its loader', () => {
    expect(resolveVulkanDriver(probe({}))).toEqual({
      source: 'bundled',
      icdManifest: BUNDLED.icdManifest,
      loaderDir: '/cache/ss',
    });
  });
  test('4. the bundled SwiftShader uses a system loader when there is one', () => {
    expect(resolveVulkanDriver(probe({ systemLoader: true })).loaderDir).toBeNull();
  });

  test('D3D12_WEBGPU_VULKAN=bundled skips the environment, the system and Debian chromium', () => {
    const machine = probe({
      env: { D3D12_WEBGPU_VULKAN: 'bundled', VK_ICD_FILENAMES: '/my/icd.json' },
      systemLoader: true,
      files: [SYSTEM_ICD, DEBIAN_ICD],
    });
    expect(resolveVulkanDriver(machine)).toEqual({
      source: 'bundled',
      icdManifest: BUNDLED.icdManifest,
      loaderDir: null,
    });
  });

  test('the bundledOnly option (the fallback when a system driver yields no adapter) skips the system', () => {
    const machine = probe({ systemLoader: true, files: [SYSTEM_ICD] });
    expect(resolveVulkanDriver(machine, { bundledOnly: true })).toEqual({
      source: 'bundled',
      icdManifest: BUNDLED.icdManifest,
      loaderDir: null,
    });
  });

  test('an unknown D3D12_WEBGPU_VULKAN value is an error', () => {
    expect(() => resolveVulkanDriver(probe({ env: { D3D12_WEBGPU_VULKAN: 'swiftshader' } }))).toThrow(
      /auto or bundled/,
    );
  });

  test('linux-arm64 with no driver: a clear error instead of an x64 SwiftShader', () => {
    expect(() => resolveVulkanDriver(probe({ arch: 'arm64' }))).toThrow(/Linux x64 only \(this is arm64\)/);
  });
  test('linux-arm64 control: a system driver needs no bundled files', () => {
    expect(resolveVulkanDriver(probe({ arch: 'arm64', systemLoader: true, files: [SYSTEM_ICD] })).source).toBe(
      'system',
    );
  });

  for (const platform of ['darwin', 'win32'] as const) {
    test(`${platform}: Dawn's native backend, no Vulkan lookup`, () => {
      const machine = probe({ platform });
      expect(resolveVulkanDriver(machine)).toEqual({ source: 'native', loaderDir: null });
      expect(machine.unpacked).toBe(0);
    });
  }
});

describe('icdManifestDirs', () => {
  test("the loader's default folders, in its order", () => {
    expect(icdManifestDirs({ HOME: '/home/u' })).toEqual([
      '/home/u/.config/vulkan/icd.d',
      '/etc/xdg/vulkan/icd.d',
      '/etc/vulkan/icd.d',
      '/home/u/.local/share/vulkan/icd.d',
      '/usr/local/share/vulkan/icd.d',
      '/usr/share/vulkan/icd.d',
    ]);
  });
  test('the XDG variables replace the defaults', () => {
    expect(
      icdManifestDirs({
        HOME: '/h',
        XDG_CONFIG_HOME: '/c',
        XDG_CONFIG_DIRS: '/cd1:/cd2',
        XDG_DATA_HOME: '/d',
        XDG_DATA_DIRS: '/dd',
      }),
    ).toEqual([
      '/c/vulkan/icd.d',
      '/cd1/vulkan/icd.d',
      '/cd2/vulkan/icd.d',
      '/etc/vulkan/icd.d',
      '/d/vulkan/icd.d',
      '/dd/vulkan/icd.d',
    ]);
  });
});

describe('fallbackReason: why a system driver gave no adapter', () => {
  const nvidiaManifest =
    '{"file_format_version": "1.0.0", "ICD": {"library_path": "libGLX_nvidia.so.0", "api_version": "1.3"}}';
  const machine = (found: string[], manifest = nvidiaManifest) => ({
    linkerFinds: (library: string) => found.includes(library),
    readFile: () => manifest,
  });
  test("NVIDIA's driver without the GL dispatch libraries: names what is missing and the packages", () => {
    const reason = fallbackReason(
      { source: 'system', icdManifest: '/etc/vulkan/icd.d/vendor.json', loaderDir: '/cache/ss' },
      machine(['libGLX.so.0']),
    );
    expect(reason).toMatch(
      /NVIDIA's, which needs the GL dispatch libraries libGLdispatch\.so\.0 and libGLX\.so\.0 \(libglvnd: Debian\/Ubuntu packages libglvnd0 and libglx0\), and the dynamic linker does not find libGLdispatch\.so\.0$/,
    );
    expect(fallbackReason({ source: 'system', icdManifest: SYSTEM_ICD, loaderDir: null }, machine([], '{}'))).toMatch(
      /does not find libGLdispatch\.so\.0 or libGLX\.so\.0$/,
    );
  });
  test('control: with the libraries there, or another vendor, no GPU the driver can open', () => {
    expect(
      fallbackReason(
        { source: 'system', icdManifest: SYSTEM_ICD, loaderDir: null },
        machine(['libGLdispatch.so.0', 'libGLX.so.0']),
      ),
    ).toMatch(/gave Dawn no adapter \(no GPU it can open here\)$/);
    expect(
      fallbackReason(
        { source: 'system', icdManifest: '/usr/share/vulkan/icd.d/radeon_icd.json', loaderDir: null },
        machine([], '{"ICD": {"library_path": "libvulkan_radeon.so"}}'),
      ),
    ).toMatch(/radeon_icd\.json\) gave Dawn no adapter/);
    expect(fallbackReason({ source: 'system', loaderDir: null }, machine([]))).toBe(
      'the system Vulkan driver gave Dawn no adapter (no GPU it can open here)',
    );
  });
});
