/** What a person's AI runs cost one app on one UTC day (docs/product/ai.md, "Usage"). */
export interface AiUsageRecord {
  /** The start of the UTC day, in ms. */
  day: number;
  /**
   * The app whose AI actions ran, or Ask AI changed; null for apps made from a description, which
   * have no id yet when the model is asked (the client creates the app afterwards).
   */
  appId: string | null;
  userId: string;
  runs: number;
  promptTokens: number;
  completionTokens: number;
}

/** Usage added together per day and app, for the operator's `/admin`. */
export interface AiDailyUsage {
  day: number;
  /** Null: apps made from a description, all together. */
  appId: string | null;
  /** The app's current title (usage of deleted apps is deleted with them). */
  appTitle: string | null;
  /** How many people ran its AI actions that day. */
  people: number;
  runs: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * AI usage. Two counts: the quota (runs per person per UTC day, across apps), reserved before the
 * provider is asked and given back when the run fails; and usage (runs and tokens per app, person
 * and day), written after a run, for the operator. Prompts and answers are never stored.
 */
export interface AiUsageStore {
  /**
   * Takes one of `limit` runs for the person's day, atomically across instances: of two runs
   * racing for the last one, exactly one gets it. Returns whether it was taken and the runs used
   * after this call.
   */
  reserveRun(userId: string, day: number, limit: number): Promise<{ taken: boolean; used: number }>;
  /** Gives one reserved run back (never below zero). */
  releaseRun(userId: string, day: number): Promise<void>;
  /** Runs the person has used (reserved) on that day. */
  runsUsed(userId: string, day: number): Promise<number>;
  /** Adds to the usage of an app by a person on a day. */
  record(usage: AiUsageRecord): Promise<void>;
  /** Usage per day and app from `sinceDay` on, newest day first, then the most runs. */
  dailyUsage(sinceDay: number): Promise<AiDailyUsage[]>;
  /** Removes quota and usage rows of days before `beforeDay`. */
  prune(beforeDay: number): Promise<void>;
  /** A deleted account: its quota and usage rows. */
  deleteForUser(userId: string): Promise<void>;
  /** A deleted app: its usage rows. */
  deleteForApp(appId: string): Promise<void>;
}
