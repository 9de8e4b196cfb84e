/**
 * The benchmark report: one self-contained HTML page (inline SVG, no scripts) drawing every figure
 * of every result given, each row as the measured bar next to its baseline bar, with the ratio and
 * the figure's target. Pure string building, so Node writes it and Chromium screenshots it to PNG.
 */
import type { Figure, FigureRow, FigureSeries } from '../suite/figure.js';
import type { SuiteResult } from '../suite/suite.js';
import { formatNumber, verdict } from '../suite/table.js';

const BAR_WIDTH = 360;
const ROW_HEIGHT = 46;
const LABEL_WIDTH = 220;

const escape = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

function rowSvg(figure: Figure, r: FigureRow, scale: number, y: number): string {
  const w = (v: number | null) => (v && Number.isFinite(v) ? Math.max(1, (v / scale) * BAR_WIDTH) : 0);
  const mark = verdict(figure, r);
  const color = mark === 'misses' ? '#e06c75' : mark === 'meets' ? '#5ad17f' : '#7fb4ff';
  return [
    `<text x="0" y="${y + 15}" class="case">${escape(r.case)}</text>`,
    `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${w(r.value)}" height="14" style="fill: ${color}"><title>${formatNumber(r.value)} ${escape(figure.unit)}</title></rect>`,
    `<text x="${LABEL_WIDTH + w(r.value) + 6}" y="${y + 15}" class="value">${formatNumber(r.value)}</text>`,
    `<rect x="${LABEL_WIDTH}" y="${y + 21}" width="${w(r.baseline)}" height="14" fill="#5c6773"><title>baseline ${formatNumber(r.baseline)} ${escape(figure.unit)}</title></rect>`,
    `<text x="${LABEL_WIDTH + w(r.baseline) + 6}" y="${y + 33}" class="value muted">${formatNumber(r.baseline)}</text>`,
    `<text x="${LABEL_WIDTH + BAR_WIDTH + 70}" y="${y + 24}" class="ratio" style="fill: ${color}">${r.ratio === null ? '' : `×${formatNumber(r.ratio)}`}${mark ? ` ${mark}` : ''}</text>`,
  ].join('');
}

function figureSvg(figure: Figure): string {
  const scale = Math.max(...figure.rows.flatMap((r) => [r.value, r.baseline ?? 0]).filter(Number.isFinite), 1e-9);
  const height = figure.rows.length * ROW_HEIGHT + 4;
  const width = LABEL_WIDTH + BAR_WIDTH + 200;
  return `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(figure.title)}">${figure.rows.map((r, i) => rowSvg(figure, r, scale, i * ROW_HEIGHT)).join('')}</svg>`;
}

const SERIES_WIDTH = 560;
const SERIES_HEIGHT = 140;
const SERIES_COLORS = ['#7fb4ff', '#5ad17f', '#f5c26b', '#e06c75'];

/** A figure's time series as lines (x: seconds, y from 0 to the largest value), with a legend. */
function seriesSvg(series: readonly FigureSeries[]): string {
  const points = series
    .flatMap((s) => s.x.map((x, i) => [x, s.y[i] ?? NaN] as const))
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (points.length === 0) return '';
  const xMax = Math.max(...points.map(([x]) => x), 1e-9);
  const yMax = Math.max(...points.map(([, y]) => y), 1e-9);
  const left = 40;
  const plotWidth = SERIES_WIDTH - left - 10;
  const lines = series.map((s, k) => {
    const path = s.x
      .map(
        (x, i) =>
          `${(left + (x / xMax) * plotWidth).toFixed(1)},${(SERIES_HEIGHT - 20 - ((s.y[i] ?? 0) / yMax) * (SERIES_HEIGHT - 30)).toFixed(1)}`,
      )
      .join(' ');
    const color = SERIES_COLORS[k % SERIES_COLORS.length] ?? '#7fb4ff';
    return `<polyline points="${path}" fill="none" stroke="${color}" stroke-width="1.5"><title>${escape(s.name)}</title></polyline><text x="${left + 8 + k * 200}" y="12" style="fill: ${color}">${escape(s.name)}</text>`;
  });
  const unit = series[0]?.unit ?? '';
  return `<svg width="${SERIES_WIDTH}" height="${SERIES_HEIGHT}" viewBox="0 0 ${SERIES_WIDTH} ${SERIES_HEIGHT}" role="img" aria-label="time series"><text x="0" y="${SERIES_HEIGHT - 24}" class="muted">0</text><text x="0" y="20" class="muted">${formatNumber(yMax)}</text><text x="${SERIES_WIDTH - 80}" y="${SERIES_HEIGHT - 4}" class="muted">${formatNumber(xMax)} s</text><text x="${left}" y="${SERIES_HEIGHT - 4}" class="muted">${escape(unit)} over time</text>${lines.join('')}</svg>`;
}

function figureSection(figure: Figure): string {
  return `<section class="figure"><h3>${escape(figure.title)} <span class="unit">${escape(figure.unit)}</span></h3>
<p class="muted">Bars: measured (top, coloured by the target) and baseline (grey): ${escape(figure.baselineName)}. Ratio: ${escape(figure.ratioMeaning)}.${figure.target ? ` Target: ${escape(figure.target.text)}.` : ''} Medians of ${figure.rounds} rounds after ${figure.warmup} warm-up.</p>
${figureSvg(figure)}${figure.series?.length ? `<div class="series">${seriesSvg(figure.series)}</div>` : ''}${(figure.notes ?? []).map((n) => `<p class="note">${escape(n)}</p>`).join('')}</section>`;
}

export function renderReportHtml(results: readonly SuiteResult[], title = 'd3d12-webgpu benchmarks'): string {
  const columns = results
    .map(
      (result) => `<div class="result"><h2>${escape(result.runtime)}: ${escape(result.adapterText)}</h2>
<p class="muted">commit ${escape(result.commit)} · ${escape(result.date)} · ${escape(result.host)} · timestamp queries ${result.timestampQuery ? 'available' : 'absent'}${result.crossOriginIsolated === false ? ' · timers coarsened to 100 µs (page not cross-origin isolated)' : ''} · ${result.seconds.toFixed(0)} s${result.quick ? ' · quick run' : ''}</p>
${result.figures.map(figureSection).join('\n')}${result.failures.map((f) => `<p class="failure">${escape(f.id)} failed: ${escape(f.error)}</p>`).join('')}</div>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>
body { background: #0f1216; color: #e6e9ee; font: 14px/1.45 system-ui, sans-serif; margin: 24px; }
h1 { margin: 0 0 4px; } h2 { font-size: 17px; margin: 18px 0 2px; } h3 { font-size: 15px; margin: 14px 0 2px; }
.results { display: grid; gap: 28px; align-items: start; } .result { background: #171b21; border-radius: 10px; padding: 6px 18px 14px; }
.muted, .unit { color: #9aa5b1; } .unit { font-weight: normal; font-size: 13px; } p { margin: 2px 0 6px; max-width: 780px; }
.note { color: #c9b37e; font-size: 12px; } .failure { color: #e06c75; }
svg text { fill: #e6e9ee; font-size: 12px; } svg text.muted { fill: #9aa5b1; } svg text.ratio { font-weight: 600; font-size: 13px; }
</style></head><body><h1>${escape(title)}</h1><p class="muted">Every figure is a ratio against a baseline measured in the same run on the same device.</p>
<div class="results" style="grid-template-columns: repeat(${Math.max(results.length, 1)}, max-content)">${columns}</div></body></html>`;
}
