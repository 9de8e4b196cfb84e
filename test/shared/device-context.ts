/**
 * A device's internal context (src/emulator/device-context.ts), for tests that look behind the
 * facade: the GPU backend, memory backing, residency and release bookkeeping.
 */
import type { Device } from '../../src/index.js';
import type { DeviceContext } from '../../src/emulator/device-context.js';

export function deviceContext(device: Device): DeviceContext {
  return (device as unknown as { context: DeviceContext }).context;
}
