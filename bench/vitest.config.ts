/**
 * Benchmarks run as vitest files (TypeScript, WGSL through ?raw, Dawn through createNodeDevice) but
 * apart from `npm test`: `npm run bench:node`. They measure; they assert nothing about speed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['bench/node/**/*.bench-run.ts'],
    pool: 'forks',
    // Benchmarks run one at a time, so they do not share the CPU.
    fileParallelism: false,
    testTimeout: 600_000,
  },
});
