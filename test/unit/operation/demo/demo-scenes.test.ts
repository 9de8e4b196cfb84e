/** The index page's scene list against the scene folders, each scene's meta, and its picture on the index. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS } from '../../../../demo-pictures/shots.js';
import { TAGLINE_MAX_CHARS } from '../../../../demo/common/scene-meta.js';
import { PICTURE_HEIGHT, PICTURE_WIDTH, picturePath } from '../../../../demo/scene-pictures.js';
import { SCENES } from '../../../../demo/scenes.js';
import { PROJECT_ROOT } from '../../../harness/paths.js';
import { webpSize } from '../../../harness/webp.js';

const DEMO = join(PROJECT_ROOT, 'demo');
/** What the index may load per picture (npm run demo:pictures keeps each under it). */
const MAX_PICTURE_BYTES = 120 * 1024;

describe('demo scenes', () => {
  it('the index lists exactly the folders that hold a scene', () => {
    const folders = readdirSync(DEMO).filter((name) => existsSync(join(DEMO, name, 'meta.ts')));
    expect(SCENES.map((s) => s.name).sort()).toEqual(folders.sort());
  });

  /** Pages that draw nothing of their own: they run the suites of src/validate/ and bench/suite/. */
  const WITHOUT_WGSL = ['validation', 'bench'];

  for (const scene of SCENES) {
    it(`${scene.name}: has its page, entry point${WITHOUT_WGSL.includes(scene.name) ? '' : ' and WGSL'}, and a one-paragraph summary`, () => {
      for (const file of ['index.html', 'main.ts']) expect(existsSync(join(DEMO, scene.name, file)), file).toBe(true);
      if (!WITHOUT_WGSL.includes(scene.name))
        expect(readdirSync(join(DEMO, scene.name)).some((f) => f.endsWith('.wgsl'))).toBe(true);
      expect(scene.summary).not.toContain('\n');
      expect(scene.summary.length).toBeGreaterThan(200);
      expect(scene.calls.length).toBeGreaterThan(3);
    });
  }

  for (const scene of SCENES) {
    it(`${scene.name}: a one-line tagline and a committed picture of the index's size`, () => {
      expect(scene.tagline).not.toMatch(/[\n\r]/);
      expect(scene.tagline.trim()).toBe(scene.tagline);
      expect(scene.tagline.length).toBeGreaterThan(30);
      expect(scene.tagline.length).toBeLessThanOrEqual(TAGLINE_MAX_CHARS);
      expect(scene.pictureAlt.length).toBeGreaterThan(30);
      const file = join(PROJECT_ROOT, picturePath(scene.name));
      expect(existsSync(file), `${picturePath(scene.name)} (npm run demo:pictures makes it)`).toBe(true);
      expect(statSync(file).size).toBeLessThanOrEqual(MAX_PICTURE_BYTES);
      expect(webpSize(readFileSync(file))).toEqual({ width: PICTURE_WIDTH, height: PICTURE_HEIGHT });
    });
  }

  it('npm run demo:pictures photographs every scene, once', () => {
    expect(SHOTS.map((shot) => shot.name)).toEqual(SCENES.map((s) => s.name));
  });

  it('no picture is left over from a scene that is gone', () => {
    const pictures = readdirSync(join(DEMO, 'pictures')).sort();
    expect(pictures).toEqual(SCENES.map((s) => picturePath(s.name).split('/').at(-1)).sort());
  });
});
