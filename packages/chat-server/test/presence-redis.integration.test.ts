import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryPubSub } from '../src/pubsub/memory.ts';
import type { WebSocket } from 'ws';
import { Connection } from '../src/realtime/connection.ts';
import { Hub } from '../src/realtime/hub.ts';
import { createRedisPresenceStore } from '../src/realtime/presence-redis.ts';
import type { Reaped } from '../src/realtime/presence-store.ts';

const redisUrl = process.env.REDIS_URL;
const TTL_MS = 600;
const quiet = { warn: () => undefined };

if (redisUrl) {
  describe('the Redis presence store', () => {
    const clients: Redis[] = [];
    const stores: { close(): Promise<void> }[] = [];
    afterAll(async () => {
      for (const store of stores) await store.close();
      for (const client of clients) client.disconnect();
    });

    /** A node whose sockets are only what the test reports (its hub stays empty), past its first heartbeat. */
    async function node(keyPrefix: string) {
      const redis = new Redis(redisUrl!);
      clients.push(redis);
      const store = createRedisPresenceStore({
        redis,
        keyPrefix,
        ttlMs: TTL_MS,
        hub: new Hub(createMemoryPubSub(), quiet),
        log: quiet,
      });
      stores.push(store);
      // The first heartbeat replaces the node's counts with its (empty) hub: let it pass before reporting sockets.
      await store.tickNow();
      return store;
    }

    it('has one of several surviving nodes reap a dead node, reporting its users offline exactly once', async () => {
      const prefix = `presence-unit:${randomBytes(4).toString('hex')}:`;
      const [dead, first, second] = await Promise.all([node(prefix), node(prefix), node(prefix)]);
      const reports: Reaped[] = [];
      const firstReport = new Promise<void>((resolve) => {
        for (const survivor of [first, second])
          survivor.onReaped((reaped) => {
            reports.push(reaped);
            resolve();
          });
      });
      await dead.connected('app', 'lan');
      await dead.connected('app', 'lan');
      await first.connected('app', 'diep');
      await dead.connected('app', 'diep');
      await dead.watching('app', 'messaging:a', 'lan', 1);
      await first.watching('app', 'messaging:a', 'diep', 1);
      expect(await second.watcherCounts('app', ['messaging:a'])).toEqual(
        new Map([['messaging:a', 2]]),
      );
      dead.abandon();
      await firstReport;
      // Another round on each survivor finds nothing left: the first reaper took the node for good.
      await Promise.all([first.tickNow(), second.tickNow()]);
      expect(reports).toEqual([
        {
          offline: [{ appId: 'app', userId: 'lan' }],
          stoppedWatching: [{ appId: 'app', cid: 'messaging:a', userId: 'lan' }],
        },
      ]);
      expect(await second.onlineAmong('app', ['lan', 'diep'])).toEqual(new Set(['diep']));
      expect(await second.watcherUserIds('app', 'messaging:a', 0, 10)).toEqual(['diep']);
    });

    it('ignores a departure the reaper already took back instead of going below zero', async () => {
      const prefix = `presence-unit:${randomBytes(4).toString('hex')}:`;
      const [stale, other] = await Promise.all([node(prefix), node(prefix)]);
      expect(await stale.disconnected('app', 'lan')).toBe(false);
      expect(await other.connected('app', 'lan')).toBe(true);
      expect(await other.onlineAmong('app', ['lan'])).toEqual(new Set(['lan']));
    });

    it('counts its sockets again after Redis forgot the node, without counting them twice', async () => {
      const prefix = `presence-unit:${randomBytes(4).toString('hex')}:`;
      const hub = new Hub(createMemoryPubSub(), quiet);
      const redis = new Redis(redisUrl!);
      clients.push(redis);
      const store = createRedisPresenceStore({
        redis,
        keyPrefix: prefix,
        ttlMs: TTL_MS,
        hub,
        log: quiet,
      });
      stores.push(store);
      const closedSocket = { readyState: 3 } as unknown as WebSocket;
      for (const id of ['c1', 'c2']) {
        const connection = new Connection({
          id,
          appId: 'app',
          userId: 'lan',
          role: 'user',
          anonymous: false,
          socket: closedSocket,
          maxBufferedBytes: 1e6,
          onBroken: () => {},
        });
        hub.add(connection);
        await store.connected('app', 'lan');
        hub.watch(connection, 'messaging:a');
        await store.watching('app', 'messaging:a', 'lan', 1);
      }
      const observer = await node(prefix);
      // A Redis restart without persistence: every key is gone.
      const keys = await redis.keys(`${prefix}*`);
      await redis.del(...keys);
      expect(await observer.onlineAmong('app', ['lan'])).toEqual(new Set());
      await store.tickNow();
      await store.tickNow();
      expect(await observer.onlineAmong('app', ['lan'])).toEqual(new Set(['lan']));
      expect(await observer.watcherCounts('app', ['messaging:a'])).toEqual(
        new Map([['messaging:a', 1]]),
      );
      // Both sockets leave: the counts restored are exactly what they were, so the user goes offline at the last.
      expect(await store.disconnected('app', 'lan')).toBe(false);
      expect(await store.disconnected('app', 'lan')).toBe(true);
    });

    it('answers from the node’s own sockets while Redis is unreachable, without throwing', async () => {
      const down = new Redis('redis://127.0.0.1:1', {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
      });
      down.on('error', () => undefined);
      clients.push(down);
      const warnings: string[] = [];
      const store = createRedisPresenceStore({
        redis: down,
        keyPrefix: 'unused:',
        ttlMs: TTL_MS,
        hub: new Hub(createMemoryPubSub(), quiet),
        log: { warn: (_: object, msg: string) => warnings.push(msg) },
      });
      stores.push(store);
      expect(await store.onlineAmong('app', ['lan'])).toEqual(new Set());
      expect(await store.watcherCounts('app', ['messaging:a'])).toEqual(
        new Map([['messaging:a', 0]]),
      );
      expect(await store.connected('app', 'lan')).toBe(false);
      expect(warnings).toEqual(['presence in Redis unavailable: using this node only']);
    });
  });
}
