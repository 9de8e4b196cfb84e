/**
 * Runs a GPU test body inside WebGPU error scopes and turns anything WebGPU reports into a failure
 * that names the test. Shared by the Node.js fixture (gpu project) and the browser page runner, so
 * both projects judge GPU errors by the same rules:
 *   - a `validation` or `out-of-memory` error caught by the scopes around the body,
 *   - an `uncapturederror` event on the device while the body runs,
 *   - the device being lost (other than by `destroy()`) while the body runs
 * each fail the test, with the WebGPU message in the error text.
 */

export class GpuTestFailure extends Error {
  override name = 'GpuTestFailure';
}

/** The scopes pushed around every GPU test body, innermost last. */
const SCOPES: GPUErrorFilter[] = ['out-of-memory', 'validation'];

function describe(error: GPUError): string {
  const kind =
    typeof GPUValidationError !== 'undefined' && error instanceof GPUValidationError
      ? 'validation error'
      : typeof GPUOutOfMemoryError !== 'undefined' && error instanceof GPUOutOfMemoryError
        ? 'out-of-memory error'
        : 'error';
  return `WebGPU ${kind}: ${error.message.trim()}`;
}

export interface OpenGpuErrorScopes {
  /**
   * Pops the scopes and stops listening. Rejects with a GpuTestFailure naming the test and every
   * WebGPU message if anything was reported; `bodyError` (what the body threw) is quoted with them.
   */
  close(bodyError?: unknown): Promise<void>;
}

/** Pushes the scopes and starts listening for uncaptured errors and device loss. */
export function openGpuErrorScopes(device: GPUDevice, testName: string): OpenGpuErrorScopes {
  const problems: string[] = [];
  const onUncaptured = (event: Event): void => {
    problems.push(`uncaptured ${describe((event as GPUUncapturedErrorEvent).error)}`);
  };
  let lost: GPUDeviceLostInfo | undefined;
  void device.lost.then((info) => {
    lost = info;
  });
  device.addEventListener('uncapturederror', onUncaptured);
  for (const filter of SCOPES) device.pushErrorScope(filter);

  return {
    async close(bodyError?: unknown) {
      try {
        for (let i = 0; i < SCOPES.length; i++) {
          const error = await device.popErrorScope();
          if (error) problems.push(describe(error));
        }
      } catch (error) {
        // popErrorScope rejects when the body left the scope stack unbalanced.
        problems.push(`error scopes unbalanced: ${String(error)}`);
      }
      // Let a lost-device notification that is already queued arrive before judging.
      await new Promise((resolve) => setTimeout(resolve, 0));
      device.removeEventListener('uncapturederror', onUncaptured);
      if (lost && lost.reason !== 'destroyed') problems.push(`device lost (${lost.reason}): ${lost.message}`);

      if (problems.length > 0) {
        const thrown = bodyError instanceof Error ? `\n(the test body also threw: ${bodyError.message})` : '';
        throw new GpuTestFailure(`GPU test "${testName}" failed:\n${problems.join('\n')}${thrown}`);
      }
    },
  };
}

/**
 * Runs `body` inside the scopes; resolves with its result when WebGPU reported nothing, else
 * rejects with a GpuTestFailure. A body's own exception passes through unchanged when WebGPU was
 * silent.
 */
export async function runInGpuErrorScopes<T>(device: GPUDevice, testName: string, body: () => Promise<T>): Promise<T> {
  const scopes = openGpuErrorScopes(device, testName);
  let value: T;
  try {
    value = await body();
  } catch (error) {
    await scopes.close(error);
    throw error;
  }
  await scopes.close();
  return value;
}
