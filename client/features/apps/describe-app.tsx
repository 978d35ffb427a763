import type { AppDefinition } from '@pipit/app-definition';
import { AI_DESCRIPTION_MAX_LENGTH } from '@pipit/protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describeError } from '../../platform/api/request';
import { appFromDescription, type BlueprintProgress } from '../../platform/ai/app-builder-api';
import { useAiAvailable } from '../../platform/ai/ai-runs';
import { Button } from '../../ui/button';
import { TextArea } from '../../ui/field';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import './describe-app.css';

interface DescribeAppProps {
  online: boolean;
  /** Another way of creating is under way: the form waits. */
  disabled: boolean;
  /** Makes the app on this device, as a template app is made, and opens it. */
  onCreate(definition: AppDefinition): Promise<void>;
  /** What still works without AI or a connection, on the page the form is on. */
  withoutAi?: string;
}

/**
 * "Describe your app" (docs/product/ai-builder.md): the server asks its AI for a blueprint and expands it
 * into an ordinary app; the collections and screens appear here as they arrive. Needs a connection
 * and a server with an AI provider; everything else on `/create` (and `/demo`) works without either.
 */
export function DescribeApp({
  online,
  disabled,
  onCreate,
  withoutAi = 'Templates, a blank app and importing still work.',
}: DescribeAppProps) {
  const available = useAiAvailable();
  const [description, setDescription] = useState('');
  const [progress, setProgress] = useState<BlueprintProgress | null>(null);
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  if (available === null) return <Loading label="Checking whether AI is available…" />;
  const offline = (
    <Notice tone="offline" title="Describing an app needs a connection">
      <p>You’re offline. {withoutAi}</p>
    </Notice>
  );
  // Never asked on this device, and no connection now: whether there is AI is not known yet.
  if (available === 'offline') return offline;
  if (!available) {
    return (
      <Notice tone="info" title="AI is not configured on this server">
        <p>
          Describing an app to get a first draft needs an AI provider, which this server’s operator
          has not connected. Start from a template instead.
        </p>
      </Notice>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const text = description.trim();
    if (!text) {
      setProblem('Describe the app you want first, in a sentence or two.');
      return;
    }
    if (working || disabled || !online) return;
    setWorking(true);
    setProblem(null);
    setProgress(null);
    abort.current = new AbortController();
    let definition: AppDefinition;
    try {
      definition = await appFromDescription(text, setProgress, abort.current.signal);
    } catch (error) {
      if (abort.current.signal.aborted) return;
      // The description stays in the field, to try again or reword.
      setProblem(describeError(error).message);
      setWorking(false);
      return;
    }
    try {
      await onCreate(definition);
    } catch {
      setProblem(
        'The app could not be saved on this device. Check that the browser allows site storage, then try again.',
      );
    }
    // Still here (the app did not open): the form is usable again.
    setWorking(false);
  };

  return (
    <form className="create-describe" onSubmit={(e) => void onSubmit(e)}>
      {!online ? offline : null}
      <TextArea
        label="Describe your app"
        hint="What it keeps and what people do with it. For example: “A recipe book for our family, with cooking times and a shopping list.”"
        value={description}
        rows={4}
        maxLength={AI_DESCRIPTION_MAX_LENGTH}
        disabled={working}
        error={problem ?? undefined}
        onChange={(e) => setDescription(e.target.value)}
      />
      <Button type="submit" disabled={working || disabled || !online}>
        {working ? 'Creating…' : 'Create'}
      </Button>
      {working ? (
        <div className="create-describe__progress" role="status" aria-live="polite">
          <p>{progress ? 'Your app is taking shape:' : 'Asking the AI for a first draft…'}</p>
          {progress ? (
            <ul aria-label="Progress">
              {progress.collections.map((name, i) => (
                <li key={`c${i}`}>Collection: {name}</li>
              ))}
              {progress.screens.map((title, i) => (
                <li key={`s${i}`}>Screen: {title}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
