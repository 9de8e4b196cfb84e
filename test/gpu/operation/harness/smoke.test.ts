import { describe, expect } from 'vitest';
import { expectWordsEqual } from '../../../harness/compare-words.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { runSmokePattern, smokePatternReference } from '../../../../src/gpu/smoke-pattern.js';

describe('smoke: a compute shader from shaders/ writes a pattern that is read back (Node.js + Dawn)', () => {
  // Both sides of the workgroup boundary (64 invocations): a partial group, exactly one, one more.
  for (const count of [1, 63, 64, 65, 1 << 20]) {
    gpuTest(`${count} words`, async ({ device }) => {
      const args = { count, seed: 0x5eed1234 };
      const words = await runSmokePattern(device, args);
      expectWordsEqual(words, smokePatternReference(args));
    });
  }

  gpuTest('a different seed gives a different pattern (the reference is not trivially met)', async ({ device }) => {
    const words = await runSmokePattern(device, { count: 256, seed: 1 });
    expectWordsEqual(words, smokePatternReference({ count: 256, seed: 1 }));
    expect(() => expectWordsEqual(words, smokePatternReference({ count: 256, seed: 2 }))).toThrow(
      /differ from the reference/,
    );
  });
});
