import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createId,
  SUGGESTION_LIMITS,
  type SuggestionList,
  type SuggestionSummary,
} from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { createApp, definitionOf, verifyEmail, shareApp } from '../support/publishing';

describe.each(ENGINES)('Ask AI suggestions kept for review (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let appId: string;
  const base = definitionOf({ title: 'Habits' });
  const proposed = { ...base, meta: { ...base.meta, title: 'Habits, rated' } };
  const body = (overrides: Record<string, unknown> = {}) => ({
    id: createId(),
    asked: 'Add a rating',
    summary: ['Changed the app’s title'],
    earlier: [],
    base,
    proposed,
    ...overrides,
  });
  const path = () => `/api/apps/${appId}/suggestions`;
  const openOnes = async (client: ApiClient) =>
    (await client.get<SuggestionList>(path())).body.suggestions;

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_sg_${engine}`);
    ben = await h.signup(`ben_sg_${engine}`);
    viewer = await h.signup(`vi_sg_${engine}`);
    stranger = await h.signup(`st_sg_${engine}`);
    await verifyEmail(h, ada);
    appId = await createApp(h, ada, base);
    await shareApp(ada, appId, [
      [`ben_sg_${engine}`, 'editor'],
      [`vi_sg_${engine}`, 'viewer'],
    ]);
  });
  afterAll(() => h.close());

  it('keeps an editor’s suggestion for every collaborator to see; another editor accepts it once', async () => {
    const sent = body();
    const made = await ada.post<{ suggestion: SuggestionSummary }>(path(), sent);
    expect(made.status).toBe(201);
    expect((await ada.post(path(), sent)).status).toBe(200);
    expect(made.body.suggestion).toMatchObject({
      id: sent.id,
      asked: 'Add a rating',
      status: 'open',
      createdBy: { username: `ada_sg_${engine}` },
    });

    // The viewer sees it waiting, and what it would change; cannot decide it.
    expect((await openOnes(viewer)).map((s) => s.id)).toEqual([sent.id]);
    const one = await viewer.get<{ base: unknown; proposed: unknown; earlier: unknown[] }>(
      `${path()}/${sent.id}`,
    );
    expect(one.status).toBe(200);
    expect((one.body.proposed as typeof proposed).meta.title).toBe('Habits, rated');
    expect((one.body.base as typeof base).meta.title).toBe('Habits');
    const refused = await viewer.post(`${path()}/${sent.id}/close`, { outcome: 'rejected' });
    expect(refused.status).toBe(403);

    // Ben, an editor, accepts it; Ada, too late, is told who did.
    const closed = await ben.post<{ suggestion: SuggestionSummary }>(`${path()}/${sent.id}/close`, {
      outcome: 'accepted',
    });
    expect(closed.status).toBe(200);
    expect(closed.body.suggestion).toMatchObject({
      status: 'accepted',
      closedBy: { username: `ben_sg_${engine}` },
    });
    const late = await ada.post(`${path()}/${sent.id}/close`, { outcome: 'rejected' });
    expect(late.status).toBe(409);
    expect(errorCode(late)).toBe('already_closed');
    expect(JSON.stringify(late.body)).toContain(`ben_sg_${engine} already accepted`);
    expect(await openOnes(ada)).toEqual([]);
  });

  it('refuses what is not a suggestion, from whom it is not, keeping nothing', async () => {
    const bad = body({ proposed: { ...proposed, screens: 'none' } });
    const invalid = await ada.post(path(), bad);
    expect(invalid.status).toBe(400);
    expect(errorCode(invalid)).toBe('validation_failed');
    expect(JSON.stringify(invalid.body)).toContain('proposed');
    expect((await ada.post(path(), body({ asked: '' }))).status).toBe(400);
    expect((await viewer.post(path(), body())).status).toBe(403);
    expect((await stranger.post(path(), body())).status).toBe(404);
    expect((await stranger.get(path())).status).toBe(404);
    expect((await ada.get(`${path()}/${createId()}`)).status).toBe(404);
    expect((await ada.post(`${path()}/${createId()}/close`, { outcome: 'accepted' })).status).toBe(
      404,
    );
    expect((await ada.post(`${path()}/${bad.id}/close`, { outcome: 'maybe' })).status).toBe(400);
    expect(await openOnes(ada)).toEqual([]);
  });

  it(`keeps at most ${SUGGESTION_LIMITS.openPerApp} waiting, and says what to do`, async () => {
    for (let i = 0; i < SUGGESTION_LIMITS.openPerApp; i++) {
      expect((await ben.post(path(), body())).status).toBe(201);
    }
    const full = await ben.post(path(), body());
    expect(full.status).toBe(403);
    expect(errorCode(full)).toBe('limit_reached');
    expect(JSON.stringify(full.body)).toContain('Accept or reject some of them first');
    const [newest] = await openOnes(ada);
    expect((await ada.post(`${path()}/${newest!.id}/close`, { outcome: 'rejected' })).status).toBe(
      200,
    );
    expect((await ben.post(path(), body())).status).toBe(201);
  });
});
