import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout (or a given stream, for tests that read them back). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'pipit' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
