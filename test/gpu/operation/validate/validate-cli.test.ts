/**
 * `npm run validate`'s Node.js target on Dawn: 1 seed × 50 operations and the scenarios pass (exit
 * code 0, a line per seed, the summary as the last line), as a user runs it: the bundle
 * validate/dist/validate.mjs in a plain node process. A planted fault (--plant=corrupt-entry: one
 * GPU page-table entry corrupted behind the CPU's back) is found (exit code 1, at least one
 * mismatch), in-process through runCli on the test's device. The clean run is not repeated
 * in-process: the same suite on the same code took 70 s more of CI (the scenarios alone are
 * test/gpu/operation/validate/scenarios.test.ts).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'vite';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../../../validate/node/run-cli.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { childEnv, PROJECT_ROOT } from '../../../harness/paths.js';

const SUMMARY = /^validate: (\d+) ops, (\d+) bytes compared, (\d+) mismatches$/;
const OPS = 50;
/** The suite on SwiftShader, on a shared 2-core machine. */
const RUN_TIMEOUT_MS = 300_000;

function summaryOf(lines: string[]): { ops: number; bytes: number; mismatches: number } {
  const match = SUMMARY.exec(lines.at(-1) ?? '');
  if (!match) throw new Error(`the last line is not the summary:\n${lines.join('\n')}`);
  return { ops: Number(match[1]), bytes: Number(match[2]), mismatches: Number(match[3]) };
}

describe('npm run validate --target=node (in-process)', () => {
  gpuTest(
    '--plant=corrupt-entry: exit code 1 and at least one mismatch, printed with its seed and operation',
    async ({ device }) => {
      const lines: string[] = [];
      const code = await runCli(['--target=node', '--seeds=1', `--ops=${OPS}`, '--seed=5', '--plant=corrupt-entry'], {
        log: (line) => lines.push(line),
        gpuDevice: device,
      });
      console.log(lines.join('\n'));
      expect(code, lines.join('\n')).toBe(1);
      expect(summaryOf(lines).mismatches).toBeGreaterThanOrEqual(1);
      expect(lines.some((line) => /^ {2}mismatch: \w+ seed 5 /.test(line))).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});

describe('the bundle validate/dist/validate.mjs in a plain node process', () => {
  beforeAll(async () => {
    await build({ configFile: join(PROJECT_ROOT, 'validate/vite.config.ts'), mode: 'cli', logLevel: 'warn' });
  }, 120_000);

  test(
    `--target=node --seeds=1 --ops=${OPS}: exit code 0 and the summary as the last line`,
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(PROJECT_ROOT, 'validate/dist/validate.mjs'), '--target=node', '--seeds=1', `--ops=${OPS}`],
        {
          cwd: PROJECT_ROOT,
          env: childEnv(),
          timeout: RUN_TIMEOUT_MS,
        },
      );
      const lines = stdout.trimEnd().split('\n');
      console.log(stdout);
      const summary = summaryOf(lines);
      expect(summary.mismatches).toBe(0);
      expect(summary.ops).toBeGreaterThanOrEqual(OPS);
      expect(summary.bytes).toBeGreaterThan(0);
      expect(lines[0]).toBe(`validate: seed 1, ${OPS} ops, tier 3, on node`);
      expect(lines.filter((line) => line.startsWith('node: seed 1: '))).toHaveLength(1);
      expect(lines.some((line) => line.startsWith('node: scenarios: '))).toBe(true);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
