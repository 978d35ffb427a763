import { lazyModule } from '@pipit/runtime';
import type * as RecordFiles from './record-files';

/*
 * The photos and files kept on this device (record-files.ts, with Dexie) load on first use: a first
 * visit to an app without them, or by someone not signed in, never downloads that code.
 */

export type RecordFilesModule = typeof RecordFiles;

const recordFiles = lazyModule<RecordFilesModule>(() => import('./record-files'));

/** record-files.ts, loaded once; a failed load (offline before it was cached) is tried again. */
export const loadRecordFiles = (): Promise<RecordFilesModule> => recordFiles.load();
