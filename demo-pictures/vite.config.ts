/**
 * Bundles `npm run demo:pictures` (make-pictures.ts) into one ES module file in demo-pictures/dist/
 * (git-ignored), as the bench and validate runners are bundled (vite.bundles.ts nodeBundle), so Node
 * runs it without a TypeScript loader. vite and puppeteer-core stay imports, found in node_modules.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { nodeBundle } from '../vite.bundles.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig(() =>
  nodeBundle(root, {
    entry: 'demo-pictures/make-pictures.ts',
    outDir: 'demo-pictures/dist',
    fileName: 'make-pictures.mjs',
  }),
);
