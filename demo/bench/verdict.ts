/**
 * The benchmark page's verdict per figure (pure, no DOM): whether a finished figure meets its
 * target, from the same per-row rule as the results table (`verdict` in bench/suite/table.ts), and
 * the span of its ratios, as the strings the page's summary shows above the charts.
 */
import type { Figure } from '../../bench/suite/figure.js';
import { formatNumber, verdict as rowVerdict } from '../../bench/suite/table.js';

/** 'met': every judged row meets the target; 'missed': at least one misses; 'none': nothing to judge. */
export type FigureVerdictKind = 'met' | 'missed' | 'none';

export interface FigureVerdict {
  kind: FigureVerdictKind;
  /** Rows the target judged (a row with no ratio, or a figure with no target, is not judged). */
  judged: number;
  /** The cases that miss the target, in row order. */
  missedCases: string[];
  /** The smallest and largest finite ratio over the rows, or null where no row has one. */
  ratios: { min: number; max: number; count: number } | null;
}

export function figureVerdict(figure: Figure): FigureVerdict {
  const finite = figure.rows.map((r) => r.ratio).filter((x): x is number => x !== null && Number.isFinite(x));
  const ratios =
    finite.length > 0 ? { min: Math.min(...finite), max: Math.max(...finite), count: finite.length } : null;
  // The table's rule, row by row, so the summary can never disagree with the table under it.
  const verdicts = figure.rows.map((r) => ({ case: r.case, verdict: rowVerdict(figure, r) }));
  const judged = verdicts.filter((v) => v.verdict !== '');
  const missedCases = judged.filter((v) => v.verdict === 'misses').map((v) => v.case);
  const kind: FigureVerdictKind = judged.length === 0 ? 'none' : missedCases.length > 0 ? 'missed' : 'met';
  return { kind, judged: judged.length, missedCases, ratios };
}

/** The ratios as the summary prints them: "1.21" for one, "0.46–1.51" for a span, "–" for none. */
export function ratioText(ratios: FigureVerdict['ratios']): string {
  if (!ratios) return '–';
  const min = formatNumber(ratios.min);
  const max = formatNumber(ratios.max);
  return min === max ? min : `${min}–${max}`;
}

/** Missing cases named in the words; more than this and only their count is (the table has them all): one line a figure. */
const NAMED_MISSES = 1;

/**
 * The verdict in words, as a badge and its detail: met "4 of 4 rows"; missed "1 of 4 rows:
 * restore 2 MiB" or "2 of 4 rows"; "no target"; "no ratio" (a target, but no row has a ratio to judge).
 */
export function verdictWords(figure: Pick<Figure, 'target'>, v: FigureVerdict): { badge: string; detail: string } {
  if (v.kind === 'met') return { badge: 'met', detail: `${v.judged} of ${v.judged} rows` };
  if (v.kind === 'missed')
    return {
      badge: 'missed',
      detail: `${v.missedCases.length} of ${v.judged} rows${v.missedCases.length <= NAMED_MISSES ? `: ${v.missedCases.join(', ')}` : ''}`,
    };
  return { badge: figure.target ? 'no ratio' : 'no target', detail: '' };
}

/** The target's bound as a comparison on the ratio: "≥ 0.9", "≤ 1.1"; '' without a target. */
export function targetBound(target: Figure['target']): string {
  if (!target) return '';
  return `${target.direction === 'at-least' ? '≥' : '≤'} ${formatNumber(target.ratio)}`;
}
