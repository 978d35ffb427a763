import type * as RecordFiles from './record-files';

/*
 * The photos and files kept on this device (record-files.ts, with Dexie) load on first use: a first
 * visit to an app without them, or by someone not signed in, never downloads that code.
 */

export type RecordFilesModule = typeof RecordFiles;

let loading: Promise<RecordFilesModule> | null = null;

/** record-files.ts, loaded once; a failed load (offline before it was cached) is tried again. */
export function loadRecordFiles(): Promise<RecordFilesModule> {
  loading ??= import('./record-files').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
