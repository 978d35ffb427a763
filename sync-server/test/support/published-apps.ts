import * as Y from 'yjs';
import { type AppIcon, createApp, setTheme, type Theme } from '@pipit/app-definition';
import { createId, documentName, type Visibility } from '@pipit/protocol';
import type { Storage } from '../../src/storage/types';
import { accountIdOf, type ApiClient } from './api-client';

export interface PublishOptions {
  title?: string;
  description?: string;
  icon?: AppIcon;
  theme?: Partial<Theme>;
  visibility?: Visibility;
}

/**
 * Makes an app the way a creator does (registered over REST, its document stored as the editor's
 * provider would leave it) and, unless `publish` is false, publishes it with
 * `POST /api/apps/{id}/versions`. Returns its id.
 */
export async function createPublishedApp(
  storage: Storage,
  owner: ApiClient,
  options: PublishOptions & { publish?: boolean } = {},
): Promise<string> {
  const id = createId();
  const title = options.title ?? 'Habit tracker';
  const registered = await owner.post('/api/apps', { id, title, icon: options.icon ?? null });
  if (registered.status !== 201) throw new Error(`register: ${JSON.stringify(registered.body)}`);

  const doc = new Y.Doc();
  createApp(doc, createId, {
    title,
    description: options.description ?? '',
    ...(options.icon ? { icon: options.icon } : {}),
  });
  if (options.theme) setTheme(doc, options.theme);
  await storage.documents.store(
    documentName({ kind: 'app', appId: id }),
    Y.encodeStateAsUpdate(doc),
  );
  doc.destroy();
  if (options.publish === false) return id;

  // Publishing asks for a confirmed email address.
  await storage.users.update(await accountIdOf(owner), { emailVerifiedAt: Date.now() });
  const published = await owner.post(
    `/api/apps/${id}/versions`,
    options.visibility ? { visibility: options.visibility } : {},
  );
  if (published.status !== 201) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  return id;
}
