import {
  type AppDefinition,
  diffDefinitions,
  type ReadDefinition,
  summarizeChanges,
} from '@pipit/app-definition';
import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../../platform/api/request';
import { loadCheckpointDefinition, loadHistory } from '../../../platform/history';
import { useChangeAuthors } from '../common/change-authors';
import { ChangeList } from '../common/change-list';

/** A name for each definition object seen: a new one comes with every edit. */
const seen = new WeakMap<object, string>();
function versionOf(definition: object): string {
  let name = seen.get(definition);
  if (name === undefined) {
    name = String(Math.random());
    seen.set(definition, name);
  }
  return name;
}

/**
 * What publishing would change for visitors: the app as it is now against the version published
 * last (its `publish` checkpoint, docs/product/history.md), before the owner publishes. Read once
 * per version; the difference follows the edits made while the panel is open.
 */
export function SincePublished({
  appId,
  owner,
  version,
  definition,
}: {
  appId: string;
  /** Whose device's copy of the history to read and keep (the signed-in account). */
  owner: string;
  version: number;
  definition: ReadDefinition;
}) {
  const [published, setPublished] = useState<
    | { version: number; definition: AppDefinition; at: number }
    | { version: number; error: string }
    | null
  >(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const history = await loadHistory(owner, appId);
        const last = history.list?.checkpoints.find((c) => c.kind === 'publish');
        if (!last) throw new Error('Its history holds no published version.');
        const read = await loadCheckpointDefinition(owner, appId, last.id);
        if (live) setPublished({ version, definition: read, at: last.createdAt });
      } catch (error) {
        if (live) setPublished({ version, error: describeError(error).message });
      }
    })();
    return () => {
      live = false;
    };
  }, [appId, owner, version]);
  const changes = useMemo(
    () =>
      published && 'definition' in published
        ? diffDefinitions(published.definition, definition)
        : null,
    [published, definition],
  );
  // Who made each change since: asked again a moment after each edit made while the panel is open.
  const { authors } = useChangeAuthors(
    appId,
    published && 'at' in published ? { since: published.at } : null,
    versionOf(definition),
  );

  if (published?.version !== version) {
    return (
      <p className="publish__since" role="status">
        Comparing with version {version}…
      </p>
    );
  }
  if (!changes) {
    return (
      <p className="publish__since" role="status">
        What changed since version {version} can’t be shown:{' '}
        {'error' in published ? published.error : ''}
      </p>
    );
  }
  if (changes.changes.length === 0) {
    return (
      <p className="publish__since" role="status">
        No changes since version {version}: publishing again gives visitors the same app.
      </p>
    );
  }
  return (
    <details className="publish__since">
      <summary>
        Changes since version {version}: {summarizeChanges(changes)}
      </summary>
      <ChangeList
        changes={changes.changes}
        label={`Changes since version ${version}`}
        showProperties
        authors={authors}
      />
    </details>
  );
}
