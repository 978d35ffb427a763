import { Link } from '@tanstack/react-router';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';

const WAYS = [
  {
    icon: '📄',
    title: 'Blank app',
    body: 'One empty screen and the default theme. Build it your way.',
    action: 'Start blank',
  },
  {
    icon: '🧩',
    title: 'From a template',
    body: 'A habit tracker, a reading list, a recipe book, a workout log, a guest list or a budget — complete and ready to change.',
    action: 'Choose a template',
  },
  {
    icon: '✨',
    title: 'From a prompt',
    body: 'Describe the app you want and get a first draft to edit. Needs a connection and an AI provider on the server.',
    action: 'Describe an app',
  },
  {
    icon: '📥',
    title: 'Import JSON',
    body: 'Bring in an app exported from Pipit, from this server or another one.',
    action: 'Import a file',
  },
] as const;

/** `/create`: the four ways to start an app; all but the prompt work offline. */
export function CreatePage() {
  return (
    <Page
      title="Create an app"
      lead="New apps are made on your device, so you can start one offline and it syncs later."
      width="content"
    >
      <Notice tone="info" title="Creating apps is not switched on here yet">
        <p>
          This Pipit server does not have the editor enabled yet, so these buttons are inactive.
          Read <Link to="/docs/platform">how apps are made</Link> in the meantime.
        </p>
      </Notice>
      <div className="grid">
        {WAYS.map((way) => (
          <Card
            key={way.title}
            icon={way.icon}
            title={way.title}
            level={2}
            footer={
              <Button variant="secondary" disabled>
                {way.action}
              </Button>
            }
          >
            {way.body}
          </Card>
        ))}
      </div>
    </Page>
  );
}
