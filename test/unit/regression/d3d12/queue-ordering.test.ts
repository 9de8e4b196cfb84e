import { expect, test } from 'vitest';
import { createDevice } from '../../../../src/index.js';

test("a wait is not released by an earlier wait's watcher: later work waits for its own value", async () => {
  const d3d = await createDevice({ gpuDevice: null });
  const f = d3d.createFence(0);
  const marker = d3d.createFence(0);
  const a = d3d.createCommandQueue({ type: 'DIRECT' });
  const b = d3d.createCommandQueue({ type: 'DIRECT' });
  const c = d3d.createCommandQueue({ type: 'DIRECT' });
  a.wait(f, 1); // A blocked; watcher wA registered first
  a.signal(f, 2);
  b.wait(f, 1); // B blocked; watcher wB registered second
  b.wait(f, 3);
  b.signal(marker, 1); // must not run before f reaches 3
  c.signal(f, 1);
  expect.soft(f.getCompletedValue()).toBe(2);
  expect(marker.getCompletedValue()).toBe(0);
});
