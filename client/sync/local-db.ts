import type { AppIcon } from '@pipit/protocol';
import { Dexie, type EntityTable } from 'dexie';

/**
 * What this device knows about the apps it has seen, per account (a shared device keeps people
 * apart): the studio reads it offline, and background sync finds the apps with changes that the
 * server has not stored yet. Dexie because IndexedDB's raw API makes compound keys, indexes and
 * schema upgrades long-winded and easy to get wrong.
 */
export interface LocalApp {
  /** `${accountId}:${appId}`; `demo:${appId}` for the local-only demo. */
  key: string;
  accountId: string;
  id: string;
  title: string;
  description: string;
  icon: AppIcon | null;
  role: 'owner' | 'editor' | 'viewer';
  archived: boolean;
  published: boolean;
  createdAt: number;
  updatedAt: number;
  /** The server has this app (its registration went through, or it listed it). */
  registered: boolean;
  /** Local changes the server has not acknowledged yet (0 = saved). */
  pending: number;
  /** The owner deleted it forever on this device while offline: the server delete is still due. */
  deleting?: boolean;
}

class LocalDatabase extends Dexie {
  apps!: EntityTable<LocalApp, 'key'>;
  constructor() {
    super('pipit-local');
    this.version(1).stores({ apps: 'key, accountId, [accountId+id]' });
  }
}

let database: LocalDatabase | undefined;
export function localDb(): LocalDatabase {
  database ??= new LocalDatabase();
  return database;
}

export const localAppKey = (accountId: string, appId: string) => `${accountId}:${appId}`;
