/**
 * runValidation: the differential run, then the conformance scenarios, as one result (what the demo's
 * validation page and `npm run validate` report), and the failure text a test or a CLI prints.
 *
 * Invariant: the merged result has the differential's seed, tier and operations, the sums of both
 * phases' counters, and every mismatch of both, in phase order.
 */
import { runDifferential } from './differential/run.js';
import { checkValidationOptions } from './options.js';
import { runScenarios } from './scenarios/run.js';
import type { ValidationOptions, ValidationResult } from './types.js';

export async function runValidation(options: ValidationOptions): Promise<ValidationResult> {
  checkValidationOptions('runValidation', options, { seed: true, ops: true });
  const differential = await runDifferential(options);
  const scenarios = await runScenarios(options);
  return {
    ...differential,
    bytesCompared: differential.bytesCompared + scenarios.bytesCompared,
    pagesValidated: differential.pagesValidated + scenarios.pagesValidated,
    scenarios: scenarios.scenarios,
    mismatches: [...differential.mismatches, ...scenarios.mismatches],
    milliseconds: differential.milliseconds + scenarios.milliseconds,
  };
}

/** The mismatches of a result in words, with what replays the run; undefined when it passed. */
export function describeValidationFailure(result: ValidationResult): string | undefined {
  if (result.mismatches.length === 0) return undefined;
  const lines = [
    `validation failed: seed ${result.seed} (0x${result.seed.toString(16)}), tier ${result.tier}, ${result.ops} operations, ${result.mismatches.length} mismatch(es)`,
  ];
  for (const m of result.mismatches.slice(0, 8)) {
    lines.push(
      `${m.phase}${m.operationIndex >= 0 ? ` operation #${m.operationIndex}` : ''}: ${m.operation}`,
      `  ${m.check}: ${m.detail}`,
    );
  }
  if (result.trace) lines.push('last operations:', ...result.trace.map((line) => `  ${line}`));
  lines.push(`replay: runDifferential({ seed: ${result.seed}, ops: ${result.ops}, tier: ${result.tier} })`);
  return lines.join('\n');
}
