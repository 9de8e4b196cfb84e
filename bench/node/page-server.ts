/**
 * Serves the built benchmark page (bench/dist/page/, `vite build --mode page`) on 127.0.0.1 with the
 * runners' static server, cross-origin isolated, and collects what the page POSTs with collect=1:
 * each progress line as it comes, then the result (a SuiteResult, or { error }).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic, type StaticServer } from '../../tools/browser/static-server.js';

/**
 * Cross-origin isolation (COOP + COEP): without it Chromium coarsens performance.now() to 100 µs,
 * which quantizes a 1 MiB restore (about 0.5 ms) to a few values; isolated pages get 5 µs.
 */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
} as const;

export interface PageServer extends StaticServer {
  /** Resolves with the POSTed result's text (a SuiteResult or { error }). */
  result: Promise<string>;
}

export async function servePage(root: string, onProgress: (line: string) => void): Promise<PageServer> {
  if (!existsSync(join(root, 'bench', 'index.html')))
    throw new Error(
      `${root} holds no built benchmark page (bench/index.html): run vite build -c bench/vite.config.ts --mode page`,
    );
  let deliver: (text: string) => void = () => undefined;
  const result = new Promise<string>((resolve) => (deliver = resolve));
  const server = await serveStatic(root, {
    headers: ISOLATION_HEADERS,
    post: { '/__bench/progress': onProgress, '/__bench/result': (text) => deliver(text) },
  });
  return { ...server, result };
}
