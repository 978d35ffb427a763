import { createHash } from 'node:crypto';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX, type PushMessage } from '@pipit/protocol';
import { compose } from '../accounts/emails';
import type { MailMessage } from '../accounts/mailer';
import type { CreatorNotificationRecord, UserRecord } from '../storage/types';

/** What a notification needs said: its app's title, and who did it. */
export interface Told {
  notification: CreatorNotificationRecord;
  appTitle: string;
  actor: Pick<UserRecord, 'username' | 'displayName'> | null;
}

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

const nameOf = (actor: Told['actor']) =>
  actor ? `${actor.displayName || actor.username} (@${actor.username})` : 'Someone';

/** One sentence, the same in the push and in the digest; never HTML (the email escapes it). */
export function sentenceOf({ notification, appTitle, actor }: Told): string {
  switch (notification.kind) {
    case 'collaborator_added':
      return `${nameOf(actor)} added you as a collaborator on “${appTitle}”.`;
    case 'published':
      return `${nameOf(actor)} published a new version of “${appTitle}”.`;
    case 'first_visit':
      return `“${appTitle}” had its first visitor of the day.`;
  }
}

/** Where tapping it goes: the page where the person acts on it. */
export function pathOf(notification: CreatorNotificationRecord): string {
  // The app's page shows its opens and installs: a visit's "stats".
  return notification.kind === 'collaborator_added'
    ? `/apps/${notification.appId}/edit`
    : `/apps/${notification.appId}`;
}

export function pushMessageOf(told: Told): PushMessage {
  const { notification } = told;
  return {
    title: clip(told.appTitle, PUSH_TITLE_MAX),
    body: clip(sentenceOf(told), PUSH_BODY_MAX),
    path: pathOf(notification),
    // One tag per notification: a copy sent again replaces the first on the device.
    tag: `c-${createHash('sha256').update(`${notification.userId}\n${notification.dedupeKey}`).digest('base64url').slice(0, 22)}`,
    appId: notification.appId,
  };
}

/** One day's digest: every notification in it as a line, and the one-click unsubscribe link. */
export function digestMessage(options: {
  to: Pick<UserRecord, 'email' | 'displayName' | 'username'>;
  told: Told[];
  settingsUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const { to, told } = options;
  const count = told.length;
  return compose({
    to: to.email,
    subject:
      count === 1
        ? 'Pipit: news about your apps'
        : `Pipit: ${count} pieces of news about your apps`,
    greeting: `Hello ${to.displayName || to.username},`,
    paragraphs: ['Here is what happened to your apps since the last email.'],
    items: told.map(sentenceOf),
    action: { label: 'Choose how Pipit tells you', url: options.settingsUrl },
    footer:
      'You get this email once a day at most, when something happened, because no device of yours has Pipit’s notifications turned on (or you chose email).',
    unsubscribe: { label: 'Stop these emails', url: options.unsubscribeUrl },
  });
}
