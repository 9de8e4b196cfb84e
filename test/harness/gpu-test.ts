/**
 * `gpuTest`: vitest's `test` with a `device` fixture for the gpu project (Node.js + Dawn).
 *
 * One device serves a test file (opening one costs more than most tests); a test that loses it gets
 * a fresh one for the next test. Every test body runs inside the error scopes of
 * gpu-error-scopes.ts, so a WebGPU error fails the test that caused it, by name.
 */
import { test } from 'vitest';
import { createNodeDevice } from '../../src/node/index.js';
import { openGpuErrorScopes } from './gpu-error-scopes.js';

interface FileDevice {
  current(): Promise<GPUDevice>;
}

export const gpuTest = test.extend<{ $test: { device: GPUDevice }; $file: { fileDevice: FileDevice } }>({
  fileDevice: [
    async ({}, use) => {
      let device: GPUDevice | undefined;
      let lost = false;
      await use({
        async current() {
          if (!device || lost) {
            lost = false;
            device = await createNodeDevice();
            void device.lost.then(() => {
              lost = true;
            });
          }
          return device;
        },
      });
      device?.destroy();
    },
    { scope: 'file' },
  ],
  device: async ({ fileDevice, task, onTestFinished }, use) => {
    const device = await fileDevice.current();
    const scopes = openGpuErrorScopes(device, task.fullTestName);
    // Judged in onTestFinished rather than in the fixture's teardown: vitest reports an error thrown
    // by a teardown twice.
    onTestFinished(() => scopes.close());
    await use(device);
  },
});
