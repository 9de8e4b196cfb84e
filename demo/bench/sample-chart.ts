/**
 * Charts that grow while the suite runs (uPlot): series appear as their first point arrives, so a
 * figure's chart needs no list of its cases up front. Two uses on the benchmark page:
 *   - a figure's samples: x is the sample's number within the figure, one series per case and side
 *     (measured solid, baseline dashed in the same colour), points only where that series sampled;
 *   - the paging stream: x in seconds, GB/s of each evict and restore as it completed.
 * Redraws at most once per animation frame, so charting stays out of the timings it shows.
 */
// First: uPlot formats with navigator.language as its module loads.
import '../common/locale-guard.js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../common/live-chart.js';

const COLORS = ['#7fb4ff', '#5ad17f', '#f5c26b', '#e06c75', '#c792ea', '#56b6c2', '#d19a66', '#abb2bf'];

export class GrowingChart {
  private readonly plot: uPlot;
  private readonly xs: number[] = [];
  private readonly columns = new Map<string, (number | null)[]>();
  private readonly colorOf = new Map<string, string>();
  private scheduled = false;

  constructor(
    parent: HTMLElement,
    title: string,
    unit: string,
    xLabel: string,
    private readonly linesBetweenPoints: boolean,
    width = 520,
  ) {
    const opts: uPlot.Options = {
      title,
      width,
      height: 220,
      legend: { live: false },
      cursor: { show: false },
      scales: { x: { time: false } },
      axes: [
        { stroke: '#9aa4b2', grid: { stroke: '#2a313a' }, label: xLabel },
        { stroke: '#9aa4b2', grid: { stroke: '#2a313a' }, size: 64, label: unit, values: (_, ticks) => ticks.map((v) => formatNumber(v)) },
      ],
      series: [{}],
    };
    this.plot = new uPlot(opts, [[]], parent);
  }

  get pointCount(): number {
    return this.xs.length;
  }

  /** Adds one point; `group` picks the colour (a case), `dashed` draws the baseline of that case. */
  add(series: string, x: number, y: number, group = series, dashed = false): void {
    let column = this.columns.get(series);
    if (!column) {
      column = this.xs.map(() => null);
      this.columns.set(series, column);
      let color = this.colorOf.get(group);
      if (!color) {
        color = COLORS[this.colorOf.size % COLORS.length] ?? '#7fb4ff';
        this.colorOf.set(group, color);
      }
      this.plot.addSeries({ label: series, stroke: color, width: 1.5, dash: dashed ? [5, 4] : undefined, spanGaps: true, points: { show: true, size: 4 }, ...(this.linesBetweenPoints ? {} : { paths: () => null }) });
    }
    this.xs.push(x);
    for (const [name, values] of this.columns) values.push(name === series ? y : null);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.plot.setData([this.xs, ...this.columns.values()] as uPlot.AlignedData);
    });
  }
}
