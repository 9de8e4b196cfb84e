/**
 * RootSignature (ID3D12RootSignature): what a pipeline's shaders bind and where each root parameter's
 * arguments go. Made by Device.createRootSignature from a serialized root signature
 * (serializeVersionedRootSignature, D3D12SerializeVersionedRootSignature's blob) or from the
 * description itself.
 *
 * Invariants: the description was checked as the debug layer checks it (src/validation/
 * root-signature.ts) and is kept with every default filled (`layout`); `blob` is its canonical
 * serialization, so two root signatures of one description compare equal (D3D12 matches a pipeline
 * state's root signature to the list's by description); the WGSL of each stage is made once.
 */
import { D3D12Error, invalidArg, orThrow, show } from '../api/errors.js';
import type { RootSignatureDesc, VersionedRootSignatureDesc } from '../api/binding-types.js';
import { rootSignatureWgsl, type BindingStage, type StaticSamplerWords } from '../gpu/root-signature-wgsl.js';
import { serializeRootSignature } from '../memory/root-signature-blob.js';
import { validateRootSignatureDesc, type CheckedRootSignature } from '../validation/root-signature.js';
import { DeviceChild } from './device-child.js';

export class RootSignature extends DeviceChild {
  private readonly stages = new Map<BindingStage, string>();

  /** @internal Created by Device.createRootSignature. */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition): messages name objects by it. */
    readonly id: number,
    /** @internal The checked description. */
    readonly layout: CheckedRootSignature,
    /** @internal The canonical serialized form (equality of root signatures). */
    readonly blob: Uint8Array,
    /** @internal The static samplers' descriptor words, in the description's order. */
    readonly staticSamplerWords: readonly Uint32Array[],
    creator: object,
  ) {
    super(creator);
  }

  get label(): string {
    return `root signature #${this.id}${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'RootSignature';
  }

  /** @internal Whether `other` has the same description (D3D12 matches root signatures so). */
  matches(other: RootSignature): boolean {
    if (other === this) return true;
    const [a, b] = [this.blob, other.blob];
    return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
  }

  /** @internal The WGSL of the registers this root signature binds for `stage` (root-signature-wgsl.ts). */
  wgsl(stage: BindingStage): string {
    let code = this.stages.get(stage);
    if (code === undefined) {
      const samplers: StaticSamplerWords[] = this.layout.staticSamplers.map((sampler, i) => ({
        register: sampler.register,
        space: sampler.space,
        visibility: sampler.visibility,
        words: this.staticSamplerWords[i] as Uint32Array,
      }));
      code = rootSignatureWgsl(this.layout, samplers, stage);
      this.stages.set(stage, code);
    }
    return code;
  }

  /** COM Release: pipeline states made with it keep working (they hold what they need). */
  release(): void {
    this.markReleased();
  }
}

/**
 * D3D12SerializeVersionedRootSignature: the description's blob in D3D12's layout, for
 * Device.createRootSignature. A description the debug layer would refuse throws E_INVALIDARG (D3D12
 * returns it with the message in an error blob).
 */
export function serializeVersionedRootSignature(desc: VersionedRootSignatureDesc): Uint8Array {
  orThrow(validateRootSignatureDesc('serializeVersionedRootSignature', desc));
  return serializeRootSignature(desc);
}

/** D3D12SerializeRootSignature: a version 1.0 description (`version` must be '1_0'). */
export function serializeRootSignature10(desc: RootSignatureDesc, version: unknown = '1_0'): Uint8Array {
  if (version !== '1_0')
    throw invalidArg(
      'serializeRootSignature',
      'version',
      `must be '1_0' (serializeVersionedRootSignature takes 1_1), got ${show(version)}`,
    );
  const versioned: VersionedRootSignatureDesc = { version: '1_0', desc_1_0: desc };
  const checked = validateRootSignatureDesc('serializeRootSignature', versioned);
  // Errors name this call's own argument: `desc` is what the versioned form calls desc.desc_1_0.
  if (checked instanceof D3D12Error)
    throw new D3D12Error(
      checked.hresult,
      checked.call,
      checked.argument.replace(/^desc\.desc_1_0/, 'desc'),
      checked.rule,
    );
  return serializeRootSignature(versioned);
}
