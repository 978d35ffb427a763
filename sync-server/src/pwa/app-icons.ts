import { createHash } from 'node:crypto';
import { type AppIcon, DEFAULT_APP_ICON } from '@pipit/app-definition';
import { iconLetterColor } from '@pipit/protocol';
import type { Logger } from '../logger';
import { keepUnlessFailed } from '../read-once';
import type { UploadStore } from '../storage/types';
import { Lru } from '../lru';
import { type AppIconVariant, type IconArt, renderAppIcon } from './render-icon';
import { firstGrapheme, twemojiSvg } from './twemoji';

/** What an app's icons are drawn from. */
export interface IconSource {
  /** The app's icon; null draws Pipit's default (the bird). */
  icon: AppIcon | null;
  /** For the letter drawn when an emoji has no picture. */
  title: string;
  /** The theme's background: behind an uploaded image where it is transparent. */
  background: string;
}

/** Bumped when the drawing changes, so browsers fetch icons again (the ETag includes it). */
const RENDER_VERSION = 1;
const DEFAULT_CACHED_ICONS = 256;
const UPLOAD_PATH = /^\/api\/uploads\/([a-z2-7]{26})$/;
const LETTER = /[\p{L}\p{N}]/u;

/** The letter drawn when no picture matches: the icon's own (an "A" icon), else the title's first. */
function letterFor(source: IconSource): string {
  const fromIcon = source.icon?.kind === 'emoji' ? firstGrapheme(source.icon.emoji) : '';
  if (LETTER.test(fromIcon) && [...fromIcon].length === 1) return fromIcon.toUpperCase();
  return LETTER.exec(source.title)?.[0]?.toUpperCase() ?? '';
}

function emojiArt(emoji: string, background: string, letter: string): IconArt {
  const svg = twemojiSvg(emoji);
  if (svg) return { kind: 'svg', svg, background };
  // The colour pages draw an icon's letter in too (client/ui/app-icon.tsx).
  if (letter) return { kind: 'letter', letter, background, color: iconLetterColor(background) };
  // Nothing to draw from: Pipit's bird, whose picture always exists.
  return { kind: 'svg', svg: twemojiSvg(DEFAULT_APP_ICON.emoji)!, background };
}

export interface AppIcons {
  /** A strong validator for the icon, known before it is drawn (a revalidation draws nothing). */
  etag(source: IconSource, variant: AppIconVariant): string;
  png(source: IconSource, variant: AppIconVariant): Promise<Buffer>;
}

/**
 * Icons drawn on demand and kept in a bounded LRU keyed by what they are drawn from. An uploaded
 * image is read by id (uploads never change); one that is gone or unreadable gives the default icon.
 */
export function createAppIcons(options: {
  uploads: UploadStore;
  logger: Logger;
  maxEntries?: number;
}): AppIcons {
  const cache = new Lru<string, Promise<Buffer>>(options.maxEntries ?? DEFAULT_CACHED_ICONS);
  const keyOf = (source: IconSource, variant: AppIconVariant) =>
    JSON.stringify([RENDER_VERSION, variant, source.icon, source.background, letterFor(source)]);

  async function art(source: IconSource): Promise<IconArt> {
    const icon = source.icon ?? DEFAULT_APP_ICON;
    const letter = letterFor(source);
    if (icon.kind === 'emoji') return emojiArt(icon.emoji, icon.background, letter);
    const uploadId = UPLOAD_PATH.exec(icon.url)?.[1];
    const upload = uploadId ? await options.uploads.get(uploadId) : null;
    if (upload) return { kind: 'image', bytes: upload.bytes, background: source.background };
    return emojiArt(DEFAULT_APP_ICON.emoji, DEFAULT_APP_ICON.background, letter);
  }

  async function draw(source: IconSource, variant: AppIconVariant): Promise<Buffer> {
    const drawn = await art(source);
    try {
      return await renderAppIcon(drawn, variant);
    } catch (error) {
      if (drawn.kind !== 'image') throw error;
      options.logger.warn(
        { err: error },
        'an uploaded app icon could not be drawn; using the default',
      );
      const fallback = emojiArt(DEFAULT_APP_ICON.emoji, DEFAULT_APP_ICON.background, '');
      return renderAppIcon(fallback, variant);
    }
  }

  return {
    etag: (source, variant) =>
      `"${createHash('sha256').update(keyOf(source, variant)).digest('base64url').slice(0, 22)}"`,
    png(source, variant) {
      // A failure is not kept: the next request tries again.
      return keepUnlessFailed(cache, keyOf(source, variant), () => draw(source, variant));
    },
  };
}
