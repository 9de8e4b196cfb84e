/**
 * The flags of `npm run validate` (validate/node/run-cli.ts): the page's run parameters as
 * `--name=value` (checked by the same rules as its URL parameters, validate/validation-logic.ts),
 * plus --target and --help. Read by node:util's parseArgs, not strictly: the names are checked here, so
 * that each refused argument gets the error that names it (validation-logic.ts's, for the run's).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PARAMETERS, parseRunEntries, type Parsed, type RunParameters } from '../validation-logic.js';

export type Target = 'node' | 'browser';
export const TARGETS: Record<string, Target[]> = { node: ['node'], browser: ['browser'], both: ['node', 'browser'] };

export interface CliOptions extends RunParameters {
  targets: Target[];
  help: boolean;
}

export const USAGE = [
  'usage: npm run validate -- [--seed=S] [--seeds=N] [--ops=M] [--tier=T] [--plant=corrupt-entry|drop-write] [--target=node|browser|both]',
  `  --seed=S     first seed of the differential run (default ${DEFAULT_PARAMETERS.seed}; decimal or 0x hex)`,
  `  --seeds=N    seeds S .. S+N-1 (default ${DEFAULT_PARAMETERS.seeds})`,
  `  --ops=M      operations per seed (default ${DEFAULT_PARAMETERS.ops})`,
  `  --tier=T     tiled resources tier 1-4 (default ${DEFAULT_PARAMETERS.tier})`,
  '  --plant=P    plant a fault to prove the check finds it: corrupt-entry or drop-write (default off)',
  '  --target=X   node (Dawn), browser (headless Chromium) or both (default)',
  'Prints a line per seed and, last, "validate: <ops> ops, <bytes> bytes compared, <n> mismatches".',
  'Exit code: 0 with no mismatch, 1 with mismatches, 2 on an error (bad flags, no GPU, a page that failed).',
].join('\n');

export function parseCliArgs(argv: readonly string[]): Parsed<CliOptions> {
  const entries: [string, string][] = [];
  const errors: string[] = [];
  let help = false;
  const { tokens } = parseArgs({
    args: [...argv],
    options: { help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const unexpected = (arg: string): number =>
    errors.push(`unexpected argument ${JSON.stringify(arg)} (flags take the form --name=value)`);
  for (const token of tokens) {
    if (token.kind === 'positional') unexpected(token.value);
    else if (token.kind === 'option-terminator') unexpected('--');
    else if (token.name === 'help' && !token.inlineValue) help = true;
    // Only `--name=value` with a lower-case name is a run parameter: `--ops 40` is two stray arguments.
    else if (token.inlineValue && token.rawName.startsWith('--') && /^[a-z]+$/.test(token.name))
      entries.push([token.name, token.value ?? '']);
    else unexpected(token.inlineValue ? `${token.rawName}=${token.value ?? ''}` : token.rawName);
  }
  const parsed = parseRunEntries<CliOptions>(
    entries,
    { ...DEFAULT_PARAMETERS, targets: TARGETS.both as Target[], help },
    'flag',
    {
      target: (raw, into) => {
        const targets = TARGETS[raw];
        if (!targets) return `--target must be node, browser or both, got ${JSON.stringify(raw)}`;
        into.targets = targets;
        return undefined;
      },
    },
  );
  if (errors.length > 0) return { ok: false, errors: [...errors, ...(parsed.ok ? [] : parsed.errors)] };
  if (!parsed.ok) return parsed;
  const { autostart: _autostart, ...options } = parsed.value as CliOptions & { autostart?: boolean };
  return { ok: true, value: options };
}
