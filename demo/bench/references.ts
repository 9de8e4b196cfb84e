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

/** Loads the committed results named (null: all); names that are not committed are reported, not fatal. */
export async function loadCommitted(stems: readonly string[] | null): Promise<{ references: Reference[]; errors: string[] }> {
  const known = committedStems();
  const wanted = stems ?? known;
  const errors = wanted.filter((s) => !known.includes(s)).map((s) => `ref: no committed result ${s} (committed: ${known.join(', ') || 'none'})`);
  const references: Reference[] = [];
  for (const stem of wanted.filter((s) => known.includes(s))) {
    const entry = Object.entries(FILES).find(([path]) => stemOf(path) === stem);
    const value = await entry?.[1]();
    const problem = checkSuiteResult(value);
    if (problem) errors.push(`bench/results/${stem}.json is not a suite result: ${problem}`);
    else references.push({ stem, result: value as SuiteResult });
  }
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
