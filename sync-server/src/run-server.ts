import { type CreateServerOptions, createServer, type PipitServer } from './create-server';
import { VERSION } from './version';

/**
 * Starts the server and stops it gracefully on SIGTERM or SIGINT: pending document stores are
 * flushed before the process exits (exit code 1 if any could not be stored).
 */
export async function runServer(options: CreateServerOptions): Promise<PipitServer> {
  const server = await createServer(options);
  const { url } = await server.listen();
  server.logger.info(
    { url, storage: server.storage.engine, version: VERSION },
    `Pipit is running at ${url}`,
  );

  const stop = (signal: NodeJS.Signals) => {
    server.logger.info({ signal }, 'shutting down');
    server.close().then(
      ({ unsaved }) => process.exit(unsaved.length > 0 ? 1 : 0),
      (error: unknown) => {
        server.logger.fatal({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}
