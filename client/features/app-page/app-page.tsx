import { Suspense } from 'react';
import { appPwaPaths, type PublishedApp } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { AppIcon } from '../../ui/app-icon';
import { Avatar } from '../../ui/avatar';
import { buttonClass } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { formatMoment } from '../../ui/format-time';
import { LocalTime } from '../../ui/local-time';
import { pageOrigin } from '../../platform/api/page-data';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { readPublishedDefinition } from '../../platform/published-definition';
import { AppPreview } from './app-preview';
import { RemixButton } from './remix-button';
import { SaveButton } from './save-button';
import { ShareLink } from './share-link';
import './app-page.css';

const VISIBILITY_NOTES = {
  public: null,
  unlisted:
    'Unlisted: anyone with the link can open it, but it isn’t listed in Explore or on a profile.',
  private: 'Private: only you and the people it is shared with can open it.',
} as const;

/** `/apps/{id}`: what an app is, who made it, a live preview, and how to open, install or remix it. */
export function AppPage({
  app,
  isLastSeenCopy,
  seenAt,
}: {
  app: PublishedApp;
  isLastSeenCopy: boolean;
  seenAt: number | null;
}) {
  const definition = readPublishedDefinition(app);
  const isDraft = app.version === null;
  const title = app.title || 'Untitled app';

  return (
    <Page
      eyebrow={isDraft ? 'Not published yet' : !app.published ? 'Unpublished' : undefined}
      title={
        <span className="app-page__title">
          <AppIcon icon={app.icon} size={72} />
          <span>{title}</span>
        </span>
      }
      lead={<AppByline app={app} />}
    >
      <AppNotices app={app} isLastSeenCopy={isLastSeenCopy} seenAt={seenAt} />

      <div className="app-page">
        <div className="app-page__info">
          <AppActions app={app} definition={definition} />
          <AboutApp app={app} />
          {app.remixes.length > 0 ? <AppRemixes app={app} /> : null}
        </div>

        {!isDraft ? (
          <section className="app-page__preview" aria-labelledby="app-preview-title">
            <h2 id="app-preview-title" className="app-page__subtitle">
              Preview
            </h2>
            {definition ? (
              // Its own boundary: hydrating a server-rendered page, React takes the page first
              // and the preview (the whole app's runtime) in a task of its own, so neither blocks
              // a phone for long.
              <Suspense fallback={null}>
                <AppPreview definition={definition} appId={app.id} />
              </Suspense>
            ) : (
              <p className="app-page__muted">
                This version can’t be previewed here. Open the app to use it.
              </p>
            )}
          </section>
        ) : null}
      </div>
    </Page>
  );
}

/** Who made the app, and its version. */
function AppByline({ app }: { app: PublishedApp }) {
  const author = app.author.displayName || app.author.username;
  return (
    <span className="app-page__byline">
      <span className="app-page__author">
        {app.author.avatar ? <Avatar avatar={app.author.avatar} size={28} /> : null}
        <span>
          by{' '}
          <Link to="/$username" params={{ username: app.author.username }}>
            {author}
          </Link>
        </span>
      </span>
      {app.version !== null && app.publishedAt !== null ? (
        <span>
          Version {app.version} · published <LocalTime at={app.publishedAt} />
        </span>
      ) : null}
    </span>
  );
}

/** Offline, archived, a draft, unpublished, or who may see it. */
function AppNotices({
  app,
  isLastSeenCopy,
  seenAt,
}: {
  app: PublishedApp;
  isLastSeenCopy: boolean;
  seenAt: number | null;
}) {
  const isDraft = app.version === null;
  return (
    <div className="stack app-page__notices">
      {isLastSeenCopy ? (
        <Notice tone="offline">
          You’re offline — this is the copy of the page you last saw
          {seenAt ? ` (${formatMoment(seenAt)})` : ''}.
        </Notice>
      ) : null}
      {app.archived ? (
        <Notice tone="warning" title="This app is archived">
          Its creator archived it, so it no longer appears in Explore or on their profile. People
          who installed it can keep using it.
        </Notice>
      ) : null}
      {isDraft ? (
        <Notice tone="info">
          Only its owner and collaborators can see this page.{' '}
          {app.role === 'owner'
            ? 'Publish it from the editor to give it a page anyone can open.'
            : 'Its owner publishes it from the editor.'}
        </Notice>
      ) : !app.published ? (
        <Notice tone="info" title="Unpublished">
          Visitors can’t open this app. Its owner and collaborators still see version {app.version}.
        </Notice>
      ) : app.role !== null && VISIBILITY_NOTES[app.visibility] ? (
        <Notice tone="info" live="off">
          {VISIBILITY_NOTES[app.visibility]}
        </Notice>
      ) : null}
    </div>
  );
}

/** Open, Install, Remix, Save and Edit, as far as they apply. */
function AppActions({
  app,
  definition,
}: {
  app: PublishedApp;
  definition: ReturnType<typeof readPublishedDefinition>;
}) {
  const isDraft = app.version === null;
  const canEdit = app.role === 'owner' || app.role === 'editor';
  return (
    <div className="row app-page__actions">
      {!isDraft ? (
        <>
          {/* Full page loads: the server puts this app's own manifest in those pages. */}
          <a className={buttonClass('primary')} href={appPwaPaths(app.id).page}>
            Open
          </a>
          <a className={buttonClass('secondary')} href={`/apps/${app.id}/install`}>
            Install
          </a>
        </>
      ) : null}
      {definition && app.version !== null ? (
        <RemixButton appId={app.id} version={app.version} definition={definition} />
      ) : null}
      {!isDraft ? <SaveButton app={app} /> : null}
      {canEdit ? (
        <ButtonLink
          to="/apps/$id/edit"
          params={{ id: app.id }}
          variant={isDraft ? 'primary' : 'ghost'}
        >
          Edit
        </ButtonLink>
      ) : null}
    </div>
  );
}

/** The description, tags, what it was remixed from, and its link to share. */
function AboutApp({ app }: { app: PublishedApp }) {
  const isDraft = app.version === null;
  const pageUrl = `${pageOrigin()}/apps/${app.id}`;
  return (
    <section className="app-page__about" aria-labelledby="app-about-title">
      <h2 id="app-about-title" className="app-page__subtitle">
        About this app
      </h2>
      {app.description ? (
        <p className="app-page__description">{app.description}</p>
      ) : (
        <p className="app-page__muted">Its creator hasn’t written a description yet.</p>
      )}
      {app.tags.length > 0 ? (
        <ul className="app-page__tags" aria-label="Tags">
          {app.tags.map((tag) => (
            <li key={tag}>
              <Link to="/explore" search={{ tag }}>
                #{tag}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {app.remixedFrom ? (
        <p className="app-page__lineage">
          Remixed from{' '}
          <Link to="/apps/$id" params={{ id: app.remixedFrom.appId }}>
            {app.remixedFrom.title || 'Untitled app'}
          </Link>{' '}
          by{' '}
          <Link to="/$username" params={{ username: app.remixedFrom.author.username }}>
            {app.remixedFrom.author.displayName || app.remixedFrom.author.username}
          </Link>{' '}
          (version {app.remixedFrom.version})
        </p>
      ) : null}
      {!isDraft && app.visibility !== 'private' ? <ShareLink url={pageUrl} /> : null}
    </section>
  );
}

/** The remixes made of this app. */
function AppRemixes({ app }: { app: PublishedApp }) {
  return (
    <section aria-labelledby="app-remixes-title">
      <h2 id="app-remixes-title" className="app-page__subtitle">
        Remixes ({app.remixCount ?? app.remixes.length})
      </h2>
      <ul className="app-page__remixes">
        {app.remixes.map((remix) => (
          <li key={remix.id}>
            <Link to="/apps/$id" params={{ id: remix.id }}>
              {remix.title || 'Untitled app'}
            </Link>{' '}
            by{' '}
            <Link to="/$username" params={{ username: remix.author.username }}>
              {remix.author.displayName || remix.author.username}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
