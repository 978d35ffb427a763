import { type AppIcon, manifestColors, type Theme, themeSchema } from '@pipit/app-definition';
import { findVisibleApp } from '../publishing/visibility';
import type { Storage } from '../storage/types';
import { Lru } from '../lru';

/** What an app's manifest and icons are made from. */
export interface AppPwaSource {
  appId: string;
  title: string;
  description: string;
  icon: AppIcon | null;
  themeColor: string;
  backgroundColor: string;
}

/** Versions never change, so their themes are parsed once (a definition may be megabytes). */
const THEMES_CACHED = 500;

/** The theme of a stored definition, read tolerantly: a missing or broken one is the default. */
function themeOf(definitionJson: string): Theme {
  try {
    const definition = JSON.parse(definitionJson) as { theme?: unknown } | null;
    const parsed = themeSchema.safeParse(definition?.theme ?? {});
    if (parsed.success) return parsed.data;
  } catch {
    // A stored version was validated on publish; fall through to the default all the same.
  }
  return themeSchema.parse({});
}

/**
 * Reads an app's manifest source for a reader (`userId` null when signed out), under the app
 * page's visibility rule (findVisibleApp): null for anyone who may not see it, whatever the reason.
 * Visitors get the published version's name, icon and theme, never the live draft; the owner and
 * collaborators of a draft get its listing and the default theme.
 */
export function createAppPwaSources(storage: Storage) {
  const themes = new Lru<string, Theme>(THEMES_CACHED);

  async function publishedVersion(appId: string, number: number) {
    const version = await storage.publishing.version(appId, number);
    if (!version) return null;
    const key = `${appId}:${number}`;
    let theme = themes.get(key);
    if (!theme) {
      theme = themeOf(version.definitionJson);
      themes.set(key, theme);
    }
    return { ...version, theme };
  }

  return {
    async load(appId: string, userId: string | null): Promise<AppPwaSource | null> {
      const visible = await findVisibleApp(storage, appId, userId);
      if (!visible) return null;
      const { app } = visible;
      const version =
        app.publishedVersion === null ? null : await publishedVersion(app.id, app.publishedVersion);
      const colors = manifestColors(version?.theme ?? themeSchema.parse({}));
      return {
        appId: app.id,
        title: version?.title ?? app.title,
        description: version?.description ?? app.description,
        icon: version ? version.icon : app.icon,
        themeColor: colors.themeColor,
        backgroundColor: colors.backgroundColor,
      };
    },
  };
}

export type AppPwaSources = ReturnType<typeof createAppPwaSources>;
