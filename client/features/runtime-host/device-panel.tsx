import type { ReadDefinition } from '@pipit/app-definition';
import type { RuntimeData } from '@pipit/runtime';
import { useDurability } from '../../sync/core/device-storage';
import type { SyncState } from '../../sync/core/sync-state';
import { DurabilityPanel } from '../../ui/durability-panel';
import { useOnlineStatus } from '../../ui/use-online-status';
import { CsvData } from './csv-data';

/** Changes of the visitor's data the server has not confirmed (null: not known, or not syncing). */
function waitingOf(sync: SyncState): number | null {
  if (sync.kind === 'saved') return 0;
  if (sync.kind === 'syncing' || sync.kind === 'offline' || sync.kind === 'connecting') {
    return sync.pending;
  }
  return null;
}

/**
 * "Your data on this device" in an installed app (app-host.tsx): loaded when the person opens it,
 * so an app's first visit does not carry it (docs/performance.md).
 */
export function DevicePanel({
  sync,
  definition,
  data,
}: {
  sync: SyncState;
  definition: ReadDefinition;
  data: RuntimeData;
}) {
  const durability = useDurability();
  const online = useOnlineStatus();
  return (
    <>
      <DurabilityPanel
        facts={durability}
        waiting={waitingOf(sync)}
        signedIn={sync.kind !== 'local'}
        online={online}
        where="app"
      />
      <CsvData definition={definition} data={data} />
    </>
  );
}
