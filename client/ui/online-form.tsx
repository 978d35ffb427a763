import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
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
  /** What went wrong with the last try, above the fields; focused when no field is to blame. */
  errorSummary?: ReactNode;
  children: ReactNode;
}

/** Marks the element a refused form focuses when no field is invalid (its error summary). */
export const FORM_ERROR_ATTRIBUTE = 'data-form-error';

/**
 * Where focus goes once a try is over (the fieldset is disabled while it is sent, which
 * drops focus to <body>): the first invalid field, its error read with it through
 * aria-describedby; else the form's error summary; else, when focus was dropped, the button again.
 */
export function focusAfterTry(form: HTMLFormElement): void {
  const target =
    form.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    form.querySelector<HTMLElement>(`[${FORM_ERROR_ATTRIBUTE}]`);
  if (target) {
    target.focus();
    return;
  }
  const active = form.ownerDocument.activeElement;
  if (!active || active === form.ownerDocument.body) {
    form.querySelector<HTMLElement>('button[type="submit"]')?.focus();
  }
}

/**
 * A form that needs the network to do anything (docs/product/routes.md: it needs the network, and
 * says so): its fields lock while it is sent, the button says what is happening, and offline the
 * button waits. A refused try — by the page's own checks or by the server — focuses what to fix.
 */
export function OnlineForm(props: OnlineFormProps) {
  const online = useOnlineStatus();
  const form = useRef<HTMLFormElement>(null);
  // A try that is not over yet: its outcome decides where focus goes once it renders.
  const trying = useRef(false);
  const [tries, setTries] = useState(0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    trying.current = true;
    setTries((n) => n + 1);
    props.onSubmit();
  };
  useEffect(() => {
    if (props.pending || !trying.current || !form.current) return;
    trying.current = false;
    focusAfterTry(form.current);
  }, [props.pending, tries]);
  return (
    <form ref={form} noValidate onSubmit={submit} aria-busy={props.pending}>
      {props.errorSummary ? (
        <div className="form-error-summary" tabIndex={-1} {...{ [FORM_ERROR_ATTRIBUTE]: '' }}>
          {props.errorSummary}
        </div>
      ) : null}
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
