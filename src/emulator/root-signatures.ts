/**
 * ID3D12Device::CreateRootSignature(nodeMask, pBlobWithRootSignature, blobLengthInBytes): the blob
 * (a Uint8Array or ArrayBuffer, as serializeVersionedRootSignature makes it) is parsed and its
 * description checked as the debug layer checks it; the emulator also takes the description itself.
 * The device's root signatures are its own: pipelines and lists of another device refuse them.
 */
import { D3D12Error, invalidArg, orThrow, show } from '../api/errors.js';
import type { VersionedRootSignatureDesc } from '../api/binding-types.js';
import { DeviceChild } from '../d3d12/device-child.js';
import { RootSignature } from '../d3d12/root-signature.js';
import { parseRootSignatureBlob, serializeRootSignature } from '../memory/root-signature-blob.js';
import { checkInteger } from '../validation/common.js';
import { validateRootSignatureDesc } from '../validation/root-signature.js';
import { encodeSampler } from './descriptor-encoding.js';

export class RootSignatures {
  constructor(private readonly nextObjectId: () => number) {}

  create(nodeMask: unknown, blobWithRootSignature: unknown): RootSignature {
    const call = 'createRootSignature';
    const maskProblem = checkInteger(call, 'nodeMask', nodeMask, 0, 1);
    if (maskProblem) throw maskProblem;
    let desc: unknown = blobWithRootSignature;
    if (blobWithRootSignature instanceof ArrayBuffer)
      desc = orThrow(parseRootSignatureBlob(call, new Uint8Array(blobWithRootSignature)));
    else if (ArrayBuffer.isView(blobWithRootSignature))
      // Any view of the blob's bytes (D3D12 takes a pointer and a length): a Uint32Array of it too.
      desc = orThrow(
        parseRootSignatureBlob(
          call,
          new Uint8Array(
            blobWithRootSignature.buffer,
            blobWithRootSignature.byteOffset,
            blobWithRootSignature.byteLength,
          ),
        ),
      );
    else if (typeof desc !== 'object' || desc === null || Array.isArray(desc))
      throw invalidArg(
        call,
        'blobWithRootSignature',
        `must be a serialized root signature (serializeVersionedRootSignature's Uint8Array) or its description, got ${show(desc)}`,
      );
    const checked = validateRootSignatureDesc(call, desc);
    if (checked instanceof D3D12Error) {
      // A blob's description is named as the blob's content.
      throw desc === blobWithRootSignature
        ? checked
        : new D3D12Error(
            checked.hresult,
            call,
            'blobWithRootSignature',
            `holds a description that ${checked.argument} breaks: ${checked.rule}`,
          );
    }
    const words = checked.staticSamplers.map((sampler) => encodeSampler(sampler.plan));
    return new RootSignature(
      this.nextObjectId(),
      checked,
      serializeRootSignature(desc as VersionedRootSignatureDesc),
      words,
      this,
    );
  }

  /** The root signature if it is one of this device's. */
  own(value: unknown): RootSignature | undefined {
    return value instanceof RootSignature && DeviceChild.createdBy(value, this) ? value : undefined;
  }
}
