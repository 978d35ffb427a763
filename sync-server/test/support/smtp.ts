import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the next message to `to` matching `subject`, as it arrives. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free port (smtp-server, the library behind many mail services), so mail
 * goes through nodemailer's production code path and the real protocol. Messages are parsed with
 * mailparser, as a mail client would.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(',');
          messages.push({
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            parsed,
          });
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(to, subject, timeoutMs = 10_000) {
      const find = () =>
        messages.find((m) => m.to === to.toLowerCase() && (!subject || subject.test(m.subject)));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`No email to ${to}${subject ? ` matching ${subject}` : ''} arrived`)),
          timeoutMs,
        );
        const check = () => {
          const found = find();
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's plain-text part that goes to `page`. */
export function linkIn(mail: ReceivedMail, page: string): URL {
  const match = mail.text.match(/https?:\/\/\S+/g)?.find((u) => new URL(u).pathname === page);
  if (!match) throw new Error(`No link to ${page} in "${mail.subject}"`);
  return new URL(match);
}
