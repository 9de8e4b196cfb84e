/**
 * Small building blocks for a scene's side panel: titled sections, a live key/value table and form
 * controls (sliders, switches, buttons) that call back into the scene.
 */

export function section(panel: HTMLElement, title: string): HTMLElement {
  const box = document.createElement('section');
  box.className = 'panel-section';
  const heading = document.createElement('h2');
  heading.textContent = title;
  box.append(heading);
  panel.append(box);
  return box;
}

/** A two-column table whose values are replaced in place (no layout churn per frame). */
export class StatTable {
  private readonly cells = new Map<string, HTMLTableCellElement>();
  private readonly table = document.createElement('table');

  constructor(parent: HTMLElement, keys: string[]) {
    this.table.className = 'stats';
    for (const key of keys) {
      const row = this.table.insertRow();
      const name = row.insertCell();
      name.textContent = key;
      const value = row.insertCell();
      value.dataset.stat = key;
      this.cells.set(key, value);
    }
    parent.append(this.table);
  }

  set(values: Record<string, string>): void {
    for (const [key, value] of Object.entries(values)) {
      const cell = this.cells.get(key);
      if (cell && cell.textContent !== value) cell.textContent = value;
    }
  }
}

export function slider(
  parent: HTMLElement,
  label: string,
  range: { min: number; max: number; step: number; value: number },
  format: (value: number) => string,
  onInput: (value: number) => void,
): HTMLInputElement {
  const wrap = document.createElement('label');
  wrap.className = 'control';
  const text = document.createElement('span');
  const input = document.createElement('input');
  input.type = 'range';
  Object.assign(input, {
    min: String(range.min),
    max: String(range.max),
    step: String(range.step),
    value: String(range.value),
  });
  const show = (): void => {
    text.textContent = `${label}: ${format(Number(input.value))}`;
  };
  input.addEventListener('input', () => {
    show();
    onInput(Number(input.value));
  });
  show();
  wrap.append(text, input);
  parent.append(wrap);
  return input;
}

export function toggle(
  parent: HTMLElement,
  label: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
): HTMLInputElement {
  const wrap = document.createElement('label');
  wrap.className = 'control switch';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  wrap.append(input, ` ${label}`);
  parent.append(wrap);
  return input;
}

export function button(parent: HTMLElement, label: string, onClick: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.textContent = label;
  node.addEventListener('click', onClick);
  parent.append(node);
  return node;
}
