import type { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, uniqueId, waitForEvent, watchChannel } from './contract/helpers.ts';
import { NGINX_BINARY } from './support/nginx.ts';
import {
  connectOnNode,
  startProcessCluster,
  type ProcessCluster,
} from './support/process-cluster.ts';
import {
  REDIS_SERVER_BINARY,
  startRedisProcess,
  type RedisProcess,
} from './support/redis-process.ts';
import {
  newSendLog,
  occurrences,
  retryFailed,
  sendRecorded,
  storedIds,
} from './support/send-log.ts';

/*
 * Redis away for OUTAGE_MS under two chat nodes (child processes) behind the shipped nginx site. The test runs its
 * own redis-server (never the shared one other suites use), kills it with SIGKILL and starts it again, empty, on the
 * same port. Meanwhile sends must be acknowledged or refused with Stream's error JSON; afterwards the nodes must
 * recover by themselves (pub/sub resubscribed, presence rebuilt), the clients reconnect, events cross nodes again
 * and nothing acknowledged is lost. The database (SQLite file, or PostgreSQL in that project) stays up throughout.
 */

const OUTAGE_MS = 10_000;
/** Between two sends during the outage. */
const PROBE_EVERY_MS = 500;
/** After Redis is back: stream-chat's reconnect backoff (up to ~8 s after a 10 s outage) plus the resubscribe. */
const RECOVERY_TIMEOUT_MS = 25_000;
const PRESENCE_TTL_MS = 1500;

describe.runIf(NGINX_BINARY && REDIS_SERVER_BINARY)(
  'a cluster whose Redis restarts',
  { timeout: 120_000 },
  () => {
    let redis: RedisProcess;
    let cluster: ProcessCluster;

    beforeAll(async () => {
      redis = await startRedisProcess();
      cluster = await startProcessCluster({
        redisUrl: redis.url,
        label: 'redis-restart',
        presenceTtlMs: PRESENCE_TTL_MS,
      });
    }, 150_000);

    afterAll(async () => {
      await cluster?.close();
      await redis?.stop();
    });

    it('answers sends with Stream errors while Redis is down, then recovers by itself and loses nothing acknowledged', async () => {
      const [tuId, anId] = [uniqueId('tu'), uniqueId('an')];
      await createUsers(cluster.env, [tuId, anId]);
      const { client: tu, node: tuNode } = await connectOnNode(cluster, tuId, {});
      const { client: an } = await connectOnNode(cluster, anId, { avoid: tuNode });
      const channelId = uniqueId('redis-restart');
      const tuChannel = await watchChannel(tu, 'messaging', channelId, { members: [tuId, anId] });
      const anChannel = await watchChannel(an, 'messaging', channelId);
      const log = newSendLog();
      await sendRecorded(tuChannel, `${channelId}-truoc`, log);

      const tuBack = waitForEvent(
        tu,
        'connection.recovered',
        () => true,
        OUTAGE_MS + RECOVERY_TIMEOUT_MS,
      );
      const anBack = waitForEvent(
        an,
        'connection.recovered',
        () => true,
        OUTAGE_MS + RECOVERY_TIMEOUT_MS,
      );
      await redis.kill();
      const outageEnds = Date.now() + OUTAGE_MS;
      for (let i = 0; Date.now() < outageEnds; i++) {
        const sender = i % 2 === 0 ? tuChannel : anChannel;
        await sendRecorded(sender, `${channelId}-giua-${i}`, log);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
      await redis.start();
      // Nothing but a clean Stream error: a JSON body with a code, never a 500, an HTML page or a client timeout.
      for (const { error } of log.failed) {
        expect(error.code, JSON.stringify(error)).toEqual(expect.any(Number));
        expect(error.status, JSON.stringify(error)).not.toBe(500);
      }

      await Promise.all([tuBack, anBack]);
      expect(cluster.nodes.every((node) => node.alive())).toBe(true);
      // Events cross nodes again: tu's socket and an's new one are on different nodes, so this one came through Redis.
      await an.disconnectUser();
      const tuNowOn = await nodeHoldingOnlySocket(cluster);
      const { client: anAgain } = await connectOnNode(cluster, anId, { avoid: tuNowOn });
      const anChannelAgain = await watchChannel(anAgain, 'messaging', channelId);
      const lastId = `${channelId}-sau`;
      const arrived = waitForEvent(anChannelAgain, 'message.new', (e) => e.message?.id === lastId);
      expect(await sendRecorded(tuChannel, lastId, log)).toBe(true);
      await arrived;

      const retried = await retryFailed(anChannelAgain, log);
      const stored = occurrences(await storedIds(anChannelAgain));
      for (const id of [...log.acknowledged, ...retried]) expect(stored.get(id), id).toBe(1);
      expect([...stored.values()].every((count) => count === 1)).toBe(true);
      await expectOnline(anAgain, [tuId, anId]);
      // One warning per outage and kind, not one per failed call: an operator reads these logs during the incident.
      for (const node of cluster.nodes) {
        const output = node.output();
        const said = (phrase: string) =>
          `how often one node logged "${phrase}"; its log:\n${output}`;
        expect(timesIn(output, 'redis subscription lost'), said('redis subscription lost')).toBe(1);
        expect(
          timesIn(output, 'presence in Redis unavailable'),
          said('presence in Redis unavailable'),
        ).toBeLessThanOrEqual(1);
      }
    });
  },
);

const timesIn = (text: string, phrase: string) => text.split(phrase).length - 1;

/** The node holding the one socket left, once the other's close has reached its node (bounded). */
async function nodeHoldingOnlySocket(cluster: ProcessCluster) {
  const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const counts = await Promise.all(cluster.nodes.map((node) => node.socketCount()));
    if (counts.reduce((a, b) => a + b, 0) === 1) return cluster.nodes[counts.indexOf(1)]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the sockets did not settle to one');
}

/** Redis came back empty: each node's heartbeat rejoins and puts its sockets back into the shared presence. */
async function expectOnline(client: StreamChat, userIds: string[]): Promise<void> {
  const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
  let online: string[] = [];
  while (Date.now() < deadline) {
    const { users } = await client.queryUsers({ id: { $in: userIds } }, {}, { presence: true });
    online = users.filter((user) => user.online).map((user) => user.id);
    if (online.length === userIds.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(online.sort()).toEqual([...userIds].sort());
}
