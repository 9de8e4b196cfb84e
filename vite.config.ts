/**
 * One vite configuration, two jobs:
 *   vite build               the library: src/index.ts (browser), src/node/index.ts (Node.js),
 *                            src/validate/index.ts (d3d12-webgpu/validate), src/streaming/index.ts
 *                            (d3d12-webgpu/streaming), src/testing/index.ts (d3d12-webgpu/testing)
 *                            and src/d3dx12/index.ts (d3d12-webgpu/d3dx12)
 *                            as ES modules in dist/
 *                            (types come from tsc -p tsconfig.build.json)
 *   vite --mode demo         the demo server (npm start), on 127.0.0.1
 *   vite build --mode demo   the demo as a static site in demo-dist/
 * WGSL is imported with `?raw` everywhere (library, demo, tests), so shaders stay in shaders/*.wgsl.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { ISOLATION_HEADERS } from './bench/node/page-server.js';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The scene folders under demo/: those with a meta.ts (demo/scenes.ts lists them on the index page). */
const DEMO_SCENES = readdirSync(`${root}demo`).filter((name) => existsSync(`${root}demo/${name}/meta.ts`));

export default defineConfig(({ mode }) => {
  if (mode === 'demo') {
    return {
      root: `${root}demo`,
      clearScreen: false,
      // Cross-origin isolation, so the benchmark page's performance.now() has 5 µs resolution
      // instead of 100 µs (Chromium coarsens timers of pages that are not isolated).
      server: { host: '127.0.0.1', port: 5173, fs: { allow: [root] }, headers: ISOLATION_HEADERS },
      preview: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
      // Demo pages import shaders/ and src/ from outside demo/. Every page is an entry (a
      // multi-page site): the index and one folder per scene.
      build: {
        outDir: `${root}demo-dist`,
        emptyOutDir: true,
        target: 'es2022',
        rolldownOptions: {
          input: Object.fromEntries(
            ['index', ...DEMO_SCENES].map((name) => [
              name,
              `${root}demo/${name === 'index' ? '' : `${name}/`}index.html`,
            ]),
          ),
        },
      },
    };
  }
  return {
    build: {
      target: 'es2022',
      outDir: 'dist',
      sourcemap: true,
      // Readable output: consumers' bundlers minify.
      minify: false,
      lib: {
        // validate: d3d12-webgpu/validate (src/validate/), the GPU-vs-CPU validation runs, a client of the public API.
        entry: {
          index: `${root}src/index.ts`,
          node: `${root}src/node/index.ts`,
          validate: `${root}src/validate/index.ts`,
          // streaming: d3d12-webgpu/streaming (src/streaming/), the upload-ring tile streamer, a client of the main entry.
          streaming: `${root}src/streaming/index.ts`,
          // testing: d3d12-webgpu/testing (src/testing/), the test hooks, kept out of the main entry's types.
          testing: `${root}src/testing/index.ts`,
          // d3dx12: d3d12-webgpu/d3dx12 (src/d3dx12/), d3dx12.h's helpers, a client of the main entry.
          d3dx12: `${root}src/d3dx12/index.ts`,
        },
        formats: ['es'],
      },
      rolldownOptions: {
        // Node built-ins and dependencies stay imports, for the consumer's package manager to
        // install. (Dawn and the bundled Chromium are found by path at run time, not imported.)
        external: [/^node:/, /^wgsl_reflect/],
      },
    },
  };
});
