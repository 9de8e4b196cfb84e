import { describe, expect } from 'vitest';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectChecks } from '../../../shared/expect-checks.js';
import { residencyBasics } from '../../../../src/validate/index.js';

describe('paging keeps every byte; a missing registration is reported (Node.js + Dawn)', () => {
  gpuTest('evict/restore round trips, and the planted missing insert', async ({ device }) => {
    const result = await residencyBasics(device);
    expectChecks(result.checks);
    expect(result.removedReason).toBe('DXGI_ERROR_DEVICE_HUNG');
    expect(result.fault).toMatchObject({
      kind: 'read-absent',
      tile: 0,
      resource: 'vertex data',
      heap: 'mesh heap',
      commandIndex: 3,
      commandName: 'dispatch',
    });
    expect(result.fault?.commandList).toMatch(/draw meshes/);
    expect(result.fault?.message).toMatch(
      /placed resource #\d+ 'vertex data' tile 0, heap #\d+ 'mesh heap'.*command 3 \(dispatch\) of DIRECT command list #\d+ 'draw meshes'/,
    );
  });
});
