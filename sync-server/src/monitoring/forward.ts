import type { Logger } from '../logger';
import { type Dsn, envelopeEndpoint, sentryAuthHeader } from '../dsn';

/** How long one forward may take before it is abandoned (a slow collector is not our problem). */
export const FORWARD_TIMEOUT_MS = 5_000;
/** Forwards under way at once; past this a report is kept here only, not queued in memory. */
export const FORWARDS_IN_FLIGHT_MAX = 50;

export interface Forwarder {
  /**
   * Sends an envelope upstream in the background: never awaited by a request, never retried (the
   * report is stored here either way), failures logged.
   */
  forward(envelope: Uint8Array): void;
  /** Abandons forwards under way (shutdown). */
  close(): void;
}

/**
 * Forwards accepted envelopes to the operator's collector. The address is the configured upstream
 * DSN's and nothing else: no part of a request ever chooses where the server connects (never
 * become an open relay: docs/product/error-reporting.md).
 */
export function createForwarder(upstream: Dsn | undefined, logger: Logger): Forwarder {
  const inFlight = new Set<AbortController>();
  if (!upstream) return { forward() {}, close() {} };
  const endpoint = envelopeEndpoint(upstream);
  const auth = sentryAuthHeader(upstream);

  async function send(envelope: Uint8Array, controller: AbortController): Promise<void> {
    const timer = setTimeout(() => controller.abort(), FORWARD_TIMEOUT_MS);
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-sentry-envelope', 'X-Sentry-Auth': auth },
        // Bytes read from a request or encoded here: never a SharedArrayBuffer.
        body: envelope as Uint8Array<ArrayBuffer>,
        signal: controller.signal,
        redirect: 'error',
      });
      await response.body?.cancel();
      if (!response.ok) {
        logger.warn(
          { status: response.status, endpoint },
          'the upstream collector refused a report',
        );
      }
    } catch (error) {
      logger.warn({ err: error, endpoint }, 'forwarding a report upstream failed');
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  return {
    forward(envelope) {
      if (inFlight.size >= FORWARDS_IN_FLIGHT_MAX) {
        logger.warn({ endpoint }, 'too many reports on their way upstream; this one stays here');
        return;
      }
      const controller = new AbortController();
      inFlight.add(controller);
      void send(envelope, controller);
    },
    close() {
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
    },
  };
}
