// Where things are, for harness code in workers and in the main process alike (no heavy imports).
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The page the browser runner drives, served from the project root. */
export const RUNNER_PATH = '/test/harness/browser/runner.html';

/**
 * The environment for a child process that must start as a user's would: without vitest's worker
 * variables, so that a child vitest is a fresh run and a child node process is a plain one.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  return { ...env, ...extra };
}
