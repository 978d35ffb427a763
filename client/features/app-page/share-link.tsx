import { useId, useRef, useState } from 'react';
import { Button } from '../../ui/button';

/**
 * The app page's address to pass on: copied with one click where the clipboard is allowed, else
 * selected in a read-only field so the person can copy it themselves.
 */
export function ShareLink({ url }: { url: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [status, setStatus] = useState<string>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setStatus('Link copied.');
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
      setStatus(
        'Your browser did not allow copying. The link is selected: copy it with Ctrl+C (⌘C).',
      );
    }
  };
  return (
    <div className="share-link">
      <label className="field__label" htmlFor={inputId}>
        Share link
      </label>
      <div className="share-link__row">
        <input
          ref={inputRef}
          id={inputId}
          className="field__control"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="secondary" size="small" onClick={() => void copy()}>
          Copy link
        </Button>
      </div>
      <p className="field__hint" role="status">
        {status}
      </p>
    </div>
  );
}
