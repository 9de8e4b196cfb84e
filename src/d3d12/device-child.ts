/**
 * DeviceChild: what heaps and resources share, as ID3D12DeviceChild / ID3D12Object do: a name for
 * messages (SetName), and COM Release. Released objects refuse every call but release-state queries.
 */
import { invalidArg, show } from '../api/errors.js';

/** Releases of device children so far, in this process (Device.getReleaseCount). */
let releases = 0;

/** How many device children (of any device) have been released so far. */
export function releaseCount(): number {
  return releases;
}

export abstract class DeviceChild {
  private name = '';
  private releasedFlag = false;
  /** What created it (its device's registry), set once: a look-alike (an object on the prototype, copied fields, a Proxy) has none. */
  readonly #creator: object;

  /** @internal Made by the device's registries only. */
  constructor(creator: object) {
    this.#creator = creator;
  }

  /**
   * @internal Whether `value` is a device child `creator` made: a brand check, a few nanoseconds
   * where a WeakSet or Map lookup cost a third of a 1-tile updateTileMappings call's checks.
   */
  static createdBy(value: unknown, creator: object): value is DeviceChild {
    return typeof value === 'object' && value !== null && #creator in value && value.#creator === creator;
  }

  /** How messages name the object, e.g. "heap #3 'terrain'". */
  abstract get label(): string;
  /** The class name messages use for calls, e.g. "Heap" in "Heap.getDesc". */
  protected abstract get interfaceName(): string;

  get released(): boolean {
    return this.releasedFlag;
  }

  /** The suffix of a label: " 'name'" once named. */
  protected get nameSuffix(): string {
    return this.name ? ` '${this.name}'` : '';
  }

  /** Throws, naming the call, if the object was released. */
  protected live(method: string): void {
    if (this.releasedFlag) throw invalidArg(`${this.interfaceName}.${method}`, 'this', `${this.label} was released`);
  }

  /** ID3D12Object::SetName: the name appears in messages and fault reports. */
  setName(name: string): void {
    this.live('setName');
    // SetName takes an LPCWSTR.
    if (typeof name !== 'string')
      throw invalidArg(`${this.interfaceName}.setName`, 'name', `must be a string, got ${show(name)}`);
    this.name = name;
  }

  getName(): string {
    return this.name;
  }

  /** Marks the object released; a second release is an error (COM would crash). */
  protected markReleased(): void {
    if (this.releasedFlag)
      throw invalidArg(`${this.interfaceName}.release`, 'this', `${this.label} was already released`);
    this.releasedFlag = true;
    releases++;
  }
}
