/**
 * Unpacks the files shipped, brotli-compressed, by the npm package `@sparticuz/chromium`: a Linux
 * x64 Chromium (headless shell), SwiftShader (a CPU Vulkan driver plus the Vulkan loader), fonts,
 * and the NSS libraries the shell links against. This is the fallback that lets a machine with only
 * Node.js run WebGPU, in Node through Dawn and in a headless browser.
 *
 * Each unpacked set lives in the runtime cache under the package version, so it is unpacked once.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { cacheRoot, cachedFolder } from './runtime-cache.js';
import { extractTar } from './untar.js';

const PACKAGE = '@sparticuz/chromium';

export interface BundlePackage {
  version: string;
  /** The folder holding `chromium.br`, `swiftshader.tar.br`, `fonts.tar.br` and `al2023.tar.br`. */
  binDir: string;
}

/** Finds the installed `@sparticuz/chromium`, or explains how to get it. */
export function findBundlePackage(): BundlePackage {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(PACKAGE);
  } catch {
    throw new Error(
      `${PACKAGE} is not installed; it provides the fallback Chromium and SwiftShader (npm install -D ${PACKAGE}@147.0.0)`,
    );
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === PACKAGE && pkg.version) return { version: pkg.version, binDir: join(dir, 'bin') };
  }
  throw new Error(`cannot find the package folder of ${PACKAGE} above ${entry}`);
}

function unbrotli(file: string): Buffer {
  return brotliDecompressSync(readFileSync(file));
}

/** Paths inside an unpacked SwiftShader folder. */
export interface SwiftShaderFiles {
  folder: string;
  /** The Vulkan ICD manifest, for `VK_ICD_FILENAMES`. */
  icdManifest: string;
  /** The folder holding `libvulkan.so.1`, the Vulkan loader. */
  loaderDir: string;
}

/** Unpacks (once) SwiftShader and the Vulkan loader that ship with `@sparticuz/chromium`. */
export function bundledSwiftShader(): SwiftShaderFiles {
  const pkg = findBundlePackage();
  const folder = cachedFolder(`sparticuz-${pkg.version}-swiftshader`, (dir) => {
    extractTar(unbrotli(join(pkg.binDir, 'swiftshader.tar.br')), dir);
  });
  return { folder, icdManifest: join(folder, 'vk_swiftshader_icd.json'), loaderDir: folder };
}

/** A fontconfig file that makes Chromium find the bundle's fonts (its shipped one names Lambda paths). */
function fontConfig(fontDir: string, fontCacheDir: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    `  <dir>${fontDir}</dir>`,
    `  <cachedir>${fontCacheDir}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

/** Whether `executable --version` runs: false when the dynamic linker cannot load its libraries. */
function startsWith(executable: string, env: NodeJS.ProcessEnv): boolean {
  return spawnSync(executable, ['--version'], { env, stdio: 'ignore', timeout: 30_000 }).status === 0;
}

/** Paths inside an unpacked bundled Chromium. */
export interface BundledChromium {
  executable: string;
  version: string;
  /** Environment the browser process needs: its fonts, and its own NSS where the system has none. */
  env: Record<string, string>;
}

/**
 * Unpacks (once) the bundled headless Chromium, with SwiftShader beside the executable (where
 * Chromium looks for its Vulkan loader and driver), the bundled fonts, and the NSS libraries built
 * for Amazon Linux (`lib/`), which are used only where the system lacks them.
 */
export function bundledChromium(): BundledChromium {
  const pkg = findBundlePackage();
  const swiftShader = bundledSwiftShader();
  const name = `sparticuz-${pkg.version}-chromium`;
  // fonts.conf must name the final folder, not the staging folder it is written in.
  const finalFolder = join(cacheRoot(), name);
  const folder = cachedFolder(name, (dir) => {
    writeFileSync(join(dir, 'chromium'), unbrotli(join(pkg.binDir, 'chromium.br')), { mode: 0o755 });
    for (const file of readdirSync(swiftShader.folder).filter((f) => !f.startsWith('.'))) {
      copyFileSync(join(swiftShader.folder, file), join(dir, file));
    }
    extractTar(unbrotli(join(pkg.binDir, 'fonts.tar.br')), dir);
    extractTar(unbrotli(join(pkg.binDir, 'al2023.tar.br')), dir);
    writeFileSync(join(dir, 'fonts.conf'), fontConfig(join(finalFolder, 'fonts'), join(finalFolder, 'fonts-cache')));
  });
  const executable = join(folder, 'chromium');
  const env: Record<string, string> = { FONTCONFIG_PATH: folder };
  // The system's NSS where it has one (Debian's matches the system); the bundle's where it has none.
  if (!startsWith(executable, { ...process.env, ...env })) {
    env.LD_LIBRARY_PATH = [join(folder, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  return { executable, version: pkg.version, env };
}
