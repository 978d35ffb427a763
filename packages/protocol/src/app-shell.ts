import { isId } from './ids';
import { SHOWCASE_PWA } from './showcase';

/**
 * The HTML shell of a page that installs as its own app carries that app's manifest, not Pipit's:
 * an app's own pages (docs/product/routes.md `/apps/{id}/pwa` and `/apps/{id}/install`) and the
 * `/demo1` showcase. Browsers read `<link rel="manifest">` when they parse the HTML: swapping it
 * from script during load is racy (docs/library-notes.md#pwa — Chromium kept the platform manifest
 * in 5 of 12 loads), so the server rewrites the shell it sends and the service worker rewrites its
 * precached copy, both with this one function.
 */

/**
 * The per-app web app manifest and icons (docs/product/routes.md /apps/{id}/pwa), served by the
 * server.
 */
export const appPwaPaths = (appId: string) => ({
  page: `/apps/${appId}/pwa`,
  manifest: `/apps/${appId}/manifest.webmanifest`,
  icon192: `/apps/${appId}/icons/192.png`,
  icon512: `/apps/${appId}/icons/512.png`,
  maskable512: `/apps/${appId}/icons/maskable-512.png`,
  appleTouch180: `/apps/${appId}/icons/apple-touch-180.png`,
});

/** Exactly the paths whose shell is rewritten (lowercase, as the manifests' scopes are written). */
const APP_SHELL_PATH = /^\/apps\/([a-z2-7]{26})\/(pwa|install)\/?$/;
const SHOWCASE_SHELL_PATH = /^\/demo1\/?$/;
const HEX_COLOR = /^#[0-9a-f]{6}$/i;
/** A whole tag, with the blanks before it and the line break after it (so no empty lines remain). */
const LINK_OR_META = /[ \t]*<(link|meta)\b[^>]*>[ \t]*(\r?\n)?/gi;
const ATTRIBUTE = (name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i');

/** Whose shell a page gets instead of Pipit's: a published app's, or the showcase's. */
export type AppShellTarget =
  { kind: 'app'; appId: string; page: 'pwa' | 'install' } | { kind: 'showcase' };

/** The app whose shell a pathname asks for, or null when its shell is Pipit's own. */
export function appShellTarget(pathname: string): AppShellTarget | null {
  if (SHOWCASE_SHELL_PATH.test(pathname)) return { kind: 'showcase' };
  const match = APP_SHELL_PATH.exec(pathname);
  const id = match?.[1];
  if (!id || !isId(id)) return null;
  return { kind: 'app', appId: id, page: match[2] === 'pwa' ? 'pwa' : 'install' };
}

/**
 * The build's HTML a page starts from: the installed app (`/apps/{id}/pwa`) has its own entry,
 * without Pipit's site (client/app.html); every other page is the site's (client/index.html).
 */
export type ShellDocument = '/index.html' | '/app.html';
export function shellDocument(target: AppShellTarget | null): ShellDocument {
  return target?.kind === 'app' && target.page === 'pwa' ? '/app.html' : '/index.html';
}

function attribute(tag: string, name: string): string | null {
  const match = ATTRIBUTE(name).exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3] ?? '') : null;
}

/** The tags that say which app this page is: Pipit's versions of them are dropped. */
function isReplaced(kind: string, tag: string): boolean {
  if (kind.toLowerCase() === 'meta') {
    return attribute(tag, 'name')?.trim().toLowerCase() === 'theme-color';
  }
  const rel = (attribute(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
  return rel.some(
    (token) =>
      token === 'manifest' ||
      token === 'apple-touch-icon' ||
      token === 'apple-touch-icon-precomposed',
  );
}

export interface AppShellOptions {
  /**
   * The app's theme colour, when the caller knows it (the showcase's is known here). Without one,
   * Pipit's theme-color metas are dropped all the same, so an installed window takes the manifest's
   * `theme_color` (a page's meta outranks the manifest in Chromium).
   */
  themeColor?: string;
}

/** The tags that make a page a published app's (its manifest is per person for private apps). */
function appTags(appId: string): { tags: string[]; themeColor?: string } {
  if (!isId(appId)) throw new Error(`Not an app id: ${JSON.stringify(appId)}`);
  const paths = appPwaPaths(appId);
  return {
    tags: [
      `<link rel="manifest" href="${paths.manifest}" crossorigin="use-credentials">`,
      `<link rel="apple-touch-icon" sizes="180x180" href="${paths.appleTouch180}">`,
    ],
  };
}

/** The showcase's: static files of the build, the same for everyone, in its theme's colour. */
function showcaseTags(): { tags: string[]; themeColor?: string } {
  return {
    tags: [
      `<link rel="manifest" href="${SHOWCASE_PWA.manifest}">`,
      `<link rel="apple-touch-icon" sizes="180x180" href="${SHOWCASE_PWA.appleTouch180}">`,
    ],
    themeColor: SHOWCASE_PWA.themeColor,
  };
}

/**
 * Pipit's shell turned into one app's: its manifest link (an app's with
 * `crossorigin="use-credentials"`, so the session cookie goes along for private apps), its 180 px
 * apple-touch-icon, and its theme colour when known, never Pipit's. Everything else is left byte
 * for byte. Throws on an id that is not an id (it is written into the HTML).
 */
export function appShellHtml(
  html: string,
  target: AppShellTarget,
  options: AppShellOptions = {},
): string {
  const own = target.kind === 'app' ? appTags(target.appId) : showcaseTags();
  const tags = [...own.tags];
  const themeColor = options.themeColor ?? own.themeColor;
  if (themeColor !== undefined) {
    if (!HEX_COLOR.test(themeColor)) {
      throw new Error(`Not a colour: ${JSON.stringify(themeColor)}`);
    }
    tags.push(`<meta name="theme-color" content="${themeColor.toLowerCase()}">`);
  }
  const stripped = html.replace(LINK_OR_META, (whole, kind: string) =>
    isReplaced(kind, whole) ? '' : whole,
  );
  const headEnd = /<\/head\s*>/i.exec(stripped);
  if (!headEnd) return `${tags.join('')}${stripped}`;
  return `${stripped.slice(0, headEnd.index)}${tags.join('')}${stripped.slice(headEnd.index)}`;
}
