import { type AppIcon as AppIconValue, emojiImagePath, iconLetterColor } from '@pipit/protocol';
import { useCallback, useState } from 'react';
import './app-icon.css';

/** Pipit's bird, for an app whose icon is not known yet (DEFAULT_APP_ICON's emoji). */
const DEFAULT_EMOJI = '🐦';
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/**
 * An app's icon: its emoji on its colour, or its uploaded image; a bird when it has none yet.
 * The emoji is Twemoji's picture of it (`/emoji/…`, the artwork of the installed app's manifest
 * icons), so an app has one face in pages, lists, the editor and on a home
 * screen, also on a device with no colour-emoji font. Decorative by default (the app's name is
 * written next to it); `label` makes it an image with that name.
 */
export function AppIcon({
  icon,
  size = 48,
  label,
}: {
  icon: AppIconValue | null;
  size?: number;
  label?: string;
}) {
  const style = { width: size, height: size, fontSize: size * 0.56 };
  const name = label === undefined ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label };
  if (icon?.kind === 'image') {
    return (
      <span className="app-icon" style={style} {...name}>
        <img
          className="app-icon__image"
          src={icon.url}
          alt=""
          width={size}
          height={size}
          loading="lazy"
        />
      </span>
    );
  }
  const emoji = icon?.emoji ?? DEFAULT_EMOJI;
  const background = icon?.background;
  const src = emojiImagePath(emoji);
  return (
    <span
      className="app-icon"
      style={{
        ...style,
        background: background ?? 'var(--color-primary-soft)',
        // A letter is drawn as the manifest's icon draws it (white or near-black).
        ...(background && HEX_COLOR.test(background) ? { color: iconLetterColor(background) } : {}),
      }}
      {...name}
    >
      {src ? <EmojiPicture key={src} src={src} emoji={emoji} /> : emoji}
    </span>
  );
}

/**
 * The picture over the emoji as text. The text shows while the picture loads and if it cannot
 * (offline before it was ever seen, an emoji Twemoji has no picture for); the page as sent (server
 * rendered, or before its script runs) shows only the picture, which needs no script to appear.
 */
function EmojiPicture({ src, emoji }: { src: string; emoji: string }) {
  const [state, setState] = useState<'sent' | 'loading' | 'shown' | 'failed'>('sent');
  // Also for a picture that loaded or failed before the page's script ran: decode() settles at
  // once for those, when a load or error event would never come.
  const watch = useCallback((img: HTMLImageElement | null) => {
    if (!img) return;
    if (!img.complete) setState('loading');
    img.decode().then(
      () => setState('shown'),
      () => setState('failed'),
    );
  }, []);
  return (
    <>
      <span className="app-icon__text" data-state={state === 'sent' ? undefined : state}>
        {emoji}
      </span>
      {state === 'failed' ? null : (
        <img
          ref={watch}
          className="app-icon__picture"
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
        />
      )}
    </>
  );
}
