import { useNavigate } from '@tanstack/react-router';
import type { Account } from '@pipit/protocol';
import { useLocalApp } from '../../sync/app-document/local-apps';
import { useLocalDrafts } from '../../sync/app-document/local-drafts';
import { Loading } from '../../ui/loading';
import { useSession } from '../../platform/session/session';
import { AppEditor } from './app-editor';
import { AskAiButton } from './ai/ask-ai';
import { DraftBar } from './drafts/draft-bar';
import { DraftsButton } from './drafts/drafts-button';
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
 * first, see app-registry.ts). With `?draft={id}`, the editor on a draft of the app instead.
 */
export function EditPage({ appId, draftId = null }: { appId: string; draftId?: string | null }) {
  const { account } = useSession();
  if (!account) return <Loading label="Opening the app…" />;
  if (draftId) return <DraftEditor appId={appId} draftId={draftId} account={account} />;
  return <AccountEditor appId={appId} account={account} />;
}

const personOf = (account: Account) => ({
  id: account.id,
  name: account.displayName || account.username,
  color: personColor(account.id),
});

/**
 * A draft of the app (docs/product/drafts.md): the same editor on `draft/{appId}/{draftId}`,
 * under the draft's bar. One started on this device offline syncs once the server has it.
 */
function DraftEditor({
  appId,
  draftId,
  account,
}: {
  appId: string;
  draftId: string;
  account: Account;
}) {
  const navigate = useNavigate();
  const row = useLocalApp(account.id, appId);
  const drafts = useLocalDrafts(account.id, appId);
  if (row === undefined || drafts === undefined) return <Loading label="Opening the draft…" />;
  const draft = drafts.find((d) => d.id === draftId);
  const leave = () => void navigate({ to: '/apps/$id/edit', params: { id: appId } });
  return (
    <AppEditor
      appId={appId}
      draftId={draftId}
      scope={{ kind: 'account', accountId: account.id }}
      person={personOf(account)}
      // A draft this device does not list yet (a collaborator's, just started) is asked of the
      // server anyway; one started here waits until the server has it.
      connect={(row === null || row.registered) && (!draft || draft.registered)}
      backTo={{ to: `/apps/${appId}/edit`, label: 'App' }}
      banner={
        <DraftBar
          appId={appId}
          draftId={draftId}
          owner={account.id}
          draft={draft}
          onLeave={leave}
        />
      }
    />
  );
}

function AccountEditor({ appId, account }: { appId: string; account: Account }) {
  // Follows the row, so an app made offline starts syncing the moment it has registered.
  const row = useLocalApp(account.id, appId);
  if (row === undefined) return <Loading label="Opening the app…" />;
  return (
    <AppEditor
      appId={appId}
      scope={{ kind: 'account', accountId: account.id }}
      person={personOf(account)}
      // An app this device has never listed (shared a moment ago) is asked of the server anyway.
      connect={row === null || row.registered}
      backTo={{ to: '/studio', label: 'Studio' }}
      banner={<PullChangesNotice appId={appId} />}
      tools={
        <>
          <AskAiButton appId={appId} />
          <HistoryButton appId={appId} />
          {row?.role === 'viewer' ? null : <DraftsButton appId={appId} owner={account.id} />}
          <ShareButton appId={appId} isOwner={row?.role === 'owner'} />
          {row?.role === 'viewer' ? null : <ExportButton appId={appId} title={row?.title ?? ''} />}
        </>
      }
    />
  );
}
