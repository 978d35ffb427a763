import type { AppCard as AppCardValue } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { AppIcon } from './app-icon';
import { compactCount } from './compact-count';
import './app-card.css';

const plural = (n: number, one: string, many: string) =>
  `${compactCount(n)} ${n === 1 ? one : many}`;

/** One published app as a card: icon, name (opens its page), author, tags, opens and installs. */
function AppCard({ app, level }: { app: AppCardValue; level: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <article className="app-card">
      <AppIcon icon={app.icon} size={52} />
      <div className="app-card__main">
        <Heading className="app-card__title">
          <Link to="/apps/$id" params={{ id: app.id }}>
            {app.title || 'Untitled app'}
          </Link>
        </Heading>
        <p className="app-card__author">
          by{' '}
          <Link to="/$username" params={{ username: app.author.username }}>
            {app.author.displayName || app.author.username}
          </Link>
        </p>
        {app.description ? <p className="app-card__description">{app.description}</p> : null}
        {app.tags.length > 0 ? (
          <ul className="app-card__tags" aria-label="Tags">
            {app.tags.map((tag) => (
              <li key={tag}>#{tag}</li>
            ))}
          </ul>
        ) : null}
        <p className="app-card__stats">
          {plural(app.opens, 'open', 'opens')} · {plural(app.installs, 'install', 'installs')}
        </p>
      </div>
    </article>
  );
}

/** A grid of app cards; `level` keeps the page outline right (h2 under h1, h3 under a section). */
export function AppCardGrid({
  apps,
  level = 3,
  label,
}: {
  apps: AppCardValue[];
  level?: 2 | 3;
  /** Names the list for assistive technology when the heading above does not. */
  label?: string;
}) {
  return (
    <ul className="app-cards" aria-label={label}>
      {apps.map((app) => (
        <li key={app.id}>
          <AppCard app={app} level={level} />
        </li>
      ))}
    </ul>
  );
}
