/**
 * `npm run bench:node`: the suite in Node.js on Dawn (createNodeDevice finds the Vulkan driver:
 * the GPU's, else SwiftShader). The same bundle (bench/dist/node.mjs) runs on the H200 machine.
 * Flags: --quick (smoke run), --only=id,id, --out=DIR (default bench/results), --no-report.
 */
import { createNodeDevice } from '../../src/node/index.js';
import { runSuite } from '../suite/suite.js';
import { formatSuite } from '../suite/table.js';
import { BENCH_COMMIT } from './commit.js';
import { readResults, RESULTS_DIR, writeReport, writeResult } from './results.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = args.includes('--quick');
const out = flag('out') ?? RESULTS_DIR;
const only = flag('only')?.split(',');

const gpuDevice = await createNodeDevice();
const started = Date.now();
const result = await runSuite({
  gpuDevice,
  quick,
  runtime: 'node',
  commit: BENCH_COMMIT,
  host: `node ${process.version} ${process.platform}-${process.arch}`,
  ...(only ? { only } : {}),
  progress: (message) => console.log(`${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s  ${message}`),
});
gpuDevice.destroy();
console.log(`\n${formatSuite(result)}`);
console.log(`\nwrote ${writeResult(result, out)}`);
if (!args.includes('--no-report') && !quick) for (const file of await writeReport(readResults(out), out)) console.log(`wrote ${file}`);
process.exit(result.failures.length > 0 ? 1 : 0);
