import type { Account } from '@pipit/protocol';
import { useLocalApp } from '../../sync/app-document/local-apps';
import { Loading } from '../../ui/loading';
import { useSession } from '../../platform/session/session';
import { AppEditor } from './app-editor';
import { AskAiButton } from './ai/ask-ai';
import { ExportButton } from './history/export-button';
import { HistoryButton } from './history/history-panel';
import { PullChangesNotice } from './history/pull-changes';
import { ShareButton } from './publish/share-button';

/** A colour per person for presence, the same on every device. */
const PRESENCE_COLORS = ['#1a7f5a', '#1f5fa8', '#b3361e', '#8a2f9e', '#8a5a00', '#0b7a86'];
function personColor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PRESENCE_COLORS[hash % PRESENCE_COLORS.length] ?? '#1a7f5a';
}

/**
 * `/apps/{id}/edit`: the editor on the synced `app/{id}` document. It opens from this device's
 * copy at once; syncing starts when the server knows the app (an app made offline registers itself
 * first, see app-registry.ts).
 */
export function EditPage({ appId }: { appId: string }) {
  const { account } = useSession();
  if (!account) return <Loading label="Opening the app…" />;
  return <AccountEditor appId={appId} account={account} />;
}

function AccountEditor({ appId, account }: { appId: string; account: Account }) {
  // Follows the row, so an app made offline starts syncing the moment it has registered.
  const row = useLocalApp(account.id, appId);
  if (row === undefined) return <Loading label="Opening the app…" />;
  return (
    <AppEditor
      appId={appId}
      scope={{ kind: 'account', accountId: account.id }}
      person={{
        id: account.id,
        name: account.displayName || account.username,
        color: personColor(account.id),
      }}
      // An app this device has never listed (shared a moment ago) is asked of the server anyway.
      connect={row === null || row.registered}
      backTo={{ to: '/studio', label: 'Studio' }}
      banner={<PullChangesNotice appId={appId} />}
      tools={
        <>
          <AskAiButton appId={appId} />
          <HistoryButton appId={appId} />
          <ShareButton appId={appId} isOwner={row?.role === 'owner'} />
          {row?.role === 'viewer' ? null : <ExportButton appId={appId} title={row?.title ?? ''} />}
        </>
      }
    />
  );
}
