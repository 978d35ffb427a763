import { Link } from '@tanstack/react-router';
import { SYNC_ERROR_MESSAGES, type SyncState } from '../../../sync/core/sync-state';
import { Button } from '../../../ui/button';
import { Notice } from '../../../ui/notice';
import type { ProblemTarget, ResolvedProblem } from './publish-problems';

/** Where the Publish panel is: what the last action did, or what it waits for. */
export type Step =
  | { kind: 'idle' }
  | { kind: 'waiting' }
  | { kind: 'published'; version: number }
  | { kind: 'invalid'; problems: ResolvedProblem[] }
  | { kind: 'confirm-unpublish' }
  | { kind: 'busy' }
  | { kind: 'message'; tone: 'success' | 'danger'; text: string };

/** What the last action did, or is waiting for. */
export function PublishStep({
  step,
  appId,
  sync,
  onGo,
  onUnpublish,
  onCancel,
}: {
  step: Step;
  appId: string;
  sync: SyncState;
  onGo(target: ProblemTarget): void;
  onUnpublish(): void;
  onCancel(): void;
}) {
  switch (step.kind) {
    case 'waiting':
      return (
        <Notice tone="info">
          <p>Waiting for your last changes to reach the server…</p>
          <Button variant="secondary" size="small" onClick={onCancel}>
            Don’t publish
          </Button>
        </Notice>
      );
    case 'published':
      return (
        <Notice tone="success" title={`Version ${step.version} is live`}>
          <p>
            <Link to="/apps/$id" params={{ id: appId }}>
              See its page
            </Link>
          </p>
        </Notice>
      );
    case 'invalid':
      return (
        <Notice tone="danger" title="This app can’t be published yet" live="alert">
          <p>Fix these, then publish again. Select one to go to it.</p>
          <ul className="publish__problems">
            {step.problems.map((problem, index) => (
              <li key={index}>
                {problem.target ? (
                  <button
                    type="button"
                    className="publish__problem"
                    onClick={() => onGo(problem.target!)}
                  >
                    <strong>{problem.where}</strong>: {problem.message}
                  </button>
                ) : (
                  <span>
                    <strong>{problem.where}</strong>: {problem.message}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </Notice>
      );
    case 'confirm-unpublish':
      return (
        <Notice tone="warning" title="Unpublish this app?">
          <p>
            Visitors can no longer open or install it. The versions are kept; publishing again makes
            the next one.
          </p>
          <div className="row">
            <Button variant="danger" size="small" onClick={onUnpublish}>
              Unpublish now
            </Button>
            <Button variant="secondary" size="small" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </Notice>
      );
    case 'message':
      return (
        <Notice tone={step.tone} live={step.tone === 'danger' ? 'alert' : 'polite'}>
          <p>{step.text}</p>
        </Notice>
      );
    default:
      return sync.kind === 'error' ? (
        <Notice tone="danger">
          <p>
            {SYNC_ERROR_MESSAGES[sync.why]} Publishing waits until your changes reach the server.
          </p>
        </Notice>
      ) : null;
  }
}
