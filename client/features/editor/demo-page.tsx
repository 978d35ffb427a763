import { type AppDefinition, blankDefinition } from '@pipit/app-definition';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ComponentType, useEffect, useState } from 'react';
import { createLocalApp, type LocalApp, useLocalApps } from '../../sync/app-document/local-apps';
import { useAiAvailable } from '../../platform/ai/ai-runs';
import { createApp } from '../../platform/app-registry';
import { loadSession, useSession } from '../../platform/session/session';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { useOnlineStatus } from '../../ui/use-online-status';
import { AppEditor } from './app-editor';
import './demo-page.css';

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

/** /create's "Describe your app" form (features/apps), which the route passes in. */
export type DescribeAppForm = ComponentType<{
  online: boolean;
  disabled: boolean;
  onCreate(definition: AppDefinition): Promise<void>;
  withoutAi?: string;
}>;

function DemoBanner({ DescribeApp }: { DescribeApp: DescribeAppForm }) {
  const ai = useAiAvailable();
  return (
    <>
      <Notice tone="info" live="off">
        This app lives only in this browser. <Link to="/signup">Sign up</Link> to keep it and sync
        it to your account.
        {ai === true ? <> With an account you can also ask AI to change your apps.</> : null}
      </Notice>
      {ai === true ? <DescribeOnDemo DescribeApp={DescribeApp} /> : null}
    </>
  );
}

/**
 * An app from a description, on a server with AI: /create's form for someone signed in (the app is
 * made in their account and opens in the editor). Anyone else is asked to sign in first: each
 * description is a run of a person's daily AI quota, so it is never anonymous.
 */
function DescribeOnDemo({ DescribeApp }: { DescribeApp: DescribeAppForm }) {
  const { account } = useSession();
  // /demo has no sign-in guard to ask the server who this is: without it, the device's last copy
  // decides (none on a fresh device, or an account whose session has ended elsewhere).
  useEffect(() => {
    void loadSession();
  }, []);
  const online = useOnlineStatus();
  const navigate = useNavigate();
  const onCreate = async (definition: AppDefinition) => {
    if (!account) return;
    const id = await createApp(account.id, definition);
    await navigate({ to: '/apps/$id/edit', params: { id } });
  };
  return (
    <details className="demo-describe">
      <summary>Describe an app and let AI make a first draft</summary>
      {account ? (
        <>
          <p>It’s made in your account and opens in the editor. This demo app stays here.</p>
          <DescribeApp
            online={online}
            disabled={false}
            onCreate={onCreate}
            withoutAi="You can keep building this app by hand."
          />
        </>
      ) : (
        <p>
          AI runs count toward a person’s daily limit, so describing an app needs an account.{' '}
          <Link to="/login" search={{ redirect: '/demo' }}>
            Sign in
          </Link>{' '}
          or{' '}
          <Link to="/signup" search={{ redirect: '/demo' }}>
            sign up
          </Link>
          , then describe your app here.
        </p>
      )}
    </details>
  );
}

/**
 * `/demo`: the editor on a local, unsynced app — try building without an account; on a server with
 * AI, also an app from a description (`DescribeApp`, /create's form).
 */
export function DemoPage({ DescribeApp }: { DescribeApp: DescribeAppForm }) {
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
        banner={<DemoBanner DescribeApp={DescribeApp} />}
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
