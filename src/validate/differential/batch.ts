/**
 * The open batch of the differential run: command lists being recorded, the commands not executed
 * yet (with their effect on the CPU reference, applied when they execute), the barriers a D3D12 app
 * records, and the fence that says when submitted work is done.
 *
 * Invariants (what keeps the GPU's answer defined):
 *   - every list starts with its buffers in COMMON (one executeCommandLists call per list, after which
 *     buffers decay) and its textures in COMMON (a texture used by a list is transitioned explicitly
 *     and back to COMMON before the list closes: textures promoted to COPY_DEST do not decay);
 *   - UPLOAD and READBACK buffers keep GENERIC_READ and COPY_DEST: no barrier names them;
 *   - the CPU reference applies a batch's commands in recording order when the batch executes, under
 *     the mappings of that moment, which are the mappings the GPU executes under (mapping changes are
 *     queue work, ordered with executions);
 *   - a transient UPLOAD buffer is released only after a fence says the batch that read it completed.
 */
import type { CommandQueue } from '../../d3d12/command-queue.js';
import type { GraphicsCommandList } from '../../d3d12/command-list.js';
import type { Device } from '../../d3d12/device.js';
import type { Fence } from '../../d3d12/fence.js';
import type { Resource } from '../../d3d12/resource.js';
import type { ResourceEntry, SlotsOf } from './world.js';

export type Access = 'COPY_SOURCE' | 'COPY_DEST' | 'UNORDERED_ACCESS';

export interface Recorder {
  list: GraphicsCommandList;
  states: Map<Resource, Access>;
  /** Textures this list transitioned out of COMMON. */
  textures: Set<ResourceEntry>;
  pipelineSet: boolean;
  commands: number;
}

/** A command recorded but not executed yet. */
export interface Pending {
  uses: Set<ResourceEntry>;
  /** Whether the command stays legal (race-free, resident) under a mapping. */
  safe(slotsOf: SlotsOf): boolean;
  /** Its effect on the CPU reference, applied when its list executes. */
  apply(): void;
}

export class Batch {
  private readonly spareLists: GraphicsCommandList[] = [];
  private recorders: Recorder[] = [];
  pending: Pending[] = [];
  /** UPLOAD buffers of the open batch, then of submitted batches until their fence value completes. */
  private batchUploads: ResourceEntry[] = [];
  private submittedUploads: { value: number; uploads: ResourceEntry[] }[] = [];
  private fenceValue = 0;
  /** The last fence value a wait returned after: work up to it is known complete. */
  private waitedValue = 0;
  commandLists = 0;
  executions = 0;
  waits = 0;

  constructor(
    private readonly device: Device,
    private readonly queue: CommandQueue,
    private readonly fence: Fence,
    /** Releases a transient UPLOAD buffer once its batch completed. */
    private readonly dropUpload: (upload: ResourceEntry) => void,
  ) {}

  /** A list to record into: a spare one (executed, so closed) reset, or a new one. */
  takeList(): GraphicsCommandList {
    const list = this.spareLists.pop();
    if (!list) return this.device.createCommandList('DIRECT');
    list.reset();
    return list;
  }

  /** Gives back a list that was executed outside the batch (a checkpoint's). */
  giveBack(list: GraphicsCommandList): void {
    this.spareLists.push(list);
    this.commandLists++;
  }

  recorder(): Recorder {
    let current = this.recorders[this.recorders.length - 1];
    if (!current) {
      current = { list: this.takeList(), states: new Map(), textures: new Set(), pipelineSet: false, commands: 0 };
      this.recorders.push(current);
    }
    return current;
  }

  /** The batch's next commands go to another list, executed after the current one. */
  newList(): void {
    if (this.recorders.length > 0)
      this.recorders.push({
        list: this.takeList(),
        states: new Map(),
        textures: new Set(),
        pipelineSet: false,
        commands: 0,
      });
  }

  /** Puts a resource in the state a command needs, with the barriers a D3D12 app records. */
  need(rec: Recorder, entry: ResourceEntry, access: Access): void {
    if (entry.access === 'upload' || entry.access === 'readback') return;
    const resource = entry.resource;
    const current = rec.states.get(resource);
    rec.states.set(resource, access);
    if (entry.kind === 'texture') {
      rec.textures.add(entry);
      if ((current ?? 'COMMON') !== access)
        rec.list.resourceBarrier([
          { type: 'TRANSITION', transition: { resource, stateBefore: current ?? 'COMMON', stateAfter: access } },
        ]);
      return;
    }
    if (current === access) {
      if (access === 'UNORDERED_ACCESS') rec.list.resourceBarrier([{ type: 'UAV', uav: { resource } }]);
      return;
    }
    if (current === undefined) {
      // Buffers start every list in COMMON and are promoted implicitly; a dispatch (bindless, so not
      // tracked by the emulator) gets an explicit transition instead.
      if (access === 'UNORDERED_ACCESS')
        rec.list.resourceBarrier([
          { type: 'TRANSITION', transition: { resource, stateBefore: 'COMMON', stateAfter: 'UNORDERED_ACCESS' } },
        ]);
    } else {
      rec.list.resourceBarrier([
        { type: 'TRANSITION', transition: { resource, stateBefore: current, stateAfter: access } },
      ]);
    }
  }

  add(rec: Recorder, pending: Pending): void {
    rec.commands++;
    this.pending.push(pending);
  }

  /** A transient UPLOAD buffer read by the open batch. */
  addUpload(upload: ResourceEntry): void {
    this.batchUploads.push(upload);
  }

  /** Whether a recorded command uses one of `entries`. */
  uses(entries: Iterable<ResourceEntry>): boolean {
    const set = new Set(entries);
    return this.pending.some((p) => [...p.uses].some((u) => set.has(u)));
  }

  /** Closes and executes the open batch; the CPU reference applies its commands in order. */
  execute(): boolean {
    const recorders = this.recorders.filter((r) => r.commands > 0);
    if (recorders.length === 0 && this.batchUploads.length === 0) return false;
    for (const rec of this.recorders) {
      for (const texture of rec.textures) {
        const state = rec.states.get(texture.resource);
        if (state)
          rec.list.resourceBarrier([
            {
              type: 'TRANSITION',
              transition: { resource: texture.resource, stateBefore: state, stateAfter: 'COMMON' },
            },
          ]);
      }
      rec.list.close();
    }
    // One call per list: buffers decay to COMMON when an executeCommandLists call completes, not
    // between the lists of one call, and each list here assumes it starts in COMMON.
    for (const rec of recorders) this.queue.executeCommandLists([rec.list]);
    for (const pending of this.pending) pending.apply();
    this.commandLists += recorders.length;
    this.spareLists.push(...this.recorders.map((r) => r.list));
    this.queue.signal(this.fence, ++this.fenceValue);
    for (const pending of this.pending) for (const entry of pending.uses) entry.lastUse = this.fenceValue;
    this.recorders = [];
    this.pending = [];
    if (this.batchUploads.length > 0)
      this.submittedUploads.push({ value: this.fenceValue, uploads: this.batchUploads });
    this.batchUploads = [];
    this.executions++;
    return true;
  }

  /** Waits for everything submitted; releases the UPLOAD buffers it used. */
  async waitIdle(): Promise<void> {
    this.queue.signal(this.fence, ++this.fenceValue);
    await this.fence.setEventOnCompletion(this.fenceValue);
    this.waitedValue = this.fenceValue;
    const done = this.waitedValue;
    for (const batch of this.submittedUploads.filter((b) => b.value <= done)) {
      for (const upload of batch.uploads) this.dropUpload(upload);
    }
    this.submittedUploads = this.submittedUploads.filter((b) => b.value > done);
    this.waits++;
  }

  /**
   * Waits until the batch that last used each of `entries` has completed. Whether it waits depends
   * on the operations alone (not on how fast the GPU is), so a seed replays the same waits.
   */
  async waitFor(entries: Iterable<ResourceEntry>): Promise<void> {
    const last = Math.max(0, ...[...entries].map((entry) => entry.lastUse));
    if (this.waitedValue < last) await this.waitIdle();
  }

  /** Pages of transient UPLOAD buffers not released yet. */
  uploadTiles(): number {
    return (
      this.submittedUploads.reduce((sum, b) => sum + b.uploads.reduce((s, u) => s + u.tiles, 0), 0) +
      this.batchUploads.reduce((s, u) => s + u.tiles, 0)
    );
  }
}
