import type { Event, StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectRawSocket,
  createUsers,
  uniqueId,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';
import { NGINX_BINARY } from './support/nginx.ts';
import {
  connectOnNode,
  startProcessCluster,
  type ProcessCluster,
} from './support/process-cluster.ts';
import {
  newSendLog,
  occurrences,
  retryFailed,
  sendRecorded,
  storedIds,
  type SendLog,
} from './support/send-log.ts';

/*
 * A node that dies without a word: two chat nodes, each its own OS process, behind the shipped nginx site, on one
 * database (a SQLite file, or a PostgreSQL schema in the PostgreSQL project) and Redis. One is killed with SIGKILL
 * while clients send through nginx: no drain, no close frame, its presence heartbeat just stops. The real
 * stream-chat client must find the other node through nginx by itself, nothing acknowledged may be lost or
 * doubled, and the dead node's users must stop counting as online once its presence expires (PRESENCE_TTL_MS).
 */

const redisUrl = process.env.REDIS_URL;
const PRESENCE_TTL_MS = 1500;
/** Reconnecting (stream-chat backs off from 0.25 s) and the presence reaper both finish well within this. */
const RECOVERY_TIMEOUT_MS = 15_000;
/** Sends per sender before and after the kill. */
const SENDS = 12;

describe.runIf(NGINX_BINARY && redisUrl)(
  'a chat node killed with SIGKILL behind nginx',
  { timeout: 90_000 },
  () => {
    let cluster: ProcessCluster;

    beforeAll(async () => {
      cluster = await startProcessCluster({
        redisUrl: redisUrl!,
        label: 'kill9',
        presenceTtlMs: PRESENCE_TTL_MS,
      });
    }, 150_000);

    afterAll(async () => {
      await cluster?.close();
    });

    /** Sends `count` messages one after another, ids `<prefix>-<i>`. */
    async function sendSeries(
      channel: ReturnType<StreamChat['channel']>,
      prefix: string,
      log: SendLog,
    ) {
      for (let i = 0; i < SENDS; i++) await sendRecorded(channel, `${prefix}-${i}`, log);
    }

    it('moves the dead node’s clients to the other node, keeps every acknowledged message once, and marks its users offline', async () => {
      const [moverId, observerId, ghostId] = [uniqueId('di'), uniqueId('o'), uniqueId('ma')];
      await createUsers(cluster.env, [moverId, observerId, ghostId]);
      const { client: mover, node: victim } = await connectOnNode(cluster, moverId, {});
      const { client: observer } = await connectOnNode(cluster, observerId, { avoid: victim });
      const survivor = cluster.nodes.find((node) => node !== victim)!;
      // A socket opened on the victim directly: it has no nginx to come back through, like a client gone for good.
      const ghost = await connectRawSocket(cluster.directEnv(victim), ghostId);

      const channelId = uniqueId('kill9');
      const moverChannel = await watchChannel(mover, 'messaging', channelId, {
        members: [moverId, observerId],
      });
      const observerChannel = await watchChannel(observer, 'messaging', channelId);
      const { users } = await observer.queryUsers(
        { id: { $in: [ghostId, moverId] } },
        {},
        { presence: true },
      );
      expect(users.map((user) => [user.id, user.online]).sort()).toEqual(
        [
          [ghostId, true],
          [moverId, true],
        ].sort(),
      );

      const log = newSendLog();
      const before = Promise.all([
        sendSeries(moverChannel, `${moverId}-a`, log),
        sendSeries(observerChannel, `${observerId}-a`, log),
      ]);
      // Killed while both senders are mid-way.
      while (log.acknowledged.length < SENDS / 2) await new Promise((r) => setTimeout(r, 20));
      const recovered = waitForEvent(
        mover,
        'connection.recovered',
        () => true,
        RECOVERY_TIMEOUT_MS,
      );
      const ghostOffline = waitForEvent(
        observer,
        'user.presence.changed',
        (event: Event) => event.user?.id === ghostId && event.user.online === false,
        RECOVERY_TIMEOUT_MS,
      );
      await victim.stop('SIGKILL');
      await before;
      await recovered;
      expect(await survivor.socketCount()).toBe(2);

      await Promise.all([
        sendSeries(moverChannel, `${moverId}-b`, log),
        sendSeries(observerChannel, `${observerId}-b`, log),
      ]);
      const arrived = waitForEvent(
        moverChannel,
        'message.new',
        (e) => e.message?.id === 'cuoi-' + channelId,
      );
      await sendRecorded(observerChannel, 'cuoi-' + channelId, log);
      await arrived;

      // Sends cut off by the kill get Stream's error JSON from nginx (docs/deploy/nginx.conf), never its HTML page.
      for (const { error } of log.failed) expect(error).toMatchObject({ status: 503, code: -1 });
      const retried = await retryFailed(observerChannel, log);
      const counts = occurrences(await storedIds(observerChannel));
      for (const id of [...log.acknowledged, ...retried]) expect(counts.get(id), id).toBe(1);
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      // Every send after the reconnect was acknowledged: nginx stopped sending anything to the dead node.
      expect(log.failed.filter(({ id }) => id.includes('-b-'))).toEqual([]);

      await ghostOffline;
      const after = await observer.queryUsers(
        { id: { $in: [ghostId, moverId] } },
        {},
        { presence: true },
      );
      expect(after.users.map((user) => [user.id, user.online]).sort()).toEqual(
        [
          [ghostId, false],
          [moverId, true],
        ].sort(),
      );
      ghost.socket.terminate();
    });
  },
);
