/**
 * The browser project's harness, tested on itself: a broken shader, a WebGPU validation error, an
 * uncaptured WebGPU error, a console error and an uncaught exception each fail the browser test
 * that caused them, with a message that names the test and says what happened.
 */
import { describe } from 'vitest';
import { EXPECTED_TEXT } from '../../../harness/fixtures/broken-shaders.js';
import { describeFixtureFailures } from '../../../harness/run-fixtures.js';

describe('harness: a browser test fails, by name, on any GPU or page error', () => {
  describeFixtureFailures({
    project: 'browser-fixtures',
    label: 'browser test',
    failures: [
      ['broken shader in a browser test', [/WebGPU validation error/, EXPECTED_TEXT.brokenShader]],
      ['validation error in a browser test', [/WebGPU validation error/, EXPECTED_TEXT.invalidBuffer]],
      ['uncaptured error in a browser test', [/uncaptured WebGPU validation error/, EXPECTED_TEXT.invalidBuffer]],
      ['console error in a browser test', [/console error: planted console error/]],
      ['uncaught exception in a browser test', [/uncaught exception: planted uncaught exception/]],
    ],
    control: 'control: a clean browser test after the failing ones passes',
    timeoutMs: 180_000,
  });
});
