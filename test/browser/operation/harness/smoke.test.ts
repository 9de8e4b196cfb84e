import { describe } from 'vitest';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { expectWordsEqual } from '../../../harness/compare-words.js';
import { smokePatternReference } from '../../../../src/gpu/smoke-pattern.js';

const PAGE = 'test/browser/pages/smoke-pattern.page.ts';

describe('smoke: a compute shader from shaders/ writes a pattern that is read back (headless Chromium)', () => {
  // Both sides of the workgroup boundary (64 invocations), and a buffer of 1 MiB.
  for (const count of [1, 63, 64, 65, 1 << 18]) {
    browserTest(`${count} words`, async ({ runPage }) => {
      const args = { count, seed: 0x0badf00d };
      expectWordsEqual(await runPage<number[]>(PAGE, args), smokePatternReference(args));
    });
  }
});
