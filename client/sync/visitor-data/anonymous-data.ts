import { localDb } from '../core/local-db';

/**
 * Which apps have anonymous visitor data on this device (`data/{appId}`), for the merge into the
 * account at the next sign-in (synced-data.ts). Noted at the visitor's first write, so a
 * visit that only looks loads no database code for it.
 */
export async function markAnonymousData(appId: string): Promise<void> {
  const db = localDb();
  if (!(await db.anonymousData.get(appId))) {
    await db.anonymousData.put({ appId, createdAt: Date.now() });
  }
}
