import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/types';
import { type Engine, openEngine } from '../support/engines';
import { insertUser } from '../support/users';

const DAY_MS = 24 * 60 * 60 * 1000;
const TODAY = 20_000 * DAY_MS;
const YESTERDAY = TODAY - DAY_MS;

/** AI quota and usage on each engine, each test on an empty database. */
export function describeAiUsageContract(engine: Engine) {
  describe(`storage contract: ${engine}: AI usage`, () => {
    let storage: Storage;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ storage, cleanup } = await openEngine(engine));
    });
    afterEach(async () => {
      await storage.close();
      await cleanup();
    });

    it('reserves runs up to the limit, per person and day', async () => {
      expect(await storage.aiUsage.runsUsed('ada', TODAY)).toBe(0);
      expect(await storage.aiUsage.reserveRun('ada', TODAY, 2)).toEqual({ taken: true, used: 1 });
      expect(await storage.aiUsage.reserveRun('ada', TODAY, 2)).toEqual({ taken: true, used: 2 });
      expect(await storage.aiUsage.reserveRun('ada', TODAY, 2)).toEqual({ taken: false, used: 2 });
      // Another day and another person have their own counts.
      expect(await storage.aiUsage.reserveRun('ada', YESTERDAY, 2)).toEqual({
        taken: true,
        used: 1,
      });
      expect(await storage.aiUsage.reserveRun('bob', TODAY, 2)).toEqual({ taken: true, used: 1 });
      expect(await storage.aiUsage.runsUsed('ada', TODAY)).toBe(2);
      expect(await storage.aiUsage.reserveRun('cyd', TODAY, 0)).toEqual({ taken: false, used: 0 });
    });

    it('lets exactly the limit through when many runs race for it', async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => storage.aiUsage.reserveRun('ada', TODAY, 5)),
      );
      expect(results.filter((r) => r.taken)).toHaveLength(5);
      expect(await storage.aiUsage.runsUsed('ada', TODAY)).toBe(5);
    });

    it('gives a reserved run back, never below zero', async () => {
      await storage.aiUsage.reserveRun('ada', TODAY, 1);
      expect((await storage.aiUsage.reserveRun('ada', TODAY, 1)).taken).toBe(false);
      await storage.aiUsage.releaseRun('ada', TODAY);
      expect(await storage.aiUsage.runsUsed('ada', TODAY)).toBe(0);
      await storage.aiUsage.releaseRun('ada', TODAY);
      await storage.aiUsage.releaseRun('nobody', TODAY);
      expect(await storage.aiUsage.runsUsed('ada', TODAY)).toBe(0);
      expect((await storage.aiUsage.reserveRun('ada', TODAY, 1)).taken).toBe(true);
    });

    it('adds usage up per day and app, newest day first, with the app’s title', async () => {
      const owner = await insertUser(storage);
      await storage.apps.insert({
        id: 'app-recipes',
        ownerId: owner.id,
        title: 'Recipes',
        description: '',
        icon: null,
        createdAt: 1,
      });
      const big = 3_000_000_000; // past 32 bits: token counts grow.
      await storage.aiUsage.record({
        day: TODAY,
        appId: 'app-recipes',
        userId: 'ada',
        runs: 1,
        promptTokens: big,
        completionTokens: 5,
      });
      await storage.aiUsage.record({
        day: TODAY,
        appId: 'app-recipes',
        userId: 'ada',
        runs: 1,
        promptTokens: 10,
        completionTokens: 5,
      });
      await storage.aiUsage.record({
        day: TODAY,
        appId: 'app-recipes',
        userId: 'bob',
        runs: 0,
        promptTokens: 7,
        completionTokens: 3,
      });
      await storage.aiUsage.record({
        day: TODAY,
        appId: 'app-gone',
        userId: 'bob',
        runs: 3,
        promptTokens: 1,
        completionTokens: 1,
      });
      await storage.aiUsage.record({
        day: YESTERDAY,
        appId: 'app-recipes',
        userId: 'ada',
        runs: 1,
        promptTokens: 1,
        completionTokens: 1,
      });
      await storage.aiUsage.record({
        day: YESTERDAY - 40 * DAY_MS,
        appId: 'app-recipes',
        userId: 'ada',
        runs: 9,
        promptTokens: 9,
        completionTokens: 9,
      });

      expect(await storage.aiUsage.dailyUsage(YESTERDAY)).toEqual([
        {
          day: TODAY,
          appId: 'app-gone',
          appTitle: null,
          people: 1,
          runs: 3,
          promptTokens: 1,
          completionTokens: 1,
        },
        {
          day: TODAY,
          appId: 'app-recipes',
          appTitle: 'Recipes',
          people: 2,
          runs: 2,
          promptTokens: big + 17,
          completionTokens: 13,
        },
        {
          day: YESTERDAY,
          appId: 'app-recipes',
          appTitle: 'Recipes',
          people: 1,
          runs: 1,
          promptTokens: 1,
          completionTokens: 1,
        },
      ]);
    });

    it('adds up usage with no app (apps made from a description) in a row of its own', async () => {
      const usage = { day: TODAY, appId: null, runs: 1, promptTokens: 10, completionTokens: 2 };
      await storage.aiUsage.record({ ...usage, userId: 'ada' });
      await storage.aiUsage.record({ ...usage, userId: 'ada', runs: 0 });
      await storage.aiUsage.record({ ...usage, userId: 'bob' });
      await storage.aiUsage.record({ ...usage, appId: 'a1', userId: 'bob', runs: 5 });
      expect(await storage.aiUsage.dailyUsage(TODAY)).toEqual([
        {
          day: TODAY,
          appId: 'a1',
          appTitle: null,
          people: 1,
          runs: 5,
          promptTokens: 10,
          completionTokens: 2,
        },
        {
          day: TODAY,
          appId: null,
          appTitle: null,
          people: 2,
          runs: 2,
          promptTokens: 30,
          completionTokens: 6,
        },
      ]);
      // Deleting an app never touches them; deleting the person does.
      await storage.aiUsage.deleteForApp('a1');
      await storage.aiUsage.deleteForUser('bob');
      expect((await storage.aiUsage.dailyUsage(TODAY)).map((r) => [r.appId, r.runs])).toEqual([
        [null, 1],
      ]);
    });

    it('deletes a person’s rows, an app’s rows, and days past retention', async () => {
      const usage = { day: TODAY, runs: 1, promptTokens: 1, completionTokens: 1 };
      await storage.aiUsage.record({ ...usage, appId: 'a1', userId: 'ada' });
      await storage.aiUsage.record({ ...usage, appId: 'a2', userId: 'ada' });
      await storage.aiUsage.record({ ...usage, appId: 'a1', userId: 'bob' });
      await storage.aiUsage.record({ ...usage, day: YESTERDAY, appId: 'a3', userId: 'bob' });
      await storage.aiUsage.reserveRun('ada', TODAY, 5);
      await storage.aiUsage.reserveRun('bob', YESTERDAY, 5);

      await storage.aiUsage.deleteForUser('ada');
      expect(await storage.aiUsage.runsUsed('ada', TODAY)).toBe(0);
      let rows = await storage.aiUsage.dailyUsage(0);
      expect(rows.map((r) => [r.appId, r.people])).toEqual([
        ['a1', 1],
        ['a3', 1],
      ]);

      await storage.aiUsage.deleteForApp('a1');
      rows = await storage.aiUsage.dailyUsage(0);
      expect(rows.map((r) => r.appId)).toEqual(['a3']);

      await storage.aiUsage.prune(TODAY);
      expect(await storage.aiUsage.dailyUsage(0)).toEqual([]);
      expect(await storage.aiUsage.runsUsed('bob', YESTERDAY)).toBe(0);
    });
  });
}
