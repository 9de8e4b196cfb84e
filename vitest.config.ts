/**
 * Three test projects (README: `npm test` runs them all after typecheck and lint):
 *   unit     Node.js, no GPU
 *   gpu      Node.js + Dawn (createNodeDevice), one device per test file
 *   browser  headless Chromium with WebGPU, driven through puppeteer (test/harness/browser/)
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
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
          globalSetup: ['test/harness/node-global-setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/harness/browser/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
