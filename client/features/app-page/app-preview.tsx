import type { AppDefinition } from '@pipit/app-definition';
import { AppRuntime, useMemoryRuntimeData } from '@pipit/runtime';
import { useId, useMemo } from 'react';
import { createRunAi, useAiStatus } from '../../platform/ai/ai-runs';
import { useSession } from '../../platform/session/session';
import { useMediaQuery } from '../../ui/use-media-query';
import { useThemePreference } from '../../platform/theme-preference';

/**
 * A published version running for real in a phone-sized frame — screens, forms, lists — with its
 * data kept in memory only: the caption says nothing done here is saved, and Open runs the app
 * with the visitor's own data.
 */
export function AppPreview({ definition, appId }: { definition: AppDefinition; appId: string }) {
  const data = useMemoryRuntimeData();
  const { account } = useSession();
  // AI runs for real here too (the person's quota), online only: the result lands in the preview's
  // memory, like everything else done in it.
  const aiStatus = useAiStatus(account?.id ?? null, definition.aiActions.length > 0);
  const available = aiStatus?.available ?? true;
  const runAi = useMemo(
    () => (available ? createRunAi({ appId, queue: null }) : undefined),
    [available, appId],
  );
  const colorMode = useColorMode(definition.theme.mode);
  const captionId = useId();
  return (
    <figure className="app-preview" aria-labelledby={captionId}>
      <div className="app-preview__phone">
        <div
          className="app-preview__screen"
          role="region"
          aria-label={`Preview of ${definition.meta.title}`}
          // A scrolling region is reached by keyboard too (WCAG 2.1.1).
          tabIndex={0}
        >
          <AppRuntime
            definition={definition}
            data={data}
            colorMode={colorMode}
            user={account ? { name: account.displayName || account.username } : null}
            runAi={runAi}
            aiSignInHref={
              account ? null : `/login?redirect=${encodeURIComponent(`/apps/${appId}`)}`
            }
            chrome="preview"
          />
        </div>
      </div>
      <figcaption id={captionId} className="app-preview__caption">
        A working preview: try it, but nothing you do here is saved. Open the app to keep your data.
      </figcaption>
    </figure>
  );
}

/** The app's own mode when it is fixed; `auto` follows what Pipit shows now. */
function useColorMode(mode: 'light' | 'dark' | 'auto'): 'light' | 'dark' {
  const [preference] = useThemePreference();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  if (mode !== 'auto') return mode;
  if (preference !== 'system') return preference;
  return systemDark ? 'dark' : 'light';
}
