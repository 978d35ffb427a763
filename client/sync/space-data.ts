import { documentName } from '@pipit/protocol';
import { openDocument, type OpenDocument } from './documents';
import type { Backing, PresentPerson, VisitorDataSource } from './visitor-data-view';

/*
 * A shared space's document for the running app (docs/product/spaces.md), loaded with the sync
 * layer only when the person shows a space: `space/{spaceId}`, synced through the account's
 * websocket; the person's name goes into its awareness so the others see who is here now.
 */

/** The people in a space's awareness, one entry per account, the person themselves left out. */
function presenceOf(opened: OpenDocument, accountId: string): PresentPerson[] {
  const awareness = opened.awareness();
  if (!awareness) return [];
  const people = new Map<string, PresentPerson>();
  for (const state of awareness.getStates().values()) {
    const user = (state as { user?: { id?: unknown; name?: unknown } }).user;
    if (!user || typeof user.id !== 'string' || user.id === accountId) continue;
    const name = typeof user.name === 'string' && user.name.trim() ? user.name : 'Someone';
    people.set(user.id, { id: user.id, name: name.slice(0, 60) });
  }
  return [...people.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function spaceBacking(
  source: Extract<VisitorDataSource, { kind: 'space' }>,
  accountBacking: (opened: OpenDocument) => Backing,
): Backing {
  const opened = openDocument(
    documentName({ kind: 'space', spaceId: source.spaceId }),
    { kind: 'account', accountId: source.accountId },
    { connect: true },
  );
  // Once per connection (each provider has its own awareness).
  let announced: unknown = null;
  const announce = () => {
    const awareness = opened.awareness();
    if (!awareness || awareness === announced) return;
    announced = awareness;
    awareness.setLocalStateField('user', { id: source.accountId, name: source.name });
  };
  const stop = opened.subscribe(announce);
  announce();
  return {
    ...accountBacking(opened),
    authorId: source.accountId,
    presence: () => presenceOf(opened, source.accountId),
    release: () => {
      stop();
      opened.release();
    },
  };
}
