import { AppCardGrid } from '../../ui/app-card';
import { Avatar } from '../../ui/avatar';
import { ButtonLink } from '../../ui/button-link';
import { EmptyState } from '../../ui/empty-state';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import type { LoadedProfile } from './load-profile';
import { LocalTime } from '../../ui/local-time';
import './profile-page.css';

/**
 * Profile links are http(s) only (docs/product/validation.md); anything else is shown as text,
 * never as a link.
 */
function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** `/{username}`: a person's public profile and their public published apps. */
export function ProfilePage({ profile, isLastSeenCopy }: LoadedProfile) {
  return (
    <Page title={profile.displayName || profile.username}>
      {isLastSeenCopy ? (
        <Notice tone="offline">
          Pipit can’t reach the server right now, so this is the copy of the profile you last saw.
        </Notice>
      ) : null}
      <div className="profile">
        <div className="profile__card">
          <Avatar avatar={profile.avatar} size={96} />
          <div className="stack">
            <p className="profile__username">@{profile.username}</p>
            {profile.bio ? <p className="profile__bio">{profile.bio}</p> : null}
            <ul className="profile__meta">
              <li>
                Joined <LocalTime at={Date.parse(profile.joinedAt)} style="month" />
              </li>
            </ul>
            {profile.links.length > 0 ? (
              <ul className="profile__meta profile__links" aria-label="Links">
                {profile.links.map((link) => {
                  const href = safeHref(link.url);
                  return (
                    <li key={link.url}>
                      {href ? (
                        <a href={href} rel="noopener noreferrer nofollow ugc" target="_blank">
                          {link.label || new URL(href).host}
                        </a>
                      ) : (
                        link.label
                      )}
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </div>
        </div>
        <Section title="Apps" id="apps">
          {profile.apps.length > 0 ? (
            // Pinned apps come first, in the order their author pinned them (the server's order).
            <AppCardGrid apps={profile.apps} />
          ) : (
            <EmptyState icon="🪺" title="No published apps yet" level={3}>
              When {profile.displayName || profile.username} publishes an app publicly, it shows up
              here.
            </EmptyState>
          )}
        </Section>
      </div>
    </Page>
  );
}

/** An unknown or deleted username. */
export function ProfileNotFound({ username }: { username: string }) {
  return (
    <Page eyebrow="Profile not found" title={`No one is called @${username}`} width="prose">
      <p>
        There is no Pipit profile with that username. It may be mistyped, or the account may have
        been deleted.
      </p>
      <div className="row">
        <ButtonLink to="/explore">Explore apps</ButtonLink>
        <ButtonLink to="/" variant="secondary">
          Go to the home page
        </ButtonLink>
      </div>
    </Page>
  );
}
