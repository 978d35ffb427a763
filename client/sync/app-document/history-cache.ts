import { localDb, type PendingCheckpoint } from '../core/local-db';

/**
 * This device's copy of apps' history, per account (docs/product/history.md): the list last
 * fetched, the definitions of checkpoints opened, and checkpoints made offline.
 */
export const historyCache = {
  async list(owner: string, appId: string): Promise<{ list: unknown; fetchedAt: number } | null> {
    const row = await localDb().history.get(`${owner}:${appId}`);
    return row ? { list: row.list, fetchedAt: row.fetchedAt } : null;
  },

  async putList(owner: string, appId: string, list: unknown): Promise<void> {
    await localDb().history.put({
      key: `${owner}:${appId}`,
      owner,
      appId,
      list,
      fetchedAt: Date.now(),
    });
  },

  async definition(owner: string, appId: string, id: string): Promise<unknown> {
    return (await localDb().checkpointDefinitions.get(`${owner}:${appId}:${id}`))?.definition;
  },

  async putDefinition(owner: string, appId: string, id: string, definition: unknown) {
    await localDb().checkpointDefinitions.put({
      key: `${owner}:${appId}:${id}`,
      owner,
      definition,
    });
  },

  pending(owner: string, appId?: string): Promise<PendingCheckpoint[]> {
    const table = localDb().pendingCheckpoints;
    return (
      appId === undefined
        ? table.where('owner').equals(owner)
        : table.where('[owner+appId]').equals([owner, appId])
    ).sortBy('createdAt');
  },

  async addPending(checkpoint: PendingCheckpoint): Promise<void> {
    await localDb().pendingCheckpoints.put(checkpoint);
  },

  async removePending(id: string): Promise<void> {
    await localDb().pendingCheckpoints.delete(id);
  },

  async markPending(id: string, problem: string): Promise<void> {
    await localDb().pendingCheckpoints.update(id, { problem });
  },
};

export type { PendingCheckpoint } from '../core/local-db';
