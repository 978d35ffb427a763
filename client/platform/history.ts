import {
  type AppDefinition,
  parseKnownDefinition,
  type ReadDefinition,
} from '@pipit/app-definition';
import {
  type AppChangeList,
  appChangeListSchema,
  type Checkpoint,
  type CheckpointList,
  checkpointListSchema,
  checkpointSchema,
  checkpointWithDefinitionSchema,
  createId,
  type Upstream,
  upstreamResponseSchema,
  type UpstreamVersions,
  upstreamVersionsResponseSchema,
} from '@pipit/protocol';
import { z } from 'zod';
import { historyCache, type PendingCheckpoint } from '../sync/app-document/history-cache';
import { ApiRequestError, apiGet, apiSend, OfflineError } from './api/request';

/**
 * An app's history on this device (docs/product/history.md): the server's list when it answers,
 * else the copy this device last saw; checkpoints made offline wait on the device and are sent
 * when it is back online.
 */
export interface AppHistory {
  list: CheckpointList | null;
  /** The list is this device's copy (the server could not be asked), from `fetchedAt`. */
  fromDevice: boolean;
  fetchedAt: number | null;
  /** Made on this device and not on the server yet, oldest first. */
  pending: PendingCheckpoint[];
}

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/checkpoints`;

/** Which changes to read: a range of time (after `since`, up to `until`), or one entity's. */
export type ChangeRange =
  { since?: number; until?: number } | { entity: { entity: string; id: string } };

/**
 * Who changed what (docs/product/history.md#who-changed-what), newest first; null offline: the
 * server alone knows who sent each change.
 */
export async function loadChanges(
  appId: string,
  range: ChangeRange,
): Promise<AppChangeList | null> {
  const query = new URLSearchParams();
  if ('entity' in range) {
    query.set('entity', range.entity.entity);
    query.set('entityId', range.entity.id);
  } else {
    if (range.since !== undefined) query.set('since', String(Math.floor(range.since)));
    if (range.until !== undefined) query.set('until', String(Math.floor(range.until)));
  }
  const search = query.size > 0 ? `?${query.toString()}` : '';
  try {
    return await apiGet(
      `/api/apps/${encodeURIComponent(appId)}/changes${search}`,
      appChangeListSchema,
    );
  } catch (error) {
    if (error instanceof OfflineError) return null;
    throw error;
  }
}

export async function loadHistory(owner: string, appId: string): Promise<AppHistory> {
  const pending = await historyCache.pending(owner, appId);
  try {
    const list = await apiGet(base(appId), checkpointListSchema);
    // Kept for offline in the background: the list shows without waiting for the write.
    void historyCache.putList(owner, appId, list).catch(() => undefined);
    return { list, fromDevice: false, fetchedAt: Date.now(), pending };
  } catch (error) {
    if (!(error instanceof OfflineError)) throw error;
    return (await deviceHistory(owner, appId)) ?? { ...NOTHING_SEEN, pending };
  }
}

const NOTHING_SEEN: AppHistory = { list: null, fromDevice: true, fetchedAt: null, pending: [] };

/**
 * The history as this device last saw it (null when it never did): shown at once while the
 * server is asked, and instead of the server's answer offline.
 */
export async function deviceHistory(owner: string, appId: string): Promise<AppHistory | null> {
  const [cached, pending] = await Promise.all([
    historyCache.list(owner, appId),
    historyCache.pending(owner, appId),
  ]);
  const parsed = cached ? checkpointListSchema.safeParse(cached.list) : null;
  if (!parsed?.success) return pending.length > 0 ? { ...NOTHING_SEEN, pending } : null;
  return { list: parsed.data, fromDevice: true, fetchedAt: cached?.fetchedAt ?? null, pending };
}

/** A checkpoint's definition ready to show: components this version cannot read are left out. */
export function readCheckpointDefinition(value: unknown): AppDefinition {
  const parsed = parseKnownDefinition(value);
  if (!parsed.success) {
    throw new Error('This checkpoint could not be read by this version of Pipit. Reload the page.');
  }
  return parsed.data;
}

/** Checkpoints never change: once this device has one, it is read from here, offline too. */
export async function loadCheckpointDefinition(
  owner: string,
  appId: string,
  id: string,
): Promise<AppDefinition> {
  const pending = (await historyCache.pending(owner, appId)).find((p) => p.id === id);
  if (pending) return readCheckpointDefinition(pending.definition);
  const cached = await historyCache.definition(owner, appId, id);
  if (cached !== undefined) return readCheckpointDefinition(cached);
  const { definition } = await apiGet(
    `${base(appId)}/${encodeURIComponent(id)}`,
    checkpointWithDefinitionSchema,
  );
  await historyCache.putDefinition(owner, appId, id, definition);
  return readCheckpointDefinition(definition);
}

const savedSchema = z.object({ checkpoint: checkpointSchema.nullable() });

async function send(checkpoint: PendingCheckpoint): Promise<Checkpoint | null> {
  const { checkpoint: saved } = await apiSend(
    'POST',
    base(checkpoint.appId),
    {
      id: checkpoint.id,
      kind: checkpoint.kind,
      name: checkpoint.name,
      createdAt: checkpoint.createdAt,
      definition: checkpoint.definition,
    },
    savedSchema,
  );
  await historyCache.putDefinition(
    checkpoint.owner,
    checkpoint.appId,
    checkpoint.id,
    checkpoint.definition,
  );
  return saved;
}

/**
 * Saves a checkpoint of `definition` (what this device shows now): on the server when it can be
 * reached, else on this device until it can. Refusals (a full history) are thrown as they are.
 */
export async function saveCheckpoint(
  owner: string,
  appId: string,
  input: { name: string; kind: 'manual' | 'restore'; definition: ReadDefinition | AppDefinition },
): Promise<'server' | 'device'> {
  const checkpoint: PendingCheckpoint = {
    id: createId(),
    owner,
    appId,
    kind: input.kind,
    name: input.name,
    createdAt: Date.now(),
    definition: JSON.parse(JSON.stringify(input.definition)) as unknown,
  };
  try {
    await send(checkpoint);
    return 'server';
  } catch (error) {
    if (!(error instanceof OfflineError)) throw error;
    await historyCache.addPending(checkpoint);
    return 'device';
  }
}

/** Sends the checkpoints this person made offline; stops at the first that cannot reach the server. */
export async function sendPendingCheckpoints(owner: string, appId?: string): Promise<number> {
  let sent = 0;
  for (const checkpoint of await historyCache.pending(owner, appId)) {
    try {
      await send(checkpoint);
      await historyCache.removePending(checkpoint.id);
      sent += 1;
    } catch (error) {
      if (error instanceof OfflineError) break;
      // A refusal for good (a full history, access lost) is kept and shown; a rate limit is not:
      // the checkpoint is sent again later.
      if (error instanceof ApiRequestError && error.status < 500 && error.status !== 429) {
        await historyCache.markPending(checkpoint.id, error.message);
        continue;
      }
      break;
    }
  }
  return sent;
}

export async function deleteCheckpoint(appId: string, id: string): Promise<void> {
  await apiSend('DELETE', `${base(appId)}/${encodeURIComponent(id)}`, undefined, z.object({}));
}

export async function discardPendingCheckpoint(id: string): Promise<void> {
  await historyCache.removePending(id);
}

/** A remix's original (docs/product/history.md#remixes): null when it is not a remix one may pull into. */
export async function loadUpstream(appId: string): Promise<Upstream | null> {
  const { upstream } = await apiGet(
    `/api/apps/${encodeURIComponent(appId)}/upstream`,
    upstreamResponseSchema,
  );
  return upstream;
}

/** The two version numbers of a remix's original alone (null when there is nothing to pull). */
export async function checkUpstream(appId: string): Promise<UpstreamVersions | null> {
  const { upstream } = await apiGet(
    `/api/apps/${encodeURIComponent(appId)}/upstream?versions=1`,
    upstreamVersionsResponseSchema,
  );
  return upstream;
}

/** After a pull: the original's version pulled is the remix's base from now on. */
export async function markPulled(appId: string, version: number): Promise<void> {
  await apiSend(
    'PUT',
    `/api/apps/${encodeURIComponent(appId)}/upstream`,
    { version },
    z.object({ version: z.number() }),
  );
}
