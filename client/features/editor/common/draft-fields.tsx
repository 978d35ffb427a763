import { type ReactNode, useState } from 'react';
import { TextArea, TextField } from '../../../ui/field';

interface DraftTextProps {
  label: ReactNode;
  value: string;
  /** Called with every valid change (an edit per keystroke; the undo manager groups typing). */
  onCommit(value: string): void;
  /** The problem with a value, in words, or null when it may be written. */
  validate?: (value: string) => string | null;
  multiline?: boolean;
  hint?: ReactNode;
  disabled?: boolean;
  placeholder?: string;
  type?: 'text' | 'url' | 'email' | 'date' | 'datetime-local';
  id?: string;
  rows?: number;
}

/**
 * A text input over a live document value. While the person types, their own text is shown (the
 * stored value may be trimmed or changed by a collaborator); a valid change is written at once,
 * an invalid one stays here with its error and is never written.
 */
export function DraftText({
  label,
  value,
  onCommit,
  validate,
  multiline = false,
  hint,
  disabled,
  placeholder,
  type = 'text',
  id,
  rows,
}: DraftTextProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const problem = draft === null ? null : (validate?.(draft) ?? null);
  const change = (next: string) => {
    setDraft(next);
    if ((validate?.(next) ?? null) === null && next !== value) onCommit(next);
  };
  // A valid draft gives way to the stored value on blur; an invalid one stays with its error.
  const blur = () => {
    if (draft !== null && (validate?.(draft) ?? null) === null) setDraft(null);
  };
  const common = {
    label,
    hint,
    error: problem,
    disabled,
    placeholder,
    id,
    value: draft ?? value,
    onBlur: blur,
  };
  return multiline ? (
    <TextArea {...common} rows={rows ?? 5} onChange={(e) => change(e.target.value)} />
  ) : (
    <TextField {...common} type={type} onChange={(e) => change(e.target.value)} />
  );
}

interface DraftNumberProps {
  label: ReactNode;
  value: number | null;
  onCommit(value: number | null): void;
  validate?: (value: number | null) => string | null;
  /** An empty input means null (no value) rather than a problem. */
  allowEmpty?: boolean;
  hint?: ReactNode;
  disabled?: boolean;
  min?: number;
  max?: number;
  step?: number | 'any';
}

export function DraftNumber({
  label,
  value,
  onCommit,
  validate,
  allowEmpty = false,
  hint,
  disabled,
  min,
  max,
  step = 'any',
}: DraftNumberProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const parse = (text: string): { value: number | null; problem: string | null } => {
    if (text.trim() === '') {
      return allowEmpty
        ? { value: null, problem: null }
        : { value: null, problem: 'Enter a number.' };
    }
    const number = Number(text);
    if (!Number.isFinite(number)) return { value: null, problem: 'Enter a number.' };
    return { value: number, problem: validate?.(number) ?? null };
  };
  const problem = draft === null ? null : parse(draft).problem;
  const change = (text: string) => {
    setDraft(text);
    const parsed = parse(text);
    if (parsed.problem === null && parsed.value !== value) onCommit(parsed.value);
  };
  return (
    <TextField
      label={label}
      hint={hint}
      error={problem}
      disabled={disabled}
      type="number"
      inputMode="decimal"
      min={min}
      max={max}
      step={step}
      value={draft ?? (value === null ? '' : String(value))}
      onChange={(e) => change(e.target.value)}
      onBlur={() => {
        if (draft !== null && parse(draft).problem === null) setDraft(null);
      }}
    />
  );
}
