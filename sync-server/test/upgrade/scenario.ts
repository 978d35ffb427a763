import {
  type AppDefinition,
  appDefinitionSchema,
  blankDefinition,
  createVisitorRecords,
  readDefinition,
} from '@pipit/app-definition';
import { createId, documentName } from '@pipit/protocol';
import { accountIdOf, type ApiClient } from '../support/api-client';
import { type AccountsHarness, signUp, TEST_PASSWORD } from '../support/engines';
import { acknowledged, connectProvider } from '../support/provider';
import {
  createApp,
  editDocument,
  editMeta,
  publish,
  shareApp,
  verifyEmail,
} from '../support/publishing';
import { readDataDocumentAs, writeDataDocumentAs } from '../support/visitor-data';

/*
 * What the old-database fixtures hold (docs/operations.md#testing-upgrades): a small community
 * as people make one through the API, and what each fixture must still let them do once today's
 * server has migrated it. make-fixtures.ts writes it; old-databases.test.ts checks it.
 */

export const ADA = 'ada';
export const BEN = 'ben';
/** Deleted: the name stays held. */
export const CYD = 'cyd';
export const ADA_NAME = 'Ada Lovelace';
export const APP_TITLE = 'Field notes';
export const CHECKPOINT_NAME = 'Before the move';
export const SPACE_NAME = 'Our flat';
export const DRAFT_NAME = 'Try a new layout';
export const BEN_RECORDS = ['Walked 5 km', 'Read a chapter', 'Slept early'];
export const SPACE_RECORDS = ['Dishes', 'Bins'];

/** Fixed ids: made again, the fixtures differ only where they must (times, secrets, new ids). */
const NOTES = 'notes'.padEnd(26, 'a');
const CHORES = 'chores'.padEnd(26, 'a');

/**
 * Ada's app, kept small (every fixture holds it several times over): the blank app with two
 * collections of one text field, each person's notes and a space's chores.
 */
export function appDefinition(): AppDefinition {
  const blank = blankDefinition(APP_TITLE);
  const collection = (id: string, name: string, sharing: 'private' | 'space') => ({
    id,
    name,
    fields: [
      {
        id: `${name.toLowerCase()}text`.padEnd(26, 'b'),
        name: 'Note',
        type: 'text' as const,
        required: false,
        default: null,
        options: [],
      },
    ],
    records: [],
    sharing,
    recordRule: 'anyone' as const,
  });
  return appDefinitionSchema.parse({
    ...blank,
    collections: [collection(NOTES, 'Notes', 'private'), collection(CHORES, 'Chores', 'space')],
  });
}

/** A collection of the app, and its text field the records fill. */
function recordsTarget(which: 'notes' | 'chores') {
  const collection = appDefinition().collections[which === 'notes' ? 0 : 1]!;
  return { collection, fieldId: collection.fields[0]!.id };
}

/**
 * Makes the community on a running server, every step through the API as people do: ada (a
 * profile, an app shared with ben and published, a named checkpoint, a space with ben in it, a
 * draft), ben (his own records in the app), and cyd, who deleted her account.
 */
export async function makeCommunity(h: Pick<AccountsHarness, 'pipit'>): Promise<void> {
  const ada = await signUp(h.pipit.url, ADA);
  const ben = await signUp(h.pipit.url, BEN);
  const cyd = await signUp(h.pipit.url, CYD);
  await verifyEmail(h, ada);
  const profile = await ada.request('PATCH', '/api/account/profile', {
    body: { displayName: ADA_NAME, bio: 'Notes from the field.' },
  });
  if (profile.status !== 200) throw new Error(`profile: ${JSON.stringify(profile.body)}`);
  const gone = await cyd.request('DELETE', '/api/account', { body: { password: TEST_PASSWORD } });
  if (gone.status !== 204) throw new Error(`deleting cyd: ${JSON.stringify(gone.body)}`);

  const appId = await createApp(h, ada, appDefinition());
  await shareApp(ada, appId, [[BEN, 'editor']]);
  const published = await publish(ada, appId, 'public');
  if (published.status !== 201) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  const checkpoint = await ada.post(`/api/apps/${appId}/checkpoints`, {
    id: createId(),
    name: CHECKPOINT_NAME,
    definition: appDefinition(),
  });
  if (checkpoint.status !== 201) throw new Error(`checkpoint: ${JSON.stringify(checkpoint.body)}`);

  const notes = recordsTarget('notes');
  const benId = await accountIdOf(ben);
  await writeDataDocumentAs(
    h.pipit.url,
    { appId, userId: benId },
    ben.cookie,
    notes.collection,
    BEN_RECORDS.map((text) => ({ [notes.fieldId]: text })),
  );

  const space = await ada.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
    name: SPACE_NAME,
  });
  if (space.status !== 201) throw new Error(`space: ${JSON.stringify(space.body)}`);
  const spaceId = space.body.space.id;
  const added = await ada.request('PUT', `/api/spaces/${spaceId}/members/${BEN}`, {
    body: { role: 'member' },
  });
  if (added.status !== 201) throw new Error(`space member: ${JSON.stringify(added.body)}`);
  const side = connectProvider({
    url: h.pipit.url,
    name: documentName({ kind: 'space', spaceId }),
    cookie: ben.cookie,
  });
  try {
    if (!(await side.ready)) throw new Error('the server refused the space to ben');
    const chores = recordsTarget('chores');
    createVisitorRecords(
      side.doc,
      chores.collection,
      SPACE_RECORDS.map((text) => ({ [chores.fieldId]: text })),
      { authorId: benId },
    );
    await acknowledged(side.provider);
  } finally {
    side.destroy();
  }

  const draft = await ada.post(`/api/apps/${appId}/drafts`, {
    id: createId(),
    name: DRAFT_NAME,
    base: appDefinition(),
  });
  if (draft.status !== 201) throw new Error(`draft: ${JSON.stringify(draft.body)}`);
}

/** The title an app's document holds, read over a socket with a person's session. */
export async function titleOf(
  h: Pick<AccountsHarness, 'pipit'>,
  client: ApiClient,
  appId: string,
): Promise<string | null> {
  const side = connectProvider({ url: h.pipit.url, name: `app/${appId}`, cookie: client.cookie });
  try {
    if (!(await side.ready)) return null;
    return readDefinition(side.doc).meta.title;
  } finally {
    side.destroy();
  }
}

/** Renames an app in its document, acknowledged by the server. */
export function retitle(
  h: Pick<AccountsHarness, 'pipit'>,
  client: ApiClient,
  appId: string,
  title: string,
): Promise<void> {
  return editDocument(h, client, appId, (doc) => editMeta(doc, { title }));
}

export { readDataDocumentAs, recordsTarget };
