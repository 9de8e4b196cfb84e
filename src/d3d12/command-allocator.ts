/**
 * CommandAllocator (ID3D12CommandAllocator): what D3D12 lists record into. Here a list's commands are
 * plain records handed to the queue at execution, so an allocator owns no memory; it keeps D3D12's
 * rules: a list records into an allocator of its own type, one list at a time (a second open list on
 * it is refused), and Reset() refuses while a list recording into it is open.
 */
import { invalidArg } from '../api/errors.js';
import type { CommandListType } from '../api/types.js';
import { DeviceChild } from './device-child.js';

/** What the allocator knows of the lists recording into it. */
interface RecordingList {
  readonly label: string;
  readonly isOpen: boolean;
}

export class CommandAllocator extends DeviceChild {
  private readonly lists = new Set<RecordingList>();

  /** @internal Created by Device.createCommandAllocator. */
  constructor(
    /** Unique among the device's objects of its kind and never reused (an emulator addition). */
    readonly id: number,
    readonly type: CommandListType,
    creator: object,
  ) {
    super(creator);
  }

  get label(): string {
    return `${this.type} command allocator #${this.id}${this.nameSuffix}`;
  }

  protected get interfaceName(): string {
    return 'CommandAllocator';
  }

  /** ID3D12CommandAllocator::Reset: every list recording into it must be closed. */
  reset(): void {
    this.live('reset');
    const open = [...this.lists].find((list) => list.isOpen);
    if (open)
      throw invalidArg(
        'CommandAllocator.reset',
        'this',
        `${open.label} is still recording into ${this.label}; close() it first`,
      );
  }

  release(): void {
    this.markReleased();
  }

  /** @internal Whether a list of `type` may start recording into it now (throws naming `call`). */
  checkFor(call: string, type: CommandListType): void {
    if (this.released) throw invalidArg(call, 'commandAllocator', `${this.label} was released`);
    if (type !== this.type)
      throw invalidArg(call, 'commandAllocator', `${this.label} is for ${this.type} lists; this list is ${type}`);
    const open = [...this.lists].find((list) => list.isOpen);
    if (open)
      throw invalidArg(
        call,
        'commandAllocator',
        `${open.label} is recording into ${this.label}; one list records into an allocator at a time`,
      );
  }

  /** @internal */
  attach(list: RecordingList): void {
    this.lists.add(list);
  }

  /** @internal */
  detach(list: RecordingList): void {
    this.lists.delete(list);
  }
}
