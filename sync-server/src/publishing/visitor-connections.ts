import { parseDocumentName } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';
import { canSeePublished } from './visibility';

/**
 * After an app's visitors changed (made private, unpublished), closes the open data connections of
 * the people who may no longer see it; the owner's and collaborators' stay. The socket's access
 * rule refuses them from then on; this ends the connections opened before.
 */
export async function closeRefusedVisitors(
  appId: string,
  deps: {
    storage: Storage;
    /** Names of the documents open on this instance. */
    openDocuments: () => Iterable<string>;
    /** Closes every connection to one document, telling the provider it is forbidden. */
    close: (documentName: string) => void;
    logger: Logger;
  },
): Promise<void> {
  const names = [...deps.openDocuments()].filter((name) => name.startsWith(`data/${appId}/`));
  await Promise.all(
    names.map(async (name) => {
      const document = parseDocumentName(name);
      if (document?.kind !== 'data') return;
      try {
        const found = await deps.storage.apps.getWithRole(appId, document.userId);
        if (!found || !canSeePublished(found.app, found.role)) deps.close(name);
      } catch (error) {
        // The access rule still refuses them when they connect again.
        deps.logger.warn({ err: error, documentName: name }, 'checking a visitor’s access failed');
      }
    }),
  );
}
