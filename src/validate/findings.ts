/**
 * What a validation run found: its mismatches and its counters, and device.validateTileMappings
 * calls in flight. A run adds to one Findings object as it goes and turns it into the
 * ValidationResult the caller gets.
 *
 * Invariants: a mismatch names the seed, the phase, the operation after which it was seen and what
 * was compared; validateTileMappings results are awaited in call order and each is attributed to
 * the operation it followed (the check ran at that point in the queue, whenever its answer arrives).
 */
import type { Device } from '../d3d12/device.js';
import type { TileMappingValidation, TileTarget } from '../api/types.js';
import type { ValidationMismatch, ValidationPhase } from './types.js';

/** Most mismatches a run records (the first ones say where it went wrong; later ones follow from them). */
const MAX_MISMATCHES = 32;

export class Findings {
  readonly mismatches: ValidationMismatch[] = [];
  bytesCompared = 0;
  pagesValidated = 0;
  checkpoints = 0;

  constructor(
    readonly seed: number,
    readonly phase: ValidationPhase,
  ) {}

  add(operationIndex: number, operation: string, check: string, detail: string): void {
    if (this.mismatches.length < MAX_MISMATCHES)
      this.mismatches.push({ seed: this.seed, phase: this.phase, operationIndex, operation, check, detail });
  }

  get failed(): boolean {
    return this.mismatches.length > 0;
  }
}

function target(t: TileTarget): string {
  switch (t.kind) {
    case 'heap':
      return `heap #${t.heapId} tile ${t.heapTile}`;
    case 'evicted':
      return `${t.released ? 'released' : 'evicted'} heap #${t.heapId}${t.heapTile === undefined ? '' : ` tile ${t.heapTile}`}`;
    case 'null':
      return 'NULL';
    case 'unowned':
      return 'no resource';
    case 'unknown':
      return `entry 0x${t.entry.toString(16)}`;
  }
}

/** A validateTileMappings answer with mismatches, in one line. */
export function describeTileValidation(v: TileMappingValidation): string {
  const first = v.mismatches[0];
  const where = first
    ? `; first: ${first.resource} page ${first.page} (x ${first.tile.x}, y ${first.tile.y}, z ${first.tile.z}, subresource ${first.tile.subresource}): expected ${target(first.expected)}, found ${target(first.found)}`
    : '';
  return `${v.mismatchCount} of ${v.pages} page-table entries differ from the CPU authority${where}`;
}

type Answer = { ok: true; value: TileMappingValidation } | { ok: false; error: unknown };

/** validateTileMappings calls in flight, each attributed to the operation it followed. */
export class TileMappingChecks {
  private readonly inFlight: { index: number; operation: string; answer: Promise<Answer> }[] = [];

  constructor(
    private readonly device: Device,
    private readonly findings: Findings,
  ) {}

  get pending(): number {
    return this.inFlight.length;
  }

  /** Queues a check of every live resource's page-table entries, as of this point in the queue. */
  after(index: number, operation: string): void {
    // Settled at once into an Answer, so a rejection waits for drain() instead of going unhandled.
    const answer = this.device.validateTileMappings().then(
      (value): Answer => ({ ok: true, value }),
      (error: unknown): Answer => ({ ok: false, error }),
    );
    this.inFlight.push({ index, operation, answer });
  }

  /** Awaits every check in flight; a mismatch or a failed check becomes a finding. */
  async drain(): Promise<void> {
    while (this.inFlight.length > 0) {
      const { index, operation, answer } = this.inFlight.shift() as (typeof this.inFlight)[number];
      const result = await answer;
      if (!result.ok) {
        this.findings.add(
          index,
          operation,
          'validateTileMappings',
          `the check failed: ${result.error instanceof Error ? result.error.message : String(result.error)}`,
        );
        continue;
      }
      this.findings.pagesValidated += result.value.pages;
      if (result.value.mismatchCount > 0)
        this.findings.add(index, operation, 'validateTileMappings', describeTileValidation(result.value));
    }
  }
}
