import type { ReportDropReason } from '@pipit/protocol';

/** Where an error happened: a browser that reported it, or this server. */
export const ERROR_SOURCES = ['client', 'server'] as const;
export type ErrorSource = (typeof ERROR_SOURCES)[number];

/** One occurrence of an error, as the operator's inbox shows it (docs/product/error-reporting.md). Times are epoch ms. */
export interface ErrorEventRecord {
  /** The report's event id (32 hex digits): a report sent twice is stored once. */
  id: string;
  fingerprint: string;
  source: ErrorSource;
  /** The error's type and message and its top in-app frame (`file:function`), as grouped. */
  type: string;
  message: string;
  topFrame: string | null;
  receivedAt: number;
  /**
   * The digest a server error showed the person (docs/product/errors.md); null for browser reports.
   */
  digest: string | null;
  /** The page's route, and its address without query or fragment. */
  route: string | null;
  url: string | null;
  /** "Chrome 126" */
  browser: string | null;
  release: string | null;
  environment: string | null;
  level: string;
  /** The redacted report (Sentry's event JSON: exception, breadcrumbs, request, tags), as text. */
  eventJson: string;
}

/** A kind of error: every occurrence with the same fingerprint. */
export interface ErrorGroupRecord {
  fingerprint: string;
  source: ErrorSource;
  type: string;
  message: string;
  topFrame: string | null;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /** A few of the routes and browsers its stored occurrences came from, most recent first. */
  routes: string[];
  browsers: string[];
}

export interface MonitoringStore {
  /**
   * Stores an occurrence and counts it in its group (created on first sight), in one transaction.
   * Returns false, changing nothing, when an event with that id is already stored.
   */
  record(event: ErrorEventRecord): Promise<boolean>;
  /** Groups, the most recently seen first, one page of them, and how many there are. */
  listGroups(page: { limit: number; offset: number }): Promise<{
    groups: ErrorGroupRecord[];
    total: number;
  }>;
  /** One group by its fingerprint, as listGroups shows it. */
  group(fingerprint: string): Promise<ErrorGroupRecord | null>;
  /** The group's latest stored occurrence. */
  sampleEvent(fingerprint: string): Promise<ErrorEventRecord | null>;
  /** The occurrence a server error's digest names (the latest, should a digest repeat). */
  findByDigest(digest: string): Promise<ErrorEventRecord | null>;
  /**
   * Deletes occurrences received before `olderThan`, then the groups left without any, and the
   * counts of dropped reports of days before it.
   */
  prune(olderThan: number): Promise<{ events: number; groups: number }>;
  /**
   * Keeps at most `maxGroups` groups and `maxEvents` occurrences of each source (browsers' and the
   * server's own, so a flood of one never pushes out the other), removing the least recently seen
   * groups (with their occurrences), then the oldest occurrences. Returns how many of each went.
   * Only the `sources` given are looked at (all by default): a new report can put only its own
   * source over the caps.
   */
  evict(
    caps: { maxEvents: number; maxGroups: number },
    sources?: readonly ErrorSource[],
  ): Promise<{ events: number; groups: number }>;
  /** Counts `count` reports dropped for `reason` on the (UTC) day of `at`. */
  countDrops(reason: ReportDropReason, at: number, count: number): Promise<void>;
  /** The drops counted, by reason, with the start of the first day each was counted on. */
  drops(): Promise<Array<{ reason: ReportDropReason; count: number; since: number }>>;
}
