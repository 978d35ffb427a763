import type { PublishedApp } from '@pipit/protocol';
import type { LibraryListing } from '../../sync/library/library';

/** What the library keeps about an app, from its published page. */
export function libraryListing(app: PublishedApp): LibraryListing {
  return {
    appId: app.id,
    title: app.title,
    icon: app.icon,
    author: app.author.username,
    version: app.version,
  };
}
