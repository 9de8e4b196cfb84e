/**
 * What a target hands the CLI as it goes: each finished run (a seed, or the scenarios), printed as
 * one line with its first mismatches, and kept for the per-target and final summaries.
 */
import type { ValidationResult } from '../../src/validate/index.js';
import { formatMismatch, formatResultLine, mismatchRows, type RunParameters } from '../validation-logic.js';

/** Mismatches printed per run; the rest are counted. */
export const PRINTED_MISMATCHES = 10;

export type Log = (line: string) => void;

export class TargetReport {
  readonly results: ValidationResult[] = [];
  private last = Date.now();

  constructor(
    readonly target: string,
    private readonly run: RunParameters,
    private readonly log: Log,
  ) {}

  /** Times the next run from now (a target calls it once its device or page is up). */
  startClock(): void {
    this.last = Date.now();
  }

  line(text: string): void {
    this.log(`${this.target}: ${text}`);
  }

  add(result: ValidationResult): void {
    const now = Date.now();
    this.results.push(result);
    // The run's own time where it reports one; else the time since the previous result arrived.
    const milliseconds = Number.isFinite(result.milliseconds) ? result.milliseconds : now - this.last;
    this.log(formatResultLine(this.target, result, milliseconds / 1000));
    this.last = now;
    const rows = mismatchRows(result, this.run);
    for (const row of rows.slice(0, PRINTED_MISMATCHES))
      this.log(
        `  mismatch: ${formatMismatch(row)} (replay: --seed=${row.seed} --ops=${this.run.ops} --tier=${this.run.tier}${this.run.plant ? ` --plant=${this.run.plant}` : ''})`,
      );
    if (rows.length > PRINTED_MISMATCHES) this.log(`  … and ${rows.length - PRINTED_MISMATCHES} more mismatches`);
  }
}
