import { appPwaPaths } from '@pipit/protocol';

/** The Web App Manifest members Pipit writes for an app (docs/library-notes.md#pwa). */
export interface AppManifest {
  id: string;
  start_url: string;
  scope: string;
  name: string;
  short_name: string;
  description: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: 'image/png'; purpose: 'any' | 'maskable' }>;
}

export interface ManifestSource {
  appId: string;
  title: string;
  description: string;
  themeColor: string;
  backgroundColor: string;
}

/** Launchers show about 12 characters under an icon before they cut it themselves. */
export const SHORT_NAME_MAX = 12;

const graphemes = (text: string) => [
  ...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text),
];

/**
 * A short name of at most 12 characters (an emoji counts as one): the title when it fits, else as
 * many of its first words as fit, else the first word cut with an ellipsis.
 */
export function shortName(title: string): string {
  const clean = title.trim().replace(/\s+/g, ' ');
  if (graphemes(clean).length <= SHORT_NAME_MAX) return clean;
  let words = '';
  for (const word of clean.split(' ')) {
    const next = words ? `${words} ${word}` : word;
    if (graphemes(next).length > SHORT_NAME_MAX) break;
    words = next;
  }
  // A cut after "Notes:" or "Tasks –" would end on punctuation that reads as a mistake.
  words = words.replace(/[\s\p{P}]+$/u, '');
  if (words) return words;
  const cut = graphemes(clean)
    .slice(0, SHORT_NAME_MAX - 1)
    .map((s) => s.segment)
    .join('');
  return `${cut}…`;
}

/**
 * An app's own manifest: `id`, `start_url` and `scope` all `/apps/{id}/pwa` (scope is a string
 * prefix, so the editor at `/apps/{id}/edit` stays out), and its icons: PNG 192 and 512 for any
 * use, and a separate maskable 512 (one icon for both would be cropped or look small).
 */
export function appManifest(source: ManifestSource): AppManifest {
  const paths = appPwaPaths(source.appId);
  const name = source.title.trim() || 'Untitled app';
  return {
    id: paths.page,
    start_url: paths.page,
    scope: paths.page,
    name,
    short_name: shortName(name),
    description: source.description,
    display: 'standalone',
    theme_color: source.themeColor,
    background_color: source.backgroundColor,
    icons: [
      { src: paths.icon192, sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: paths.icon512, sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: paths.maskable512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
