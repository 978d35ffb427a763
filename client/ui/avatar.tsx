import type { Avatar as AvatarValue } from '@pipit/protocol';
import './avatar.css';

/** A person's avatar: an emoji on their colour, or their uploaded image. Decorative by default. */
export function Avatar({
  avatar,
  size = 40,
  label,
}: {
  avatar: AvatarValue;
  size?: number;
  label?: string;
}) {
  const style = { width: size, height: size, fontSize: size * 0.55 };
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true as const };
  if (avatar.kind === 'image') {
    return (
      <span className="avatar" style={style} {...a11y}>
        <img src={avatar.url} alt="" width={size} height={size} />
      </span>
    );
  }
  return (
    <span className="avatar" style={{ ...style, background: avatar.color }} {...a11y}>
      {avatar.emoji}
    </span>
  );
}
