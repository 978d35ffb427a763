import { type AppDefinition, LIMITS } from '@pipit/app-definition';
import { createApp } from '../../platform/app-registry';

const REMIX_SUFFIX = ' (remix)';

/** "Habits (remix)", shortened so it stays within the title limit. */
export function remixTitle(title: string): string {
  const room = LIMITS.titleLength - REMIX_SUFFIX.length;
  const base = title.length > room ? `${title.slice(0, room - 1).trimEnd()}…` : title;
  return `${base}${REMIX_SUFFIX}`;
}

/**
 * Copies a published version into a new app of mine, on this device first (offline too), with the
 * version it came from; its registration tells the server the lineage. Entity ids are kept: they
 * only need to be unique within one app. Resolves the new app's id.
 */
export function remixApp(
  accountId: string,
  source: { appId: string; version: number; definition: AppDefinition },
): Promise<string> {
  const definition: AppDefinition = {
    ...source.definition,
    meta: {
      ...source.definition.meta,
      title: remixTitle(source.definition.meta.title),
    },
  };
  return createApp(accountId, definition, {
    forkedFrom: { appId: source.appId, version: source.version },
  });
}
