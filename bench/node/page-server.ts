/**
 * Serves the built benchmark page (bench/dist/page/, `vite build --mode page`) on 127.0.0.1 and
 * collects what the page POSTs with collect=1: each progress line as it comes, then the result (a
 * SuiteResult, or { error }). Plain node:http, so the runner needs no vite where it runs (the GPU
 * machine carries Node and nothing of npm).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
};
/**
 * Cross-origin isolation (COOP + COEP): without it Chromium coarsens performance.now() to 100 µs,
 * which quantizes a 1 MiB restore (about 0.5 ms) to a few values; isolated pages get 5 µs.
 */
export const ISOLATION_HEADERS = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } as const;
/** A result holds every raw sample: a few MB at most; anything larger is not from the page. */
const MAX_BODY_BYTES = 64 * 2 ** 20;

export interface PageServer {
  server: Server;
  origin: string;
  /** Resolves with the POSTed result's text (a SuiteResult or { error }). */
  result: Promise<string>;
  close(): Promise<void>;
}

export async function servePage(root: string, onProgress: (line: string) => void): Promise<PageServer> {
  if (!existsSync(join(root, 'bench', 'index.html'))) throw new Error(`${root} holds no built benchmark page (bench/index.html): run vite build -c bench/vite.config.ts --mode page`);
  let deliver: (text: string) => void = () => undefined;
  const result = new Promise<string>((resolve) => (deliver = resolve));
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    if (request.method === 'POST' && (path === '/__bench/progress' || path === '/__bench/result')) {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (size > MAX_BODY_BYTES) response.writeHead(413).end();
        else {
          if (path === '/__bench/progress') onProgress(text);
          else deliver(text);
          response.writeHead(204).end();
        }
      });
      return;
    }
    // Only files under root: a path that normalizes outside it is refused.
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (request.method !== 'GET' || !(file === root || file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...ISOLATION_HEADERS });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the page server has no TCP address');
  return {
    server,
    origin: `http://127.0.0.1:${address.port}`,
    result,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
