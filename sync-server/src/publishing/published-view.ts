import { Lru } from '../lru';
import type { Storage } from '../storage/types';

/** Versions whose views are kept: a view is small, and worked out again when dropped. */
const VERSIONS_KEPT = 500;

/**
 * What one part of the server reads from apps' published definitions (a space's record rules, the
 * reminders, what space activity counts), worked out once per published version: a version never
 * changes, and its definition may be megabytes of JSON. Each call reads only the app's row, to
 * learn which version is published now.
 *
 * `read` gets the parsed definition, or null when the stored JSON does not parse (it passed the
 * publish check of its day: read tolerantly). The view answers null for an app with no published
 * version. A failed read is not kept.
 */
export function createPublishedView<T>(
  storage: Pick<Storage, 'apps' | 'publishing'>,
  read: (definition: unknown) => T,
  kept = VERSIONS_KEPT,
): (appId: string) => Promise<T | null> {
  const versions = new Lru<string, T>(kept);
  return async (appId) => {
    const app = await storage.apps.get(appId);
    if (!app || app.publishedVersion === null) return null;
    const key = `${app.id}:${app.publishedVersion}`;
    const known = versions.get(key);
    if (known !== undefined) return known;
    const version = await storage.publishing.version(app.id, app.publishedVersion);
    if (!version) return null;
    let definition: unknown = null;
    try {
      definition = JSON.parse(version.definitionJson);
    } catch {
      // Read as null: each view says what a broken definition means to it.
    }
    const view = read(definition);
    versions.set(key, view);
    return view;
  };
}
