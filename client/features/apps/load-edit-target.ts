import { appResponseSchema } from '@pipit/protocol';
import { getAccount } from '../../platform/session/session';
import { apiGet, ApiRequestError } from '../../platform/api/request';
import { openAccountDocumentAhead } from '../../sync/core/read-ahead';

/**
 * What the editor route knows before it renders: the app's title for the page title, or that no
 * such app exists for this person (on this device or on the server). Offline, the editor opens on
 * whatever this device has.
 *
 * Kept apart from the editor: route loaders stay in the entry chunk (only components are split), and
 * importing this from edit-page.tsx put the whole editor and dnd-kit in every page's JavaScript.
 * For the same reason the device's list (and with it the sync layer) is imported when needed.
 */
export async function loadEditTarget(
  appId: string,
): Promise<{ found: boolean; title: string | null }> {
  const account = getAccount();
  const local = account
    ? await import('../../sync/app-document/local-apps').then(({ localApp }) =>
        localApp(account.id, appId),
      )
    : undefined;
  if (local) return { found: true, title: local.title };
  try {
    const { app } = await apiGet(`/api/apps/${appId}`, appResponseSchema);
    return { found: true, title: app.title };
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'not_found') {
      return { found: false, title: null };
    }
    return { found: true, title: null };
  }
}

/**
 * The editor's document starts loading from this device (a big app's copy takes tens of
 * milliseconds to read) while the route checks the session and finds the app, for the account
 * last seen here; the editor takes it over when it renders.
 */
export function openEditorDocumentAhead(appId: string): void {
  const account = getAccount();
  if (account) openAccountDocumentAhead({ kind: 'app', appId }, account.id);
}
