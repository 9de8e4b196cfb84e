/**
 * The gpu project's harness, tested on itself: a broken shader and a WebGPU validation error in a
 * GPU test make the run fail, with a message that names the test and quotes WebGPU.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { EXPECTED_TEXT } from '../harness/fixtures/broken-shaders.js';
import { runFixtures, type FixtureRun } from '../harness/run-fixtures.js';

let run: FixtureRun;
beforeAll(async () => {
  run = await runFixtures('gpu-fixtures');
}, 120_000);

describe('harness: a GPU test with a WebGPU error fails, by name, with the WebGPU message', () => {
  test('the run fails (non-zero exit)', () => {
    expect(run.exitCode, run.output).toBe(1);
  });

  const cases = [
    ['broken shader in a GPU test', EXPECTED_TEXT.brokenShader],
    ['validation error in a GPU test', EXPECTED_TEXT.invalidBuffer],
  ] as const;
  for (const [name, webgpuText] of cases) {
    test(`"${name}" fails once, naming itself and quoting WebGPU`, () => {
      const result = run.results.get(name);
      expect(result?.status).toBe('failed');
      expect(result?.failureMessages).toHaveLength(1);
      const message = result?.failureMessages[0] ?? '';
      expect(message).toContain(`GPU test "${name}" failed`);
      expect(message).toContain('WebGPU validation error');
      expect(message).toMatch(webgpuText);
      // What a developer reads in the terminal says the same.
      expect(run.output).toContain(`> ${name}`);
      expect(run.output).toContain(`GPU test "${name}" failed`);
    });
  }

  test('control: the clean test in the same file, on the same device, passes', () => {
    expect(run.results.get('control: a clean GPU test after the failing ones passes')?.status).toBe('passed');
  });
});
