import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HttpBindings, getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { MONITORING_PATH } from '@pipit/protocol';
import { clientIp } from '../accounts/client-info';
import type { RateLimiter } from '../accounts/rate-limits';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import type { MonitoringOutcome } from '../metrics';
import { OverBudgetError } from '../monitoring/budget';
import type { Monitoring } from '../monitoring/create-monitoring';
import { MalformedEnvelopeError } from '../monitoring/envelope';
import { ForeignEnvelopeError, isConfiguredTunnel } from '../monitoring/ingest';
import { ServiceError } from '../service-error';
import { ApiError, errorBody, errorStatus } from './api-error';
import { API_BODY_LIMIT_BYTES, readBodyBytes } from './body';
import { isSameOriginRequest } from '../origin';

/**
 * What the SDK posts envelopes as: `text/plain` through a tunnel (no CORS preflight), or the
 * envelope type itself.
 */
const ENVELOPE_TYPES = /^(text\/plain|application\/x-sentry-envelope)\s*(;|$)/i;

export interface MonitoringRouteDependencies {
  monitoring: Monitoring;
  rateLimiter: RateLimiter;
  logger: Logger;
  publicOrigin: string | undefined;
  trustProxy: boolean;
  /** Counts each envelope by what became of it (metrics). */
  onOutcome?: (outcome: MonitoringOutcome) => void;
}

function outcomeOf(status: number): MonitoringOutcome | undefined {
  if (status === 200) return 'accepted';
  if (status === 429) return 'rate_limited';
  if (status === 413) return 'too_large';
  return status >= 400 && status < 500 ? 'rejected' : undefined;
}

const refuse = (message: string) => new ApiError('forbidden', message);

/**
 * `POST /monitoring?o={org}&p={project}[&r={region}]` (docs/product/error-reporting.md): the
 * browser SDK's tunnel. Accepts envelopes for the configured organisation, project and DSN only, at
 * most 1 MiB each and 60 a minute per address, from Pipit's own pages, while the address's daily
 * byte budget of stored reports lasts; stores their errors and forwards them when an upstream
 * collector is configured. Answers `{}` when accepted; 400 malformed, 403 not ours, 405 not a POST,
 * 413 too large, 415 not an envelope, 429 too many or over budget (with the headers the SDK obeys).
 * Nothing is stored or forwarded unless the answer is 200; refusals for size, rate or budget are
 * counted for the inbox. No cookie is read.
 */
export function createMonitoringRoute(deps: MonitoringRouteDependencies) {
  const { monitoring, rateLimiter, logger } = deps;
  const app = new Hono<{ Bindings: HttpBindings }>();

  app.use(async (c, next) => {
    await next();
    const outcome = outcomeOf(c.res.status);
    if (outcome) deps.onOutcome?.(outcome);
  });

  app.all(MONITORING_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (c.req.method !== 'POST') {
      return c.text('Error reports are sent here with POST.', 405, { Allow: 'POST' });
    }
    const headers = c.req.raw.headers;
    if (!isSameOriginRequest(headers, deps.publicOrigin)) {
      throw refuse('Error reports are accepted from Pipit’s own pages only.');
    }
    const query = { o: c.req.query('o'), p: c.req.query('p'), r: c.req.query('r') };
    if (!isConfiguredTunnel(query, monitoring.config)) {
      throw refuse('This server does not keep reports for that organisation or project.');
    }
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > API_BODY_LIMIT_BYTES) {
      monitoring.countDropped('too_large');
      throw new ApiError('payload_too_large', 'An error report can be 1 MB at most.');
    }
    if (!ENVELOPE_TYPES.test(c.req.header('content-type') ?? '')) {
      throw new ApiError('unsupported_media_type', 'Send the report as an envelope (text/plain).');
    }
    const address =
      clientIp(headers, c.env?.incoming?.socket?.remoteAddress, deps.trustProxy) ?? 'unknown';
    try {
      await rateLimiter.enforce('monitoringPerIp', address);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'rate_limited') {
        monitoring.countDropped('rate_limited');
      }
      throw error;
    }

    let body: Buffer;
    try {
      body = await readBodyBytes(c.req.raw, API_BODY_LIMIT_BYTES);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'payload_too_large') {
        monitoring.countDropped('too_large');
        throw new ApiError('payload_too_large', 'An error report can be 1 MB at most.');
      }
      throw error;
    }
    try {
      const result = await monitoring.ingest(body, address);
      logger.debug({ ...result }, 'error report received');
    } catch (error) {
      if (error instanceof MalformedEnvelopeError) {
        throw new ApiError('validation_failed', `That is not an error report: ${error.message}`);
      }
      if (error instanceof ForeignEnvelopeError) throw refuse(error.message);
      if (error instanceof OverBudgetError) {
        throw new ApiError('rate_limited', error.message, { retryAfter: error.retryAfter });
      }
      throw error;
    }
    return c.json({}, 200);
  });

  app.onError((error, c) => {
    c.header('Cache-Control', 'no-store');
    if (error instanceof ServiceError) {
      const retryAfter = error.extra.retryAfter;
      if (retryAfter !== undefined) {
        // Both headers: a bare 429 would pause every report for 60 seconds
        // (docs/product/error-reporting.md); these say exactly how long, for every category.
        c.header('Retry-After', String(retryAfter));
        c.header('X-Sentry-Rate-Limits', `${retryAfter}::organization:rate_limited`);
      }
      return c.json(errorBody(error), errorStatus(error) as 400);
    }
    const digest = createDigest();
    logger.error({ err: error, digest, path: MONITORING_PATH }, 'storing an error report failed');
    monitoring.reportServerError({ error, digest, method: c.req.method, path: MONITORING_PATH });
    return c.json(
      errorBody(new ApiError('internal', 'Something went wrong on the server.', { digest })),
      500,
    );
  });

  const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  return { handle: (req: IncomingMessage, res: ServerResponse) => void listener(req, res) };
}
