/**
 * Three test projects (README: `npm test` runs them all after typecheck, lint and the format check):
 *   unit     Node.js, no GPU
 *   gpu      Node.js + Dawn (createNodeDevice), one device per test file
 *   browser  headless Chromium with WebGPU, driven through puppeteer (test/harness/browser/)
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at once even on a 2-core machine (vitest's default there is one): one file's waits
    // for Chromium or Dawn leave room for the other's work (2 cores: 843 s → 760 s for the whole run).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Files share a worker's module cache: no unit test changes a module's state for the next
          // (2 cores: 33 s → 10 s for the project).
          isolate: false,
          // The source checks parse all of src/ with the TypeScript compiler: about 1 s alone, many
          // times that on a 2-core machine that is also running Chromium.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'gpu',
          include: ['test/gpu/**/*.test.ts'],
          environment: 'node',
          // Child processes, not threads: each worker owns its Dawn instance.
          pool: 'forks',
          // A fork runs file after file without reloading the modules (about 40 s of imports on a
          // 2-core machine); each file still opens its own device (gpu-test.ts), so no GPU state is shared.
          isolate: false,
          setupFiles: ['test/harness/dawn-event-polling.ts'],
          globalSetup: ['test/harness/node-global-setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          // As the unit project: the files share a worker's modules; each connects to the one
          // browser and opens its own pages.
          isolate: false,
          globalSetup: ['test/harness/browser/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
