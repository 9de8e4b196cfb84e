/**
 * Imported for its side effect, before any module that formats with navigator.language at load time
 * (uPlot): makes navigator.language a tag Intl accepts (locale.ts says why).
 */
import { installLocaleGuard } from './locale.js';

installLocaleGuard();
