/**
 * Runs a GPU test body inside WebGPU error scopes and turns anything WebGPU reports into a failure
 * that names the test. Shared by the Node.js fixture (gpu project) and the browser page runner, so
 * both projects judge GPU errors by the same rules:
 *   - a `validation` or `out-of-memory` error caught by the scopes around the body,
 *   - an `uncapturederror` event on the device while the body runs,
 *   - the device being lost while the body runs
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

/**
 * Runs `body` with the error scopes pushed; resolves with its result when WebGPU reported nothing,
 * else rejects with a GpuTestFailure naming `testName` and every WebGPU message.
 */
export async function runInGpuErrorScopes<T>(device: GPUDevice, testName: string, body: () => Promise<T>): Promise<T> {
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

  let outcome: { threw: false; value: T } | { threw: true; error: unknown };
  try {
    outcome = { threw: false, value: await body() };
  } catch (error) {
    outcome = { threw: true, error };
  }

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
    const thrown = outcome.threw && outcome.error instanceof Error ? `\n(the test body also threw: ${outcome.error.message})` : '';
    throw new GpuTestFailure(`GPU test "${testName}" failed:\n${problems.join('\n')}${thrown}`);
  }
  if (outcome.threw) throw outcome.error;
  return outcome.value;
}
