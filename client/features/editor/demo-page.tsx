import { blankDefinition } from '@pipit/app-definition';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { createLocalApp, type LocalApp, useLocalApps } from '../../sync/local-apps';
import { useAiAvailable } from '../../platform/ai/ai-runs';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { AppEditor } from './app-editor';

const DEMO = 'demo';
const DEMO_TITLE = 'My first app';

/**
 * The demo's app is created once per browser. Module level, so React StrictMode's second effect
 * (and a second mount) joins the first creation instead of seeding another app.
 */
let creating: Promise<string> | null = null;
function createDemoApp(): Promise<string> {
  creating ??= createLocalApp(DEMO, blankDefinition(DEMO_TITLE)).catch((error: unknown) => {
    creating = null;
    throw error;
  });
  return creating;
}

/** The oldest demo app: the one this browser has been using, whatever else appears. */
function demoAppOf(apps: LocalApp[]): string | null {
  const oldest = [...apps].sort((a, b) => a.createdAt - b.createdAt)[0];
  return oldest?.id ?? null;
}

function DemoBanner() {
  const ai = useAiAvailable();
  return (
    <Notice tone="info" live="off">
      This app lives only in this browser. <Link to="/signup">Sign up</Link> to keep it and sync it
      to your account.
      {ai ? (
        <>
          {' '}
          With an account you can also describe an app and let AI build the first draft, and ask AI
          to change it.
        </>
      ) : null}
    </Notice>
  );
}

/** `/demo`: the editor on a local, unsynced app — try building without an account. */
export function DemoPage() {
  const apps = useLocalApps(DEMO);
  const [failure, setFailure] = useState<string | null>(null);
  const existing = apps ? demoAppOf(apps) : null;

  useEffect(() => {
    if (apps === undefined) return;
    // Listed now: a later start-over (storage cleared) creates a new app, not this one again.
    if (apps.length > 0) {
      creating = null;
      return;
    }
    let live = true;
    // Once created, the app appears in `apps` (the list follows this device's storage).
    createDemoApp().catch((error: unknown) => {
      if (live) setFailure(error instanceof Error ? error.message : String(error));
    });
    return () => {
      live = false;
    };
  }, [apps]);

  if (existing) {
    return (
      <AppEditor
        appId={existing}
        scope={{ kind: 'demo' }}
        person={null}
        connect={false}
        banner={<DemoBanner />}
      />
    );
  }
  return (
    <div className="container page">
      <h1>Try the Pipit editor</h1>
      {failure ? (
        <Notice tone="danger" title="This browser can’t store the demo app" live="alert">
          <p>
            The demo keeps its app in this browser’s storage, which isn’t available here ({failure}
            ). Private windows often block it: open Pipit in a normal window, or{' '}
            <Link to="/signup">sign up</Link> to build apps in your account.
          </p>
        </Notice>
      ) : (
        <Loading label="Preparing your demo app…" />
      )}
    </div>
  );
}
