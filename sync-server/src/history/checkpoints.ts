import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type AppDefinition,
  diffDefinitions,
  parseKnownDefinition,
  problemInWords,
  type ReadDefinition,
  summarizeChanges,
} from '@pipit/app-definition';
import {
  AUTO_CHECKPOINT_INTERVAL_MS,
  type Checkpoint,
  type CheckpointChanges,
  type CheckpointKind,
  type CheckpointList,
  checkpointChangesSchema,
  createId,
  HISTORY_LIMITS,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Logger } from '../logger';
import type { CheckpointRecord, Storage } from '../storage/types';
import { checkpointsToDrop, roomForNamed } from './thinning';

/** Names of the first changed things a checkpoint lists. */
const NAMED_CHANGES = 6;

/**
 * An automatic checkpoint when the last person leaves an app waits this long after the one before:
 * someone reconnecting now and then does not fill the history.
 */
const FINAL_CHECKPOINT_GAP_MS = 60_000;

export type AnyDefinition = ReadDefinition | AppDefinition;

export interface NewCheckpointInput {
  appId: string;
  kind: CheckpointKind;
  definition: AnyDefinition;
  name?: string | null;
  version?: number | null;
  createdById?: string | null;
  authorIds?: readonly string[];
  /** The device's id for a checkpoint it made (idempotent); otherwise a new one. */
  id?: string;
  createdAt?: number;
}

export class HistoryFullError extends Error {}

/** The largest definition a checkpoint holds, as JSON: as large as an app's document may be. */
export const CHECKPOINT_DEFINITION_MAX_BYTES = 6 * 1024 * 1024;

const DAY_MS = 24 * 3_600_000;

/**
 * The times a device may give a checkpoint it made (docs/product/history.md): a device's clock a
 * little ahead of the server's is taken as now; more than `aheadMs` ahead, or older than
 * `maxAgeMs` (a time of 0 among them), is a clock that is wrong, refused.
 */
export const CHECKPOINT_TIME_LIMITS = { aheadMs: DAY_MS, maxAgeMs: 365 * DAY_MS } as const;

/**
 * A checkpoint's definition, however it arrives (a device, an imported file): the components this
 * version of Pipit cannot read (made by a newer one) are left out, then every rule of an app
 * definition applies — its limits, its references, known component types — and its size. Otherwise
 * what is wrong, in words.
 */
export function checkpointDefinition(
  value: unknown,
): { definition: AppDefinition } | { problem: string } {
  const parsed = parseKnownDefinition(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Where, in words: "Component 3 (a heading) of the screen “Home”, its text: …".
    return { problem: issue ? problemInWords(value, issue) : 'It is not an app definition.' };
  }
  if (Buffer.byteLength(JSON.stringify(parsed.data)) > CHECKPOINT_DEFINITION_MAX_BYTES) {
    return {
      problem: `It is larger than ${CHECKPOINT_DEFINITION_MAX_BYTES / 1024 / 1024} MB, the most an app may be.`,
    };
  }
  return { definition: parsed.data };
}

/** What is wrong with a time a device gave its checkpoint, in words; null when it is plausible. */
export function checkpointTimeProblem(createdAt: number, now: number): string | null {
  if (createdAt > now + CHECKPOINT_TIME_LIMITS.aheadMs) {
    return 'This checkpoint’s time is more than a day after the server’s, so this device’s clock is wrong. Set its date and time, then save the checkpoint again.';
  }
  if (createdAt < now - CHECKPOINT_TIME_LIMITS.maxAgeMs) {
    return 'This checkpoint’s time is more than a year ago, longer than any device keeps one waiting, so this device’s clock is wrong. Set its date and time, then save the checkpoint again.';
  }
  return null;
}

function hashOf(json: string): string {
  return createHash('sha256').update(json).digest('base64url');
}

function parseChanges(json: string): CheckpointChanges {
  try {
    const parsed = checkpointChangesSchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // An unreadable summary is shown as unknown rather than failing the whole list.
  }
  return { counts: {}, names: [], summary: 'Changes not recorded', first: false };
}

function changesBetween(before: AnyDefinition | null, after: AnyDefinition): CheckpointChanges {
  if (!before) {
    return { counts: {}, names: [], summary: 'The app as it was first saved', first: true };
  }
  const diff = diffDefinitions(before, after);
  const names: string[] = [];
  for (const change of diff.changes) {
    if (names.length >= NAMED_CHANGES) break;
    if (!names.includes(change.name)) names.push(change.name);
  }
  return { counts: { ...diff.counts }, names, summary: summarizeChanges(diff), first: false };
}

/**
 * An app's history (docs/product/history.md): checkpoints of its definition with what changed
 * since the one before, bounded by thinning old automatic ones, and read back for the history
 * panel, a comparison, a restore or an export.
 */
export function createHistory(deps: { storage: Storage; clock: Clock; logger: Logger }) {
  const { storage, clock, logger } = deps;
  /** The newest checkpoint's time per app, as this instance last saw it. */
  const newestKnown = new Map<string, number>();

  async function definitionOf(appId: string, id: string): Promise<unknown> {
    const bytes = await storage.checkpoints.definition(appId, id);
    return bytes === null ? null : (JSON.parse(gunzipSync(bytes).toString('utf8')) as unknown);
  }

  async function thin(appId: string): Promise<void> {
    const all = await storage.checkpoints.list(appId);
    const drop = checkpointsToDrop(all, clock.now());
    await storage.checkpoints.delete(appId, drop);
  }

  /**
   * Stores a checkpoint. A timed one (`auto`) is skipped (null) when nothing changed since the
   * newest checkpoint; named ones are refused with HistoryFullError when the kept ones fill the
   * history.
   */
  async function record(
    input: NewCheckpointInput,
  ): Promise<{ checkpoint: CheckpointRecord; created: boolean } | null> {
    const json = JSON.stringify(input.definition);
    const hash = hashOf(json);
    if (input.id) {
      const existing = await storage.checkpoints.get(input.appId, input.id);
      if (existing) return { checkpoint: existing, created: false };
    }
    const latest = await storage.checkpoints.latest(input.appId);
    // Only a timed checkpoint is skipped for an unchanged app: the others mark an event (a publish,
    // Ask AI, a restore) that the list shows even when the app is as the checkpoint before it.
    if (input.kind === 'auto' && latest?.definitionHash === hash) return null;
    if (input.kind === 'manual' && !roomForNamed(await storage.checkpoints.list(input.appId))) {
      throw new HistoryFullError();
    }
    const before = latest ? ((await definitionOf(input.appId, latest.id)) as AnyDefinition) : null;
    const changes = changesBetween(before, input.definition);
    const definition = gzipSync(json);
    const now = clock.now();
    const checkpoint = {
      id: input.id ?? createId(),
      appId: input.appId,
      kind: input.kind,
      name: input.name ?? null,
      version: input.version ?? null,
      // A device's time is kept for what it made offline, never past the server's now.
      createdAt: Math.min(input.createdAt ?? now, now),
      authorIds: [...new Set(input.authorIds ?? [])],
      changesJson: JSON.stringify(changes),
      definitionHash: hash,
      size: definition.byteLength,
    };
    const created = await storage.checkpoints.insert({
      ...checkpoint,
      createdById: input.createdById ?? null,
      definition,
    });
    if (created) {
      const newest = Math.max(newestKnown.get(input.appId) ?? 0, checkpoint.createdAt);
      newestKnown.set(input.appId, newest);
      await thin(input.appId);
    }
    const stored = await storage.checkpoints.get(input.appId, checkpoint.id);
    return stored ? { checkpoint: stored, created } : null;
  }

  return {
    record,
    definitionOf,

    /**
     * After a store of an app's document: a checkpoint when the newest is older than
     * AUTO_CHECKPOINT_INTERVAL_MS, or when the last person left (`final`) and it is over a minute
     * old. Never throws: history must not stand in the way of storing.
     */
    async afterStore(
      appId: string,
      read: () => AnyDefinition,
      authorIds: readonly string[],
      final: boolean,
    ): Promise<boolean> {
      try {
        const gap = final ? FINAL_CHECKPOINT_GAP_MS : AUTO_CHECKPOINT_INTERVAL_MS;
        // Every store of every app comes here: while this instance knows the newest checkpoint is
        // recent, storage is not asked (another instance's newer one only makes the wait longer).
        const known = newestKnown.get(appId);
        if (known !== undefined && clock.now() - known < gap) return false;
        const latest = await storage.checkpoints.latest(appId);
        if (latest) newestKnown.set(appId, latest.createdAt);
        const age = latest ? clock.now() - latest.createdAt : Infinity;
        if (age < gap) return false;
        return (await record({ appId, kind: 'auto', definition: read(), authorIds })) !== null;
      } catch (error) {
        logger.warn({ err: error, appId }, 'making an automatic checkpoint failed');
        return false;
      }
    },

    /** The history panel's list: newest first, people named, with the app's usage. */
    async list(appId: string): Promise<CheckpointList> {
      const rows = await storage.checkpoints.list(appId);
      const people = await storage.users.findByIds([...new Set(rows.flatMap((r) => r.authorIds))]);
      const checkpoints: Checkpoint[] = rows.map((row) => toCheckpoint(row, people));
      return {
        checkpoints,
        usage: {
          count: rows.length,
          bytes: rows.reduce((sum, r) => sum + r.size, 0),
          limitCount: HISTORY_LIMITS.checkpointsPerApp,
          limitBytes: HISTORY_LIMITS.bytesPerApp,
        },
      };
    },

    async get(
      appId: string,
      id: string,
    ): Promise<{ checkpoint: Checkpoint; definition: unknown } | null> {
      const row = await storage.checkpoints.get(appId, id);
      if (!row) return null;
      const people = await storage.users.findByIds(row.authorIds);
      return { checkpoint: toCheckpoint(row, people), definition: await definitionOf(appId, id) };
    },

    toCheckpoint,
  };
}

function toCheckpoint(
  row: CheckpointRecord,
  people: Map<string, { username: string; displayName: string }>,
): Checkpoint {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    version: row.version,
    createdAt: row.createdAt,
    createdBy: row.createdBy
      ? { username: row.createdBy.username, displayName: row.createdBy.displayName }
      : null,
    authors: row.authorIds.flatMap((id) => {
      const person = people.get(id);
      return person ? [{ username: person.username, displayName: person.displayName }] : [];
    }),
    changes: parseChanges(row.changesJson),
    bytes: row.size,
  };
}

export type History = ReturnType<typeof createHistory>;
