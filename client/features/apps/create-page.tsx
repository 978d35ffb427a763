import { useNavigate } from '@tanstack/react-router';
import {
  type AppDefinition,
  APP_TEMPLATES,
  blankDefinition,
  DefinitionError,
  parseImport,
} from '@pipit/app-definition';
import { type FormEvent, useState } from 'react';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import { createApp } from '../../platform/app-registry';
import { DescribeApp } from './describe-app';
import './create-page.css';

/**
 * `/create`: a blank app, a template, or an exported file. The app is made on this device (its id
 * too), so creating works offline; it registers itself with the server when the device is online.
 */
export function CreatePage() {
  const { account } = useSession();
  const online = useOnlineStatus();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function create(key: string, build: () => AppDefinition) {
    if (!account || busy) return;
    setBusy(key);
    setProblem(null);
    try {
      const id = await createApp(account.id, build());
      await navigate({ to: '/apps/$id/edit', params: { id } });
    } catch (error) {
      setProblem(
        error instanceof DefinitionError
          ? error.message
          : 'The app could not be saved on this device. Check that the browser allows site storage, then try again.',
      );
      setBusy(null);
    }
  }

  const onBlank = (event: FormEvent) => {
    event.preventDefault();
    void create('blank', () => blankDefinition(title.trim() || undefined));
  };

  const onImport = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > 5 * 1024 * 1024) {
      setProblem('That file is over 5 MB, the most an app can be. Choose a Pipit export.');
      return;
    }
    const text = await file.text();
    void create('import', () => parseImport(text));
  };

  return (
    <Page
      title="Create an app"
      lead="New apps are made on your device, so you can start one offline and it syncs when you’re back."
      width="content"
    >
      {!online ? (
        <Notice tone="offline" title="You’re offline">
          <p>
            You can still create and edit apps. They stay on this device and sync to your account
            when you’re back online.
          </p>
        </Notice>
      ) : null}
      {problem ? (
        <Notice tone="danger" title="That didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}

      <Section title="Start blank" id="blank">
        <form className="create-blank" onSubmit={onBlank}>
          <TextField
            label="App name"
            hint="You can change it any time."
            value={title}
            maxLength={60}
            placeholder="My app"
            onChange={(e) => setTitle(e.target.value)}
          />
          <Button type="submit" disabled={busy !== null}>
            {busy === 'blank' ? 'Creating…' : 'Create blank app'}
          </Button>
        </form>
      </Section>

      <Section title="From a template" id="templates">
        <div className="grid">
          {APP_TEMPLATES.map((template) => (
            <Card
              key={template.id}
              icon={template.icon.emoji}
              title={template.name}
              footer={
                <Button
                  variant="secondary"
                  disabled={busy !== null}
                  aria-label={`Use the ${template.name} template`}
                  onClick={() => void create(template.id, () => template.build())}
                >
                  {busy === template.id ? 'Creating…' : 'Use this template'}
                </Button>
              }
            >
              {template.summary}
            </Card>
          ))}
        </div>
      </Section>

      <Section title="Import JSON" id="import">
        <p>
          Bring in an app exported from Pipit (the editor’s “Export JSON”), from this server or
          another.
        </p>
        <label className="create-import">
          <span className="create-import__label">Choose an exported file</span>
          <input
            type="file"
            accept="application/json,.json"
            disabled={busy !== null}
            onChange={(e) => void onImport(e.target.files?.[0])}
          />
        </label>
      </Section>

      <Section title="From a description" id="describe">
        <DescribeApp
          online={online}
          disabled={busy !== null}
          onCreate={(definition) => create('describe', () => definition)}
        />
      </Section>
    </Page>
  );
}
