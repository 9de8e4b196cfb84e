/**
 * Builds `npm run validate` (validate/node/) in two steps, into validate/dist/ (git-ignored):
 *   vite build -c validate/vite.config.ts --mode cli    validate.mjs: the CLI, one ES module file for
 *                                                        Node (Dawn is found at run time), so a machine
 *                                                        with no npm runs it too (the H200)
 *   vite build -c validate/vite.config.ts --mode page   page/: the validation page (demo/validation/)
 *                                                        as static files with relative URLs, which the
 *                                                        CLI's browser target serves and opens
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig(({ mode }) => {
  if (mode === 'page') {
    return {
      root: `${root}demo`,
      base: './',
      logLevel: 'warn',
      build: {
        outDir: `${root}validate/dist/page`,
        emptyOutDir: true,
        target: 'es2022',
        rolldownOptions: { input: { validation: `${root}demo/validation/index.html` } },
      },
    };
  }
  if (mode !== 'cli') throw new Error('validate/vite.config.ts: --mode must be cli or page');
  return {
    root,
    logLevel: 'warn',
    build: {
      ssr: `${root}validate/node/cli.ts`,
      outDir: `${root}validate/dist`,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      rolldownOptions: {
        // Node built-ins and the browser driver stay imports (the Node target loads no puppeteer);
        // Dawn is found at run time by path. Everything else, WGSL included, is inlined.
        external: [/^node:/, ...builtinModules, 'vite', 'puppeteer-core', 'webgpu'],
        // One file: the targets, loaded lazily by run-cli.ts, are inlined rather than split off.
        output: { entryFileNames: 'validate.mjs', format: 'es', codeSplitting: false },
      },
    },
    ssr: { noExternal: true },
  };
});
