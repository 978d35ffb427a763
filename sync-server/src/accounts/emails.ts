import type { MailMessage } from './mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * One email in Pipit's voice: a plain-text part and an HTML part that say the same thing. User
 * content (names, addresses) is escaped in HTML; links are ours, built from the public origin.
 */
export function compose(options: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A bulleted list after the paragraphs (user content: escaped like the rest). */
  items?: string[];
  action?: { label: string; url: string };
  footer: string;
  /**
   * A mailing's one-click unsubscribe link (RFC 8058): in the footer of both parts, and in the
   * List-Unsubscribe headers mail clients show as their own button.
   */
  unsubscribe?: { label: string; url: string };
}): MailMessage {
  const { action, unsubscribe } = options;
  const items = options.items ?? [];
  const text = [
    options.greeting,
    '',
    ...options.paragraphs.flatMap((p) => [p, '']),
    ...(items.length > 0 ? [...items.map((item) => `- ${item}`), ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    options.footer,
    ...(unsubscribe ? ['', `${unsubscribe.label}: ${unsubscribe.url}`] : []),
    '',
    '— Pipit',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;line-height:1.5;color:#17201b;max-width:36rem;margin:0 auto;padding:24px">
<p style="font-size:20px;font-weight:700;margin:0 0 16px">Pipit</p>
<p>${escapeHtml(options.greeting)}</p>
${options.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${items.length > 0 ? `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : ''}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1a6e4c;color:#ffffff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="font-size:14px;color:#4c5a52">If the button does not work, copy this address into your browser:<br><span style="word-break:break-all">${escapeHtml(action.url)}</span></p>`
    : ''
}
<p style="font-size:14px;color:#4c5a52">${escapeHtml(options.footer)}</p>
${unsubscribe ? `<p style="font-size:14px;color:#4c5a52"><a href="${escapeHtml(unsubscribe.url)}" style="color:#1a6e4c">${escapeHtml(unsubscribe.label)}</a></p>` : ''}
</body></html>`;
  return {
    to: options.to,
    subject: options.subject,
    text,
    html,
    links: [...(action ? [action.url] : []), ...(unsubscribe ? [unsubscribe.url] : [])],
    ...(unsubscribe
      ? {
          headers: {
            'List-Unsubscribe': `<${unsubscribe.url}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
  };
}

const hello = (name: string) => `Hello ${name},`;

export function verifyEmailMessage(to: string, name: string, url: string): MailMessage {
  return compose({
    to,
    subject: 'Confirm your email for Pipit',
    greeting: hello(name),
    paragraphs: [
      'Welcome to Pipit. Confirm that this is your email address, so you can publish your apps, invite people to them, and always get back into your account.',
    ],
    action: { label: 'Confirm my email', url },
    footer:
      'The link works once and expires in 48 hours. If you did not sign up for Pipit, ignore this email.',
  });
}

export function resetPasswordMessage(to: string, name: string, url: string): MailMessage {
  return compose({
    to,
    subject: 'Reset your Pipit password',
    greeting: hello(name),
    paragraphs: [
      'Someone asked to reset the password of your Pipit account. If it was you, choose a new password with the link below. Every device signed in to your account will be signed out.',
    ],
    action: { label: 'Choose a new password', url },
    footer:
      'The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays the same.',
  });
}

export function confirmEmailChangeMessage(to: string, name: string, url: string): MailMessage {
  return compose({
    to,
    subject: 'Confirm your new email for Pipit',
    greeting: hello(name),
    paragraphs: [
      'You asked to use this address for your Pipit account. Confirm it, and sign in again with it.',
    ],
    action: { label: 'Confirm my new email', url },
    footer:
      'The link works once and expires in 24 hours. If you did not ask for this, ignore this email.',
  });
}

export function emailChangeNoticeMessage(to: string, name: string, newEmail: string): MailMessage {
  return compose({
    to,
    subject: 'Your Pipit email is about to change',
    greeting: hello(name),
    paragraphs: [
      `Someone signed in to your Pipit account asked to change its email address to ${newEmail}. It changes once that address confirms.`,
      'If this was not you, change your password now from your account settings, which signs out every device.',
    ],
    footer: 'You are getting this because this is the email address of your Pipit account.',
  });
}

export function passwordChangedMessage(to: string, name: string): MailMessage {
  return compose({
    to,
    subject: 'Your Pipit password was changed',
    greeting: hello(name),
    paragraphs: [
      'The password of your Pipit account was just changed, and your other devices were signed out.',
      'If this was not you, reset your password from the sign-in page right away.',
    ],
    footer: 'You are getting this because this is the email address of your Pipit account.',
  });
}
