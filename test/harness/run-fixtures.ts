/**
 * Runs the deliberately failing fixture tests (test/harness/fixtures/) in a child vitest, as
 * `npm test` would run them, and returns its exit code, its printed output and each test's result.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { childEnv, PROJECT_ROOT } from './paths.js';

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

/** Runs one fixture project in a child vitest; kills it (and its browser) after `timeoutMs`. */
export async function runFixtures(
  project: 'gpu-fixtures' | 'browser-fixtures',
  timeoutMs: number,
): Promise<FixtureRun> {
  const vitest = join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs');
  const reportDir = mkdtempSync(join(tmpdir(), 'fixtures-'));
  const jsonFile = join(reportDir, 'report.json');
  try {
    const child = spawn(
      process.execPath,
      [
        vitest,
        'run',
        '--config',
        'test/harness/fixtures/vitest.fixtures.config.ts',
        '--project',
        project,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${jsonFile}`,
      ],
      // Its own process group, so that a timeout stops the child's browser and workers too.
      {
        cwd: PROJECT_ROOT,
        env: childEnv({ NO_COLOR: '1', FORCE_COLOR: '0' }),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[run-fixtures] killed after ${timeoutMs} ms\n`;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);

    let report: JsonReport;
    try {
      report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
    } catch (error) {
      throw new Error(`the fixture run (exit ${exitCode}) wrote no report (${String(error)}); its output:\n${output}`, {
        cause: error,
      });
    }
    const results = new Map<string, FixtureResult>();
    for (const file of report.testResults) {
      for (const test of file.assertionResults) {
        results.set(test.fullName, { status: test.status, failureMessages: test.failureMessages });
      }
    }
    return { exitCode, output, results };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

export interface FixtureFailureSuite {
  project: 'gpu-fixtures' | 'browser-fixtures';
  /** How the harness names a test in its failure message: `GPU test "x" failed`. */
  label: 'GPU test' | 'browser test';
  /** Each planted failure: the fixture test's name and what its one failure message must match. */
  failures: [name: string, expected: RegExp[]][];
  /** A clean fixture test run after the failing ones, on the same device or browser. */
  control: string;
  timeoutMs: number;
}

/**
 * Declares the tests of a harness-failure suite: the child run fails, each planted failure fails
 * its own test exactly once with a message naming it and matching `expected`, and the control passes.
 */
export function describeFixtureFailures(suite: FixtureFailureSuite): void {
  let run: FixtureRun;
  beforeAll(async () => {
    // The child is killed a little before the hook's own timeout, so its output can still be shown.
    run = await runFixtures(suite.project, suite.timeoutMs - 10_000);
  }, suite.timeoutMs);

  test('the run fails (non-zero exit)', () => {
    expect(run.exitCode, run.output).toBe(1);
  });

  for (const [name, expected] of suite.failures) {
    test(`"${name}" fails once, naming itself and the cause`, () => {
      const result = run.results.get(name);
      expect(result?.status).toBe('failed');
      expect(result?.failureMessages).toHaveLength(1);
      const message = result?.failureMessages[0] ?? '';
      expect(message).toContain(`${suite.label} "${name}" failed`);
      for (const pattern of expected) expect(message).toMatch(pattern);
      // What a developer reads in the terminal says the same.
      expect(run.output).toContain(`> ${name}`);
      expect(run.output).toContain(`${suite.label} "${name}" failed`);
    });
  }

  test('control: the clean test after the failing ones passes', () => {
    expect(run.results.get(suite.control)?.status).toBe('passed');
  });
}
