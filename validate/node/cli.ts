/**
 * The entry of validate/dist/validate.mjs (validate/vite.config.ts bundles it): `npm run validate`,
 * and on a GPU machine with no npm, `node validate.mjs --target=node …` (README).
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2));
