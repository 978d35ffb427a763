import { PASSWORD_MIN_LENGTH } from '@pipit/protocol';
import { TextField } from '../../ui/field';

/** A field for choosing a password, with docs/product/validation.md's rules as its hint. */
export function NewPasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** Said after the rules, e.g. what changing it does. */
  note?: string;
}) {
  return (
    <TextField
      label={props.label}
      name="password"
      type="password"
      autoComplete="new-password"
      minLength={PASSWORD_MIN_LENGTH}
      required
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      hint={`At least ${PASSWORD_MIN_LENGTH} characters. Not a common password, and not your username or email.${props.note ? ` ${props.note}` : ''}`}
      error={props.error}
    />
  );
}
