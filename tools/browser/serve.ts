/**
 * Serves a folder (the project root, for browser tests and demo pictures) on 127.0.0.1 through vite,
 * so pages load TypeScript sources and WGSL (`?raw`) exactly as the demo and the library build do.
 */
import { createServer, type ViteDevServer } from 'vite';

export interface ServedProject {
  server: ViteDevServer;
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string;
}

export async function serveProject(root: string): Promise<ServedProject> {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'warn',
    clearScreen: false,
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    // No dependency discovery: a newly discovered dependency makes vite reload the page mid-test.
    // Every dependency the pages import is already an ES module.
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite server has no TCP address');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}
