import {
  adminMessagesResponseSchema,
  DIGEST_PATTERN,
  type DroppedReports,
  type ErrorDetail,
  errorDetailSchema,
  type ErrorGroup,
  type ErrorGroupsResponse,
  type ReportDropReason,
} from '@pipit/protocol';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { EmptyState } from '../../ui/empty-state';
import { TextField } from '../../ui/field';
import { formatDate, formatMoment } from '../../ui/format-time';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { apiGet, describeError } from '../../platform/api/request';
import { useApiGet } from '../../platform/api/use-api-get';
import { AiUsage } from './ai-usage';
import { EventDetail } from './event-detail';
import { ServerHealthSection } from './server-health';
import './inbox.css';

/**
 * `/admin`: the operator's inbox (docs/product/error-reporting.md). Operators (accounts the server's operator command added) see error groups
 * from browsers and the server (one page of them, read by the route), one group's latest report
 * with its breadcrumbs, a search for the digest a person read off the error page, and contact and
 * feedback messages. For everyone else the route shows the 404 page, as the server answers.
 */
export function InboxPage({ errors }: { errors: ErrorGroupsResponse }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Page
      title="Operator’s inbox"
      lead="How the server is doing, errors reported by browsers and by this server, grouped, what people wrote to you, and AI usage."
      width="content"
    >
      <ServerHealthSection />
      <DigestSearch />
      <Section title="Errors" id="errors">
        <DroppedNotice dropped={errors.dropped} />
        {errors.total === 0 ? (
          <EmptyState icon="🌤️" title="No errors reported" level={3}>
            Nothing has gone wrong in the last days, or nothing was reported yet.
          </EmptyState>
        ) : (
          <>
            <p className="inbox__count">
              {errors.total} {errors.total === 1 ? 'kind of error' : 'kinds of error'}, the most
              recent first.
            </p>
            <ul className="inbox__groups">
              {errors.groups.map((group) => (
                <li key={group.fingerprint}>
                  <GroupRow
                    group={group}
                    open={open === group.fingerprint}
                    onToggle={() => setOpen(open === group.fingerprint ? null : group.fingerprint)}
                  />
                </li>
              ))}
            </ul>
            {errors.pageCount > 1 ? (
              <nav className="inbox__pages" aria-label="Pages of errors">
                {errors.page > 1 ? (
                  <ButtonLink
                    to="/admin"
                    search={{ page: errors.page - 1 }}
                    variant="secondary"
                    size="small"
                    rel="prev"
                  >
                    Newer
                  </ButtonLink>
                ) : null}
                <span>
                  Page {errors.page} of {errors.pageCount}
                </span>
                {errors.page < errors.pageCount ? (
                  <ButtonLink
                    to="/admin"
                    search={{ page: errors.page + 1 }}
                    variant="secondary"
                    size="small"
                    rel="next"
                  >
                    Older
                  </ButtonLink>
                ) : null}
              </nav>
            ) : null}
          </>
        )}
      </Section>
      <Messages />
      <AiUsage />
    </Page>
  );
}

const DROP_REASONS: Record<ReportDropReason, string> = {
  rate_limited: 'over the per-minute limit of an address',
  over_budget: 'over an address’s daily budget',
  too_large: 'larger than 1 MB',
  evicted: 'removed, oldest first, to stay under the cap on stored reports',
};

/**
 * Reports the server refused or removed: the inbox is missing them, so it says how many and why
 * (an address flooding the tunnel shows up here rather than as thousands of groups).
 */
function DroppedNotice({ dropped }: { dropped: DroppedReports }) {
  if (dropped.total === 0 || dropped.since === null) return null;
  const reasons = (Object.entries(dropped.byReason) as [ReportDropReason, number][]).filter(
    ([, count]) => count > 0,
  );
  return (
    <Notice
      tone="warning"
      title={`${dropped.total} ${dropped.total === 1 ? 'report was' : 'reports were'} dropped since ${formatDate(dropped.since)}`}
    >
      <ul className="inbox__drops">
        {reasons.map(([reason, count]) => (
          <li key={reason}>
            {count} {DROP_REASONS[reason]}
          </li>
        ))}
      </ul>
    </Notice>
  );
}

function GroupRow({
  group,
  open,
  onToggle,
}: {
  group: ErrorGroup;
  open: boolean;
  onToggle: () => void;
}) {
  const detailId = useId();
  return (
    <article className="inbox__group">
      <button
        type="button"
        className="inbox__group-toggle"
        aria-expanded={open}
        aria-controls={detailId}
        onClick={onToggle}
      >
        <span className="inbox__group-title">
          <span className={`inbox__source inbox__source--${group.source}`}>
            {group.source === 'server' ? 'Server' : 'Browser'}
          </span>
          <strong>{group.type}</strong>: {group.message}
        </span>
        <span className="inbox__group-meta">
          {group.count} {group.count === 1 ? 'time' : 'times'} · last {formatMoment(group.lastSeen)}{' '}
          · first {formatMoment(group.firstSeen)}
        </span>
        {group.routes.length || group.browsers.length ? (
          <span className="inbox__group-meta">
            {[...group.routes, ...group.browsers].join(' · ')}
          </span>
        ) : null}
      </button>
      {open ? (
        <div id={detailId} className="inbox__group-detail">
          <GroupSample fingerprint={group.fingerprint} />
        </div>
      ) : null}
    </article>
  );
}

function GroupSample({ fingerprint }: { fingerprint: string }) {
  const detail = useApiGet(
    `/api/admin/errors/${encodeURIComponent(fingerprint)}`,
    errorDetailSchema,
  );
  if (detail.status === 'loading') return <Loading label="Loading the latest report…" />;
  if (detail.status === 'error') {
    return (
      <Notice tone="danger" title="This report could not be loaded">
        {detail.message}
      </Notice>
    );
  }
  return <EventDetail detail={detail.data} />;
}

/** "Find a digest": the 12 characters a person read off the error page. */
function DigestSearch() {
  const [digest, setDigest] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [found, setFound] = useState<ErrorDetail | null>(null);
  const [busy, setBusy] = useState(false);

  async function search(event: FormEvent) {
    event.preventDefault();
    const wanted = digest.trim().toLowerCase();
    setFound(null);
    if (!DIGEST_PATTERN.test(wanted)) {
      setProblem('A digest is 12 characters, 0–9 and a–f, as the error page shows it.');
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      setFound(await apiGet(`/api/admin/digests/${wanted}`, errorDetailSchema));
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Find a digest" id="digest">
      <form className="inbox__search" onSubmit={(event) => void search(event)} noValidate>
        <TextField
          label="Digest"
          hint="From “Digest: …” under the error message someone saw."
          value={digest}
          onChange={(event) => setDigest(event.target.value)}
          error={problem ?? undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Searching…' : 'Find'}
        </Button>
      </form>
      {found ? (
        <div className="inbox__found" aria-live="polite">
          <p className="inbox__found-title">
            <strong>{found.group.type}</strong>: {found.group.message}
          </p>
          <EventDetail detail={found} />
        </div>
      ) : null}
    </Section>
  );
}

function Messages() {
  const messages = useApiGet('/api/admin/messages', adminMessagesResponseSchema);
  return (
    <Section title="Contact and feedback" id="messages">
      {messages.status === 'loading' ? (
        <Loading label="Loading messages…" />
      ) : messages.status === 'error' ? (
        <Notice tone="danger" title="The messages could not be loaded">
          {messages.message}
        </Notice>
      ) : messages.data.messages.length === 0 ? (
        <EmptyState icon="📭" title="No messages yet" level={3}>
          What people send from the contact and feedback pages shows here.
        </EmptyState>
      ) : (
        <ul className="inbox__messages">
          {messages.data.messages.map((message) => (
            <li key={message.id} className="inbox__message">
              <p className="inbox__group-meta">
                {message.kind === 'contact' ? 'Contact' : 'Feedback'} ·{' '}
                {message.username ? `@${message.username}` : (message.email ?? 'anonymous')} ·{' '}
                {formatMoment(message.createdAt)}
                {message.page ? ` · from ${message.page}` : ''}
              </p>
              <p className="inbox__message-body">{message.body}</p>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
