/**
 * The benchmark page's verdict list, at the top of the report: one line per figure of the run with
 * its progress (waiting, running, done in n s, failed) and, once it is done, its ratio or the span
 * of its ratios, its target and whether the target is met (verdict.ts decides). Tests and the
 * headless runner read each line's data-figure, data-state and data-verdict (met, missed, none).
 */
import type { Figure } from '../../bench/suite/figure.js';
import type { FigureEvent } from '../../bench/suite/suite.js';
import { element } from '../common/dom.js';
import { figureVerdict, ratioText, targetBound, verdictWords } from './verdict.js';

export class VerdictList {
  private readonly items = new Map<string, HTMLLIElement>();
  private readonly empty: HTMLElement;

  constructor(private readonly list: HTMLUListElement) {
    // Before a run the list is empty: say what will appear there.
    this.empty = element(
      'p',
      'bench-empty',
      'No run yet: each figure of a run gets a line here, with its ratios and whether its target is met.',
    );
    list.before(this.empty);
  }

  /** One waiting line per figure, in run order, under a line naming the columns. */
  add(ids: readonly string[]): void {
    if (this.empty.isConnected) {
      this.empty.remove();
      // Not an item of the list: the list holds exactly one line per figure.
      const head = element('div', 'bench-figures-head');
      for (const name of ['', 'figure', 'ratio', 'target', 'verdict']) head.append(element('span', undefined, name));
      head.title = "ratio: the figure's ratio, or the smallest and largest over its rows";
      this.list.before(head);
    }
    for (const id of ids) {
      const item = element('li');
      item.dataset.figure = id;
      item.dataset.state = 'waiting';
      const name = element('span', 'figure-name');
      name.append(element('b', undefined, id));
      item.append(element('span', 'mark', 'waiting'), name);
      this.list.append(item);
      this.items.set(id, item);
    }
  }

  progress(event: FigureEvent): void {
    const item = this.items.get(event.id);
    if (!item) return;
    item.dataset.state = event.state;
    const mark = item.querySelector('.mark');
    if (mark)
      mark.textContent =
        event.state === 'running'
          ? 'running'
          : event.state === 'done'
            ? `done in ${event.seconds.toFixed(1)} s`
            : 'FAILED';
    if (event.state === 'done') this.showVerdict(item, event.figure);
    if (event.state === 'failed') {
      item.dataset.verdict = 'none';
      item.append(Object.assign(element('span', 'failure', event.error), { title: event.error }));
    }
  }

  private showVerdict(item: HTMLLIElement, figure: Figure): void {
    const v = figureVerdict(figure);
    item.dataset.verdict = v.kind;
    // The id names the figure as the charts and the run parameters do; its title is a hover away.
    const name = item.querySelector<HTMLElement>('.figure-name');
    if (name) name.title = `${figure.title}\nratio: ${figure.ratioMeaning}`;
    const ratio = element('span', 'ratio', ratioText(v.ratios));
    ratio.title = `${v.ratios ? `${v.ratios.count} row(s) with a ratio` : 'no row has a ratio'}; ratio: ${figure.ratioMeaning}`;
    const target = element('span', 'target');
    if (figure.target)
      target.append(
        element('b', undefined, targetBound(figure.target)),
        ' ',
        element('span', 'target-text', figure.target.text),
      );
    target.title = figure.target?.text ?? 'this figure has no target';
    const words = verdictWords(figure, v);
    const verdict = element('span', 'verdict');
    verdict.append(element('b', 'badge', words.badge), words.detail ? ` ${words.detail}` : '');
    // Every missing case, where the line names only their count.
    verdict.title =
      v.kind === 'missed'
        ? `missed by: ${v.missedCases.join(', ')}`
        : words.detail
          ? `${words.badge}: ${words.detail}`
          : words.badge;
    item.append(ratio, target, verdict);
  }
}
