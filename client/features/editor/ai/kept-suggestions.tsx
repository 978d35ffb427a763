import { changeParts } from '@pipit/app-definition';
import type { SuggestionSummary } from '@pipit/protocol';
import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError, describeError } from '../../../platform/api/request';
import {
  closeSuggestion,
  keepSuggestion,
  loadSuggestion,
  openSuggestions,
} from '../../../platform/ai/suggestions-api';
import { useSession } from '../../../platform/session/session';
import { Button } from '../../../ui/button';
import { timeAgo } from '../../../ui/format-time';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { EditorDialog } from '../common/editor-dialog';
import { useEditor } from '../common/editor-context';
import type { Suggestion } from './suggestion-review';

/*
 * Ask AI's suggestions kept on the server (docs/product/ai-builder.md#suggestions-kept-for-review):
 * each suggestion the asker gets is kept for the app's editors, who find the ones waiting under
 * "Suggestions" in the top bar and review them as the asker does, whether the asker's dialog is
 * still open or not. Whoever decides first decides: the others are told.
 */

/** A turn of the conversation: what was asked, and what was suggested for it. */
export interface Turn {
  instruction: string;
  summary: string[];
}

const nameOf = (person: SuggestionSummary['createdBy']) =>
  person ? person.displayName || person.username : 'someone';

/** Keeps a suggestion for the app's editors; the words for what happened. */
export async function keep(
  appId: string,
  suggestion: Suggestion,
  earlier: readonly Turn[],
  replacing: Suggestion | null,
): Promise<string> {
  try {
    await keepSuggestion(appId, {
      id: suggestion.id,
      asked: suggestion.asked,
      summary: suggestion.summary,
      earlier: [...earlier],
      base: suggestion.base,
      proposed: suggestion.proposed,
    });
  } catch (error) {
    return `Only you can see this suggestion: it could not be kept for your collaborators. ${describeError(error).message}`;
  }
  // The suggestion a revision replaces is no longer waiting (best effort: it says so if not).
  if (replacing) await closeSuggestion(appId, replacing.id, 'replaced').catch(() => undefined);
  return 'Kept for your collaborators too: if you close this, any editor can review it from Suggestions.';
}

/**
 * Says what became of a suggestion; null when that is recorded (or could not be, for a reason
 * that must not stop the person: their choice is theirs), else why it was decided already.
 */
export async function decide(
  appId: string,
  id: string,
  outcome: 'accepted' | 'rejected',
): Promise<string | null> {
  try {
    await closeSuggestion(appId, id, outcome);
    return null;
  } catch (error) {
    return error instanceof ApiRequestError && error.code === 'already_closed'
      ? error.message
      : null;
  }
}

/** A kept suggestion, ready to review, and the conversation before it. */
export async function openKept(
  appId: string,
  id: string,
  me: string | null,
): Promise<{ suggestion: Suggestion; earlier: Turn[] }> {
  const loaded = await loadSuggestion(appId, id);
  const asker = loaded.summary.createdBy;
  return {
    suggestion: {
      id,
      by: asker && asker.username === me ? null : nameOf(asker),
      asked: loaded.summary.asked,
      summary: loaded.summary.summary,
      base: loaded.base,
      proposed: loaded.proposed,
      parts: changeParts(loaded.base, loaded.proposed),
    },
    earlier: loaded.earlier,
  };
}

/** Opens a kept suggestion (when `kept` names one) for the review, as the dialog opens. */
export function useKeptSuggestion(
  appId: string,
  kept: string | null,
  to: {
    opened(value: { suggestion: Suggestion; earlier: Turn[] }): void;
    failed(message: string): void;
    done(): void;
  },
) {
  const { account } = useSession();
  const me = account?.username ?? null;
  useEffect(() => {
    if (!kept) return;
    let live = true;
    openKept(appId, kept, me)
      .then(
        (opened) => live && to.opened(opened),
        (error: unknown) => live && to.failed(describeError(error).message),
      )
      .finally(() => live && to.done());
    return () => {
      live = false;
    };
    // Opened once per suggestion: `to` is the dialog's setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [appId, kept, me]);
}

/**
 * The suggestions waiting for review, asked again every minute online, whenever a collaborator's
 * Ask AI changes state (a new suggestion follows it), and after `refresh` changes.
 */
function useOpenSuggestions(appId: string, refresh: number) {
  const { peers } = useEditor();
  const online = useOnlineStatus();
  const [list, setList] = useState<SuggestionSummary[]>([]);
  const aiStates = peers.map((p) => `${p.clientId}:${p.ai ?? ''}`).join(',');
  const load = useCallback(() => {
    openSuggestions(appId).then(setList, () => undefined);
  }, [appId]);
  useEffect(() => {
    if (!online) return;
    load();
    const timer = setInterval(load, 60_000);
    return () => clearInterval(timer);
  }, [load, online, aiStates, refresh]);
  return list;
}

/**
 * "Suggestions · 2" in the top bar while suggestions wait (editors only): a list of them, each
 * with who asked and when, and Review, which opens it in Ask AI's review.
 */
export function SuggestionsButton({
  appId,
  refresh,
  onReview,
}: {
  appId: string;
  refresh: number;
  onReview(id: string): void;
}) {
  const list = useOpenSuggestions(appId, refresh);
  const [open, setOpen] = useState(false);
  if (list.length === 0) return null;
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Suggestions · {list.length}
      </Button>
      {open ? (
        <EditorDialog
          title="Suggestions"
          onClose={() => setOpen(false)}
          actions={
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Close
            </Button>
          }
        >
          <p>
            Ask AI’s suggestions waiting for review. Any editor can accept them, in part or whole,
            or reject them.
          </p>
          <ul className="kept-suggestions" aria-label="Suggestions waiting">
            {list.map((s) => (
              <li key={s.id}>
                <span>
                  <q dir="auto">{s.asked}</q>{' '}
                  <span className="editor-muted">
                    AI for {nameOf(s.createdBy)}, {timeAgo(s.createdAt)}
                  </span>
                </span>
                <Button
                  size="small"
                  aria-label={`Review “${s.asked}”`}
                  onClick={() => {
                    setOpen(false);
                    onReview(s.id);
                  }}
                >
                  Review
                </Button>
              </li>
            ))}
          </ul>
        </EditorDialog>
      ) : null}
    </>
  );
}
