import type { Peer } from '../../../sync/app-document/app-document';

const HEX = /^#[0-9a-f]{6}$/i;
/** Peer colours come from other people's presence state: only `#rrggbb` is used as given. */
const FALLBACK_COLOR = '#5b5bd6';

export function peerColor(peer: Peer): string {
  return HEX.test(peer.color) ? peer.color : FALLBACK_COLOR;
}

/** Black or white, whichever reads better on `color` (WCAG relative luminance). */
export function readableOn(color: string): string {
  const channel = (i: number) => {
    const c = parseInt(color.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [name.trim()];
  return letters
    .map((w) => Array.from(w ?? '')[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

const MAX_SHOWN = 5;

/** Who else is here: initials in each person's colour, their name on hover and for screen readers. */
export function PresenceAvatars({ peers }: { peers: Peer[] }) {
  if (peers.length === 0) return null;
  const shown = peers.slice(0, MAX_SHOWN);
  const more = peers.length - shown.length;
  const aiFor = peers.filter((peer) => peer.ai !== null);
  return (
    <>
      {aiFor.length > 0 ? (
        <p className="presence-ai" role="status">
          {aiFor
            .map((peer) =>
              peer.ai === 'working'
                ? `AI for ${peer.name}`
                : `AI suggestion for ${peer.name}, in review`,
            )
            .join(', ')}
        </p>
      ) : null}
      <ul className="presence-avatars" aria-label={`Also editing: ${peers.length}`}>
        {shown.map((peer) => {
          const color = peerColor(peer);
          return (
            <li key={peer.clientId}>
              <span
                className="presence-avatars__avatar"
                style={{ background: color, color: readableOn(color) }}
                title={peer.name}
                role="img"
                aria-label={peer.name}
              >
                {initials(peer.name) || '?'}
              </span>
            </li>
          );
        })}
        {more > 0 ? (
          <li>
            <span
              className="presence-avatars__avatar presence-avatars__more"
              title={peers
                .slice(MAX_SHOWN)
                .map((p) => p.name)
                .join(', ')}
            >
              +{more}
            </span>
          </li>
        ) : null}
      </ul>
    </>
  );
}

/** Dots on a row for the people who have it selected, with their names. */
export function PeerMarks({ peers }: { peers: Peer[] }) {
  if (peers.length === 0) return null;
  return (
    <span className="peer-marks">
      {peers.map((peer) => {
        const color = peerColor(peer);
        return (
          <span
            key={peer.clientId}
            className="peer-marks__mark"
            style={{ borderColor: color }}
            title={`${peer.name} is here`}
          >
            <span className="peer-marks__dot" style={{ background: color }} aria-hidden="true" />
            <span className="peer-marks__name">{peer.name}</span>
          </span>
        );
      })}
    </span>
  );
}
