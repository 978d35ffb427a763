import type { Upstream, UpstreamVersions } from '@pipit/protocol';
import { describe, expect, it } from 'vitest';
import { createUpstreamWatch, UPSTREAM_MIN_CHECK_GAP_MS } from './upstream-watch';

/** A remix's original as the server answers: base and latest versions. */
function upstreamOf(base: number, latest: number): Upstream {
  return {
    source: {
      appId: 'a'.repeat(26),
      title: 'Original',
      author: { username: 'ada', displayName: '' },
    },
    base: { version: base, definition: {} },
    latest: { version: latest, publishedAt: 0, definition: {} },
    newer: latest > base,
  };
}

/** A server whose original publishes `versions`, counting the requests each kind of read costs. */
function fakeServer(versions: UpstreamVersions | null) {
  const server = {
    versions,
    checks: 0,
    loads: 0,
    online: true,
    visible: true,
    time: 1_000_000,
    shown: [] as Array<Upstream | null>,
  };
  const watch = createUpstreamWatch({
    check: () => {
      server.checks++;
      return Promise.resolve(server.versions);
    },
    load: () => {
      server.loads++;
      const v = server.versions;
      return Promise.resolve(v ? upstreamOf(v.base, v.latest) : null);
    },
    onUpstream: (upstream) => server.shown.push(upstream),
    now: () => server.time,
    isOnline: () => server.online,
    isVisible: () => server.visible,
  });
  return { server, watch };
}

describe('createUpstreamWatch', () => {
  it('learns of a newer version at the next check, and reads the versions only when they changed', async () => {
    const { server, watch } = fakeServer({ base: 1, latest: 1 });
    await watch.start();
    expect([server.loads, server.checks]).toEqual([1, 0]);
    expect(server.shown.at(-1)?.newer).toBe(false);

    // Nothing new: a small check, nothing more.
    await watch.poke();
    expect([server.loads, server.checks]).toEqual([1, 1]);

    // The original publishes version 2: the next check fetches the whole answer, once.
    server.versions = { base: 1, latest: 2 };
    server.time += UPSTREAM_MIN_CHECK_GAP_MS;
    await watch.poke();
    expect([server.loads, server.checks]).toEqual([2, 2]);
    expect(server.shown.at(-1)?.newer).toBe(true);

    // No longer shared with this person: said too (nothing to pull).
    server.versions = null;
    server.time += UPSTREAM_MIN_CHECK_GAP_MS;
    await watch.poke();
    expect(server.shown.at(-1)).toBeNull();
  });

  it('checks at most once every few seconds, and never while offline or hidden', async () => {
    const { server, watch } = fakeServer({ base: 1, latest: 1 });
    await watch.start();
    await watch.poke();
    // Focus and visibility together, and again a second later: one request.
    await watch.poke();
    server.time += UPSTREAM_MIN_CHECK_GAP_MS - 1;
    await watch.poke();
    expect(server.checks).toBe(1);

    server.time += 1;
    server.visible = false;
    await watch.poke();
    server.visible = true;
    server.online = false;
    await watch.poke();
    expect(server.checks).toBe(1);
    server.online = true;
    await watch.poke();
    expect(server.checks).toBe(2);
  });

  it('after a pull, the versions pulled are the ones shown: no whole answer again for them', async () => {
    const { server, watch } = fakeServer({ base: 1, latest: 2 });
    await watch.start();
    server.versions = { base: 2, latest: 2 };
    watch.shown(upstreamOf(2, 2));
    await watch.poke();
    expect([server.loads, server.checks]).toEqual([1, 1]);
  });

  it('opened offline, it reads the whole answer at its first check online', async () => {
    const { server, watch } = fakeServer({ base: 1, latest: 3 });
    server.online = false;
    await watch.start();
    expect(server.loads).toBe(0);
    server.online = true;
    await watch.poke();
    expect([server.loads, server.checks]).toEqual([1, 1]);
    expect(server.shown.at(-1)?.newer).toBe(true);
  });
});
