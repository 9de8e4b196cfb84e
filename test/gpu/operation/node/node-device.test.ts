/**
 * createNodeDevice's promises beyond "a device": it leaves the process environment as it found it,
 * and destroy() unmaps the device's buffers, as the WebGPU spec (and a browser) does.
 */
import { describe, expect, test } from 'vitest';
import { createNodeDevice } from '../../../../src/node/index.js';

describe('createNodeDevice', () => {
  test('leaves VK_ICD_FILENAMES as it found it (children must not inherit the choice)', async () => {
    const before = process.env.VK_ICD_FILENAMES;
    const device = await createNodeDevice();
    expect(process.env.VK_ICD_FILENAMES).toBe(before);
    device.destroy();
  });

  test('destroy() unmaps mapped buffers and detaches their ranges', async () => {
    const device = await createNodeDevice();
    const buffer = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    const range = buffer.getMappedRange();
    expect(range.byteLength).toBe(16);
    device.destroy();
    expect(buffer.mapState).toBe('unmapped');
    expect(range.byteLength).toBe(0);
  });

  test('control: a buffer of a device that lives on stays mapped', async () => {
    const device = await createNodeDevice();
    const buffer = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    expect(buffer.mapState).toBe('mapped');
    buffer.unmap();
    device.destroy();
  });
});
