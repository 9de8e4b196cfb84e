/**
 * The browser project's harness, tested on itself: a broken shader, a WebGPU validation error, an
 * uncaptured WebGPU error, a console error and an uncaught exception each fail the browser test
 * that caused them, with a message that names the test and says what happened.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { EXPECTED_TEXT } from '../harness/fixtures/broken-shaders.js';
import { runFixtures, type FixtureRun } from '../harness/run-fixtures.js';

let run: FixtureRun;
beforeAll(async () => {
  run = await runFixtures('browser-fixtures');
}, 180_000);

describe('harness: a browser test fails, by name, on any GPU or page error', () => {
  test('the run fails (non-zero exit)', () => {
    expect(run.exitCode, run.output).toBe(1);
  });

  const cases: [string, RegExp[]][] = [
    ['broken shader in a browser test', [/WebGPU validation error/, EXPECTED_TEXT.brokenShader]],
    ['validation error in a browser test', [/WebGPU validation error/, EXPECTED_TEXT.invalidBuffer]],
    ['uncaptured error in a browser test', [/uncaptured WebGPU validation error/, EXPECTED_TEXT.invalidBuffer]],
    ['console error in a browser test', [/console error: planted console error/]],
    ['uncaught exception in a browser test', [/uncaught exception: planted uncaught exception/]],
  ];
  for (const [name, expected] of cases) {
    test(`"${name}" fails once, naming itself and the cause`, () => {
      const result = run.results.get(name);
      expect(result?.status).toBe('failed');
      expect(result?.failureMessages).toHaveLength(1);
      const message = result?.failureMessages[0] ?? '';
      expect(message).toContain(`browser test "${name}" failed`);
      for (const pattern of expected) expect(message).toMatch(pattern);
      expect(run.output).toContain(`> ${name}`);
    });
  }

  test('control: the clean test after the failing ones passes in the same browser', () => {
    expect(run.results.get('control: a clean browser test after the failing ones passes')?.status).toBe('passed');
  });
});
