/**
 * The benchmark page's results table: one line per figure row (measured, baseline, ratio, target,
 * met or not) and, per reference result loaded beside the run, that result's ratio on the same
 * case. Rows are plain strings (pure, unit-tested); the page turns them into a <table>.
 */
import type { Figure } from '../../bench/suite/figure.js';
import type { SuiteResult } from '../../bench/suite/suite.js';
import { formatNumber, verdict } from '../../bench/suite/table.js';

export interface ResultLine {
  /** The figure's id (the page groups a figure's lines by it) and its title (what the table shows). */
  figureId: string;
  figure: string;
  case: string;
  measured: string;
  baseline: string;
  ratio: string;
  target: string;
  /** 'meets', 'misses' or '' (no target). */
  verdict: string;
  /** Per reference, in the order given: its ratio on this case ('–' where it has none). */
  references: string[];
}

/** A short name for a result: its runtime and adapter, e.g. "node · nvidia h200". */
export function resultLabel(result: Pick<SuiteResult, 'runtime' | 'adapter'>): string {
  return `${result.runtime} · ${[result.adapter.vendor, result.adapter.architecture || result.adapter.device].filter(Boolean).join(' ')}`;
}

export function resultLines(figures: readonly Figure[], references: readonly SuiteResult[]): ResultLine[] {
  return figures.flatMap((figure) =>
    figure.rows.map((r) => ({
      figureId: figure.id,
      figure: figure.title,
      case: r.case,
      measured: `${formatNumber(r.value)} ${figure.unit}`,
      baseline: r.baseline === null ? '–' : `${formatNumber(r.baseline)} ${figure.unit}`,
      ratio: formatNumber(r.ratio),
      target: r.target?.text ?? figure.target?.text ?? '',
      verdict: verdict(figure, r),
      references: references.map((ref) => {
        const theirs = ref.figures.find((f) => f.id === figure.id)?.rows.find((x) => x.case === r.case);
        return theirs ? formatNumber(theirs.ratio) : '–';
      }),
    })),
  );
}

export const RESULT_COLUMNS = ['figure', 'case', 'measured', 'baseline', 'ratio', 'target', 'met'] as const;
