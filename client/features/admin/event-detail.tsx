import { breadcrumbsOf, type ErrorDetail, isJsonObject, mainExceptionOf } from '@pipit/protocol';
import { formatMoment } from '../../ui/format-time';

interface Frame {
  filename?: string;
  function?: string;
  lineno?: number;
  colno?: number;
  in_app?: boolean;
}
interface Breadcrumb {
  timestamp?: number;
  category?: string;
  level?: string;
  message?: string;
  data?: Record<string, unknown>;
}

/** The main exception's frames, innermost first (Sentry lists them outermost first). */
function framesOf(event: Record<string, unknown>): Frame[] {
  const stacktrace = mainExceptionOf(event)?.stacktrace;
  const frames =
    isJsonObject(stacktrace) && Array.isArray(stacktrace.frames) ? stacktrace.frames : [];
  return [...(frames as Frame[])].reverse();
}

const frameText = (frame: Frame) =>
  `${frame.function || '(anonymous)'} — ${frame.filename ?? '?'}${
    frame.lineno !== undefined
      ? `:${frame.lineno}${frame.colno !== undefined ? `:${frame.colno}` : ''}`
      : ''
  }`;

const crumbText = (crumb: Breadcrumb) => {
  const data = crumb.data
    ? Object.entries(crumb.data)
        .map(
          ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
        )
        .join(' ')
    : '';
  return [crumb.message, data].filter(Boolean).join(' ');
};

/**
 * One stored report, for reading: when and where, the stack, the breadcrumbs leading to it, its
 * tags. Everything is shown as text — a report is whatever a browser sent, never markup.
 */
export function EventDetail({ detail }: { detail: ErrorDetail }) {
  const { sample } = detail;
  const event = isJsonObject(sample.event) ? sample.event : {};
  const frames = framesOf(event);
  const crumbs = breadcrumbsOf(event) as Breadcrumb[];
  const stack = typeof event.stack === 'string' ? event.stack : null;
  const tags = isJsonObject(event.tags) ? Object.entries(event.tags) : [];
  const facts: [string, string | null][] = [
    ['Received', formatMoment(sample.receivedAt)],
    ['Digest', sample.digest],
    ['Route', sample.route],
    ['Address', sample.url],
    ['Browser', sample.browser],
    ['Release', sample.release],
    ['Environment', sample.environment],
  ];
  return (
    <div className="event">
      <dl className="event__facts">
        {facts
          .filter((fact): fact is [string, string] => fact[1] !== null && fact[1] !== '')
          .map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {stack ? (
        <>
          <h3 className="event__heading">Stack</h3>
          <pre className="event__pre" tabIndex={0}>
            {stack}
          </pre>
        </>
      ) : frames.length ? (
        <>
          <h3 className="event__heading">Stack, innermost first</h3>
          <ol className="event__frames">
            {frames.map((frame, index) => (
              <li key={index} className={frame.in_app ? 'event__frame--app' : undefined}>
                {frameText(frame)}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <h3 className="event__heading">Breadcrumbs ({crumbs.length})</h3>
      {crumbs.length ? (
        <ol className="event__crumbs">
          {crumbs.map((crumb, index) => (
            <li key={index}>
              <span className="event__crumb-category">{crumb.category ?? crumb.level ?? '—'}</span>{' '}
              {crumbText(crumb)}
            </li>
          ))}
        </ol>
      ) : (
        <p className="event__none">None were recorded.</p>
      )}
      {tags.length ? (
        <>
          <h3 className="event__heading">Tags</h3>
          <p className="event__tags">
            {tags.map(([key, value]) => `${key}: ${String(value)}`).join(' · ')}
          </p>
        </>
      ) : null}
    </div>
  );
}
