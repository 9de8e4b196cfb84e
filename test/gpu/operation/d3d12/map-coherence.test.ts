import { describe } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import { mapCoherence } from '../../../../src/validate/index.js';

describe('CPU writes through map() survive every order of paging (Node.js + Dawn)', () => {
  gpuTest(
    'UPLOAD, CUSTOM write-back and write-combine: write/evict/restore orders, faulting reads, map of an evicted heap, ranged writes',
    async ({ device }) => {
      expectChecks(await mapCoherence(device));
    },
  );
});
