import { afterEach, expect, it, vi } from 'vitest';
import { createId } from '@pipit/protocol';
import { grantEveryone } from '../support/access';
import { RawSyncClient } from '../support/raw-sync';
import { type RunningPipit, startPipit } from '../support/start-server';

let pipit: RunningPipit | undefined;
const clients: RawSyncClient[] = [];
afterEach(async () => {
  clients.splice(0).forEach((client) => client.close());
  await pipit?.close();
  pipit = undefined;
});

it("gives each loaded document a Yjs id of its own (create-collab.ts's pipit-document-ids)", async () => {
  pipit = await startPipit({ access: grantEveryone('editor') });
  const names = [`app/${createId()}`, `app/${createId()}`];
  for (const name of names) clients.push(await RawSyncClient.open(pipit.url, name));
  const documents = pipit.server.hocuspocus.documents;
  await vi.waitFor(() => expect(names.every((name) => documents.has(name))).toBe(true));
  const guids = names.map((name) => documents.get(name)!.guid);
  for (const guid of guids) {
    expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  expect(guids[0]).not.toBe(guids[1]);
});
