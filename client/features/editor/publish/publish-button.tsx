import { useState } from 'react';
import { useLocalApp } from '../../../sync/app-document/local-apps';
import type { SyncState } from '../../../sync/core/sync-state';
import { Button } from '../../../ui/button';
import { useSession } from '../../../platform/session/session';
import { PublishPanel } from './publish-panel';

/**
 * The top bar's Publish button for a synced app: the owner publishes from the panel it opens;
 * editors and viewers see the publishing state there, read-only (docs/product/roles.md).
 */
export function PublishButton({ appId, sync }: { appId: string; sync: SyncState }) {
  const { account } = useSession();
  return account ? <AccountPublishButton appId={appId} accountId={account.id} sync={sync} /> : null;
}

function AccountPublishButton({
  appId,
  accountId,
  sync,
}: {
  appId: string;
  accountId: string;
  sync: SyncState;
}) {
  const [open, setOpen] = useState(false);
  // This device's row knows my role offline too; the server refuses anyone else anyway.
  const row = useLocalApp(accountId, appId);
  const isOwner = row?.role === 'owner';
  return (
    <>
      <Button
        variant={isOwner ? 'primary' : 'secondary'}
        size="small"
        onClick={() => setOpen(true)}
      >
        {isOwner ? 'Publish' : 'Publishing'}
      </Button>
      {open ? (
        <PublishPanel appId={appId} isOwner={isOwner} sync={sync} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
