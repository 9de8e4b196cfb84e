/**
 * DOM building blocks every demo page shares: an element with a class and text, and the page
 * header (title, summary, the D3D12 calls that drive it) that each scene and suite page opens with.
 */
import type { SceneMeta } from './scene-meta.js';

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Titles the document after `meta` and returns its header: a link back to the index, the title, the
 * one-line tagline, and the long summary with the D3D12 calls folded under "About this page", so the
 * scene itself is in the first screen.
 */
export function sceneHeader(meta: SceneMeta): HTMLElement {
  document.title = `${meta.title} · d3d12-webgpu`;
  document.body.classList.add('scene-page');
  const header = element('header', 'scene-header');
  const back = element('a', 'back', '← all scenes');
  back.href = '../';
  const calls = element('p', 'calls');
  calls.append(element('span', 'calls-label', 'D3D12 calls: '));
  for (const call of meta.calls) calls.append(element('code', undefined, call), ' ');
  const about = element('details', 'about');
  about.append(element('summary', undefined, 'About this page'), element('p', 'summary', meta.summary), calls);
  header.append(back, element('h1', undefined, meta.title), element('p', 'tagline', meta.tagline), about);
  return header;
}
