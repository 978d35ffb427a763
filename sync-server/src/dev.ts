import path from 'node:path';
import { createServer as createViteServer } from 'vite';
import { appShellTarget, shellDocument } from '@pipit/protocol';
import { ConfigError, loadConfig } from './config';
import { runServer } from './run-server';

/**
 * `npm run dev`: the same server as production, with Vite's middleware in place of the built client,
 * so the client hot-reloads while /api and the sync websocket run the real server code. Vite's
 * hot-reload socket shares the HTTP server (the sync socket takes only its own path).
 */
try {
  const root = path.resolve(import.meta.dirname, '../..');
  await runServer({
    config: loadConfig(),
    client: async (httpServer) => {
      const vite = await createViteServer({
        configFile: path.join(root, 'vite.config.ts'),
        server: { middlewareMode: true, hmr: { server: httpServer } },
        appType: 'spa',
      });
      return (req, res) => {
        // The installed app's page starts from its own entry, as the built server serves it (the
        // app's manifest link is the production server's and service worker's rewrite only).
        const pathname = (req.url ?? '/').split('?')[0] ?? '/';
        if (shellDocument(appShellTarget(pathname)) === '/app.html') req.url = '/app.html';
        vite.middlewares(req, res, () => {
          res.statusCode = 404;
          res.end('Not found');
        });
      };
    },
  });
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
