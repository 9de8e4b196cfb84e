import { describe, expect } from 'vitest';
import { d3dTest } from '../../harness/d3d-test.js';
import { readBuffer, runList } from '../../shared/d3d12-helpers.js';

const test = d3dTest({ tiledResourcesTier: 2 });

describe('smoke', () => {
  test('a raw buffer clear', async ({ d3d }) => {
    const queue = d3d.createCommandQueue({ type: 'DIRECT' });
    const buffer = d3d.createCommittedResource({ type: 'DEFAULT' }, [], { dimension: 'BUFFER', width: 1024, flags: ['ALLOW_UNORDERED_ACCESS'] }, 'COMMON');
    await runList(d3d, queue, (list) => list.clearUnorderedAccessViewUint(buffer, [0x11223344, 0, 0, 0], [{ left: 3, top: 0, right: 10, bottom: 1 }]));
    const bytes = await readBuffer(d3d, queue, buffer, 0, 64);
    console.log(Array.from(new Uint32Array(bytes.buffer)).map((x) => x.toString(16)));
    expect(await d3d.readFaults()).toEqual([]);
  });
});
