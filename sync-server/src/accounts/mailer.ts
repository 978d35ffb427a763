import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links in the message, logged when there is no SMTP relay so a person can follow them. */
  links: string[];
  /** Extra headers: a mailing's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves once the relay accepted the message (or it was written to the outbox). */
  send(message: MailMessage): Promise<void>;
  readonly transport: 'smtp' | 'outbox';
}

/**
 * Mail through nodemailer: SMTP when SMTP_URL is set (smtp:// or smtps://, credentials in the URL);
 * otherwise each message is written under DATA_DIR/outbox as a .eml file and its links are logged,
 * so someone running `npm start` can finish sign-up without a mail server. Same code path for
 * building the message either way.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  logger: Logger;
}): Mailer {
  const { smtpUrl, from, logger } = options;
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    return {
      transport: 'smtp',
      async send(message) {
        await transporter.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.headers ? { headers: message.headers } : {}),
        });
        logger.info({ to: message.to, subject: message.subject }, 'sent an email');
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    transport: 'outbox',
    async send(message) {
      const info = await transporter.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.headers ? { headers: message.headers } : {}),
      });
      mkdirSync(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${Date.now()}-${message.to.replace(/[^a-z0-9@.+-]/gi, '_')}.eml`,
      );
      writeFileSync(file, info.message as Buffer);
      logger.info(
        { to: message.to, subject: message.subject, file, links: message.links },
        'no SMTP_URL: the email was written to the outbox; follow its link to continue',
      );
    },
  };
}
