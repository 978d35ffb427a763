import { redactReport, redactUrlSecrets } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { MonitoringConfig } from '../config';
import type { ErrorEventRecord } from '../storage/types';
import type { ReportBudget } from './budget';
import { clientEventRecord } from './client-event';
import { formatDsn, parseDsn, sameDsn } from '../dsn';
import {
  type EnvelopeItem,
  itemJson,
  type JsonObject,
  jsonPayload,
  MalformedEnvelopeError,
  parseEnvelope,
  serializeEnvelope,
} from './envelope';
import type { Forwarder } from './forward';

/**
 * Item types forwarded as they came, besides the (redacted) event: health counters that hold no
 * page content. Attachments, replays and traces could, so they stay behind.
 */
const FORWARDED_AS_IS = new Set(['session', 'sessions', 'client_report']);

/** The envelope is for another project, key or collector than the configured one: 403. */
export class ForeignEnvelopeError extends Error {}

/** The tunnel's query: `/monitoring?o={org}&p={project}[&r={region}]`. */
export interface TunnelQuery {
  o: string | undefined;
  p: string | undefined;
  r: string | undefined;
}

/** Whether the query names exactly the configured organisation, project and region. */
export function isConfiguredTunnel(query: TunnelQuery, config: MonitoringConfig): boolean {
  return query.o === config.org && query.p === config.dsn.projectId && query.r === config.region;
}

export interface IngestResult {
  /** Error events stored (0 for a report already stored, or an envelope without one). */
  stored: number;
  /** Items that are not errors (sessions, client reports, transactions…), by type: counted only. */
  ignored: Record<string, number>;
}

export interface IngestDependencies {
  config: MonitoringConfig;
  /** Stores an occurrence (and keeps the store under its caps); false when it was stored before. */
  keep(record: ErrorEventRecord): Promise<boolean>;
  budget: ReportBudget;
  forwarder: Forwarder;
  clock: Clock;
}

/** What a stored occurrence costs its sender's budget: its row's text, about as the disk holds it. */
export function storedBytes(record: ErrorEventRecord): number {
  let bytes = 0;
  for (const value of Object.values(record)) {
    bytes += typeof value === 'string' ? Buffer.byteLength(value) : 8;
  }
  return bytes;
}

/**
 * Takes one envelope from the tunnel, sent from `address`: reads it, checks that it is for the
 * configured DSN, stores its error event (redacted: never passwords, tokens — in a query or in a
 * path such as `/join/{token}` — cookies or app data; only what the inbox shows, storedEventJson)
 * and hands the envelope, with the redacted event and header, its health counters and the
 * upstream DSN, to the forwarder. Throws MalformedEnvelopeError (400),
 * ForeignEnvelopeError (403) or OverBudgetError (429, the address's bytes for the day are spent)
 * before anything is stored or sent.
 */
export function createIngest(
  deps: IngestDependencies,
): (body: Uint8Array, address: string) => Promise<IngestResult> {
  const { config, keep, budget, forwarder, clock } = deps;
  return async (body, address) => {
    const envelope = parseEnvelope(body);
    const dsn = typeof envelope.header.dsn === 'string' ? parseDsn(envelope.header.dsn) : null;
    if (!dsn || !sameDsn(dsn, config.dsn)) {
      throw new ForeignEnvelopeError('This report is for a project this server does not keep.');
    }
    let event: JsonObject | undefined;
    const ignored: Record<string, number> = {};
    // What goes upstream, gathered only when an upstream is configured.
    const items: EnvelopeItem[] = [];
    const forwarding = config.upstream !== undefined;
    for (const item of envelope.items) {
      if (item.header.type !== 'event') {
        ignored[item.header.type] = (ignored[item.header.type] ?? 0) + 1;
        if (forwarding && FORWARDED_AS_IS.has(item.header.type)) items.push(item);
        continue;
      }
      // Sentry's own rule: one event per envelope.
      if (event) throw new MalformedEnvelopeError('An envelope carries one event at most.');
      // Never trust the client's own redaction: the same rules again, path tokens included.
      event = redactUrlSecrets(redactReport(itemJson(item)) as JsonObject);
      if (forwarding) items.push({ header: item.header, payload: jsonPayload(event) });
    }
    let stored = 0;
    if (event) {
      const record = clientEventRecord(event, clock.now(), envelope.header.event_id);
      await budget.spend(address, storedBytes(record));
      if (await keep(record)) stored = 1;
    }
    if (config.upstream && items.length > 0) {
      // The header can name the page too (its trace's transaction): redacted like the event.
      const header = { ...redactUrlSecrets(envelope.header), dsn: formatDsn(config.upstream) };
      forwarder.forward(serializeEnvelope({ header, items }));
    }
    return { stored, ignored };
  };
}
