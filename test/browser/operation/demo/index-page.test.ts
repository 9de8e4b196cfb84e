/**
 * The demo index (demo/index.html) in the test browser, as a newcomer sees it: at 1400 × 900 every
 * scene of SCENES has a card in a grid of at least two columns, with a picture that loaded, its
 * title, its tagline and a link to the scene; "About the scenes" below keeps each scene's paragraph
 * and calls; on a phone's width the cards stack in one column without a sideways scroll. A
 * screenshot of the desktop view is saved as test-results/screenshots/index.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, inject } from 'vitest';
import { SCENES } from '../../../../demo/scenes.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { SCREENSHOT_DIR } from './open-scene.js';

interface ShownCard {
  scene: string | undefined;
  href: string | null;
  title: string | undefined;
  tagline: string | undefined;
  picture: { naturalWidth: number; alt: string; width: string | null; height: string | null } | null;
  left: number;
  top: number;
}

/** Opens the index at `width` × `height` and waits until every picture has loaded or failed. */
async function openIndex(openPage: (url: string) => Promise<Page>, width: number, height: number): Promise<Page> {
  const page = await openPage(`${inject('browserOrigin')}/demo/index.html`);
  await page.setViewport({ width, height });
  await page.waitForFunction(
    (count) => {
      const pictures = [...document.querySelectorAll<HTMLImageElement>('#scene-cards img')];
      return pictures.length === count && pictures.every((img) => img.complete);
    },
    { timeout: 30_000, polling: 100 },
    SCENES.length,
  );
  return page;
}

function shownCards(page: Page): Promise<ShownCard[]> {
  return page.$$eval('#scene-cards a.card', (cards) =>
    cards.map((card) => {
      const img = card.querySelector('img');
      const box = card.getBoundingClientRect();
      return {
        scene: (card as HTMLElement).dataset.scene,
        href: card.getAttribute('href'),
        title: card.querySelector('h3')?.textContent ?? undefined,
        tagline: card.querySelector('.tagline')?.textContent ?? undefined,
        picture: img
          ? {
              naturalWidth: img.naturalWidth,
              alt: img.alt,
              width: img.getAttribute('width'),
              height: img.getAttribute('height'),
            }
          : null,
        left: Math.round(box.left),
        top: Math.round(box.top),
      };
    }),
  );
}

/** Columns of the grid: the distinct left edges of its cards. */
const columns = (cards: ShownCard[]): number => new Set(cards.map((c) => c.left)).size;

describe('the demo index', () => {
  browserTest(
    'at 1400 × 900: a card per scene with a loaded picture, its title and tagline, in two or more columns',
    async ({ openPage }) => {
      const page = await openIndex(openPage, 1400, 900);
      const cards = await shownCards(page);
      expect(cards.map((c) => [c.scene, c.href, c.title, c.tagline])).toEqual(
        SCENES.map((s) => [s.name, `./${s.name}/`, s.title, s.tagline]),
      );
      for (const [i, card] of cards.entries()) {
        expect(card.picture, `${card.scene}: its picture`).toEqual({
          naturalWidth: expect.any(Number) as number,
          alt: SCENES[i]?.pictureAlt,
          width: '640',
          height: '400',
        });
        expect(card.picture?.naturalWidth, `${card.scene}: its picture loaded`).toBeGreaterThan(0);
      }
      expect(columns(cards)).toBeGreaterThanOrEqual(2);
      // The first row holds as many cards as there are columns, side by side.
      expect(cards.filter((c) => c.top === cards[0]?.top).length).toBe(columns(cards));

      const about = await page.$$eval('#scene-about .about-scene', (articles) =>
        articles.map((a) => ({
          scene: (a as HTMLElement).dataset.scene,
          summary: a.querySelector('.summary')?.textContent,
          calls: [...a.querySelectorAll('.calls code')].map((c) => c.textContent),
        })),
      );
      expect(about).toEqual(SCENES.map((s) => ({ scene: s.name, summary: s.summary, calls: s.calls })));

      // The self-test's line settles before the screenshot, so the picture shows the page at rest.
      await page.waitForFunction(
        () => document.querySelector('#gpu-status')?.getAttribute('data-state') !== 'pending',
        { timeout: 60_000, polling: 100 },
      );
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'index.png'), fullPage: true });
    },
  );

  browserTest(
    'on a phone (390 px): the cards stack in one column and nothing scrolls sideways',
    async ({ openPage }) => {
      const page = await openIndex(openPage, 390, 844);
      const cards = await shownCards(page);
      expect(cards).toHaveLength(SCENES.length);
      expect(columns(cards)).toBe(1);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
    },
  );
});
