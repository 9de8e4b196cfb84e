/**
 * The two kinds of build the runners share (bench/vite.config.ts, validate/vite.config.ts):
 *   nodeBundle   one ES module file for Node, every dependency inlined but Node's built-ins, the dev
 *                server, the browser driver and Dawn (found at run time by path), so a machine with
 *                no npm (the H200) runs the very same file
 *   staticPage   a demo page (demo/<name>/index.html), and the pages it opens, as static files with
 *                relative URLs, for a runner to serve where there is no vite
 */
import { builtinModules } from 'node:module';
import type { UserConfig } from 'vite';

export function nodeBundle(
  root: string,
  options: { entry: string; outDir: string; fileName: string; define?: Record<string, string>; oneFile?: boolean },
): UserConfig {
  return {
    root,
    logLevel: 'warn',
    ...(options.define ? { define: options.define } : {}),
    build: {
      ssr: `${root}${options.entry}`,
      outDir: `${root}${options.outDir}`,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      rolldownOptions: {
        external: [/^node:/, ...builtinModules, 'vite', 'puppeteer-core', 'webgpu'],
        // oneFile: modules the entry loads lazily are inlined rather than split off.
        output: {
          entryFileNames: options.fileName,
          format: 'es',
          ...(options.oneFile ? { codeSplitting: false } : {}),
        },
      },
    },
    ssr: { noExternal: true },
  };
}

/** `alsoPages`: other demo pages the page opens (the scene-frame-time figure runs the scenes in iframes). */
export function staticPage(
  root: string,
  options: { page: string; outDir: string; chunkSizeWarningLimit?: number; alsoPages?: readonly string[] },
): UserConfig {
  return {
    root: `${root}demo`,
    base: './',
    logLevel: 'warn',
    build: {
      outDir: `${root}${options.outDir}`,
      emptyOutDir: true,
      target: 'es2022',
      ...(options.chunkSizeWarningLimit ? { chunkSizeWarningLimit: options.chunkSizeWarningLimit } : {}),
      rolldownOptions: {
        input: Object.fromEntries(
          [options.page, ...(options.alsoPages ?? [])].map((page) => [page, `${root}demo/${page}/index.html`]),
        ),
      },
    },
  };
}
