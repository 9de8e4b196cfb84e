/**
 * `npm start`, exactly as the README says: it serves the demo on 127.0.0.1, prints the URL, and the
 * page it serves opens a WebGPU device in Chromium without a console error.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { SCENES } from '../../../../demo/scenes.js';
import { browserTest } from '../../../harness/browser/browser-test.js';
import { PROJECT_ROOT } from '../../../harness/paths.js';

/** How long vite may take to print its URL on a busy machine. */
const START_TIMEOUT_MS = 60_000;

let server: ReturnType<typeof spawn> | undefined;
let url = '';
let printed = '';

beforeAll(async () => {
  // Own process group, so that npm, its shell and vite all stop together.
  server = spawn('npm', ['start'], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no URL within ${START_TIMEOUT_MS} ms:\n${printed}`)),
      START_TIMEOUT_MS,
    );
    const read = (chunk: Buffer): void => {
      printed += chunk.toString();
      const match = /Local:\s+(http:\/\/\S+)/.exec(printed);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    server?.stdout?.on('data', read);
    server?.stderr?.on('data', read);
    server?.on('exit', (code) => reject(new Error(`npm start exited (${code}) before printing a URL:\n${printed}`)));
  });
}, START_TIMEOUT_MS + 5_000);

afterAll(() => {
  try {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  } catch {
    // It exited already; beforeAll reported why.
  }
});

describe('npm start: the demo server', () => {
  browserTest('prints a URL on 127.0.0.1', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  browserTest(
    'serves a page that opens a WebGPU device, names the adapter and passes the self-test',
    async ({ openPage }) => {
      const page = await openPage(url);
      expect(await page.title()).toBe('d3d12-webgpu demos');
      await page.waitForFunction(() => document.querySelector('#gpu-status')?.getAttribute('data-state') !== 'pending');
      const status = await page.$eval('#gpu-status', (el) => ({
        state: el.getAttribute('data-state'),
        text: el.textContent,
      }));
      expect(status.state, status.text ?? '').toBe('ready');
      expect(status.text).toMatch(/WebGPU ready: vendor=\S+ architecture=.*self-test passed \(65,536 words\)/);
    },
  );

  browserTest(
    'opens on the index, which links every scene with its picture and tagline, then its paragraph and calls; a link opens the scene',
    async ({ openPage }) => {
      const page = await openPage(url);
      const cards = await page.$$eval('#scene-cards a.card', (links) =>
        links.map((a) => ({
          href: a.getAttribute('href'),
          title: a.querySelector('h3')?.textContent,
          tagline: a.querySelector('.tagline')?.textContent,
          picture: a.querySelector('img')?.getAttribute('src') ?? '',
        })),
      );
      expect(cards.map((c) => [c.href, c.title, c.tagline])).toEqual(
        SCENES.map((s) => [`./${s.name}/`, s.title, s.tagline]),
      );
      // Served where npm start serves the demo's own files: beside demo/scene-pictures.ts.
      for (const [i, card] of cards.entries()) expect(card.picture).toBe(`${url}pictures/${SCENES[i]?.name}.webp`);
      const about = await page.$$eval('#scene-about .about-scene', (articles) =>
        articles.map((a) => ({
          summary: a.querySelector('.summary')?.textContent,
          calls: a.querySelectorAll('.calls code').length,
        })),
      );
      expect(about).toEqual(SCENES.map((s) => ({ summary: s.summary, calls: s.calls.length })));
      // Follow a card as a user would (the lightest scene); the scene page says what it is.
      const scene = SCENES.find((s) => s.name === 'growable-buffer');
      await Promise.all([page.waitForNavigation(), page.click('#scene-cards a.card[data-scene="growable-buffer"]')]);
      expect(page.url()).toBe(`${url}growable-buffer/`);
      await page.waitForSelector('.scene-header h1');
      expect(await page.$eval('.scene-header h1', (h) => h.textContent)).toBe(scene?.title);
      await page.waitForFunction(() => window.d3d12Demo.state !== 'loading');
      expect(await page.evaluate(() => window.d3d12Demo.state)).toBe('running');
    },
  );
});
