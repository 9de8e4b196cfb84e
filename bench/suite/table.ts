/** Plain-text tables of a SuiteResult, for the terminal and bench/README.md. */
import type { Figure, FigureRow } from './figure.js';
import type { SuiteResult } from './suite.js';

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return value.toExponential(2);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

/** "meets" / "misses" against the row's target, else the figure's, or '' without one. */
export function verdict(figure: Figure, r: FigureRow): string {
  const target = r.target ?? figure.target;
  if (!target || r.ratio === null) return '';
  const ok = target.direction === 'at-least' ? r.ratio >= target.ratio : r.ratio <= target.ratio;
  return ok ? 'meets' : 'misses';
}

export function formatSuite(result: SuiteResult): string {
  const lines = [
    `${result.runtime} on ${result.adapterText}, commit ${result.commit}, ${result.date}${result.quick ? ' (quick)' : ''}`,
  ];
  for (const figure of result.figures) {
    lines.push(
      '',
      `${figure.title} (${figure.unit}; baseline: ${figure.baselineName}; ratio: ${figure.ratioMeaning}${figure.target ? `; target: ${figure.target.text}` : ''})`,
    );
    const width = Math.max(...figure.rows.map((r) => r.case.length), 4);
    for (const r of figure.rows) {
      lines.push(
        `  ${r.case.padEnd(width)}  ${formatNumber(r.value).padStart(9)}  vs ${formatNumber(r.baseline).padStart(9)}  ratio ${formatNumber(r.ratio).padStart(6)} ${verdict(figure, r)}`,
      );
    }
  }
  for (const failure of result.failures) lines.push('', `FAILED ${failure.id}: ${failure.error}`);
  lines.push('', `${result.seconds.toFixed(0)} s`);
  return lines.join('\n');
}

/** One markdown table over several results (columns), one line per figure row. */
export function markdownTable(results: readonly SuiteResult[]): string {
  const header = [
    'figure',
    'case',
    ...results.map((r) =>
      `${r.runtime}, ${r.adapter.vendor || '?'} ${r.adapter.architecture || r.adapter.device}`.trim(),
    ),
    'target',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
  const figures = new Map<string, Figure>();
  for (const result of results) for (const f of result.figures) if (!figures.has(f.id)) figures.set(f.id, f);
  for (const figure of figures.values()) {
    const cases = new Set<string>();
    for (const result of results)
      for (const r of result.figures.find((f) => f.id === figure.id)?.rows ?? []) cases.add(r.case);
    for (const name of cases) {
      let rowTarget: string | undefined;
      const cells = results.map((result) => {
        const r = result.figures.find((f) => f.id === figure.id)?.rows.find((x) => x.case === name);
        rowTarget ??= r?.target?.text;
        return r
          ? `${formatNumber(r.value)} vs ${formatNumber(r.baseline)} ${figure.unit} (**${formatNumber(r.ratio)}**)`
          : '–';
      });
      lines.push(`| ${figure.title} | ${name} | ${cells.join(' | ')} | ${rowTarget ?? figure.target?.text ?? ''} |`);
    }
  }
  return lines.join('\n');
}
