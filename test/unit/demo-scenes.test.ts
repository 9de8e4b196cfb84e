/** The index page's scene list against the scene folders, and each scene's meta. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENES } from '../../demo/scenes.js';
import { PROJECT_ROOT } from '../harness/paths.js';

const DEMO = join(PROJECT_ROOT, 'demo');

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
      if (!WITHOUT_WGSL.includes(scene.name)) expect(readdirSync(join(DEMO, scene.name)).some((f) => f.endsWith('.wgsl'))).toBe(true);
      expect(scene.summary).not.toContain('\n');
      expect(scene.summary.length).toBeGreaterThan(200);
      expect(scene.calls.length).toBeGreaterThan(3);
    });
  }
});
