import { AiRunList } from './ai-run-list';
import { AppArea, type AppAreaProps } from './app-area';
import { useAiHost } from './use-ai-host';

/**
 * An app with AI actions (docs/product/ai.md) in its host: runs on the server, the runs queued on
 * this device, a sign-in link for someone not signed in. Loaded only by an app that has AI
 * actions, so others' first visits carry none of it (docs/performance.md).
 */
export function AiAppArea(props: AppAreaProps) {
  const { appId, accountId, definition, visitorData } = props;
  const ai = useAiHost({
    appId,
    accountId,
    definition,
    data: visitorData.phase === 'ready' ? visitorData.data : null,
  });
  return (
    <AppArea
      {...props}
      ai={ai}
      aiRunList={<AiRunList definition={definition} runs={ai.aiRuns} onDismiss={ai.dismiss} />}
    />
  );
}
