/**
 * Runs the deliberately failing fixture tests (test/harness/fixtures/) in a child vitest, as
 * `npm test` would run them, and returns its exit code, its printed output and each test's result.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './browser/serve.js';

export interface FixtureResult {
  status: string;
  failureMessages: string[];
}

export interface FixtureRun {
  exitCode: number | null;
  /** The default reporter's output (stdout and stderr), without colours. */
  output: string;
  results: Map<string, FixtureResult>;
}

interface JsonReport {
  testResults: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

export async function runFixtures(project: 'gpu-fixtures' | 'browser-fixtures'): Promise<FixtureRun> {
  const vitest = join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs');
  const jsonFile = join(mkdtempSync(join(tmpdir(), 'fixtures-')), 'report.json');
  // The child is a fresh vitest, not a worker of ours.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const child = spawn(
    process.execPath,
    [
      vitest, 'run',
      '--config', 'test/harness/fixtures/vitest.fixtures.config.ts',
      '--project', project,
      '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`,
    ],
    { cwd: PROJECT_ROOT, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));

  const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
  const results = new Map<string, FixtureResult>();
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      results.set(test.fullName, { status: test.status, failureMessages: test.failureMessages });
    }
  }
  return { exitCode, output, results };
}

