/**
 * The committed results in bench/results/ (H200, SwiftShader; Node and Chromium), bundled with the
 * page as lazy chunks, so a user's run can be drawn beside them with no server; and any result file
 * the user loads. Quick runs are smoke checks, never references.
 */
import { checkSuiteResult, type SuiteResult } from '../../bench/suite/suite.js';

const FILES = import.meta.glob<unknown>('../../bench/results/*.json', { import: 'default' });

export interface Reference {
  /** The file stem, e.g. node-nvidia-h200 (the `ref` URL parameter names these). */
  stem: string;
  result: SuiteResult;
}

const stemOf = (path: string): string => path.replace(/^.*\//, '').replace(/\.json$/, '');

/** The stems of the committed full results, sorted. */
export function committedStems(): string[] {
  return Object.keys(FILES)
    .map(stemOf)
    .filter((stem) => !stem.endsWith('-quick'))
    .sort();
}

/** Loads every committed full result; a file that is not a suite result is reported, not fatal. */
export async function loadCommitted(): Promise<{ references: Reference[]; errors: string[] }> {
  const references: Reference[] = [];
  const errors: string[] = [];
  for (const [path, load] of Object.entries(FILES)) {
    const stem = stemOf(path);
    if (stem.endsWith('-quick')) continue;
    const value = await load();
    const problem = checkSuiteResult(value);
    if (problem) errors.push(`bench/results/${stem}.json is not a suite result: ${problem}`);
    else references.push({ stem, result: value as SuiteResult });
  }
  references.sort((a, b) => a.stem.localeCompare(b.stem));
  return { references, errors };
}

/** Parses a result file the user picked; throws with the reason when it is not one. */
export function parseResultFile(name: string, text: string): Reference {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const problem = checkSuiteResult(value);
  if (problem) throw new Error(`${name} is not a bench/results file: ${problem}`);
  return { stem: name.replace(/\.json$/, ''), result: value as SuiteResult };
}

/**
 * The references drawn by default: the newest result of each runtime and GPU vendor (so one card's
 * older results, e.g. the H200's beside an H100's, do not crowd the table as columns Chromium would
 * label alike); the others stay one checkbox (or a `ref=` stem) away.
 */
export function defaultReferenceStems(references: readonly Reference[]): string[] {
  const newest = new Map<string, Reference>();
  for (const ref of references) {
    const kind = `${ref.result.runtime} ${ref.result.adapter.vendor}`;
    const seen = newest.get(kind);
    if (!seen || ref.result.date > seen.result.date) newest.set(kind, ref);
  }
  return [...newest.values()].map((r) => r.stem).sort();
}
