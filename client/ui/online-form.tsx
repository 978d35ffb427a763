import type { FormEvent, ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { useOnlineStatus } from './use-online-status';

interface OnlineFormProps {
  /** Names the fields for assistive technology (the legend is visually hidden). */
  legend: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: () => void;
  variant?: ButtonVariant;
  /** Says under the button that the form waits for a connection (for pages with no offline notice). */
  offlineHint?: boolean;
  children: ReactNode;
}

/**
 * A form that needs the network to do anything (docs/product/routes.md: it needs the network, and
 * says so): its fields lock while it is sent, the button says what is happening, and offline the
 * button waits.
 */
export function OnlineForm(props: OnlineFormProps) {
  const online = useOnlineStatus();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <form noValidate onSubmit={submit} aria-busy={props.pending}>
      <fieldset className="form-fieldset" disabled={props.pending}>
        <legend className="visually-hidden">{props.legend}</legend>
        {props.children}
        <Button type="submit" variant={props.variant} disabled={props.pending || !online}>
          {props.pending ? 'One moment…' : props.submitLabel}
        </Button>
        {props.offlineHint && !online ? (
          <p className="field__hint">This needs a connection; you’re offline.</p>
        ) : null}
      </fieldset>
    </form>
  );
}
