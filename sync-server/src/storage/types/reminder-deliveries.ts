/**
 * Where one occurrence of a reminder stands (docs/decisions/0012-web-push-and-scheduler.md):
 * `skipped` is a formula reminder whose formula held for no record when it was checked.
 */
export type OccurrenceStatus = 'sending' | 'sent' | 'missed' | 'skipped';
/** How a claimed occurrence ends. */
export type OccurrenceOutcome = Exclude<OccurrenceStatus, 'sending'>;

/** One occurrence of one person's reminder: `occurrence` is the UTC epoch ms it was due. */
export interface OccurrenceKey {
  userId: string;
  appId: string;
  reminderId: string;
  occurrence: number;
}

export interface ReminderDeliveryStore {
  /**
   * Takes an occurrence for delivery, as `sending`, before anything is sent. True when this call
   * inserted it, or when it is still `sending` for the same `claimant` (the job's id: a retry of
   * the job that took it, after a failed send or a killed worker, must be able to send). False
   * otherwise: another job has it, or it was already sent or missed.
   */
  claimOccurrence(key: OccurrenceKey, claimant: string, now: number): Promise<boolean>;
  /**
   * Records the outcome of a claimed occurrence. Throws NotFoundError when it was never claimed,
   * so a handler that forgot to claim fails loudly instead of marking nothing.
   */
  markOccurrence(key: OccurrenceKey, status: OccurrenceOutcome, now: number): Promise<void>;
  /** The occurrence's status, or null when no job has claimed it. */
  occurrenceStatus(key: OccurrenceKey): Promise<OccurrenceStatus | null>;
}
