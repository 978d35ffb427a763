import type { AppAuthor, AppCard, Publication } from '@pipit/protocol';
import type { AppCardRecord, AppRecord, Storage, UserRecord } from '../storage/types';

/** How an app credits its author: display name (or username), username, avatar. */
export function toAuthor(user: Pick<UserRecord, 'username' | 'displayName' | 'avatar'>): AppAuthor {
  return {
    username: user.username,
    displayName: user.displayName || user.username,
    avatar: user.avatar,
  };
}

export function toAppCard(card: AppCardRecord): AppCard {
  return {
    id: card.id,
    title: card.title,
    description: card.description,
    icon: card.icon,
    tags: card.tags,
    author: toAuthor(card.author),
    version: card.version,
    publishedAt: card.publishedAt,
    opens: card.opens,
    installs: card.installs,
  };
}

/** The publishing state of an app, as its owner and collaborators see it. */
export async function publicationOf(storage: Storage, app: AppRecord): Promise<Publication> {
  const versions = await storage.publishing.versions(app.id);
  return {
    visibility: app.visibility,
    published: app.publishedAt !== null,
    latestVersion: versions[0]?.number ?? null,
    versions: versions.map((v) => ({
      number: v.number,
      publishedAt: v.publishedAt,
      publisher: v.publisher ?? { username: '', displayName: 'A deleted account' },
    })),
  };
}
