import { createId } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn, nextDigestAt, utcDay } from '../../src/creators/digest';
import type { CreatorNotificationRecord, Storage } from '../../src/storage/types';
import type { ApiClient } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { createPublishedApp } from '../support/published-apps';
import {
  type PushServiceStandIn,
  startPushServiceStandIn,
  type StandInSubscription,
} from '../support/push-service';
import { verifyEmail } from '../support/publishing';
import { sleep } from '../support/timing';

/*
 * Creators' notifications on the real server with each engine: each event tells the people it
 * concerns and never the person who acted; Pipit's own push reaches a device through the
 * push-service stand-in (decrypted there); the people without it get one email digest a day
 * through a real SMTP server, escaped, with a one-click unsubscribe that works without signing in;
 * a second run of the digest sends nothing; a deleted account gets nothing.
 */

const TITLE = 'Habits <b>&</b> “Co”';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await sleep(50);
  }
  throw new Error('gave up waiting');
}

describe.each(ENGINES)("creators' notifications on %s", (engine) => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  let cleo: ApiClient;
  let ada: ApiClient;
  let bo: ApiClient;
  const ids: Record<string, string> = {};
  let appId: string;
  let device: StandInSubscription;
  const storage = (): Storage => h.pipit.server.storage;
  const name = (who: string) => `${who}_cn_${engine}`;
  const notificationsOf = (userId: string) =>
    storage().creatorNotifications.listForUser(userId, 50);
  const digestsTo = (username: string) =>
    h.smtp.messages.filter(
      (m) => m.to === `${username}@example.org` && /news about your apps/.test(m.subject),
    );
  const digestJob = (userId: string, id: string) => ({
    id,
    kind: 'digest' as const,
    key: `digest:${userId}:${utcDay(nextDigestAt(Date.now()))}@UTC`,
    attempt: 1,
    payload: { userId },
  });

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer(engine, {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
    });
    cleo = await h.signup(name('cleo'));
    ada = await h.signup(name('ada'));
    bo = await h.signup(name('bo'));
    for (const [who, client] of [
      ['cleo', cleo],
      ['ada', ada],
      ['bo', bo],
    ] as const) {
      ids[who] = await verifyEmail(h, client);
    }
    appId = await createPublishedApp(storage(), cleo, { title: TITLE, visibility: 'public' });
    const publicKey = (await ada.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    device = push.subscribe({ applicationServerKey: publicKey });
  });
  afterAll(async () => {
    await h.close();
    await push.close();
  });

  it('subscribes a device for Pipit itself, refusing bad input, strangers and other origins', async () => {
    const body = { deviceId: createId(), subscription: device };
    const bad = await ada.request('POST', '/api/push/platform-subscriptions', {
      body: { deviceId: 'x', subscription: { endpoint: 'http://nope' } },
    });
    expect(bad.status).toBe(400);
    const signedOut = await h
      .client()
      .request('POST', '/api/push/platform-subscriptions', { body });
    expect(signedOut.status).toBe(401);
    const elsewhere = await ada.request('POST', '/api/push/platform-subscriptions', {
      body,
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(elsewhere.status).toBe(403);
    expect(await storage().creatorNotifications.listPlatformSubscriptions(ids.ada!)).toEqual([]);

    const made = await ada.request('POST', '/api/push/platform-subscriptions', { body });
    expect(made.status).toBe(201);
    // An app's subscriptions are another thing: this one is not listed as any app's.
    expect(await storage().pushSubscriptions.listForUser(ids.ada!)).toEqual([]);
    const settings = await ada.get<{ devices: number; emailDigest: string }>(
      '/api/account/creator-notifications',
    );
    expect(settings.body).toEqual({
      emailDigest: 'when_no_push',
      devices: 1,
      emailVerified: true,
      digestTimeZone: 'UTC',
    });
  });

  it('tells a person added as a collaborator (on their device), never the owner who added them', async () => {
    const added = await cleo.request('PUT', `/api/apps/${appId}/collaborators/${name('ada')}`, {
      body: { role: 'editor' },
    });
    expect(added.status).toBe(201);
    await until(
      async () => push.deliveredTo(device),
      (d) => d.length === 1,
    );
    expect(JSON.parse(push.deliveredTo(device)[0]!.payload)).toEqual({
      title: TITLE,
      body: expect.stringContaining(`added you as a collaborator on “${TITLE}”`) as unknown,
      path: `/apps/${appId}/edit`,
      tag: expect.stringMatching(/^c-[A-Za-z0-9_-]{22}$/),
      appId,
    });
    const [told] = await notificationsOf(ids.ada!);
    // Ada has push: nothing waits for an email.
    expect(told).toMatchObject({
      kind: 'collaborator_added',
      actorId: ids.cleo,
      digestPending: false,
    });
    expect(await notificationsOf(ids.cleo!)).toEqual([]);

    // Bo has no device: his waits for the digest.
    await cleo.request('PUT', `/api/apps/${appId}/collaborators/${name('bo')}`, {
      body: { role: 'editor' },
    });
    await until(
      () => notificationsOf(ids.bo!),
      (n) => n.length === 1,
    );
    expect((await notificationsOf(ids.bo!))[0]).toMatchObject({ digestPending: true });
  });

  it('tells the other editors when a version is published, not the publisher', async () => {
    const published = await cleo.post(`/api/apps/${appId}/versions`, {});
    expect(published.status).toBe(201);
    const isPublished = (n: CreatorNotificationRecord[]) => n.some((x) => x.kind === 'published');
    await until(() => notificationsOf(ids.bo!), isPublished);
    await until(
      async () => push.deliveredTo(device),
      (d) => d.length === 2,
    );
    const payload = JSON.parse(push.deliveredTo(device)[1]!.payload) as {
      body: string;
      path: string;
    };
    expect(payload.body).toContain('published a new version of');
    expect(payload.path).toBe(`/apps/${appId}`);
    expect((await notificationsOf(ids.cleo!)).some((n) => n.kind === 'published')).toBe(false);
  });

  it('tells the owner of the first visitor of the day, once; the owner’s own open is no visit', async () => {
    const own = await cleo.post(`/api/apps/${appId}/events`, { kind: 'open' });
    expect(own.status).toBe(204);
    await sleep(200);
    expect(await notificationsOf(ids.cleo!)).toEqual([]);
    for (const visitor of [h.client(), h.client(), await h.signup(name('vic'))]) {
      expect((await visitor.post(`/api/apps/${appId}/events`, { kind: 'open' })).status).toBe(204);
    }
    const told = await until(
      () => notificationsOf(ids.cleo!),
      (n) => n.length > 0,
    );
    await sleep(200);
    expect(await notificationsOf(ids.cleo!)).toHaveLength(1);
    expect(told[0]).toMatchObject({ kind: 'first_visit', actorId: null, digestPending: true });
    // Another instance seeing a visitor the same day adds nothing (the dedupe key).
    await h.pipit.server.creators.notify({ kind: 'first_visit', appId });
    expect(await notificationsOf(ids.cleo!)).toHaveLength(1);
  });

  it('sends one digest carrying both events, escaped, with a working one-click unsubscribe', async () => {
    await h.pipit.server.creators.deliverDigest(digestJob(ids.bo!, 'job-1'));
    const mail = await h.smtp.waitFor(`${name('bo')}@example.org`, /news about your apps/);
    expect(mail.text).toContain(`added you as a collaborator on “${TITLE}”`);
    expect(mail.text).toContain(`published a new version of “${TITLE}”`);
    expect(mail.html).not.toContain('<b>&</b>');
    expect(mail.html).toContain('Habits &#60;b&#62;&#38;&#60;/b&#62;');
    // As a mail client reads them (RFC 8058): the link, and that a POST to it is one click.
    const headerLine = (key: string) =>
      mail.parsed.headerLines.find((l) => l.key === key)?.line.replace(/^[^:]+:\s*/, '');
    expect(headerLine('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const link = new URL(
      /^<(https?:\/\/[^>]+)>$/.exec(headerLine('list-unsubscribe')!.trim())![1]!,
    );
    expect(mail.text).toContain(link.href);

    // Run again (a retry, or a second instance's job): no second email.
    await h.pipit.server.creators.deliverDigest(digestJob(ids.bo!, 'job-1'));
    await h.pipit.server.creators.deliverDigest(digestJob(ids.bo!, 'job-2'));
    await sleep(300);
    expect(digestsTo(name('bo'))).toHaveLength(1);
    expect(await storage().creatorNotifications.pendingDigest(ids.bo!)).toEqual([]);

    // The link: GET asks, a forged one does not work, POST (as a mail provider sends it) turns it off.
    const path = `${link.pathname}${link.search}`;
    const asked = await fetch(new URL(path, h.pipit.url));
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('<form method="post">');
    const forged = new URL(path, h.pipit.url);
    forged.searchParams.set('u', ids.ada!);
    expect((await fetch(forged, { method: 'POST' })).status).toBe(404);
    const forgedPage = await fetch(forged, { headers: { Accept: 'text/html' } });
    expect(forgedPage.status).toBe(404);
    expect(await forgedPage.text()).toContain('This link does not work');
    expect(await storage().creatorNotifications.emailDigest(ids.ada!)).toBe('when_no_push');
    const oneClick = await fetch(new URL(path, h.pipit.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await storage().creatorNotifications.emailDigest(ids.bo!)).toBe('off');
    expect(
      (await bo.get<{ emailDigest: string }>('/api/account/creator-notifications')).body
        .emailDigest,
    ).toBe('off');
  });

  it('lets a creator choose the email digest, checking the choice', async () => {
    const bad = await bo.request('PUT', '/api/account/creator-notifications', {
      body: { emailDigest: 'hourly' },
    });
    expect(bad.status).toBe(400);
    const elsewhere = await bo.request('PUT', '/api/account/creator-notifications', {
      body: { emailDigest: 'always' },
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(elsewhere.status).toBe(403);
    expect(await storage().creatorNotifications.emailDigest(ids.bo!)).toBe('off');
    const on = await bo.request('PUT', '/api/account/creator-notifications', {
      body: { emailDigest: 'always' },
    });
    expect(on.status).toBe(200);
    // Never told a zone (and no reminder on): the digest keeps to UTC.
    expect(on.body).toMatchObject({ emailDigest: 'always', digestTimeZone: 'UTC' });
    const nowhere = await bo.request('PUT', '/api/account/creator-notifications', {
      body: { emailDigest: 'off', timeZone: 'Mars/Olympus_Mons' },
    });
    expect(nowhere.status).toBe(400);
    expect(JSON.stringify(nowhere.body)).toContain('Mars/Olympus_Mons');
    expect(await storage().creatorNotifications.emailDigest(ids.bo!)).toBe('always');
  });

  it('sends the digest at 17:00 on the clock of the zone the creator chose it in', async () => {
    const tokyo = await cleo.request('PUT', '/api/account/creator-notifications', {
      body: { emailDigest: 'always', timeZone: 'Asia/Tokyo' },
    });
    expect(tokyo.status).toBe(200);
    expect(tokyo.body).toMatchObject({ digestTimeZone: 'Asia/Tokyo' });
    // A later choice without a zone keeps it.
    const again = await cleo.request('PUT', '/api/account/creator-notifications', {
      body: { emailDigest: 'always' },
    });
    expect(again.body).toMatchObject({ digestTimeZone: 'Asia/Tokyo' });

    const other = await createPublishedApp(storage(), cleo, { visibility: 'public' });
    await h.pipit.server.creators.notify({ kind: 'first_visit', appId: other });
    const at = nextDigestAt(Date.now(), 'Asia/Tokyo');
    expect(new Date(at).getUTCHours()).toBe(8);
    const key = `digest:${ids.cleo!}:${dayIn(at, 'Asia/Tokyo')}@Asia/Tokyo`;
    if (engine === 'sqlite') {
      await until(
        () => storage().jobs.get(key),
        (job) => job !== null,
      );
      expect((await storage().jobs.get(key))?.runAt).toBe(at);
    }
  });

  it('sends nothing to a deleted account, whose notifications go with it', async () => {
    const dora = await h.signup(name('dora'));
    const doraId = await verifyEmail(h, dora);
    await cleo.request('PUT', `/api/apps/${appId}/collaborators/${name('dora')}`, {
      body: { role: 'viewer' },
    });
    await until(
      () => notificationsOf(doraId),
      (n) => n.length === 1,
    );
    const deleted = await dora.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await notificationsOf(doraId)).toEqual([]);
    await h.pipit.server.creators.deliverDigest(digestJob(doraId, 'job-dora'));
    await sleep(300);
    expect(digestsTo(name('dora'))).toEqual([]);
  });
});

describe('the time of a day’s digest', () => {
  const at = (iso: string) => Date.parse(iso);

  it('is the next 17:00 in the zone, daylight saving included, on that zone’s calendar', () => {
    expect(nextDigestAt(at('2026-07-01T12:00:00Z'))).toBe(at('2026-07-01T17:00:00Z'));
    expect(nextDigestAt(at('2026-07-01T17:00:00Z'))).toBe(at('2026-07-02T17:00:00Z'));
    // New York: 17:00 EDT in summer, EST in winter.
    expect(nextDigestAt(at('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(
      at('2026-07-01T21:00:00Z'),
    );
    expect(nextDigestAt(at('2026-12-01T12:00:00Z'), 'America/New_York')).toBe(
      at('2026-12-01T22:00:00Z'),
    );
    // Tokyo's 17:00 on 2 July is 08:00 UTC that day, past the UTC day's start.
    const tokyo = nextDigestAt(at('2026-07-01T09:00:00Z'), 'Asia/Tokyo');
    expect(tokyo).toBe(at('2026-07-02T08:00:00Z'));
    expect(dayIn(tokyo, 'Asia/Tokyo')).toBe('2026-07-02');
    // Auckland's evening is the next day on its calendar.
    expect(dayIn(at('2026-07-01T20:00:00Z'), 'Pacific/Auckland')).toBe('2026-07-02');
  });
});
