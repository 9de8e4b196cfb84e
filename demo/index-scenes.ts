/**
 * The index page's two views of the scenes (demo/scenes.ts, each scene's meta.ts): a grid of cards
 * (the scene's picture, title and tagline, a link to it) for choosing one, and below it "About the
 * scenes", each scene's paragraph and the D3D12 calls that drive it, for reading on.
 */
import { element } from './common/dom.js';
import type { SceneMeta } from './common/scene-meta.js';
import { PICTURE_HEIGHT, PICTURE_WIDTH, pictureUrl } from './scene-pictures.js';

function sceneCard(scene: SceneMeta): HTMLAnchorElement {
  const card = element('a', 'card scene-card');
  card.href = `./${scene.name}/`;
  card.dataset.scene = scene.name;
  const picture = element('img', 'scene-picture');
  // Width and height reserve the picture's space before it loads, so the grid does not jump.
  Object.assign(picture, {
    src: pictureUrl(scene.name),
    width: PICTURE_WIDTH,
    height: PICTURE_HEIGHT,
    alt: scene.pictureAlt,
    decoding: 'async',
  });
  const text = element('div', 'scene-card-text');
  text.append(element('h3', undefined, scene.title), element('p', 'tagline', scene.tagline));
  card.append(picture, text);
  return card;
}

function aboutScene(scene: SceneMeta): HTMLElement {
  const article = element('article', 'card about-scene');
  article.id = `about-${scene.name}`;
  article.dataset.scene = scene.name;
  const heading = element('h3');
  heading.append(Object.assign(element('a', undefined, scene.title), { href: `./${scene.name}/` }));
  const calls = element('p', 'calls');
  calls.append(element('span', 'calls-label', 'D3D12 calls: '));
  for (const call of scene.calls) calls.append(element('code', undefined, call), ' ');
  article.append(heading, element('p', 'summary', scene.summary), calls);
  return article;
}

/** Fills the card grid and the about section with `scenes`, in their order. */
export function showScenes(scenes: readonly SceneMeta[], cards: HTMLElement, about: HTMLElement): void {
  cards.append(...scenes.map(sceneCard));
  about.append(...scenes.map(aboutScene));
}
