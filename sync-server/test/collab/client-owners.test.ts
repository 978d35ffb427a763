import { describe, expect, it, vi } from 'vitest';
import {
  claimForWriter,
  claimTentative,
  type ClientOwnership,
} from '../../src/collab/client-owners';
import { createLogger } from '../../src/logger';

/*
 * Who owns a document's client ids while storage cannot be asked (collab/client-owners.ts): the
 * writer takes them for now, so live editing goes on through a database outage, and they are
 * claimed for good as soon as storage answers — someone who owned one by then keeps it.
 */
const logger = createLogger('silent');
const NAME = 'space/aaaaaaaaaaaaaaaaaaaaaaaaaa';
const fresh = (): ClientOwnership => ({ owners: new Map(), tentative: new Set(), retryAt: 0 });

describe('client ids while storage is out of reach', () => {
  it('takes them for now, then claims them for good once storage answers', async () => {
    const ownership = fresh();
    const down = () => Promise.reject(new Error('connection refused'));
    await claimForWriter(ownership, {
      claim: down,
      documentName: NAME,
      userId: 'ada',
      clients: [1, 2],
      logger,
      now: 1_000,
    });
    expect(ownership.owners).toEqual(
      new Map([
        [1, 'ada'],
        [2, 'ada'],
      ]),
    );
    expect([...ownership.tentative]).toEqual([1, 2]);
    // Not tried again at once: storage is given a moment.
    const claim = vi.fn((_name: string, userId: string, clients: number[]) =>
      Promise.resolve(new Map(clients.map((c) => [c, c === 2 ? 'ben' : userId]))),
    );
    claimTentative(ownership, { claim, documentName: NAME, logger, now: 2_000 });
    expect(claim).not.toHaveBeenCalled();
    claimTentative(ownership, { claim, documentName: NAME, logger, now: 10_000 });
    expect(claim).toHaveBeenCalledWith(NAME, 'ada', [1, 2]);
    // Ben had claimed client 2 elsewhere meanwhile: he keeps it; Ada keeps client 1.
    await vi.waitFor(() => expect(ownership.tentative.size).toBe(0));
    expect(ownership.owners).toEqual(
      new Map([
        [1, 'ada'],
        [2, 'ben'],
      ]),
    );
  });

  it('keeps them taken for now while storage still fails, trying again later', async () => {
    const ownership = fresh();
    const down = vi.fn(() => Promise.reject(new Error('connection refused')));
    await claimForWriter(ownership, {
      claim: down,
      documentName: NAME,
      userId: 'ada',
      clients: [7],
      logger,
      now: 0,
    });
    claimTentative(ownership, { claim: down, documentName: NAME, logger, now: 6_000 });
    await vi.waitFor(() => expect(down).toHaveBeenCalledTimes(2));
    expect(ownership.owners.get(7)).toBe('ada');
    expect(ownership.tentative.has(7)).toBe(true);
    claimTentative(ownership, { claim: down, documentName: NAME, logger, now: 7_000 });
    expect(down).toHaveBeenCalledTimes(2);
  });
});
