// Builds run.ts into one Node ES module (dist/round6.mjs), as bench/vite.config.ts builds the runners.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { nodeBundle } from '../../../../vite.bundles.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
export default defineConfig(() =>
  nodeBundle(root, {
    entry: 'bench/experiments/texture-cache/round6/run.ts',
    outDir: 'bench/experiments/texture-cache/round6/dist',
    fileName: 'round6.mjs',
  }),
);
