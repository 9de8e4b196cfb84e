/**
 * The device calls that write one descriptor: CreateShaderResourceView, CreateUnorderedAccessView,
 * CreateConstantBufferView, CreateSampler, CreateRenderTargetView and CreateDepthStencilView. Each
 * checks its arguments (src/validation/views.ts, samplers.ts), resolves the destination handle to a
 * descriptor of a heap of the right type, and only then writes it (descriptor-encoding.ts): a call
 * that throws changes no descriptor.
 */
import { D3D12Error, invalidArg, orThrow, show } from '../api/errors.js';
import { BackBuffer } from '../d3d12/swap-chain.js';
import type { Resource } from '../d3d12/resource.js';
import { formatInfo } from '../memory/formats.js';
import { validateSamplerDesc } from '../validation/samplers.js';
import { validateConstantBufferView, validateResourceView } from '../validation/views.js';
import { checkNames, isObject } from '../validation/common.js';
import { encodeConstantBufferView, encodeSampler, encodeView } from './descriptor-encoding.js';
import type { DescriptorHeaps } from './descriptor-heaps.js';
import { VIRTUAL_ADDRESS_BITS } from './feature-support.js';

/** D3D12_DSV_FLAGS by name. */
const DSV_FLAGS = ['NONE', 'READ_ONLY_DEPTH', 'READ_ONLY_STENCIL'] as const;

/** What the calls need of their device. */
export interface ViewOwner {
  readonly descriptorHeaps: DescriptorHeaps;
  ownResource(value: unknown): Resource | undefined;
  checkNotRemoved(call: string): void;
}

/** `value` as this device's resource, null, or undefined when it is neither. */
function resourceOrNull(owner: ViewOwner, value: unknown): Resource | null | undefined {
  return value === null ? null : owner.ownResource(value);
}

export function createResourceView(
  owner: ViewOwner,
  view: 'SRV' | 'UAV',
  resource: unknown,
  counterResource: unknown,
  desc: unknown,
  destDescriptor: unknown,
): void {
  const call = view === 'SRV' ? 'createShaderResourceView' : 'createUnorderedAccessView';
  owner.checkNotRemoved(call);
  const own = resourceOrNull(owner, resource);
  const plan = orThrow(validateResourceView(call, view, own, desc, counterResource));
  const slot = owner.descriptorHeaps.resolve(call, 'destDescriptor', destDescriptor, 'CBV_SRV_UAV');
  const words = encodeView(plan, own ?? null);
  owner.descriptorHeaps.write(slot, words, { kind: view, resource: own ?? null, plan });
}

export function createConstantBufferView(owner: ViewOwner, desc: unknown, destDescriptor: unknown): void {
  const call = 'createConstantBufferView';
  owner.checkNotRemoved(call);
  const plan = orThrow(validateConstantBufferView(desc, VIRTUAL_ADDRESS_BITS));
  const slot = owner.descriptorHeaps.resolve(call, 'destDescriptor', destDescriptor, 'CBV_SRV_UAV');
  owner.descriptorHeaps.write(slot, encodeConstantBufferView(plan), { kind: 'CBV', plan });
}

export function createSampler(owner: ViewOwner, desc: unknown, destDescriptor: unknown): void {
  const call = 'createSampler';
  owner.checkNotRemoved(call);
  const plan = orThrow(validateSamplerDesc(desc));
  const slot = owner.descriptorHeaps.resolve(call, 'destDescriptor', destDescriptor, 'SAMPLER');
  owner.descriptorHeaps.write(slot, encodeSampler(plan), { kind: 'SAMPLER', plan });
}

/** A 2D view description's format and mip 0 (RTVs and DSVs of one-mip targets), or the target's format when null. */
function targetFormat(call: string, desc: unknown, own: string, allowed: (format: string) => boolean): string {
  if (desc === null || desc === undefined) return own;
  if (!isObject(desc)) throw invalidArg(call, 'desc', `must be a view description object or null, got ${show(desc)}`);
  if (desc.viewDimension !== 'TEXTURE2D')
    throw invalidArg(call, 'desc.viewDimension', `must be TEXTURE2D, got ${show(desc.viewDimension)}`);
  const mip = isObject(desc.texture2D) ? (desc.texture2D.mipSlice ?? 0) : 0;
  if (mip !== 0)
    throw invalidArg(call, 'desc.texture2D.mipSlice', `must be 0 (the target has one mip), got ${show(mip)}`);
  if (typeof desc.format !== 'string' || !allowed(desc.format))
    throw invalidArg(call, 'desc.format', `must be ${own}, the target's format, got ${show(desc.format)}`);
  return desc.format;
}

/**
 * CreateRenderTargetView: render targets are a swap chain's back buffers (SwapChain.getBuffer or
 * getCurrentBackBuffer), or null for a NULL view. Textures in heap memory as render targets are not
 * emulated (DXGI_ERROR_UNSUPPORTED).
 */
export function createRenderTargetView(
  owner: ViewOwner,
  target: unknown,
  desc: unknown,
  destDescriptor: unknown,
): void {
  const call = 'createRenderTargetView';
  owner.checkNotRemoved(call);
  let format: string;
  let buffer: BackBuffer | null = null;
  if (target instanceof BackBuffer) {
    buffer = target;
    format = targetFormat(call, desc, target.format, (f) => f === target.format);
  } else if (target === null) {
    if (!isObject(desc)) throw invalidArg(call, 'desc', 'must be given for a NULL view (no resource)');
    format = targetFormat(call, desc, '', (f) => formatInfo(f) !== undefined && !formatInfo(f)?.typeless);
  } else if (owner.ownResource(target)) {
    throw new D3D12Error(
      'DXGI_ERROR_UNSUPPORTED',
      call,
      'resource',
      `${(target as Resource).label}: render targets in heap memory are not emulated; draw into a swap chain's back buffer`,
    );
  } else {
    throw invalidArg(
      call,
      'resource',
      `must be a back buffer of a swap chain (SwapChain.getBuffer), or null, got ${show(target)}`,
    );
  }
  const slot = owner.descriptorHeaps.resolve(call, 'destDescriptor', destDescriptor, 'RTV');
  owner.descriptorHeaps.write(slot, new Uint32Array(slot.heap.incrementSize / 4), {
    kind: 'RTV',
    target: buffer,
    format,
  });
}

/** CreateDepthStencilView: a 2D texture created with ALLOW_DEPTH_STENCIL, in a depth format of its family. */
export function createDepthStencilView(
  owner: ViewOwner,
  resource: unknown,
  desc: unknown,
  destDescriptor: unknown,
): void {
  const call = 'createDepthStencilView';
  owner.checkNotRemoved(call);
  const own = resourceOrNull(owner, resource);
  if (own === undefined) throw invalidArg(call, 'resource', 'must be a resource created by this device, or null');
  let format: string;
  if (own) {
    if (own.released) throw invalidArg(call, 'resource', `${own.label} was released`);
    if (own.desc.dimension !== 'TEXTURE2D' || !own.desc.flags.includes('ALLOW_DEPTH_STENCIL'))
      throw invalidArg(call, 'resource', `${own.label} is not a 2D texture created with ALLOW_DEPTH_STENCIL`);
    const family = formatInfo(own.desc.format)?.family;
    const depth = (f: string): boolean => formatInfo(f)?.kind === 'depth' && formatInfo(f)?.family === family;
    format = targetFormat(call, desc, own.desc.format, depth);
    if (!depth(format))
      throw invalidArg(call, 'desc', `null takes ${own.label}'s own format, ${format}, which is not a depth format`);
  } else {
    if (!isObject(desc)) throw invalidArg(call, 'desc', 'must be given for a NULL view (no resource)');
    format = targetFormat(call, desc, '', (f) => formatInfo(f)?.kind === 'depth');
  }
  // D3D12_DSV_FLAGS: the names of its bits (read-only views are what the flags make).
  if (isObject(desc) && desc.flags !== undefined) {
    const problem = checkNames(call, 'desc.flags', desc.flags, DSV_FLAGS);
    if (problem) throw problem;
  }
  const slot = owner.descriptorHeaps.resolve(call, 'destDescriptor', destDescriptor, 'DSV');
  owner.descriptorHeaps.write(slot, new Uint32Array(slot.heap.incrementSize / 4), {
    kind: 'DSV',
    resource: own,
    format,
  });
}
