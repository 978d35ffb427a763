import { ANONYMOUS_VIEWER, type PublishedApp, withDataBlock } from '@pipit/protocol';
import { describe, expect, it } from 'vitest';
import { deviceStartElement } from './device-start';
import { readDeviceStart } from './device-start-read';

/*
 * What the service worker writes into an installed app's page for its start (device-start.ts),
 * and what the page makes of it (device-start-read.ts): the same checks as the page's own read of
 * its copy, and nothing the app's content says can leave the element.
 */

const APP_ID = 'abcdefghijklmnopqrstuvwxyz';
const OTHER_ID = 'bcdefghijklmnopqrstuvwxyza';
const author = { username: 'cleo', displayName: 'Cleo', avatar: null };

function published(overrides: Partial<PublishedApp> = {}): PublishedApp {
  return {
    id: APP_ID,
    title: 'Tiny habits',
    description: 'A habit a day.',
    icon: null,
    tags: [],
    author,
    version: 3,
    publishedAt: 1_790_000_000_000,
    opens: 4,
    installs: 1,
    visibility: 'public',
    published: true,
    archived: false,
    role: null,
    remixedFrom: null,
    remixes: [],
    definition: { meta: { title: 'Tiny habits' }, screens: [] },
    ...overrides,
  };
}

/** The element's text, as the page reads it (the HTML parser gives a script's text as is). */
function textOf(element: string): string {
  const match = /^<script type="application\/json" id="pipit-device-start">(.*)<\/script>$/s.exec(
    element,
  );
  if (!match) throw new Error(`not the element: ${element.slice(0, 80)}`);
  return match[1]!;
}

const written = (app: PublishedApp | null, keptFor: string | null = ANONYMOUS_VIEWER) =>
  textOf(deviceStartElement({ deviceData: false, body: app && JSON.stringify(app), keptFor }));

describe('an installed app’s start, read by the service worker', () => {
  it('gives the page the app’s copy and whether the device keeps the visitor’s data', () => {
    const app = published();
    expect(readDeviceStart(written(app), APP_ID, ANONYMOUS_VIEWER)).toEqual({
      deviceData: false,
      app,
    });
    const text = textOf(
      deviceStartElement({ deviceData: true, body: JSON.stringify(app), keptFor: null }),
    );
    expect(readDeviceStart(text, APP_ID, ANONYMOUS_VIEWER)).toEqual({ deviceData: true, app });
  });

  it('says when the device keeps no copy, so the page asks the server', () => {
    expect(readDeviceStart(written(null, null), APP_ID, ANONYMOUS_VIEWER)).toEqual({
      deviceData: false,
      app: null,
    });
  });

  it('keeps the app’s content inside the element, and reads it back unchanged', () => {
    const title = 'Habits </script><script>window.pwned = 1</script><!-- <SCRIPT';
    const app = published({ title, description: '</SCRIPT ><img src=x onerror=alert(1)>' });
    const element = deviceStartElement({
      deviceData: false,
      body: JSON.stringify(app),
      keptFor: ANONYMOUS_VIEWER,
    });
    // One element: the only `<` left are its own tags'.
    expect(element.match(/</g)).toHaveLength(2);
    expect(element.toLowerCase().indexOf('</script')).toBe(element.length - '</script>'.length);
    expect(readDeviceStart(textOf(element), APP_ID, ANONYMOUS_VIEWER)?.app).toEqual(app);
  });

  it('shows a private app only to the account it was fetched for', () => {
    const app = published({ visibility: 'private' });
    expect(readDeviceStart(written(app, 'account-a'), APP_ID, 'account-a')?.app).toEqual(app);
    expect(readDeviceStart(written(app, 'account-a'), APP_ID, 'account-b')?.app).toBeNull();
    expect(readDeviceStart(written(app, 'account-a'), APP_ID, ANONYMOUS_VIEWER)?.app).toBeNull();
  });

  it('never gives one app’s copy for another, nor a copy that is not an app', () => {
    expect(readDeviceStart(written(published({ id: OTHER_ID })), APP_ID, ANONYMOUS_VIEWER)).toEqual(
      { deviceData: false, app: null },
    );
    const text = textOf(
      deviceStartElement({ deviceData: false, body: '{"id":"x"}', keptFor: null }),
    );
    expect(readDeviceStart(text, APP_ID, ANONYMOUS_VIEWER)).toEqual({
      deviceData: false,
      app: null,
    });
  });

  it('leaves a copy too large to write for the page to read itself, and reads no broken one', () => {
    const large = published({ definition: { notes: 'x'.repeat(1_000_001) } });
    expect(readDeviceStart(written(large), APP_ID, ANONYMOUS_VIEWER)).toEqual({
      deviceData: false,
    });
    const broken = textOf(
      deviceStartElement({ deviceData: false, body: '{"id": "trunc', keptFor: null }),
    );
    expect(readDeviceStart(broken, APP_ID, ANONYMOUS_VIEWER)).toEqual({
      deviceData: false,
      app: null,
    });
    expect(readDeviceStart(null, APP_ID, ANONYMOUS_VIEWER)).toBeNull();
    expect(readDeviceStart('{"deviceData":true,', APP_ID, ANONYMOUS_VIEWER)).toBeNull();
    expect(readDeviceStart('{"deviceData":"yes"}', APP_ID, ANONYMOUS_VIEWER)).toBeNull();
  });

  it('is written at the end of the page’s body', () => {
    const html = '<html><head></head><body><div id="root"></div></body></html>';
    const element = written(published());
    expect(withDataBlock(html, `<x>${element}</x>`)).toBe(
      `<html><head></head><body><div id="root"></div><x>${element}</x></body></html>`,
    );
    expect(withDataBlock('<p>no body</p>', '<x></x>')).toBe('<p>no body</p>');
  });
});
