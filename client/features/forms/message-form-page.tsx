import type { MessageRequest } from '@pipit/protocol';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from '../../ui/button';
import { TextArea, TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import { useSubmit } from '../../platform/api/use-submit';
import { enqueue, useOutbox } from '../../platform/outbox/outbox';
import { sendMessage } from '../../platform/outbox/senders';

interface MessageFormPageProps {
  kind: MessageRequest['kind'];
  title: string;
  lead: ReactNode;
  messageLabel: string;
  messageHint: string;
  thanks: string;
  children?: ReactNode;
}

/**
 * Contact and feedback (docs/product/routes.md): messages stored on the server, behind the human
 * check. Written offline, a message waits on this device and is sent when the connection returns.
 */
function MessageFormPage(props: MessageFormPageProps) {
  const online = useOnlineStatus();
  const { account } = useSession();
  const waiting = useOutbox('message');
  const [email, setEmail] = useState('');
  const [body, setBody] = useState('');
  const [result, setResult] = useState<'sent' | 'queued' | null>(null);
  const send = useSubmit((message: MessageRequest) => sendMessage(message));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const message: MessageRequest = {
      kind: props.kind,
      body,
      page: document.referrer ? new URL(document.referrer).pathname : location.pathname,
      ...(email ? { email } : {}),
    };
    if (!online) {
      enqueue('message', message);
      setResult('queued');
      setBody('');
      return;
    }
    if (await send.submit(message)) {
      setResult('sent');
      setBody('');
    }
  };

  return (
    <Page title={props.title} lead={props.lead} width="narrow">
      {props.children}
      {result === 'sent' ? (
        <Notice tone="success" title="Thank you">
          {props.thanks}
        </Notice>
      ) : null}
      {waiting.length > 0 ? (
        <Notice tone="offline" title="Waiting to send">
          {waiting.length === 1 ? 'Your message is' : `${waiting.length} messages are`} saved on
          this device and will be sent as soon as you are back online.
        </Notice>
      ) : result === 'queued' ? (
        <Notice tone="success" title="Sent">
          You are back online, and the message you wrote offline has gone out. {props.thanks}
        </Notice>
      ) : null}
      {send.error ? (
        <Notice tone="danger" live="alert">
          {send.error}
        </Notice>
      ) : null}
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <fieldset className="form-fieldset" disabled={send.pending}>
          <legend className="visually-hidden">{props.title}</legend>
          {account ? (
            <p className="field__hint">
              You are signed in as @{account.username}; replies go to {account.email}.
            </p>
          ) : (
            <TextField
              label="Your email"
              name="email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              hint="So we can reply. Leave it empty to stay anonymous."
              error={send.fields.email}
            />
          )}
          <TextArea
            label={props.messageLabel}
            name="body"
            maxLength={5000}
            required
            value={body}
            onChange={(e) => setBody(e.target.value)}
            hint={props.messageHint}
            error={send.fields.body}
          />
          <Button type="submit" disabled={send.pending || body.trim() === ''}>
            {send.pending ? 'Sending…' : online ? 'Send' : 'Send when back online'}
          </Button>
        </fieldset>
      </form>
    </Page>
  );
}

/** `/contact` */
export function ContactPage() {
  return (
    <MessageFormPage
      kind="contact"
      title="Contact"
      lead="Questions about your account, a problem with an app, or something to report: write to the people who run this Pipit server."
      messageLabel="Message"
      messageHint="Include the address of the page or app it is about. Please do not send passwords."
      thanks="Your message reached the people who run this server. If you left an address, they will reply there."
    >
      <p>
        To report an app that breaks the acceptable-use policy, include its address (it starts with{' '}
        <code>/apps/</code>) and what is wrong with it.
      </p>
    </MessageFormPage>
  );
}

/** `/feedback` */
export function FeedbackPage() {
  return (
    <MessageFormPage
      kind="feedback"
      title="Send feedback"
      lead="Tell us what works, what doesn’t, and what you wish Pipit did. Every message is read."
      messageLabel="Your feedback"
      messageHint="What were you trying to do, and what happened? Screens and steps help."
      thanks="Your feedback is in. Thank you for taking the time."
    />
  );
}
