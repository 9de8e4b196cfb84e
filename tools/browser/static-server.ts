/**
 * A small static HTTP server on 127.0.0.1 for a built page (the validation page, validate/dist/page/,
 * for `npm run validate`; the benchmark page, bench/dist/page/, for `npm run bench`), so the runners
 * need no dev server: the same files could be served by any web server. Optionally it adds headers
 * to every file and takes POSTs on given paths (the benchmark page reports that way).
 *
 * Hand-written on node:http: Node has no static file server, and the runners' bundles leave vite out
 * and inline the rest, so the GPU machine, which has no npm, runs them without a package.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wgsl': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

export type StaticTarget = { file: string } | { redirect: string };

export interface StaticServerOptions {
  /** Sent with every file (e.g. cross-origin isolation). */
  headers?: Record<string, string>;
  /** POST handlers by URL path, called with the body as text; answered 204 (413 past MAX_POST_BYTES). */
  post?: Record<string, (body: string) => void>;
}

/** The largest POST body taken: a benchmark result holds every raw sample, a few MB at most. */
const MAX_POST_BYTES = 64 * 2 ** 20;

/**
 * What `urlPath` names under `root`: a file, a folder's index.html (a folder without its trailing
 * slash redirects to it, so the page's relative URLs resolve), or nothing (missing or outside root).
 */
export function resolveStaticPath(root: string, urlPath: string): StaticTarget | undefined {
  const raw = urlPath.split(/[?#]/)[0] ?? '/';
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  const base = normalize(root.endsWith(sep) ? root : `${root}${sep}`);
  const file = normalize(join(base, path));
  if (!`${file}${sep}`.startsWith(base)) return undefined;
  try {
    const stat = statSync(file);
    if (stat.isFile()) return { file };
    if (!stat.isDirectory() || !statSync(join(file, 'index.html')).isFile()) return undefined;
    return path.endsWith('/')
      ? { file: join(file, 'index.html') }
      : { redirect: `${raw}/${urlPath.slice(raw.length)}` };
  } catch {
    return undefined;
  }
}

export async function serveStatic(root: string, options: StaticServerOptions = {}): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const handler =
      request.method === 'POST' ? options.post?.[(request.url ?? '/').split(/[?#]/)[0] ?? '/'] : undefined;
    if (handler) {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_POST_BYTES) chunks.push(chunk);
      });
      request.on('end', () => {
        if (size > MAX_POST_BYTES) {
          response.writeHead(413).end();
          return;
        }
        handler(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(204).end();
      });
      return;
    }
    const target =
      request.method === 'GET' || request.method === 'HEAD' ? resolveStaticPath(root, request.url ?? '/') : undefined;
    if (!target) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${request.url}\n`);
      return;
    }
    if ('redirect' in target) {
      response.writeHead(301, { location: target.redirect }).end();
      return;
    }
    const { file } = target;
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...options.headers,
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('static server has no TCP address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
