/**
 * d3dx12.h's CD3DX12_CPU_DESCRIPTOR_HANDLE and CD3DX12_GPU_DESCRIPTOR_HANDLE: descriptor i of a heap
 * is its start plus i times the device's increment size for the heap type. CPU handles count bytes in
 * a number, GPU handles in a bigint (a GPU virtual address), as the library's handles do. Like d3dx12
 * these only do the arithmetic (the calls that take a handle check where it points), but a value that
 * is not a handle or an integer throws E_INVALIDARG rather than making a NaN handle.
 */
import type { CpuDescriptorHandle, GpuDescriptorHandle } from '../index.js';
import { describe, fail, uint } from './arguments.js';

/** CD3DX12_CPU_DESCRIPTOR_HANDLE(other, offsetInDescriptors, descriptorIncrementSize). */
export function cpuDescriptorHandle(
  base: CpuDescriptorHandle,
  offsetInDescriptors = 0,
  descriptorIncrementSize = 0,
): CpuDescriptorHandle {
  const call = 'cpuDescriptorHandle';
  const ptr = (base as { ptr?: unknown } | null)?.ptr;
  if (typeof ptr !== 'number' || !Number.isSafeInteger(ptr))
    throw fail(call, 'base', `must be a D3D12_CPU_DESCRIPTOR_HANDLE { ptr: number }, got ${describe(base)}`);
  const offset = uint(call, 'offsetInDescriptors', offsetInDescriptors);
  const increment = uint(call, 'descriptorIncrementSize', descriptorIncrementSize);
  return { ptr: ptr + offset * increment };
}

/** CD3DX12_GPU_DESCRIPTOR_HANDLE(other, offsetInDescriptors, descriptorIncrementSize). */
export function gpuDescriptorHandle(
  base: GpuDescriptorHandle,
  offsetInDescriptors = 0,
  descriptorIncrementSize = 0,
): GpuDescriptorHandle {
  const call = 'gpuDescriptorHandle';
  const ptr = (base as { ptr?: unknown } | null)?.ptr;
  if (typeof ptr !== 'bigint')
    throw fail(call, 'base', `must be a D3D12_GPU_DESCRIPTOR_HANDLE { ptr: bigint }, got ${describe(base)}`);
  const offset = uint(call, 'offsetInDescriptors', offsetInDescriptors);
  const increment = uint(call, 'descriptorIncrementSize', descriptorIncrementSize);
  return { ptr: ptr + BigInt(offset) * BigInt(increment) };
}
