import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Event, StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatServerConfig, DeepPartial } from '../src/config.ts';
import { createMemoryPubSub } from '../src/pubsub/memory.ts';
import { Hub } from '../src/realtime/hub.ts';
import { createRedisPresenceStore } from '../src/realtime/presence-redis.ts';
import {
  createPostgresSchema,
  startTestChatServer,
  type TestChatServer,
} from '../src/testing/harness.ts';
import {
  connectUser,
  contractEnvOn,
  createUsers,
  disconnectClients,
  type ContractEnv,
  uniqueId,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';

const redisUrl = process.env.REDIS_URL;
const PRESENCE_TTL_MS = 900;
const ENDPOINT_LIMIT = 5;
const quiet = { warn: () => undefined };

/** Every `user.presence.changed` about `userId` a client receives, in order. */
function presenceLog(client: StreamChat, userId: string): boolean[] {
  const seen: boolean[] = [];
  client.on('user.presence.changed', (event: Event) => {
    if (event.user?.id === userId) seen.push(event.user.online === true);
  });
  return seen;
}

/** Follows `userIds`' presence the way the web app does: queryUsers with `presence: true`. */
async function follow(client: StreamChat, userIds: string[]) {
  const { users } = await client.queryUsers({ id: { $in: userIds } }, {}, { presence: true });
  return new Map(users.map((user) => [user.id, user.online === true]));
}

const pgUrlForCluster =
  process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

// Two nodes need one PostgreSQL database between them: this file runs in the PostgreSQL project only.
if (redisUrl && pgUrlForCluster) {
  describe('presence, watcher counts and rate limits shared by two nodes through Redis', () => {
    const app = {
      key: `k-${randomBytes(4).toString('hex')}`,
      secret: randomBytes(16).toString('hex'),
    };
    const keyPrefix = `presence-test:${randomBytes(4).toString('hex')}:`;
    let nodes: TestChatServer[] = [];
    let envs: ContractEnv[] = [];
    let dropSchema = async () => {};

    beforeAll(async () => {
      const pgUrl =
        process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
      if (!pgUrl) throw new Error('the cluster presence tests need TEST_DATABASE_URL (postgres)');
      const { schema, drop } = await createPostgresSchema(pgUrl);
      dropSchema = drop;
      const config: DeepPartial<ChatServerConfig> = {
        apps: [app],
        pubsub: { kind: 'redis', url: redisUrl, keyPrefix, presenceTtlMs: PRESENCE_TTL_MS },
        db: { kind: 'postgres', url: pgUrl, schema, poolSize: 3 },
        rateLimits: { enabled: true, perUser: { endpoint: ENDPOINT_LIMIT } },
      };
      nodes = [await startTestChatServer({ config }), await startTestChatServer({ config })];
      envs = nodes.map(contractEnvOn);
    });
    afterAll(async () => {
      for (const env of envs) await disconnectClients(env);
      for (const node of nodes) await node.close();
      await dropSchema();
    });

    it('reports a user connected to node A as online in a query made on node B', async () => {
      const [a, b] = envs as [ContractEnv, ContractEnv];
      const tuId = uniqueId('tu');
      const quanId = uniqueId('quan');
      await createUsers(a, [tuId, quanId]);
      await connectUser(a, tuId);
      const onB = await b.admin.queryUsers({ id: { $in: [tuId, quanId] } });
      const online = new Map(onB.users.map((user) => [user.id, user.online]));
      expect(online.get(tuId)).toBe(true);
      expect(online.get(quanId)).toBe(false);
    });

    it('announces a user once when a second socket opens on the other node, and once when the last one closes', async () => {
      const [a, b] = envs as [ContractEnv, ContractEnv];
      const [tuId, sentinelId, onAId, onBId] = ['tu', 'moc', 'xem-a', 'xem-b'].map(uniqueId);
      await createUsers(a, [tuId!, sentinelId!, onAId!, onBId!]);
      const watcherA = await connectUser(a, onAId!);
      const watcherB = await connectUser(b, onBId!);
      await follow(watcherA, [tuId!, sentinelId!]);
      await follow(watcherB, [tuId!, sentinelId!]);
      const seenOnA = presenceLog(watcherA, tuId!);
      const seenOnB = presenceLog(watcherB, tuId!);

      const cameOnline = waitForEvent(
        watcherA,
        'user.presence.changed',
        (e) => e.user?.id === tuId,
      );
      const first = await connectUser(a, tuId!);
      await cameOnline;
      const second = await connectUser(b, tuId!);
      // The sentinel connects through node B after the second socket: once its arrival is seen on both nodes,
      // any event the second socket had caused would have been seen too.
      const sentinelOnA = waitForEvent(
        watcherA,
        'user.presence.changed',
        (e) => e.user?.id === sentinelId,
      );
      const sentinelOnB = waitForEvent(
        watcherB,
        'user.presence.changed',
        (e) => e.user?.id === sentinelId,
      );
      await connectUser(b, sentinelId!);
      await Promise.all([sentinelOnA, sentinelOnB]);
      expect(seenOnA).toEqual([true]);
      expect(seenOnB).toEqual([true]);

      await first.disconnectUser();
      const offlineOnA = waitForEvent(
        watcherA,
        'user.presence.changed',
        (e) => e.user?.id === tuId,
      );
      const offlineOnB = waitForEvent(
        watcherB,
        'user.presence.changed',
        (e) => e.user?.id === tuId,
      );
      await second.disconnectUser();
      expect((await offlineOnA).user?.online).toBe(false);
      expect((await offlineOnB).user?.online).toBe(false);
      expect(seenOnA).toEqual([true, false]);
      expect(seenOnB).toEqual([true, false]);
    });

    it('turns the users of a node that stopped its heartbeat offline within the expiry, announced once', async () => {
      const [a, b] = envs as [ContractEnv, ContractEnv];
      const ghostId = uniqueId('hon-ma');
      const followerId = uniqueId('theo-doi');
      await createUsers(a, [ghostId, followerId]);
      const redis = new Redis(redisUrl);
      const crashed = createRedisPresenceStore({
        redis,
        keyPrefix,
        ttlMs: PRESENCE_TTL_MS,
        hub: new Hub(createMemoryPubSub(), quiet),
        log: quiet,
      });
      try {
        // Its hub stays empty: the first heartbeat (which counts the hub's sockets) must pass before the report.
        await crashed.tickNow();
        expect(await crashed.connected(app.key, ghostId)).toBe(true);
        const follower = await connectUser(b, followerId);
        expect((await follow(follower, [ghostId])).get(ghostId)).toBe(true);
        const seen = presenceLog(follower, ghostId);
        const wentOffline = waitForEvent(
          follower,
          'user.presence.changed',
          (e) => e.user?.id === ghostId,
          PRESENCE_TTL_MS * 6,
        );
        crashed.abandon();
        expect((await wentOffline).user?.online).toBe(false);
        const onA = await a.admin.queryUsers({ id: ghostId });
        expect(onA.users[0]?.online).toBe(false);
        expect(seen).toEqual([false]);
      } finally {
        redis.disconnect();
      }
    });

    /** Nam on the first node and Bắc on the second watch one new channel; Bắc's arrival as Nam's node heard it. */
    async function watchedOnBothNodes(channelPrefix: string) {
      const [a, b] = envs as [ContractEnv, ContractEnv];
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(a, [namId, bacId]);
      const nam = await connectUser(a, namId);
      const bac = await connectUser(b, bacId);
      const channelId = uniqueId(channelPrefix);
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });
      const started = waitForEvent(nam, 'user.watching.start', (e) => e.user?.id === bacId);
      const bacChannel = await watchChannel(bac, 'messaging', channelId);
      return { namId, bacId, nam, bac, namChannel, bacChannel, started: await started };
    }

    it('gives the same watcher count on both nodes, in answers and in user.watching.start', async () => {
      const { namId, bacId, namChannel, bacChannel, started } =
        await watchedOnBothNodes('dong-phu');
      expect(started.watcher_count).toBe(2);
      const fromA = await namChannel.query({ watch: true, state: true });
      const fromB = await bacChannel.query({ watch: true, state: true, watchers: { limit: 10 } });
      expect(fromA.watcher_count).toBe(2);
      expect(fromB.watcher_count).toBe(2);
      expect(fromB.watchers?.map((w) => w.id).sort()).toEqual([namId, bacId].sort());
    });

    it('carries the cluster-wide watcher count in message.new, whichever node the message is sent through', async () => {
      const { bacId, nam, bac, namChannel, bacChannel } = await watchedOnBothNodes('song-hong');
      const onB = waitForEvent(bac, 'message.new');
      await namChannel.sendMessage({ text: 'Gửi qua nút A' });
      expect((await onB).watcher_count).toBe(2);
      const onA = waitForEvent(nam, 'message.new', (e) => e.user?.id === bacId);
      await bacChannel.sendMessage({ text: 'Gửi qua nút B' });
      expect((await onA).watcher_count).toBe(2);
    });

    it('shares a per-user limit between the nodes: the call past it on the other node is refused with code 9', async () => {
      const [a, b] = envs as [ContractEnv, ContractEnv];
      const callerId = uniqueId('goi');
      await createUsers(a, [callerId]);
      const onA = await connectUser(a, callerId);
      const onB = await connectUser(b, callerId);
      for (let i = 0; i < ENDPOINT_LIMIT; i += 1) await onA.getAppSettings();
      const refused = await onB.getAppSettings().then(
        () => undefined,
        (error: unknown) => error as { code?: number; status?: number },
      );
      expect(refused?.code).toBe(9);
      expect(refused?.status).toBe(429);
    });
  });
} else {
  describe('presence, watcher counts and rate limits shared by two nodes through Redis', () => {
    it.todo('runs in the PostgreSQL project with REDIS_URL set');
  });
}
