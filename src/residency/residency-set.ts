/**
 * ResidencySet (d3dx12residency.h's ResidencySet): the pageable objects one command list uses.
 * open() starts a new list of objects, insert() adds one (O(1), de-duplicated), close() ends it; the
 * manager's executeCommandLists makes the closed sets' objects resident before the lists run.
 *
 * Where the library writes past its array when a closed set is inserted into, this set refuses the
 * insert with E_INVALIDARG; an object the manager does not track is refused too (it could never be
 * paged in for the list, which is exactly the bug residency sets exist to prevent).
 *
 * The members are a plain array (what executeCommandLists walks, once). De-duplication is the
 * library's per-object flag: each open() takes a new mark from the owner and an inserted object
 * carries it, so "already in this set" is one comparison. Where sets are filled at the same time an
 * object's mark may be another set's; a set that was open alongside another therefore confirms a
 * mismatch against an exact Set of its members, built the first time it needs one.
 *
 * Next to the members the set keeps their ObjectTable indices in an Int32Array, in the same order:
 * the manager's per-batch pass walks that and never visits the member objects.
 *
 * Invariants: `members` holds each object once; `indexList[i]` is `members[i].index` for every i
 * below `size`; an object whose `setMark` is this fill's mark is in `members`; `exact`, when
 * present, holds exactly the members; every member was tracked when the owner's untrack count was
 * `untracksChecked` (so while the count is unchanged, no member's index can have been reused);
 * while `residentAsOf` equals the owner's eviction count, every member is resident and
 * `needsLocal` / `needsNonLocal` are the members' bytes per segment; no member was both tracked and
 * released when the device's release count was `releasesChecked`.
 */
import { invalidArg } from '../api/errors.js';
import type { ManagedObject } from './managed-object.js';

export interface SetOwner {
  /** Device.getReleaseCount() of the manager's device. */
  releaseCount(): number;
  /** Grows whenever the manager stops tracking an object. */
  readonly untracks: number;
  /** The manager's record of `pageable`, if it tracks it. */
  managed(pageable: unknown): ManagedObject | undefined;
  /** A mark no fill has used; counts the set as open. Called before `set` forgets its members. */
  openFill(set: ResidencySet): number;
  closeFill(): void;
  /** Grows whenever a set opens while another is open (marks may then be overwritten). */
  readonly overlaps: number;
}

export class ResidencySet {
  private members: ManagedObject[] = [];
  /** The members' ObjectTable indices (the first `size` entries); kept across fills. */
  private indexList = new Int32Array(16);
  private isOpen = false;
  private mark = 0;
  private overlapsAtOpen = 0;
  private exact: Set<ManagedObject> | undefined;

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

  /**
   * @internal A Device.getReleaseCount() at which no tracked member was released: when the set
   * opened (insert refuses released objects), or when gather.ts last looked through it.
   */
  releasesChecked = 0;

  /** @internal The owner's untrack count when every member was last known tracked (gather.ts moves it on). */
  untracksChecked = 0;

  /**
   * @internal The owner's eviction count when a gather found every member resident (-1: not since
   * open), and the members' bytes per segment then: the batch's sums while nothing was evicted since.
   */
  residentAsOf = -1;
  /** @internal */
  needsLocal = 0;
  /** @internal */
  needsNonLocal = 0;

  /** Starts the set afresh (it forgets what it held). */
  open(): void {
    if (this.isOpen) throw invalidArg('ResidencySet.open', 'this', `residency set #${this.id} is already open`);
    this.overlapsAtOpen = this.owner.overlaps;
    this.mark = this.owner.openFill(this);
    this.releasesChecked = this.owner.releaseCount();
    this.members = [];
    this.untracksChecked = this.owner.untracks;
    this.residentAsOf = -1;
    this.exact = undefined;
    this.isOpen = true;
  }

  /** Adds a tracked pageable (heap, committed resource, shader-visible descriptor heap); inserting one twice keeps one entry. */
  insert(pageable: unknown): void {
    const call = 'ResidencySet.insert';
    if (!this.isOpen) throw invalidArg(call, 'this', `residency set #${this.id} is closed; open() it before inserting`);
    const managed = this.owner.managed(pageable);
    if (!managed)
      throw invalidArg(call, 'pageable', 'is not tracked by this residency manager (beginTrackingObject first)');
    if (managed.released) throw invalidArg(call, 'pageable', `${managed.label} was released`);
    if (managed.setMark === this.mark) return;
    if (this.owner.overlaps !== this.overlapsAtOpen) {
      // Another set was open meanwhile and may have taken the mark of one of ours.
      this.exact ??= new Set(this.members);
      if (this.exact.has(managed)) {
        managed.setMark = this.mark;
        return;
      }
      this.exact.add(managed);
    }
    managed.setMark = this.mark;
    const at = this.members.length;
    if (at === this.indexList.length) {
      const grown = new Int32Array(at * 2);
      grown.set(this.indexList);
      this.indexList = grown;
    }
    this.indexList[at] = managed.index;
    this.members.push(managed);
  }

  close(): void {
    if (!this.isOpen) throw invalidArg('ResidencySet.close', 'this', `residency set #${this.id} is not open`);
    this.isOpen = false;
    this.exact = undefined;
    this.owner.closeFill();
  }

  /** @internal */
  get closed(): boolean {
    return !this.isOpen;
  }

  /** Objects in the set. */
  get size(): number {
    return this.members.length;
  }

  /** @internal The members, each once (the manager reads them; nobody writes them). */
  objects(): readonly ManagedObject[] {
    return this.members;
  }

  /** @internal The members' ObjectTable indices, in member order: the first `size` entries count. */
  indices(): Int32Array {
    return this.indexList;
  }
}
