import { describe, expect, it } from 'vitest';
import { parseDocumentName } from '@pipit/protocol';
import { PLAIN_COOKIE_NAME } from '../../src/accounts/session-cookie';
import type { SessionService } from '../../src/accounts/sessions';
import { createDocumentAccess, SESSION_REUSE_MS } from '../../src/collab/access';
import type { Storage } from '../../src/storage/types';

/*
 * A burst of openings (a socket and its documents, a restart's reconnect storm) reads each session
 * once: the policy keeps a read for SESSION_REUSE_MS, until any access decision (`forget`), and
 * never keeps one that failed. The role on each document is read every time.
 */

const APP = 'app/aaaaaaaaaaaaaaaaaaaaaaaaaa';

function policy() {
  const reads = { sessions: 0, roles: 0 };
  let failNext = false;
  let clock = 1_000_000;
  const sessions = {
    authenticate: (cookie: string | null) => {
      reads.sessions += 1;
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('the database is unreachable'));
      }
      return Promise.resolve(
        cookie === 'ada-session' ? { session: { id: 'session-1' }, user: { id: 'ada' } } : null,
      );
    },
  } as unknown as SessionService;
  const storage = {
    apps: {
      getWithRole: () => {
        reads.roles += 1;
        return Promise.resolve({ app: {}, role: 'owner' });
      },
    },
  } as unknown as Storage;
  const access = createDocumentAccess({
    storage,
    sessions,
    publicOrigin: undefined,
    trustProxy: false,
    now: () => clock,
  });
  const request = (cookie: string) =>
    new Request('http://127.0.0.1/api/sync', {
      headers: { cookie: `${PLAIN_COOKIE_NAME}=${cookie}` },
    });
  const open = (cookie = 'ada-session') =>
    access.grantFor({ document: parseDocumentName(APP)!, request: request(cookie) });
  return {
    access,
    reads,
    open,
    identify: (cookie = 'ada-session') => access.identify(request(cookie)),
    failNext: () => (failNext = true),
    advance: (ms: number) => (clock += ms),
  };
}

describe('a session read serves the openings that follow it', () => {
  it('one read for a socket and its documents; each document’s role read each time', async () => {
    const p = policy();
    expect(await p.identify()).toEqual({ userId: 'ada' });
    for (let i = 0; i < 3; i++) {
      expect(await p.open()).toEqual({ role: 'owner', userId: 'ada', sessionId: 'session-1' });
    }
    expect(p.reads).toEqual({ sessions: 1, roles: 3 });
    // Someone else's cookie is their own read.
    expect(await p.identify('mallory-guess')).toBeNull();
    expect(p.reads.sessions).toBe(2);
  });

  it('is read again after any access decision, and once it is older than the window', async () => {
    const p = policy();
    await p.open();
    p.access.forget?.();
    await p.open();
    expect(p.reads.sessions).toBe(2);
    p.advance(SESSION_REUSE_MS - 1);
    await p.open();
    expect(p.reads.sessions).toBe(2);
    p.advance(1);
    await p.open();
    expect(p.reads.sessions).toBe(3);
  });

  it('never keeps a read that failed', async () => {
    const p = policy();
    p.failNext();
    await expect(p.open()).rejects.toThrow(/unreachable/);
    expect(await p.open()).toMatchObject({ userId: 'ada' });
    expect(p.reads.sessions).toBe(2);
  });
});
