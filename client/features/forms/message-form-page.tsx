import type { ReactNode } from 'react';
import { Button } from '../../ui/button';
import { TextArea, TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';

interface MessageFormPageProps {
  title: string;
  lead: ReactNode;
  messageLabel: string;
  messageHint: string;
  children?: ReactNode;
}

/**
 * Contact and feedback (SPEC §3): forms whose messages are stored on the server, behind the human
 * check. Sending is not switched on here yet; the form says so rather than pretending to send.
 */
function MessageFormPage({
  title,
  lead,
  messageLabel,
  messageHint,
  children,
}: MessageFormPageProps) {
  const online = useOnlineStatus();
  return (
    <Page title={title} lead={lead} width="narrow">
      {children}
      <Notice tone="info" title="Messages can’t be sent from this server yet">
        The operator has not switched on the message inbox. Nothing you type here is sent or kept.
      </Notice>
      {online ? null : (
        <Notice tone="offline" title="You’re offline">
          Once sending is switched on, a message written offline is kept and sent when you
          reconnect.
        </Notice>
      )}
      <form onSubmit={(e) => e.preventDefault()}>
        <fieldset disabled className="form-fieldset">
          <legend className="visually-hidden">{title}</legend>
          <TextField
            label="Your email"
            name="email"
            type="email"
            autoComplete="email"
            hint="So we can reply. Leave it empty to stay anonymous."
          />
          <TextArea label={messageLabel} name="body" maxLength={5000} hint={messageHint} required />
          <Button type="submit">Send</Button>
        </fieldset>
      </form>
    </Page>
  );
}

/** `/contact` */
export function ContactPage() {
  return (
    <MessageFormPage
      title="Contact"
      lead="Questions about your account, a problem with an app, or something to report: write to the people who run this Pipit server."
      messageLabel="Message"
      messageHint="Include the address of the page or app it is about. Please do not send passwords."
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
      title="Send feedback"
      lead="Tell us what works, what doesn’t, and what you wish Pipit did. Every message is read."
      messageLabel="Your feedback"
      messageHint="What were you trying to do, and what happened? Screens and steps help."
    />
  );
}
