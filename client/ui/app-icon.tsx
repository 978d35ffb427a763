import type { AppIcon as AppIconValue } from '@pipit/protocol';
import './app-icon.css';

/**
 * An app's icon: its emoji on its colour, or its uploaded image; a bird when it has none yet.
 * Decorative: the app's name is always written next to it.
 */
export function AppIcon({ icon, size = 48 }: { icon: AppIconValue | null; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.56 };
  if (icon?.kind === 'image') {
    return (
      <span className="app-icon" style={style} aria-hidden="true">
        <img src={icon.url} alt="" width={size} height={size} loading="lazy" />
      </span>
    );
  }
  return (
    <span
      className="app-icon"
      style={{ ...style, background: icon?.background ?? 'var(--color-primary-soft)' }}
      aria-hidden="true"
    >
      {icon?.emoji ?? '🐦'}
    </span>
  );
}
