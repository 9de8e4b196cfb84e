/**
 * A rolling time-series chart (uPlot) for the scene panels: a fixed window of the latest samples,
 * redrawn at most a few times a second so charting never shows up in the frame time it plots.
 */
// First: uPlot formats with navigator.language as its module loads.
import './locale-guard.js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface SeriesSpec {
  label: string;
  color: string;
  /** Dashed, for limits such as a budget. */
  dash?: boolean;
}

/** Redraws per second: enough to look live, few enough to stay out of the measurements. */
const REDRAWS_PER_SECOND = 4;

export class LiveChart {
  private readonly plot: uPlot;
  private readonly columns: number[][];
  private lastDraw = 0;

  constructor(
    parent: HTMLElement,
    title: string,
    private readonly series: SeriesSpec[],
    private readonly window = 240,
    units = '',
    xLabel = 'frame',
    width = 340,
  ) {
    this.columns = [[], ...series.map(() => [])];
    const opts: uPlot.Options = {
      title,
      width,
      height: 150,
      legend: { live: false },
      cursor: { show: false },
      scales: { x: { time: false } },
      axes: [
        { stroke: '#9aa4b2', grid: { stroke: '#2a313a' }, label: xLabel },
        {
          stroke: '#9aa4b2',
          grid: { stroke: '#2a313a' },
          size: 56,
          values: (_, ticks) => ticks.map((v) => `${formatNumber(v)}${units}`),
        },
      ],
      series: [
        {},
        ...series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5, dash: s.dash ? [6, 4] : undefined })),
      ],
    };
    this.plot = new uPlot(opts, this.columns as uPlot.AlignedData, parent);
  }

  push(x: number, values: number[]): void {
    this.columns[0]?.push(x);
    for (let i = 0; i < this.series.length; i++) this.columns[i + 1]?.push(values[i] ?? Number.NaN);
    if ((this.columns[0]?.length ?? 0) > this.window) for (const column of this.columns) column.shift();
    const now = performance.now();
    if (now - this.lastDraw >= 1000 / REDRAWS_PER_SECOND) {
      this.lastDraw = now;
      this.plot.setData(this.columns as uPlot.AlignedData);
    }
  }
}

export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(1)}G`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  if (bytes >= 2 ** 10) return `${(bytes / 2 ** 10).toFixed(0)} KiB`;
  return `${bytes} B`;
}
