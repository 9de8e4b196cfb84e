/** The commit a benchmark bundle was built from: vite's `define` fills it in at bundle time. */
declare const __BENCH_COMMIT__: string | undefined;

export const BENCH_COMMIT: string = typeof __BENCH_COMMIT__ === 'string' ? __BENCH_COMMIT__ : 'unknown';
