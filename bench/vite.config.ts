/**
 * Bundles a benchmark runner into one ES module file in bench/dist/, so Node runs it without a
 * TypeScript loader and the H200 machine (no npm, no node_modules but Dawn's) runs the very same
 * file. One entry per build: `vite build -c bench/vite.config.ts --mode node|browser|report`.
 * `--mode page` builds the benchmark page (demo/bench/) as a static site in bench/dist/page/, with
 * relative paths and the scene pages its scene-frame-time figure opens, for the browser runner to serve where there is no vite (the GPU machine).
 * The commit (with "+dirty" for uncommitted changes outside bench/results/) is baked in.
 */
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { nodeBundle, staticPage } from '../vite.bundles.js';
import { SCENE_CASES } from './suite/scene-cases.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES: Record<string, string> = {
  node: 'bench/node/run-node.ts',
  browser: 'bench/node/run-browser.ts',
  report: 'bench/node/run-report.ts',
};

function commit(): string {
  try {
    const head = execSync('git rev-parse --short=12 HEAD', { cwd: root, encoding: 'utf8' }).trim();
    const dirty =
      execSync("git status --porcelain -- . ':!bench/results'", { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

export default defineConfig(({ mode }) => {
  // One page holding the suite, the library and wgsl_reflect: one large chunk is expected.
  if (mode === 'page')
    return staticPage(root, {
      page: 'bench',
      outDir: 'bench/dist/page',
      chunkSizeWarningLimit: 2048,
      alsoPages: [...new Set(SCENE_CASES.map((c) => c.scene))],
    });
  const entry = ENTRIES[mode];
  if (!entry)
    throw new Error(`bench/vite.config.ts: --mode must be one of ${[...Object.keys(ENTRIES), 'page'].join(', ')}`);
  return nodeBundle(root, {
    entry,
    outDir: 'bench/dist',
    fileName: `${mode}.mjs`,
    define: { __BENCH_COMMIT__: JSON.stringify(commit()) },
  });
});
