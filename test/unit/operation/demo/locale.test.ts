/**
 * demo/common/locale.ts: a page's number formatting survives any locale the environment reports,
 * and the guard shadows a refused navigator.language before uPlot reads it.
 */
import { describe, expect, it } from 'vitest';
import { formatNumber, installLocaleGuard, usableLocale } from '../../../../demo/common/locale.js';

describe('usableLocale', () => {
  it.each([
    ['en-US', 'en-US'],
    ['de-DE', 'de-DE'],
    ['en-US@posix', 'en-US'],
    ['de_DE.UTF-8', 'de-DE'],
    ['fr_FR@euro', 'fr-FR'],
  ])('%s gives %s', (tag, usable) => {
    expect(usableLocale(tag)).toBe(usable);
    // What it gives, Intl takes.
    expect(() => new Intl.NumberFormat(usable)).not.toThrow();
  });
  it.each([[undefined], [null], [''], ['C'], ['POSIX'], ['C.UTF-8'], ['@@@'], ['not a tag at all']])(
    '%j gives undefined (Intl default)',
    (tag) => {
      expect(usableLocale(tag)).toBeUndefined();
    },
  );
});

describe('installLocaleGuard', () => {
  const fakeNavigator = (language: string): Navigator => ({ language }) as Navigator;
  it('shadows a refused tag with its usable form', () => {
    const nav = fakeNavigator('en-US@posix');
    expect(() => new Intl.NumberFormat(nav.language)).toThrow(RangeError);
    expect(installLocaleGuard(nav)).toBe('en-US');
    expect(nav.language).toBe('en-US');
    expect(() => new Intl.NumberFormat(nav.language)).not.toThrow();
  });
  it('falls back to Intl default where no form is usable', () => {
    const nav = fakeNavigator('C');
    const installed = installLocaleGuard(nav);
    expect(installed).toBe(new Intl.NumberFormat().resolvedOptions().locale);
    expect(() => new Intl.NumberFormat(nav.language)).not.toThrow();
  });
  it('leaves a valid tag alone', () => {
    const nav = fakeNavigator('de-DE');
    expect(installLocaleGuard(nav)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(nav, 'language')?.value).toBe('de-DE');
  });
});

describe('formatNumber', () => {
  it('formats with the page locale and never throws', () => {
    expect(formatNumber(1234.5, { maximumFractionDigits: 1 })).toMatch(/1.?234.5|1.?234,5/);
  });
});
