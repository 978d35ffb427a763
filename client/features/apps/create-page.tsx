import { useNavigate } from '@tanstack/react-router';
import {
  type AppDefinition,
  APP_TEMPLATES,
  blankDefinition,
  DefinitionError,
} from '@pipit/app-definition';
import { type FormEvent, useState } from 'react';
import { AppIcon } from '../../ui/app-icon';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import { createApp } from '../../platform/app-registry';
import { useAiAvailable } from '../../platform/ai/ai-runs';
import { DescribeApp } from './describe-app';
import { ImportFile } from './import-file';
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

  // With AI on this server, describing the app is the quickest start: it comes first.
  // Otherwise it stays last, saying why it can't be used here.
  const aiFirst = useAiAvailable() === true;
  const describe = (
    <Section title="From a description" id="describe">
      <DescribeApp
        online={online}
        disabled={busy !== null}
        onCreate={(definition) => create('describe', () => definition)}
      />
    </Section>
  );

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

      {aiFirst ? describe : null}

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
              icon={<AppIcon icon={template.icon} size={44} />}
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

      <Section title="Import a file" id="import">
        <p>
          Bring in apps exported from Pipit — a <strong>.pipit</strong> file from the editor’s
          “Export” or your account’s data, or an older <strong>.json</strong> — from this server or
          another. Online, the app comes with its versions, history, images and, if the file has
          them, your data; offline, it is made from its definition on this device.
        </p>
        <ImportFile
          accountId={account?.id ?? ''}
          disabled={busy !== null || !account}
          onJson={(build) => void create('import', build)}
        />
      </Section>

      {aiFirst ? null : describe}
    </Page>
  );
}
