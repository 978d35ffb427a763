import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { NotFoundError, type OccurrenceKey, type Storage } from '../../src/storage/types';
import { type Engine, openEngine } from '../support/engines';
import { insertUser } from '../support/users';

const NOW = 1_800_000_000_000;

/** Reminders' once-per-occurrence table and the in-process scheduler's queue, on each engine. */
export function describeRemindersContract(engine: Engine) {
  describe(`storage contract: ${engine}: reminder deliveries and jobs`, () => {
    let storage: Storage;
    let cleanup: () => Promise<void>;
    let userId: string;
    let appId: string;
    beforeAll(async () => {
      ({ storage, cleanup } = await openEngine(engine));
      userId = (await insertUser(storage)).id;
      appId = createId();
      await storage.apps.insert({
        id: appId,
        ownerId: userId,
        title: 'Habits',
        description: '',
        icon: null,
        createdAt: NOW,
      });
    });
    afterAll(async () => {
      await storage.close();
      await cleanup();
    });
    const occurrence = (): OccurrenceKey => ({
      userId,
      appId,
      reminderId: createId(),
      occurrence: NOW,
    });

    it('claims an occurrence once: a second job finds it taken', async () => {
      const key = occurrence();
      expect(await storage.reminderDeliveries.occurrenceStatus(key)).toBeNull();
      expect(await storage.reminderDeliveries.claimOccurrence(key, 'job-1', NOW)).toBe(true);
      expect(await storage.reminderDeliveries.occurrenceStatus(key)).toBe('sending');
      expect(await storage.reminderDeliveries.claimOccurrence(key, 'job-2', NOW)).toBe(false);
      // Another occurrence of the same reminder is another delivery.
      const next = { ...key, occurrence: NOW + 86_400_000 };
      expect(await storage.reminderDeliveries.claimOccurrence(next, 'job-2', NOW)).toBe(true);
    });

    it('lets a retry of the claiming job send again until the occurrence is marked', async () => {
      const key = occurrence();
      expect(await storage.reminderDeliveries.claimOccurrence(key, 'job-1', NOW)).toBe(true);
      expect(await storage.reminderDeliveries.claimOccurrence(key, 'job-1', NOW + 1)).toBe(true);
      await storage.reminderDeliveries.markOccurrence(key, 'sent', NOW + 2);
      expect(await storage.reminderDeliveries.occurrenceStatus(key)).toBe('sent');
      expect(await storage.reminderDeliveries.claimOccurrence(key, 'job-1', NOW + 3)).toBe(false);
      expect(await storage.reminderDeliveries.claimOccurrence(key, 'job-2', NOW + 3)).toBe(false);

      const missed = occurrence();
      expect(await storage.reminderDeliveries.claimOccurrence(missed, 'job-3', NOW)).toBe(true);
      await storage.reminderDeliveries.markOccurrence(missed, 'missed', NOW);
      expect(await storage.reminderDeliveries.occurrenceStatus(missed)).toBe('missed');
      expect(await storage.reminderDeliveries.claimOccurrence(missed, 'job-3', NOW)).toBe(false);

      // A formula that held for no record: recorded, and no other job sends it after all.
      const skipped = occurrence();
      expect(await storage.reminderDeliveries.claimOccurrence(skipped, 'job-4', NOW)).toBe(true);
      await storage.reminderDeliveries.markOccurrence(skipped, 'skipped', NOW);
      expect(await storage.reminderDeliveries.occurrenceStatus(skipped)).toBe('skipped');
      expect(await storage.reminderDeliveries.claimOccurrence(skipped, 'job-5', NOW)).toBe(false);
    });

    it('gives one claim to one of many jobs racing for an occurrence', async () => {
      const key = occurrence();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          storage.reminderDeliveries.claimOccurrence(key, `job-${i}`, NOW),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('pages through turned-on reminders, saying where the next page starts', async () => {
      const preferences = { enabled: true, timeZone: 'UTC' };
      const ids = [createId(), createId(), createId()];
      for (const reminderId of ids) {
        await storage.reminderPreferences.put({
          userId,
          appId,
          reminderId,
          preferences,
          updatedAt: NOW,
        });
      }
      await storage.reminderPreferences.put({
        userId,
        appId,
        reminderId: createId(),
        preferences: { ...preferences, enabled: false },
        updatedAt: NOW,
      });
      const first = await storage.reminderPreferences.listEnabled(2);
      expect(first.records).toHaveLength(2);
      expect(first.next).not.toBeNull();
      const second = await storage.reminderPreferences.listEnabled(2, first.next!);
      expect(second.next).toBeNull();
      expect([...first.records, ...second.records].map((r) => r.reminderId).sort()).toEqual(
        [...ids].sort(),
      );
    });

    it('refuses to mark an occurrence never claimed, and bad keys, clearly', async () => {
      await expect(
        storage.reminderDeliveries.markOccurrence(occurrence(), 'sent', NOW),
      ).rejects.toThrow(NotFoundError);
      await expect(
        storage.reminderDeliveries.claimOccurrence(
          { ...occurrence(), occurrence: 1.5 },
          'job',
          NOW,
        ),
      ).rejects.toThrow(/non-negative integer/);
      await expect(
        storage.reminderDeliveries.claimOccurrence({ ...occurrence(), userId: '' }, 'job', NOW),
      ).rejects.toThrow(/user id/);
      await expect(
        storage.reminderDeliveries.claimOccurrence(occurrence(), '', NOW),
      ).rejects.toThrow(/claiming job/);
      await expect(
        storage.reminderDeliveries.markOccurrence(occurrence(), 'sending' as 'sent', NOW),
      ).rejects.toThrow(/'sent', 'missed' or 'skipped'/);
    });

    it('holds a job key while queued or leased, and gives it up once done or failed', async () => {
      const key = `test:${createId()}`;
      const job = (id: string) => ({ id, kind: 'digest', key, payload: '{}', runAt: NOW });
      expect(await storage.jobs.enqueue(job('a'))).toBe(true);
      expect(await storage.jobs.enqueue(job('b'))).toBe(false);
      const [claimed] = await storage.jobs.claim('digest', 10, 'w1', NOW, 1_000);
      expect(claimed).toMatchObject({
        id: 'a',
        key,
        attempts: 1,
        leasedBy: 'w1',
        leaseUntil: NOW + 1_000,
      });
      expect(await storage.jobs.enqueue(job('b'))).toBe(false);
      // Leased: nobody else claims it until the lease has run out.
      expect(await storage.jobs.claim('digest', 10, 'w2', NOW + 999, 1_000)).toEqual([]);
      const [again] = await storage.jobs.claim('digest', 10, 'w2', NOW + 1_001, 1_000);
      expect(again).toMatchObject({ id: 'a', attempts: 2, leasedBy: 'w2' });
      // The first worker lost it: its completion is void.
      expect(await storage.jobs.complete('a', 'w1', NOW + 1_002)).toBe(false);
      expect(await storage.jobs.complete('a', 'w2', NOW + 1_002)).toBe(true);
      expect((await storage.jobs.get(key))?.doneAt).toBe(NOW + 1_002);
      expect(await storage.jobs.enqueue(job('c'))).toBe(true);
      expect(await storage.jobs.get(key)).toMatchObject({ id: 'c', attempts: 0, doneAt: null });
      await storage.jobs.claim('digest', 10, 'w1', NOW + 2_000, 1_000);
      expect(await storage.jobs.fail('c', 'w1', NOW + 2_001, 'boom')).toBe(true);
      expect(await storage.jobs.get(key)).toMatchObject({
        failedAt: NOW + 2_001,
        lastError: 'boom',
      });
      expect(await storage.jobs.claim('digest', 10, 'w1', NOW + 9_000, 1_000)).toEqual([]);
      expect(await storage.jobs.enqueue(job('d'))).toBe(true);
    });

    it('extends a lease for the worker holding the job only, and not once it has ended', async () => {
      const key = `test:${createId()}`;
      const id = createId();
      // A kind of its own: other tests' jobs stay due in this storage.
      const kind = `extend-${createId()}`;
      await storage.jobs.enqueue({ id, kind, key, payload: '{}', runAt: NOW });
      await storage.jobs.claim(kind, 10, 'w1', NOW, 1_000);
      expect(await storage.jobs.extendLease(id, 'w2', NOW + 5_000)).toBe(false);
      expect(await storage.jobs.extendLease(id, 'w1', NOW + 5_000)).toBe(true);
      expect(await storage.jobs.get(key)).toMatchObject({
        leasedBy: 'w1',
        leaseUntil: NOW + 5_000,
      });
      // Past the first lease, the extended one still holds it.
      expect(await storage.jobs.claim(kind, 10, 'w2', NOW + 1_001, 1_000)).toEqual([]);
      expect(await storage.jobs.complete(id, 'w1', NOW + 1_002)).toBe(true);
      expect(await storage.jobs.extendLease(id, 'w1', NOW + 9_000)).toBe(false);
      expect(await storage.jobs.get(key)).toMatchObject({ leaseUntil: null, doneAt: NOW + 1_002 });
    });

    it('claims due jobs only, and each for one of many racing workers', async () => {
      const kind = 'reminder';
      const base = NOW + 10_000_000;
      const keys = Array.from({ length: 20 }, () => `test:${createId()}`);
      for (const [i, key] of keys.entries()) {
        await storage.jobs.enqueue({ id: createId(), kind, key, payload: '{}', runAt: base + i });
      }
      expect(await storage.jobs.claim(kind, 50, 'w', base - 1, 1_000)).toEqual([]);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          storage.jobs.claim(kind, 3, `w${i}`, base + 100, 1_000),
        ),
      );
      // On PostgreSQL a claim that waited for a row another took skips it, so the race may leave
      // some for later; none is ever handed out twice.
      const rest = await storage.jobs.claim(kind, 50, 'late', base + 100, 1_000);
      const ids = [...claims.flat(), ...rest].map((job) => job.key);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    });
  });
}
