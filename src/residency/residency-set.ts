/**
 * ResidencySet (d3dx12residency.h's ResidencySet): the pageable objects one command list uses.
 * open() starts a new list of objects, insert() adds one (O(1), de-duplicated), close() ends it; the
 * manager's executeCommandLists makes the closed sets' objects resident before the lists run.
 *
 * Where the library writes past its array when a closed set is inserted into, this set refuses the
 * insert with E_INVALIDARG; an object the manager does not track is refused too (it could never be
 * paged in for the list, which is exactly the bug residency sets exist to prevent).
 */
import { invalidArg } from '../api/errors.js';
import type { ManagedObject } from './managed-object.js';

export interface SetOwner {
  /** The manager's record of `pageable`, if it tracks it. */
  managed(pageable: unknown): ManagedObject | undefined;
}

export class ResidencySet {
  private readonly members = new Set<ManagedObject>();
  private isOpen = false;

  /** @internal Created by ResidencyManager.createResidencySet. */
  constructor(
    private readonly owner: SetOwner,
    /** @internal Unique on its manager (messages name it). */
    readonly id: number,
  ) {}

  /** @internal */
  belongsTo(owner: SetOwner): boolean {
    return this.owner === owner;
  }

  /** Starts the set afresh (it forgets what it held). */
  open(): void {
    if (this.isOpen) throw invalidArg('ResidencySet.open', 'this', `residency set #${this.id} is already open`);
    this.members.clear();
    this.isOpen = true;
  }

  /** Adds a tracked heap or committed resource; inserting one twice keeps one entry. */
  insert(pageable: unknown): void {
    const call = 'ResidencySet.insert';
    if (!this.isOpen) throw invalidArg(call, 'this', `residency set #${this.id} is closed; open() it before inserting`);
    const managed = this.owner.managed(pageable);
    if (!managed) throw invalidArg(call, 'pageable', 'is not tracked by this residency manager (beginTrackingObject first)');
    if (managed.released) throw invalidArg(call, 'pageable', `${managed.label} was released`);
    this.members.add(managed);
  }

  close(): void {
    if (!this.isOpen) throw invalidArg('ResidencySet.close', 'this', `residency set #${this.id} is not open`);
    this.isOpen = false;
  }

  /** @internal */
  get closed(): boolean {
    return !this.isOpen;
  }

  /** Objects in the set. */
  get size(): number {
    return this.members.size;
  }

  /** @internal */
  objects(): Iterable<ManagedObject> {
    return this.members;
  }
}
