/**
 * The gpu project's harness, tested on itself: a broken shader and a WebGPU validation error in a
 * GPU test make the run fail, with a message that names the test and quotes WebGPU.
 */
import { describe } from 'vitest';
import { EXPECTED_TEXT } from '../../../harness/fixtures/broken-shaders.js';
import { describeFixtureFailures } from '../../../harness/run-fixtures.js';

describe('harness: a GPU test with a WebGPU error fails, by name, with the WebGPU message', () => {
  describeFixtureFailures({
    project: 'gpu-fixtures',
    label: 'GPU test',
    failures: [
      ['broken shader in a GPU test', [/WebGPU validation error/, EXPECTED_TEXT.brokenShader]],
      ['validation error in a GPU test', [/WebGPU validation error/, EXPECTED_TEXT.invalidBuffer]],
    ],
    control: 'control: a clean GPU test after the failing ones passes',
    timeoutMs: 120_000,
  });
});
