import {
  APP_TEMPLATES,
  type AppDefinition,
  type AppMeta,
  setMeta,
  writeDefinition,
} from '@pipit/app-definition';
import { createId, type Publication, type Visibility } from '@pipit/protocol';
import type * as Y from 'yjs';
import { accountIdOf, type ApiClient, type ApiResponse } from './api-client';
import type { AccountsHarness } from './engines';
import { acknowledged, connectProvider } from './provider';

/** Replaces some of an app document's meta, as the editor does (e2e has no Yjs of its own). */
export function editMeta(doc: Y.Doc, patch: Partial<AppMeta>): void {
  setMeta(doc, patch);
}

/** Marks a person's email verified (publishing and inviting need it). */
export async function verifyEmail(
  h: Pick<AccountsHarness, 'pipit'>,
  client: ApiClient,
): Promise<string> {
  const id = await accountIdOf(client);
  await h.pipit.server.storage.users.update(id, { emailVerifiedAt: Date.now() });
  return id;
}

/** A template's definition (the habit tracker unless named) with some meta replaced. */
export function definitionOf(
  meta: Partial<AppMeta> = {},
  template = 'habit-tracker',
): AppDefinition {
  const found = APP_TEMPLATES.find((t) => t.id === template) ?? APP_TEMPLATES[0]!;
  const definition = found.build();
  return { ...definition, meta: { ...definition.meta, ...meta } };
}

/**
 * Edits an app's document as its editor does: a real provider with the person's session, the
 * change made in one transaction, and the server's acknowledgement awaited (so it is stored).
 */
export async function editDocument(
  h: Pick<AccountsHarness, 'pipit'>,
  client: ApiClient,
  appId: string,
  edit: (doc: Y.Doc) => void,
): Promise<void> {
  const side = connectProvider({ url: h.pipit.url, name: `app/${appId}`, cookie: client.cookie });
  try {
    if (!(await side.ready)) throw new Error(`the server refused app/${appId}`);
    edit(side.doc);
    await acknowledged(side.provider);
  } finally {
    side.destroy();
  }
}

/** Registers an app over REST and writes a whole definition into its document. */
export async function createApp(
  h: Pick<AccountsHarness, 'pipit'>,
  client: ApiClient,
  definition: AppDefinition = definitionOf(),
  extra: { forkedFrom?: { appId: string; version: number } } = {},
): Promise<string> {
  const id = createId();
  const created = await client.post('/api/apps', { id, title: definition.meta.title, ...extra });
  if (created.status !== 201) throw new Error(`register: ${JSON.stringify(created.body)}`);
  await editDocument(h, client, id, (doc) => writeDefinition(doc, definition));
  return id;
}

export function publish(
  client: ApiClient,
  appId: string,
  visibility?: Visibility,
): Promise<ApiResponse<Publication>> {
  return client.request<Publication>('POST', `/api/apps/${appId}/versions`, {
    body: visibility ? { visibility } : {},
  });
}

/** Registers, fills and publishes an app; its id. */
export function createPublishedApp(
  h: AccountsHarness,
  client: ApiClient,
  meta: Partial<AppMeta> = {},
  visibility?: Visibility,
): Promise<string> {
  return publishDefinition(h, client, definitionOf(meta), visibility);
}

/** Registers an app with this definition and publishes it; its id. */
export async function publishDefinition(
  h: AccountsHarness,
  client: ApiClient,
  definition: AppDefinition,
  visibility?: Visibility,
): Promise<string> {
  const id = await createApp(h, client, definition);
  const published = await publish(client, id, visibility);
  if (published.status !== 201) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  return id;
}

/** Archives (or restores) an app as its owner does: the owner's request to the server. */
export async function archiveApp(client: ApiClient, appId: string, archived = true): Promise<void> {
  const answer = await client.request('PUT', `/api/apps/${appId}/archived`, { body: { archived } });
  if (answer.status !== 200) throw new Error(`archive: ${JSON.stringify(answer.body)}`);
}

/** Shares an app with each of `people` in their role, as its owner does; throws if one is refused. */
export async function shareApp(
  owner: ApiClient,
  appId: string,
  people: ReadonlyArray<readonly [username: string, role: 'editor' | 'viewer']>,
): Promise<void> {
  for (const [username, role] of people) {
    const shared = await owner.request('PUT', `/api/apps/${appId}/collaborators/${username}`, {
      body: { role },
    });
    if (shared.status >= 300) throw new Error(`sharing with ${username}: ${shared.status}`);
  }
}
