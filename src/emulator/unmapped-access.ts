/**
 * The unmapped-access report (gpuValidation.unmappedAccess): what the GPU's log
 * (src/gpu/unmapped-access-log.ts) holds, turned into plain data naming the reserved resource,
 * subresource and tile of each access to a NULL tile, and the command list and command that made it.
 *
 * The log is drained (copied out and cleared, in queue order) at readUnmappedAccesses, every
 * MAX_SUBMISSIONS_PER_DRAIN submissions (so that what names their commands is kept for a bounded
 * number of submissions), and before the first submission after a reserved resource's memory and
 * addresses were freed (so that a page's bit, set while the old resource owned it, is never read as
 * a new resource's). Each drain is decoded against the reserved resources that existed since the
 * previous one, and what it holds is added to the report the next readUnmappedAccesses returns.
 *
 * Invariants: between two drains, the reserved resources a drain decodes against (`known`) hold
 * pairwise distinct pages; the report keeps at most maxRecords accesses and counts every access.
 */
import { D3D12Error } from '../api/errors.js';
import type { UnmappedAccess, UnmappedAccessReport, UnmappedAccessResource } from '../api/types.js';
import type { UnmappedAccessBinding, UnmappedAccessLog, UnmappedAccessWords } from '../gpu/unmapped-access-log.js';
import { UNMAPPED_RECORD } from '../gpu/unmapped-access-log.js';
import { tileCoordinate, TILE_SIZE } from '../memory/tiling.js';
import { MAX_NAME_LENGTH, type SubmittedList } from './fault-report.js';
import type { Resource } from '../d3d12/resource.js';

/** Submissions whose command names are kept before the log is drained. */
export const MAX_SUBMISSIONS_PER_DRAIN = 64;

export interface UnmappedAccessOwner {
  /** The reserved resources whose memory is not yet freed (live, and released ones still in use). */
  reservedResources(): Iterable<Resource>;
  /** A drain's readback failed (a lost device). */
  failed(error: unknown): void;
}

interface DrainContext {
  known: readonly Resource[];
  submissions: ReadonlyMap<number, ReadonlyMap<number, SubmittedList>>;
}

const cut = (text: string): string => (text.length > MAX_NAME_LENGTH ? `${text.slice(0, MAX_NAME_LENGTH - 1)}…` : text);

export class UnmappedAccesses {
  private submission = 0;
  /** Reserved resources the log's bits and records may belong to (see the invariants). */
  private known: Set<Resource>;
  /** What each submission since the last drain ran, by submission serial: list id → its label and commands. */
  private submissions = new Map<number, ReadonlyMap<number, SubmittedList>>();
  /** Drains decode in order, each after the one before. */
  private decoded: Promise<void> = Promise.resolve();
  // What the next report holds.
  private readonly tiles = new Map<Resource, Set<number>>();
  private accesses: UnmappedAccess[] = [];
  private accessCount = 0;

  constructor(
    private readonly log: UnmappedAccessLog,
    private readonly maxRecords: number,
    private readonly owner: UnmappedAccessOwner,
  ) {
    this.known = new Set(owner.reservedResources());
  }

  /**
   * Before a submission that runs `lists`: drains first if a resource the log may hold accesses of
   * has been freed since, and returns what the submission binds.
   */
  beforeSubmit(lists: ReadonlyMap<number, SubmittedList>, pageTableEntries: number): UnmappedAccessBinding {
    const current = new Set(this.owner.reservedResources());
    for (const resource of this.known) {
      if (!current.has(resource)) {
        this.drain();
        break;
      }
    }
    for (const resource of current) this.known.add(resource);
    this.submission = (this.submission + 1) >>> 0;
    this.submissions.set(this.submission, lists);
    return this.log.binding(pageTableEntries, this.submission);
  }

  /** After a submission: drains once MAX_SUBMISSIONS_PER_DRAIN submissions are waiting for one. */
  afterSubmit(): void {
    if (this.submissions.size >= MAX_SUBMISSIONS_PER_DRAIN) this.drain();
  }

  /** Drains the log now (queue order), and resolves with everything recorded since the last read; then forgets it. */
  read(): Promise<UnmappedAccessReport> {
    this.drain();
    const report = this.decoded.then(() => this.take());
    this.decoded = report.then(() => undefined);
    return report;
  }

  private drain(): void {
    const context: DrainContext = { known: [...this.known], submissions: this.submissions };
    this.submissions = new Map();
    // Bits and records from now on belong to resources that exist now.
    this.known = new Set(this.owner.reservedResources());
    const words = this.log.drain();
    this.decoded = this.decoded
      .then(() => words)
      .then(
        (drained) => this.decode(drained, context),
        (error: unknown) => this.owner.failed(error),
      );
  }

  private decode(drained: UnmappedAccessWords, context: DrainContext): void {
    this.accessCount += drained.count;
    const byPage = [...context.known].sort((a, b) => a.virtualRange.firstPage - b.virtualRange.firstPage);
    const owner = (page: number): Resource | undefined => {
      let low = 0;
      let high = byPage.length - 1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        const range = (byPage[middle] as Resource).virtualRange;
        if (page < range.firstPage) high = middle - 1;
        else if (page >= range.firstPage + range.pageCount) low = middle + 1;
        else return byPage[middle];
      }
      return undefined;
    };
    const { records } = drained;
    for (
      let base = 0;
      base + UNMAPPED_RECORD.words <= records.length && this.accesses.length < this.maxRecords;
      base += UNMAPPED_RECORD.words
    ) {
      const word = (field: number): number => records[base + field] ?? 0;
      const page = Math.floor((word(UNMAPPED_RECORD.vaHigh) * 2 ** 32 + word(UNMAPPED_RECORD.vaLow)) / TILE_SIZE);
      const resource = owner(page);
      // A page no known reserved resource holds cannot be NULL; such a record is only counted.
      if (!resource) continue;
      const tileIndex = page - resource.virtualRange.firstPage;
      const tile = tileCoordinate(resource.layout, tileIndex);
      const listId = word(UNMAPPED_RECORD.commandList);
      const list = context.submissions.get(word(UNMAPPED_RECORD.submission))?.get(listId);
      const index = word(UNMAPPED_RECORD.commandIndex);
      this.accesses.push({
        resourceId: resource.id,
        resource: cut(resource.label),
        subresource: tile.subresource,
        tile,
        tileIndex,
        commandList: { id: listId, label: cut(list?.label ?? `command list #${listId}`) },
        command: { index, name: list?.commands[index] ?? 'unknown' },
        access: word(UNMAPPED_RECORD.access) === UNMAPPED_RECORD.write ? 'write' : 'read',
      });
    }
    const { bitmap } = drained;
    for (const resource of byPage) {
      const { firstPage, pageCount } = resource.virtualRange;
      for (let page = firstPage; page < firstPage + pageCount;) {
        const bits = bitmap[page >>> 5] ?? 0;
        if (bits === 0) {
          page = (page | 31) + 1;
          continue;
        }
        if (bits & (1 << (page & 31))) {
          let touched = this.tiles.get(resource);
          if (!touched) this.tiles.set(resource, (touched = new Set()));
          touched.add(page - firstPage);
        }
        page++;
      }
    }
  }

  /** The report of what was decoded since the last one; then forgets it. */
  private take(): UnmappedAccessReport {
    const resources: UnmappedAccessResource[] = [...this.tiles]
      .sort(([a], [b]) => a.id - b.id)
      .map(([resource, set]) => {
        const indices = [...set].sort((a, b) => a - b);
        const tileBitmap = new Array<number>(Math.ceil(resource.layout.numTiles / 32)).fill(0);
        for (const t of indices) tileBitmap[t >>> 5] = ((tileBitmap[t >>> 5] ?? 0) | (1 << (t & 31))) >>> 0;
        return {
          resourceId: resource.id,
          resource: cut(resource.label),
          tiles: indices.map((tile) => ({ tile, ...tileCoordinate(resource.layout, tile) })),
          tileBitmap,
        };
      });
    const report: UnmappedAccessReport = {
      resources,
      accesses: this.accesses,
      accessCount: this.accessCount,
      lost: this.accessCount - this.accesses.length,
    };
    this.tiles.clear();
    this.accesses = [];
    this.accessCount = 0;
    return report;
  }
}

/** What readUnmappedAccesses returns when nothing was recorded (a CPU-only or destroyed device). */
export function emptyUnmappedAccessReport(): UnmappedAccessReport {
  return { resources: [], accesses: [], accessCount: 0, lost: 0 };
}

/**
 * Device.readUnmappedAccesses: rejects with DXGI_ERROR_INVALID_CALL on a device created without
 * gpuValidation.unmappedAccess (there is no log to read, as a debug interface is absent without its
 * layer); an empty report where there is no GPU (CPU-only, or destroyed).
 */
export async function readUnmappedAccesses(
  enabled: boolean,
  accesses: UnmappedAccesses | undefined,
): Promise<UnmappedAccessReport> {
  if (!enabled)
    throw new D3D12Error(
      'DXGI_ERROR_INVALID_CALL',
      'readUnmappedAccesses',
      'this',
      'the device was created without gpuValidation: { unmappedAccess: true }, so it records no unmapped accesses',
    );
  return accesses ? accesses.read() : emptyUnmappedAccessReport();
}
