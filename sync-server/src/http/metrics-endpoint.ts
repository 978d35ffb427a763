import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

function sendText(res: ServerResponse, status: number, text: string, headers = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * `GET /metrics` for Prometheus, outside /api (it is no part of the product's API). It exists only
 * when METRICS_TOKEN is configured — otherwise 404, like any unknown path — and then answers only
 * `Authorization: Bearer <token>`. The comparison is of SHA-256 digests, in constant time, so
 * neither the token's length nor its prefix leaks through response timing.
 */
export function createMetricsEndpoint(options: {
  registry: Registry;
  token: string | undefined;
  logger: Logger;
}): (req: IncomingMessage, res: ServerResponse) => void {
  const expected = options.token === undefined ? undefined : sha256(options.token);
  return (req, res) => {
    if (!expected) return sendText(res, 404, 'Not found');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    }
    const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
      return sendText(res, 401, 'Send the metrics token as a bearer token.', {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    options.registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          'Content-Type': options.registry.contentType,
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'collecting metrics failed');
        sendText(res, 500, 'Collecting the metrics failed; the server log says why.');
      },
    );
  };
}
