/**
 * Charts that grow while the suite runs (uPlot): series appear as their first point arrives, so a
 * figure's chart needs no list of its cases up front. Two uses on the benchmark page:
 *   - a figure's samples: x is the sample's number within the figure, one series per case and side
 *     (measured solid, baseline dashed in the same colour), points only where that series sampled;
 *   - the paging stream: x in seconds, GB/s of each evict and restore as it completed.
 * Redraws at most once per animation frame, so charting stays out of the timings it shows. A chart
 * fills the element it is drawn in (a cell of the page's chart grid): its width, followed when the
 * window resizes, and a fixed height shared by title, plot and legend, so that a long legend takes
 * its room from the plot and every row of the grid is as tall as the others. The legend names each
 * colour once (a case), under the plot.
 */
// First: uPlot formats with navigator.language as its module loads.
import '../common/locale-guard.js';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../common/live-chart.js';

const COLORS = ['#7fb4ff', '#5ad17f', '#f5c26b', '#e06c75', '#c792ea', '#56b6c2', '#d19a66', '#abb2bf'];

/** A chart's height in CSS px, title, plot with its axes and legend together: short, so that every figure's chart fits a screen or two (150: the page of every figure stays within its two and a half screens with the lazy-eviction rows of the paging figure). */
const CELL_HEIGHT = 150;
/** The plot keeps at least this much whatever its legend takes (the cell grows past CELL_HEIGHT then). */
const MIN_PLOT_HEIGHT = 90;
/** The title's height before it is laid out. */
const TITLE_HEIGHT = 22;
/** Where the element has no width yet (not laid out): the observer corrects it once it has one. */
const FALLBACK_WIDTH = 400;
const AXIS_FONT = '11px system-ui, sans-serif';

export class GrowingChart {
  private readonly plot: uPlot;
  private readonly xs: number[] = [];
  private readonly columns = new Map<string, (number | null)[]>();
  private readonly colorOf = new Map<string, string>();
  private scheduled = false;
  private readonly legend: HTMLElement;
  /** A legend entry was added since the chart was last fitted to its cell. */
  private legendChanged = false;

  constructor(
    private readonly parent: HTMLElement,
    title: string,
    unit: string,
    xLabel: string,
    private readonly linesBetweenPoints: boolean,
  ) {
    // Small axis labels: uPlot's default label band alone is 30 px a side.
    const axis = {
      stroke: '#9aa4b2',
      grid: { stroke: '#2a313a' },
      font: AXIS_FONT,
      labelFont: AXIS_FONT,
      labelSize: 16,
    };
    const opts: uPlot.Options = {
      title,
      width: widthOf(parent),
      height: CELL_HEIGHT - TITLE_HEIGHT,
      // uPlot's legend lists every series (a case twice, measured and baseline): ours names each colour once.
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false } },
      axes: [
        { ...axis, size: 30, label: xLabel },
        { ...axis, size: 52, label: unit, values: (_, ticks) => ticks.map((v) => formatNumber(v)) },
      ],
      series: [{}],
    };
    this.plot = new uPlot(opts, [[]], parent);
    this.legend = document.createElement('div');
    this.legend.className = 'chart-legend';
    parent.append(this.legend);
    this.fit();
    // The grid cell's width changes with the window (and the column count with it), and the legend's
    // lines with it. A frame already scheduled fits the chart after its data (see schedule).
    new ResizeObserver(() => {
      if (!this.scheduled) this.fit();
    }).observe(parent);
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
        this.legendEntry(group, color);
      }
      this.plot.addSeries({
        label: series,
        stroke: color,
        width: 1.5,
        dash: dashed ? [5, 4] : undefined,
        spanGaps: true,
        points: { show: true, size: 4 },
        ...(this.linesBetweenPoints ? {} : { paths: () => null }),
      });
    }
    this.xs.push(x);
    // A non-finite sample (a rate over no time) would leave uPlot with no y range: it is a gap.
    for (const [name, values] of this.columns) values.push(name === series && Number.isFinite(y) ? y : null);
    this.schedule();
  }

  private legendEntry(name: string, color: string): void {
    const entry = document.createElement('span');
    const swatch = document.createElement('i');
    swatch.style.background = color;
    entry.append(swatch, name);
    this.legend.append(entry);
    this.legendChanged = true;
  }

  /** Width of the cell; height: what the title and the legend leave of CELL_HEIGHT. */
  private fit(): void {
    this.legendChanged = false;
    const width = widthOf(this.parent);
    const title = this.plot.root.querySelector<HTMLElement>('.u-title')?.offsetHeight ?? TITLE_HEIGHT;
    const height = Math.max(MIN_PLOT_HEIGHT, CELL_HEIGHT - title - this.legend.offsetHeight);
    if (width !== this.plot.width || height !== this.plot.height) this.plot.setSize({ width, height });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.plot.setData([this.xs, ...this.columns.values()] as uPlot.AlignedData);
      // After the data: uPlot redraws on a resize, and a series added since the last frame has no data before setData.
      if (this.legendChanged) this.fit();
    });
  }
}

/** The element's content width in whole CSS px, or FALLBACK_WIDTH before it is laid out. */
function widthOf(element: HTMLElement): number {
  return Math.floor(element.clientWidth) || FALLBACK_WIDTH;
}
