/**
 * `npm run bench:node`: the suite in Node.js on Dawn (createNodeDevice finds the Vulkan driver:
 * the GPU's, else SwiftShader). The same bundle (bench/dist/node.mjs) runs on the H200 machine.
 * Flags: --quick (smoke run), --only=id,id, --paging-mib=1,16,64, --stream-seconds=N, --out=DIR
 * (default bench/results), --no-report.
 */
import { createNodeDevice } from '../../src/node/index.js';
import { runSuite } from '../suite/suite.js';
import { BENCH_COMMIT } from './commit.js';
import { finishRun, parseRunnerArgs } from './results.js';

const args = parseRunnerArgs(process.argv.slice(2));

const gpuDevice = await createNodeDevice();
const started = Date.now();
const result = await runSuite({
  gpuDevice,
  quick: args.quick,
  runtime: 'node',
  commit: BENCH_COMMIT,
  host: `node ${process.version} ${process.platform}-${process.arch}`,
  ...(args.only ? { only: args.only } : {}),
  paging: args.paging,
  progress: (message) => console.log(`${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}`),
});
gpuDevice.destroy();
await finishRun(result, args);
