/**
 * Number formatting that never throws on the browser's locale. Under LANG=C (containers, CI machines,
 * many Linux desktops) Chromium reports navigator.language as 'en-US@posix', a POSIX locale name that
 * is no BCP 47 tag: `new Intl.NumberFormat('en-US@posix')` throws a RangeError. uPlot builds such a
 * formatter when its module loads (uPlot issue 1053), so importing it killed every page that charts.
 *
 * `usableLocale` turns whatever the environment reports into a tag Intl takes, or undefined (Intl's
 * default locale, which V8 always accepts). `installLocaleGuard` makes navigator.language that tag
 * for code we do not own; locale-guard.ts runs it on import, before uPlot's module.
 */

/** A tag Intl accepts for `tag`: as given, else without its POSIX suffixes ('@posix', '.UTF-8') and with '-' for '_'; undefined if none. */
export function usableLocale(tag: string | null | undefined): string | undefined {
  if (typeof tag !== 'string' || tag === '') return undefined;
  const candidates = [tag, tag.replace(/[.@].*$/, '').replace(/_/g, '-')];
  for (const candidate of candidates) {
    // 'C' and 'POSIX' are valid-looking but name no language.
    if (/^(c|posix)$/i.test(candidate)) return undefined;
    try {
      const [canonical] = Intl.getCanonicalLocales(candidate);
      if (canonical) {
        new Intl.NumberFormat(canonical);
        return canonical;
      }
    } catch {
      // Refused: try the next form.
    }
  }
  return undefined;
}

/** The page's locale: the browser's language where Intl takes it, else Intl's default. */
export function pageLocale(): string | undefined {
  return usableLocale(typeof navigator === 'undefined' ? undefined : navigator.language);
}

/** `value` formatted for the page's locale (grouping, decimal sign); never throws on the locale. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(pageLocale(), options).format(value);
}

/**
 * Where navigator.language is a tag Intl refuses, shadows it with the usable form ('en-US@posix'
 * reads 'en-US'; a tag with no usable form reads Intl's default locale). Returns what it installed,
 * or null where the browser's tag was fine already.
 */
export function installLocaleGuard(
  nav: Navigator | undefined = typeof navigator === 'undefined' ? undefined : navigator,
): string | null {
  if (!nav) return null;
  const reported = nav.language;
  const usable = usableLocale(reported) ?? new Intl.NumberFormat().resolvedOptions().locale;
  if (usable === reported) return null;
  Object.defineProperty(nav, 'language', { configurable: true, enumerable: true, get: () => usable });
  return usable;
}
