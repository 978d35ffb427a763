import { Button } from './button';
import { timeAgo } from './format-time';
import { Loading } from './loading';
import { Notice } from './notice';
import './durability-panel.css';

/** What the panel shows (client/sync/core/device-storage.ts's useDurability reads it). */
export interface DurabilityFacts {
  storage: {
    supported: boolean;
    persisted: boolean;
    usage: number | null;
    quota: number | null;
  } | null;
  lastSynced: number | null;
  asked: 'asking' | 'refused' | null;
  ask: () => void;
  safariTab: boolean;
}

/** "3.2 MB" for a byte count. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function waitingWords(waiting: number, where: 'platform' | 'app'): string {
  if (where === 'platform')
    return waiting === 1 ? '1 app has changes' : `${waiting} apps have changes`;
  return waiting === 1 ? '1 change is' : `${waiting} changes are`;
}

/**
 * How safe this device's copy is (docs/product/durability.md): persistent or not (with a button
 * that asks the browser), how much is used, whether the server has everything and since when, and
 * on Safari the seven-day rule with what to do. On `/account/settings` and in each installed app.
 */
export function DurabilityPanel({
  facts,
  waiting,
  signedIn,
  online,
  where,
}: {
  facts: DurabilityFacts;
  /**
   * What the server has not confirmed yet (null: not known here): apps with changes (platform), or
   * changes (one app's data).
   */
  waiting: number | null;
  signedIn: boolean;
  online: boolean;
  /** What the copy is: Pipit's apps and drafts, or one app's data. */
  where: 'platform' | 'app';
}) {
  const { storage, lastSynced, asked } = facts;
  if (!storage) return <Loading label="Reading this device’s storage…" />;
  const subject = where === 'platform' ? 'Your apps and drafts' : 'Your data in this app';

  const synced = !signedIn
    ? 'Only on this device: sign in to keep a copy on the server and on your other devices.'
    : waiting === null
      ? ''
      : waiting > 0
        ? `${waitingWords(waiting, where)} on this device only, ${online ? 'syncing now' : 'and will sync when you are online'}. `
        : 'Everything on this device is on the server too. ';
  const confirmed = !signedIn
    ? ''
    : lastSynced
      ? `Last confirmed by the server ${timeAgo(lastSynced)}.`
      : 'Not confirmed by the server from this device yet.';

  return (
    <div className="durability">
      <dl className="durability__facts">
        <div>
          <dt>Kept on this device</dt>
          <dd>
            {!storage.supported
              ? 'This browser does not say whether it keeps sites’ data.'
              : storage.persisted
                ? `${subject} stay until you clear them: the browser will not remove them to free space.`
                : `${subject} are kept, but the browser may remove them if the device runs low on space.`}
          </dd>
        </div>
        {storage.usage !== null ? (
          <div>
            <dt>Space used</dt>
            <dd>
              {formatBytes(storage.usage)}
              {storage.quota ? ` of ${formatBytes(storage.quota)} the browser allows` : ''}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Synced</dt>
          <dd>
            {synced}
            {confirmed}
          </dd>
        </div>
      </dl>
      {storage.supported && !storage.persisted ? (
        <div className="durability__ask">
          <Button variant="secondary" onClick={facts.ask} disabled={asked === 'asking'}>
            Keep {where === 'platform' ? 'Pipit’s' : 'this app’s'} data on this device
          </Button>
          <p className="durability__status" role="status">
            {asked === 'refused'
              ? 'The browser did not agree this time: browsers keep data for installed apps and sites you use often. ' +
                (signedIn
                  ? 'Meanwhile the server keeps a copy of everything that synced.'
                  : 'Meanwhile, signing in keeps a copy on the server.')
              : ''}
          </p>
        </div>
      ) : null}
      {facts.safariTab ? (
        <Notice
          tone="warning"
          title="Safari removes a site’s data after seven days without a visit"
        >
          {where === 'platform'
            ? 'Add Pipit to your Home Screen (Share, then Add to Home Screen) so Safari keeps it, '
            : 'Add this app to your Home Screen (Share, then Add to Home Screen) so Safari keeps it, '}
          {signedIn
            ? 'and stay signed in: the server holds a copy of everything that synced.'
            : 'or sign in so the server holds a copy.'}
        </Notice>
      ) : null}
    </div>
  );
}
