/** The browser's locale: a real one where the environment has only C/POSIX (ICU would pick 'en-US@posix'). */
import { describe, expect, it } from 'vitest';
import { localeEnv } from '../../../../tools/browser/launch.js';

describe('localeEnv', () => {
  it.each([[{}], [{ LANG: 'C' }], [{ LANG: 'C.UTF-8' }], [{ LANG: 'POSIX' }], [{ LANG: 'en_GB.UTF-8', LC_ALL: 'C' }]])(
    'gives en_US.UTF-8 under %j',
    (env) => {
      expect(localeEnv(env)).toEqual({ LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' });
    },
  );
  it.each([[{ LANG: 'en_US.UTF-8' }], [{ LANG: 'de_DE.UTF-8' }], [{ LANG: 'C', LC_ALL: 'fr_FR.UTF-8' }]])(
    'keeps a real locale: %j',
    (env) => {
      expect(localeEnv(env)).toEqual({});
    },
  );
});
