/**
 * Builds `npm run validate` (validate/node/) in two steps, into validate/dist/ (git-ignored):
 *   vite build -c validate/vite.config.ts --mode cli    validate.mjs: the CLI, one ES module file for
 *                                                        Node (Dawn is found at run time), so a machine
 *                                                        with no npm runs it too (the H200)
 *   vite build -c validate/vite.config.ts --mode page   page/: the validation page (demo/validation/)
 *                                                        as static files with relative URLs, which the
 *                                                        CLI's browser target serves and opens
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { nodeBundle, staticPage } from '../vite.bundles.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig(({ mode }) => {
  if (mode === 'page') return staticPage(root, { page: 'validation', outDir: 'validate/dist/page' });
  if (mode !== 'cli') throw new Error('validate/vite.config.ts: --mode must be cli or page');
  // One file: the targets, loaded lazily by run-cli.ts, are inlined rather than split off.
  return nodeBundle(root, {
    entry: 'validate/node/cli.ts',
    outDir: 'validate/dist',
    fileName: 'validate.mjs',
    oneFile: true,
  });
});
