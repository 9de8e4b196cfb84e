/**
 * The scene-frame-time figure's place in the suite: last, browser only. Its quick run is part of
 * the bench page's quick run of every figure (bench-page.test.ts, checked by
 * test/shared/scene-frame-time-checks.ts), so the scenes start once per test run, not twice.
 */
import { describe, expect } from 'vitest';
import { FIGURES } from '../../../../bench/suite/suite.js';
import { browserTest } from '../../../harness/browser/browser-test.js';

describe('scene-frame-time', () => {
  browserTest('is registered last, after texture-sample, and only for browser runs', () => {
    const ids = FIGURES.map((f) => f.id);
    expect(ids.at(-1)).toBe('scene-frame-time');
    expect(ids.indexOf('scene-frame-time')).toBe(ids.indexOf('texture-sample') + 1);
    expect(FIGURES.filter((f) => f.browserOnly).map((f) => f.id)).toEqual(['scene-frame-time']);
  });
});
