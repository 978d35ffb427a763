import pino, { type DestinationStream, type Logger } from 'pino';
import { currentRequest } from './request-context';

export type { Logger };

/**
 * Structured JSON logs on stdout (or a given stream, for tests that read them back). A line written
 * while a request is served carries that request's `requestId`, whichever module writes it.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'pipit' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const request = currentRequest();
        return request ? { requestId: request.requestId } : {};
      },
    },
    destination,
  );
}
