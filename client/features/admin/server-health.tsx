import {
  type BackupRunSummary,
  groupedCount,
  type InstanceHealth,
  type ServerHealth,
  serverHealthSchema,
} from '@pipit/protocol';
import { Card } from '../../ui/card';
import { formatBytes } from '../../ui/durability-panel';
import { timeAgo } from '../../ui/format-time';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import { TableScroll } from '../../ui/prose';
import { useApiGet } from '../../platform/api/use-api-get';

/**
 * The server at a glance for operators (docs/operations.md#the-operators-view): each instance
 * with its version and the figures of its /metrics as it last wrote them, the database's size
 * and growth, and the scheduled backups' last run and the last one that restored in its drill.
 */
export function ServerHealthSection() {
  const health = useApiGet('/api/admin/health', serverHealthSchema);
  return (
    <Section title="Server health" id="health">
      {health.status === 'loading' ? (
        <Loading label="Loading the server’s health…" />
      ) : health.status === 'error' ? (
        <Notice tone="danger" title="The server’s health could not be loaded">
          {health.message}
        </Notice>
      ) : (
        <HealthView health={health.data} />
      )}
    </Section>
  );
}

function HealthView({ health }: { health: ServerHealth }) {
  const up = health.instances.filter((i) => i.up);
  const sockets = up.reduce((sum, i) => sum + i.sockets, 0);
  const documents = up.reduce((sum, i) => sum + i.documents, 0);
  const requests = up.reduce((sum, i) => sum + i.requests, 0);
  const errors = up.reduce((sum, i) => sum + i.serverErrors, 0);
  return (
    <>
      <div className="health__cards">
        <Card title="Instances" level={3}>
          <p className="health__figure">
            {up.length} up
            {health.instances.length > up.length
              ? `, ${health.instances.length - up.length} gone quiet`
              : ''}
          </p>
          <p className="health__note">
            {groupedCount(sockets)} {sockets === 1 ? 'socket' : 'sockets'},{' '}
            {groupedCount(documents)} {documents === 1 ? 'document' : 'documents'} loaded
          </p>
        </Card>
        <Card title="Server errors" level={3}>
          <p className="health__figure">{errorRate(errors, requests)}</p>
          <p className="health__note">
            {groupedCount(errors)} of {groupedCount(requests)} responses in the last 15 seconds
          </p>
        </Card>
        <Card title="Database" level={3}>
          <p className="health__figure">{formatBytes(health.storage.bytes)}</p>
          <p className="health__note">
            {health.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}
            {health.storage.growth
              ? `, ${growthWords(health.storage.growth.bytes)} in ${health.storage.growth.days} ${health.storage.growth.days === 1 ? 'day' : 'days'}`
              : ', growth shows after a day'}
          </p>
        </Card>
        <Card title="Backups" level={3}>
          <BackupSummary backups={health.backups} now={health.now} />
        </Card>
      </div>
      {health.backups.last?.status === 'failed' || health.backups.last?.drill === 'failed' ? (
        <Notice tone="danger" title="The last scheduled backup failed">
          {health.backups.last.message} ({timeAgo(health.backups.last.finishedAt, health.now)}, on{' '}
          {health.backups.last.instance})
        </Notice>
      ) : null}
      <InstanceTable instances={health.instances} now={health.now} />
    </>
  );
}

function BackupSummary({ backups, now }: { backups: ServerHealth['backups']; now: number }) {
  const good = backups.lastGood;
  return (
    <>
      <p className="health__figure">{good ? timeAgo(good.finishedAt, now) : 'None yet'}</p>
      <p className="health__note">
        {good ? goodWords(good) : 'No scheduled backup has been made and restored yet.'}{' '}
        {backups.schedule
          ? `Schedule: ${backups.schedule} (UTC), keeping ${backups.keep}.`
          : 'No schedule: set BACKUP_SCHEDULE, or run npm run backup.'}
      </p>
    </>
  );
}

function goodWords(run: BackupRunSummary): string {
  const size = run.bytes === null ? '' : `, ${formatBytes(run.bytes)}`;
  const drill = run.drill === 'restored' ? ', restored in its drill' : ', not drilled';
  return `${run.file ?? 'A backup'}${size}${drill}.`;
}

function InstanceTable({ instances, now }: { instances: InstanceHealth[]; now: number }) {
  if (instances.length === 0) {
    return <p className="inbox__count">No instance has written its figures yet.</p>;
  }
  return (
    <TableScroll label="Instances">
      <table className="inbox__table health__table">
        <thead>
          <tr>
            <th scope="col">Instance</th>
            <th scope="col">Version</th>
            <th scope="col">Seen</th>
            <th scope="col">Sockets</th>
            <th scope="col">Documents</th>
            <th scope="col">Memory</th>
            <th scope="col">5xx</th>
          </tr>
        </thead>
        <tbody>
          {instances.map((instance) => (
            <tr key={instance.name}>
              <td>
                {instance.name}
                <span className="health__state">
                  {instance.up ? ` · started ${timeAgo(instance.startedAt, now)}` : ' · gone quiet'}
                </span>
              </td>
              <td>{instance.version}</td>
              <td>{timeAgo(instance.seenAt, now)}</td>
              <td>{groupedCount(instance.sockets)}</td>
              <td>{groupedCount(instance.documents)}</td>
              <td>{formatBytes(instance.rssBytes)}</td>
              <td>
                {groupedCount(instance.serverErrors)} / {groupedCount(instance.requests)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function errorRate(errors: number, requests: number): string {
  if (requests === 0) return 'None';
  const percent = (errors / requests) * 100;
  return errors === 0 ? '0%' : `${percent < 0.1 ? '<0.1' : percent.toFixed(1)}%`;
}

function growthWords(bytes: number): string {
  return bytes >= 0 ? `+${formatBytes(bytes)}` : `−${formatBytes(-bytes)}`;
}
