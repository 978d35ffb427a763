import {
  type AppDefinition,
  parseKnownDefinition,
  type ReadDefinition,
} from '@pipit/app-definition';
import {
  type DraftSummary,
  draftListSchema,
  draftSchema,
  draftWithBaseSchema,
} from '@pipit/protocol';
import { z } from 'zod';
import { localApp } from '../sync/app-document/local-apps';
import { localDrafts } from '../sync/app-document/local-drafts';
import { ApiRequestError, apiGet, apiSend, OfflineError } from './api/request';

/*
 * Drafts of an app on the server (docs/product/drafts.md): registering those started on this
 * device, listing, the base a draft compares against, taking the app's changes in, and closing.
 */

const path = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/drafts`;
const onePath = (appId: string, id: string) => `${path(appId)}/${encodeURIComponent(id)}`;
const answerSchema = z.object({ draft: draftSchema });

/**
 * Registers the drafts started on this device that the server does not have yet (sending one
 * twice is fine). Offline, or on a passing error, they wait for the next time; a refusal for good
 * (the app's drafts are full, access lost) is kept on the draft and shown.
 */
export async function sendWaitingDrafts(
  owner: string,
  /** The apps the server has, when known; else this device's list says. */
  registeredApps?: ReadonlySet<string>,
): Promise<number> {
  let sent = 0;
  for (const draft of await localDrafts.waiting(owner)) {
    // A draft of an app not registered yet would be refused: it waits for its app.
    const registered = registeredApps
      ? registeredApps.has(draft.appId)
      : (await localApp(owner, draft.appId))?.registered !== false;
    if (!registered) continue;
    try {
      await apiSend(
        'POST',
        path(draft.appId),
        { id: draft.id, name: draft.name, base: draft.base },
        answerSchema,
      );
      await localDrafts.registered(draft);
      sent += 1;
    } catch (error) {
      if (error instanceof OfflineError) break;
      // Refused for good: not a rate limit, nor a session that ended (signing in again sends it).
      if (
        error instanceof ApiRequestError &&
        error.status < 500 &&
        error.status !== 429 &&
        error.code !== 'unauthenticated'
      ) {
        await localDrafts.refused(draft, error.message);
        continue;
      }
      break;
    }
  }
  return sent;
}

/**
 * The app's drafts as the server lists them; this device keeps the open ones to open offline and
 * forgets those that are gone — listed as merged or deleted, or, missing from the list, answered
 * 404 when asked one by one (a list asked for before a draft was registered does not name it).
 */
export async function loadDrafts(owner: string, appId: string): Promise<DraftSummary[]> {
  const { drafts } = await apiGet(path(appId), draftListSchema);
  const gone = new Set(drafts.filter((d) => d.status !== 'open').map((d) => d.id));
  const listed = new Set(drafts.map((d) => d.id));
  for (const local of await localDrafts.of(owner, appId)) {
    if (!local.registered || listed.has(local.id)) continue;
    try {
      await apiGet(onePath(appId, local.id), draftWithBaseSchema);
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === 'not_found') gone.add(local.id);
    }
  }
  await localDrafts.merge(owner, appId, drafts, gone);
  return drafts;
}

/**
 * This device's drafts of an app brought level with the server's: those started here sent (a
 * failure leaves them waiting, and does not stop the rest), then the server's list read and kept.
 */
export async function syncDrafts(owner: string, appId: string): Promise<DraftSummary[]> {
  await sendWaitingDrafts(owner).catch(() => 0);
  return loadDrafts(owner, appId);
}

/** An open draft and the app's definition it compares against. */
export async function loadDraftBase(
  appId: string,
  id: string,
): Promise<{ draft: DraftSummary; base: AppDefinition }> {
  const answer = await apiGet(onePath(appId, id), draftWithBaseSchema);
  const parsed = parseKnownDefinition(answer.base);
  if (!parsed.success) {
    throw new Error('This draft could not be read by this version of Pipit. Reload the page.');
  }
  return { draft: answer.draft, base: parsed.data };
}

/** After "Update draft": the app's definition it took in is what it compares against now. */
export async function rebaseDraft(
  appId: string,
  id: string,
  base: ReadDefinition | AppDefinition,
): Promise<DraftSummary> {
  const body = { base: JSON.parse(JSON.stringify(base)) as unknown };
  return (await apiSend('PATCH', onePath(appId, id), body, answerSchema)).draft;
}

export async function renameDraft(appId: string, id: string, name: string): Promise<DraftSummary> {
  return (await apiSend('PATCH', onePath(appId, id), { name }, answerSchema)).draft;
}

/**
 * The draft was merged, or is deleted: its document goes on the server. Resolves with what the
 * server said when someone closed it first (`already_closed`: who, and how), else null.
 */
export async function closeDraft(
  appId: string,
  id: string,
  outcome: 'merged' | 'deleted',
): Promise<string | null> {
  try {
    await apiSend('POST', `${onePath(appId, id)}/close`, { outcome }, answerSchema);
    return null;
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'already_closed') return error.message;
    throw error;
  }
}
