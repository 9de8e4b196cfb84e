/**
 * Bundles a benchmark runner into one ES module file in bench/dist/, so Node runs it without a
 * TypeScript loader and the H200 machine (no npm, no node_modules but Dawn's) runs the very same
 * file. One entry per build: `vite build -c bench/vite.config.ts --mode node|browser|report`.
 * `--mode page` builds the benchmark page (demo/bench/) as a static site in bench/dist/page/, with
 * relative paths, for the browser runner to serve where there is no vite (the GPU machine).
 * The commit (with "+dirty" for uncommitted changes outside bench/results/) is baked in.
 */
import { execSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES: Record<string, string> = { node: 'bench/node/run-node.ts', browser: 'bench/node/run-browser.ts', report: 'bench/node/run-report.ts' };

function commit(): string {
  try {
    const head = execSync('git rev-parse --short=12 HEAD', { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execSync("git status --porcelain -- . ':!bench/results'", { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

export default defineConfig(({ mode }) => {
  if (mode === 'page') {
    return {
      root: `${root}demo`,
      base: './',
      logLevel: 'warn',
      // One page holding the suite, the library and wgsl_reflect: one large chunk is expected.
      build: { outDir: `${root}bench/dist/page`, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048, rolldownOptions: { input: { bench: `${root}demo/bench/index.html` } } },
    };
  }
  const entry = ENTRIES[mode];
  if (!entry) throw new Error(`bench/vite.config.ts: --mode must be one of ${[...Object.keys(ENTRIES), 'page'].join(', ')}`);
  return {
    root,
    logLevel: 'warn',
    define: { __BENCH_COMMIT__: JSON.stringify(commit()) },
    build: {
      ssr: `${root}${entry}`,
      outDir: `${root}bench/dist`,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      rolldownOptions: {
        // Node built-ins, the dev server and the browser driver stay imports (the node runner loads
        // neither of the last two); Dawn is found at run time by path. Everything else is inlined.
        external: [/^node:/, ...builtinModules, 'vite', 'puppeteer-core', 'webgpu'],
        output: { entryFileNames: `${mode}.mjs`, format: 'es' },
      },
    },
    ssr: { noExternal: true },
  };
});
