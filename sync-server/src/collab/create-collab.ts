import { Hocuspocus } from '@hocuspocus/server';
import type { Logger } from '../logger';
import type { DocumentStore } from '../storage/types';
import type { DocumentAccess } from './access';
import { createAuthentication } from './authenticate';
import { createPersistence, type Persistence } from './persistence';

/** Stores are debounced: at most every 2 s while edits flow, and at least every 10 s. */
export const STORE_DEBOUNCE_MS = 2_000;
export const STORE_MAX_DEBOUNCE_MS = 10_000;

export interface Collab {
  hocuspocus: Hocuspocus;
  persistence: Persistence;
}

export function createCollab(options: {
  documents: DocumentStore;
  access: DocumentAccess;
  logger: Logger;
  debounceMs?: number;
}): Collab {
  const persistence = createPersistence(options.documents, options.logger);
  const hocuspocus = new Hocuspocus({
    name: 'pipit',
    quiet: true,
    debounce: options.debounceMs ?? STORE_DEBOUNCE_MS,
    maxDebounce: Math.max(options.debounceMs ?? 0, STORE_MAX_DEBOUNCE_MS),
    extensions: [createAuthentication(options.access, options.logger), persistence],
  });
  return { hocuspocus, persistence };
}
