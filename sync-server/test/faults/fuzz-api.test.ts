import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aiBlueprintRequestSchema,
  aiEditRequestSchema,
  aiRunRequestSchema,
  appEventRequestSchema,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  createAppRequestSchema,
  createCheckpointRequestSchema,
  createSpaceInviteRequestSchema,
  createSpaceRequestSchema,
  deleteAccountRequestSchema,
  forgotPasswordRequestSchema,
  inviteRequestSchema,
  loginRequestSchema,
  messageRequestSchema,
  publishRequestSchema,
  pulledVersionRequestSchema,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
  platformPushSubscribeRequestSchema,
  platformPushUnsubscribeRequestSchema,
  creatorNotificationSettingsRequestSchema,
  renameSpaceRequestSchema,
  resetPasswordRequestSchema,
  setArchivedRequestSchema,
  setSpaceMemberRequestSchema,
  signupRequestSchema,
  tokenRequestSchema,
  updateProfileRequestSchema,
  visibilityRequestSchema,
  spaceActivityChoiceSchema,
  closeSuggestionRequestSchema,
  closeDraftRequestSchema,
  createDraftRequestSchema,
  updateDraftRequestSchema,
  createSuggestionRequestSchema,
} from '@pipit/protocol';
import { reminderPreferencesSchema } from '@pipit/app-definition';
import { createApi } from '../../src/http/api';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { makeOperator } from '../support/operators';
import { archiveApp, createPublishedApp, verifyEmail } from '../support/publishing';

/**
 * Bad input never becomes a 500: every route of the REST API, read from the Hono app itself, is
 * sent bodies shaped by its request schema and then broken, odd path parameters and callers who
 * may not change the owner's things. `FUZZ_RUNS` and `FUZZ_SEED` (npm run fuzz) set the length
 * and the seed; a failure prints the seed and the shrunk case.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 120_000);
/**
 * The short run in `npm test` always uses the same seed, so CI is reproducible and a failure is a
 * defect to fix, not luck; a long run (`npm run fuzz`) explores a new seed unless one is given.
 */
const CI_SEED = 20261126;
const SEED =
  process.env.FUZZ_SEED !== undefined
    ? Number(process.env.FUZZ_SEED)
    : process.env.FUZZ_RUNS === undefined
      ? CI_SEED
      : Math.floor(Math.random() * 2 ** 31);

/** Anything, at any depth: createApi only registers routes with its dependencies. */
const anything: unknown = new Proxy(function () {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => '' : anything),
  apply: () => anything,
});

/** Every route's request body schema (null: no JSON body). A route missing here fails the suite. */
const BODY_SCHEMAS: Record<string, object | null> = {
  'GET /api/health': null,
  'GET /api/ready': null,
  'GET /api/human-check/challenge': null,
  'GET /api/auth/session': null,
  'POST /api/auth/signup': signupRequestSchema,
  'POST /api/auth/login': loginRequestSchema,
  'POST /api/auth/logout': null,
  'POST /api/auth/verify-email': tokenRequestSchema,
  'POST /api/auth/resend-verification': null,
  'POST /api/auth/forgot-password': forgotPasswordRequestSchema,
  'POST /api/auth/reset-password': resetPasswordRequestSchema,
  'POST /api/auth/confirm-email-change': tokenRequestSchema,
  'GET /api/account': null,
  'PATCH /api/account/profile': updateProfileRequestSchema,
  'POST /api/account/avatar': null,
  'POST /api/account/email': changeEmailRequestSchema,
  'POST /api/account/password': changePasswordRequestSchema,
  'GET /api/account/sessions': null,
  'DELETE /api/account/sessions/:id': null,
  'POST /api/account/sessions/revoke-others': null,
  'GET /api/account/export': null,
  'GET /api/account/deletion': null,
  'DELETE /api/account': deleteAccountRequestSchema,
  'GET /api/usernames/:username': null,
  'GET /api/profiles/:username': null,
  'GET /api/uploads/:id': null,
  'POST /api/messages': messageRequestSchema,
  'GET /api/apps': null,
  'POST /api/apps': createAppRequestSchema,
  'GET /api/apps/:id': null,
  'PUT /api/apps/:id/archived': setArchivedRequestSchema,
  'DELETE /api/apps/:id': null,
  'GET /api/apps/:id/collaborators': null,
  'PUT /api/apps/:id/collaborators/:username': inviteRequestSchema,
  'DELETE /api/apps/:id/collaborators/:username': null,
  'POST /api/apps/:id/versions': publishRequestSchema,
  'GET /api/apps/:id/publication': null,
  'PUT /api/apps/:id/visibility': visibilityRequestSchema,
  'DELETE /api/apps/:id/publication': null,
  'POST /api/apps/import': null,
  'GET /api/apps/:id/export': null,
  'POST /api/apps/:id/images': null,
  'GET /api/apps/:id/checkpoints': null,
  'GET /api/apps/:id/changes': null,
  'GET /api/apps/:id/checkpoints/:checkpointId': null,
  'POST /api/apps/:id/checkpoints': createCheckpointRequestSchema,
  'DELETE /api/apps/:id/checkpoints/:checkpointId': null,
  'GET /api/apps/:id/suggestions': null,
  'GET /api/apps/:id/suggestions/:suggestionId': null,
  'POST /api/apps/:id/suggestions': createSuggestionRequestSchema,
  'POST /api/apps/:id/suggestions/:suggestionId/close': closeSuggestionRequestSchema,
  'GET /api/apps/:id/drafts': null,
  'GET /api/apps/:id/drafts/:draftId': null,
  'POST /api/apps/:id/drafts': createDraftRequestSchema,
  'PATCH /api/apps/:id/drafts/:draftId': updateDraftRequestSchema,
  'POST /api/apps/:id/drafts/:draftId/close': closeDraftRequestSchema,
  'GET /api/apps/:id/upstream': null,
  'PUT /api/apps/:id/upstream': pulledVersionRequestSchema,
  'GET /api/published/:id': null,
  'POST /api/apps/:id/events': appEventRequestSchema,
  'GET /api/explore': null,
  'POST /api/ai/blueprints': aiBlueprintRequestSchema,
  'POST /api/ai/edits': aiEditRequestSchema,
  'GET /api/client-config': null,
  'GET /api/admin/errors': null,
  'GET /api/admin/errors/:fingerprint': null,
  'GET /api/admin/digests/:digest': null,
  'GET /api/admin/ai-usage': null,
  'GET /api/admin/messages': null,
  'GET /api/admin/health': null,
  'GET /api/ai/status': null,
  'POST /api/ai/runs': aiRunRequestSchema,
  'GET /api/apps/:id/spaces': null,
  'POST /api/apps/:id/spaces': createSpaceRequestSchema,
  'DELETE /api/apps/:id/spaces/ended/:spaceId': null,
  'GET /api/spaces/:spaceId': null,
  'PATCH /api/spaces/:spaceId': renameSpaceRequestSchema,
  'DELETE /api/spaces/:spaceId': null,
  'PUT /api/spaces/:spaceId/members/:username': setSpaceMemberRequestSchema,
  'DELETE /api/spaces/:spaceId/members/:username': null,
  'POST /api/spaces/:spaceId/invites': createSpaceInviteRequestSchema,
  'DELETE /api/spaces/:spaceId/invites/:inviteId': null,
  'GET /api/space-invites/:token': null,
  'POST /api/space-invites/:token/accept': null,
  'PUT /api/apps/:id/files/:hash': null,
  'PUT /api/spaces/:spaceId/files/:hash': null,
  'GET /api/apps/:id/files/:hash': null,
  'GET /api/spaces/:spaceId/files/:hash': null,
  'GET /api/apps/:id/files/:hash/thumbnail': null,
  'GET /api/spaces/:spaceId/files/:hash/thumbnail': null,
  'GET /api/push/key': null,
  'POST /api/push/subscriptions': pushSubscribeRequestSchema,
  'DELETE /api/push/subscriptions': pushUnsubscribeRequestSchema,
  'GET /api/push/subscriptions': null,
  'GET /api/apps/:id/reminders': null,
  'PUT /api/apps/:id/reminders/:reminderId': reminderPreferencesSchema,
  'DELETE /api/apps/:id/reminders/:reminderId': null,
  'GET /api/account/notifications': null,
  'DELETE /api/account/notifications/:appId': null,
  'GET /api/spaces/:spaceId/notifications': null,
  'PUT /api/spaces/:spaceId/notifications': spaceActivityChoiceSchema,
  'GET /api/account/space-notifications': null,
  'GET /api/account/creator-notifications': null,
  'PUT /api/account/creator-notifications': creatorNotificationSettingsRequestSchema,
  'POST /api/push/platform-subscriptions': platformPushSubscribeRequestSchema,
  'DELETE /api/push/platform-subscriptions': platformPushUnsubscribeRequestSchema,
  // A signed link's query, no JSON body (a mail provider's one-click POST sends a form).
  'GET /api/email/unsubscribe': null,
  'POST /api/email/unsubscribe': null,
};

function registeredRoutes(): string[] {
  const app = createApi(anything as never);
  const keys = app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`);
  return [...new Set(keys)];
}

/** The top-level keys of an object schema (zod 4 keeps them on `.shape`). */
function keysOf(schema: object | null): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | null)?.shape;
  return shape ? Object.keys(shape) : [];
}

const oddString = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '..', '%00', '__proto__', 'constructor', '💥', '\u0000', "'; --"),
  fc.constant('x'.repeat(70_000)),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      'viewer',
      'public',
    ),
    oddString,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** JSON nested `depth` levels deep (built as text: JSON.stringify would overflow the stack). */
const deep = (depth: number) => '{"a":['.repeat(depth) + '1' + ']}'.repeat(depth);
const BROKEN_BODIES = [
  { type: 'application/json', text: '{"a":' },
  { type: 'application/json', text: '' },
  { type: 'application/json', text: deep(5000) },
  { type: 'application/json', text: JSON.stringify(Array.from({ length: 50_000 }, () => 0)) },
  { type: 'text/plain', text: '{}' },
  { type: 'image/png', text: 'not a png' },
  { type: 'application/x-www-form-urlencoded', text: 'a=1' },
];

/** A raw body: shaped by the schema's keys, then broken; or not JSON at all. */
function bodyFor(schema: object | null): fc.Arbitrary<{ type: string; text: string } | null> {
  const keys = keysOf(schema);
  const shaped = fc
    .record({
      present: fc.subarray(keys),
      values: fc.array(value, { minLength: keys.length, maxLength: keys.length }),
      extra: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'extra', 'role'), value, {
        maxKeys: 2,
      }),
    })
    .map(({ present, values, extra }) => {
      const entries = present.map((key) => [key, values[keys.indexOf(key)]] as const);
      const pairs = [...entries, ...Object.entries(extra)].map(
        ([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`,
      );
      return { type: 'application/json', text: `{${pairs.join(',')}}` };
    });
  return fc.oneof(
    shaped,
    shaped,
    fc.constant(null),
    value.map((v) => ({ type: 'application/json', text: JSON.stringify(v) ?? 'null' })),
    fc.constantFrom(...BROKEN_BODIES),
  );
}

/** A 5xx the product documents: this server runs without an AI provider (docs/product/ai.md). */
const DELIBERATE_5XX: Record<number, string> = { 503: 'ai_not_configured' };

const errorShape = {
  error: { code: expect.any(String) as unknown, message: expect.any(String) as unknown },
};

describe.each(ENGINES)('fuzzing every API route (%s)', (engine) => {
  let h: AccountsHarness;
  let owner: ApiClient;
  let stranger: ApiClient;
  /** A viewer of the canary app and the space's reader: may read, never change. */
  let viewer: ApiClient;
  /** An operator (npm run operator): reads the inbox, changes nothing of anyone's. */
  let operator: ApiClient;
  /** The cookie of a session that was signed out: the server no longer knows it. */
  let expiredCookie: string;
  /** Someone's own app with an editor: its owner and editor may change it, so not a canary. */
  let ownApp: { id: string; owner: ApiClient; editor: ApiClient };
  let appId: string;
  let strangerAppId: string;
  /** An app deleted forever and a deleted space: their ids are never served again. */
  let deletedAppId: string;
  let deletedSpaceId: string;
  /** The owner's shared space, with the editor in it: the stranger can change nothing of it. */
  let spaceId: string;
  const canary: string[] = [];

  async function snapshot(): Promise<string> {
    const parts = await Promise.all(canary.map((path) => owner.get(path)));
    // The owner's own reading moves their session's "last seen" on (at most once a minute): in a
    // long run that is the snapshot itself, not a change anyone made.
    return JSON.stringify(
      parts.map((part) => [part.status, part.body]),
      (key, value: unknown) => (key === 'lastSeenAt' ? undefined : value),
    );
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    owner = await h.signup(`fz_owner_${engine}`);
    await verifyEmail(h, owner);
    const editor = await h.signup(`fz_editor_${engine}`);
    await verifyEmail(h, editor);
    stranger = await h.signup(`fz_stranger_${engine}`);
    await verifyEmail(h, stranger);
    appId = await createPublishedApp(h, owner, { title: 'Canary' });
    const invited = await owner.request(
      'PUT',
      `/api/apps/${appId}/collaborators/fz_editor_${engine}`,
      { body: { role: 'editor' } },
    );
    expect(invited.status).toBeLessThan(300);
    strangerAppId = await createPublishedApp(h, stranger, { title: 'Other' });
    viewer = await h.signup(`fz_viewer_${engine}`);
    await verifyEmail(h, viewer);
    const viewing = await owner.request(
      'PUT',
      `/api/apps/${appId}/collaborators/fz_viewer_${engine}`,
      { body: { role: 'viewer' } },
    );
    expect(viewing.status).toBeLessThan(300);
    operator = await h.signup(`fz_operator_${engine}`);
    await makeOperator(h.pipit.server.storage, `fz_operator_${engine}`);
    const signedOut = await h.login(`fz_stranger_${engine}`);
    expiredCookie = signedOut.cookie ?? '';
    expect((await signedOut.post('/api/auth/logout', {})).status).toBeLessThan(300);
    deletedAppId = await createPublishedApp(h, stranger, { title: 'Gone' });
    await archiveApp(stranger, deletedAppId);
    expect((await stranger.request('DELETE', `/api/apps/${deletedAppId}`)).status).toBe(200);
    const ownOwner = await h.signup(`fz_own_${engine}`);
    await verifyEmail(h, ownOwner);
    const ownEditor = await h.signup(`fz_own_editor_${engine}`);
    await verifyEmail(h, ownEditor);
    ownApp = {
      id: await createPublishedApp(h, ownOwner, { title: 'Theirs' }),
      owner: ownOwner,
      editor: ownEditor,
    };
    const ownInvite = await ownOwner.request(
      'PUT',
      `/api/apps/${ownApp.id}/collaborators/fz_own_editor_${engine}`,
      { body: { role: 'editor' } },
    );
    expect(ownInvite.status).toBeLessThan(300);
    const gone = await stranger.post<{ space: { id: string } }>(
      `/api/apps/${strangerAppId}/spaces`,
      { name: 'Gone' },
    );
    expect(gone.status).toBe(201);
    deletedSpaceId = gone.body.space.id;
    expect((await stranger.request('DELETE', `/api/spaces/${deletedSpaceId}`)).status).toBe(200);
    const space = await owner.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
      name: 'Canary space',
    });
    expect(space.status).toBe(201);
    spaceId = space.body.space.id;
    const member = await owner.request(
      'PUT',
      `/api/spaces/${spaceId}/members/fz_editor_${engine}`,
      { body: { role: 'member' } },
    );
    expect(member.status).toBe(201);
    const reader = await owner.request(
      'PUT',
      `/api/spaces/${spaceId}/members/fz_viewer_${engine}`,
      { body: { role: 'reader' } },
    );
    expect(reader.status).toBe(201);
    expect((await owner.post(`/api/spaces/${spaceId}/invites`, {})).status).toBe(201);
    canary.push(
      `/api/apps/${appId}`,
      `/api/apps/${appId}/collaborators`,
      `/api/apps/${appId}/publication`,
      '/api/account',
      '/api/account/sessions',
      `/api/profiles/fz_owner_${engine}`,
      `/api/spaces/${spaceId}`,
    );
  }, 60_000);
  afterAll(() => h?.close());

  it('has a fuzz entry for every registered route', () => {
    const missing = registeredRoutes().filter((route) => !(route in BODY_SCHEMAS));
    expect(missing, 'add these routes to BODY_SCHEMAS in fuzz-api.test.ts').toEqual([]);
  });

  it('answers an app id with a NUL byte with 404, not 500 (found by fuzzing, seed 1832324299)', async () => {
    const response = await fetch(`${h.pipit.url}/api/published/%00`);
    expect(response.status).toBe(404);
  });

  type Caller = 'none' | 'forged' | 'expired' | 'stranger' | 'viewer' | 'operator';
  type Changer = 'owner' | 'editor';

  /**
   * Sends `runs` seeded requests to every route, as the callers given, with path parameters from
   * `ids` and odd strings; each answer is below 500 (but the documented ones) and every 4xx is
   * shaped as an error.
   */
  async function fuzzRoutes<C extends string>(options: {
    runs: number;
    callers: readonly C[];
    cookieOf: (caller: C) => string | null;
    ids: string[];
  }) {
    const routes = registeredRoutes();
    const param = fc.oneof(
      fc.constantFrom(...options.ids),
      fc.constantFrom('%2e%2e', '%00', '__proto__', 'x'.repeat(2000), '1', '-1', '%F0%9F%92%A5'),
      fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
    );
    const headers = fc.constantFrom<Record<string, string>>(
      { Origin: h.pipit.url, 'Sec-Fetch-Site': 'same-origin' },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      {},
    );
    const request = fc.constantFrom(...routes).chain((route) =>
      fc.record({
        route: fc.constant(route),
        params: fc.array(param, { minLength: 3, maxLength: 3 }),
        body: bodyFor(BODY_SCHEMAS[route] ?? null),
        caller: fc.constantFrom(...options.callers),
        headers,
      }),
    );
    const statuses = new Map<number, number>();
    let slowest = { ms: 0, request: '' };
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(request, async ({ route, params, body, caller: who, headers: extra }) => {
        const begun = performance.now();
        const [method = 'GET', template = ''] = route.split(' ');
        let i = 0;
        const path = template.replace(/:\w+/g, () => params[i++] ?? '');
        const cookie = options.cookieOf(who);
        const sendsBody = body !== null && method !== 'GET';
        const response = await fetch(`${h.pipit.url}${path}`, {
          method,
          headers: {
            ...extra,
            ...(cookie ? { Cookie: cookie } : {}),
            ...(sendsBody ? { 'Content-Type': body.type } : {}),
          },
          ...(sendsBody ? { body: body.text } : {}),
        });
        const text = await response.text();
        const ms = performance.now() - begun;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (ms > slowest.ms) slowest = { ms, request: `${who}: ${method} ${path}`.slice(0, 200) };
        const deliberate = DELIBERATE_5XX[response.status];
        const label = `${who}: ${method} ${path}: ${text.slice(0, 300)}`;
        if (deliberate)
          expect((JSON.parse(text) as typeof errorShape).error.code, label).toBe(deliberate);
        else expect(response.status, label).toBeLessThan(500);
        if (response.status >= 400) expect(JSON.parse(text), label).toMatchObject(errorShape);
      }),
      {
        numRuns: options.runs,
        seed: SEED,
        ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
        endOnFailure: true,
      },
    );
    if (process.env.FUZZ_RUNS !== undefined) {
      const seconds = (performance.now() - started) / 1000;
      const summary = {
        engine,
        callers: options.callers,
        requests: options.runs,
        requestsPerSecond: Math.round(options.runs / seconds),
        seed: SEED,
        seconds: Math.round(seconds * 10) / 10,
        slowest: { ms: Math.round(slowest.ms), request: slowest.request },
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    }
  }

  it(
    'answers bad input from callers without rights with a 4xx and changes nothing',
    async () => {
      const before = await snapshot();
      const cookies: Record<Caller, string | null> = {
        none: null,
        forged: 'pipit_session=forged',
        expired: expiredCookie,
        stranger: stranger.cookie,
        viewer: viewer.cookie,
        operator: operator.cookie,
      };
      await fuzzRoutes({
        runs: RUNS,
        callers: Object.keys(cookies) as Caller[],
        cookieOf: (caller) => cookies[caller],
        ids: [
          appId,
          strangerAppId,
          spaceId,
          deletedAppId,
          deletedSpaceId,
          'deleted0000000000000000',
          `fz_owner_${engine}`,
          `fz_editor_${engine}`,
        ],
      });
      expect(await snapshot()).toBe(before);
      const normal = await owner.get(`/api/apps/${appId}`);
      expect(normal.status).toBe(200);
    },
    TIMEOUT_MS,
  );

  it(
    "answers bad input from an app's owner and editor on their own app without a 5xx",
    async () => {
      const before = await snapshot();
      // They may change their own app (or even end their own session): what they send is only
      // required to be answered properly. The canary is someone else's, and stays as it was.
      const cookies: Record<Changer, string | null> = {
        owner: ownApp.owner.cookie,
        editor: ownApp.editor.cookie,
      };
      await fuzzRoutes({
        runs: Math.ceil(RUNS / 3),
        callers: Object.keys(cookies) as Changer[],
        cookieOf: (caller) => cookies[caller],
        ids: [
          ownApp.id,
          appId,
          spaceId,
          deletedAppId,
          deletedSpaceId,
          `fz_own_${engine}`,
          `fz_own_editor_${engine}`,
        ],
      });
      expect(await snapshot()).toBe(before);
    },
    TIMEOUT_MS,
  );
});
