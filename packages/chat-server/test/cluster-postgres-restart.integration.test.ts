import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, uniqueId, waitForEvent, watchChannel } from './contract/helpers.ts';
import { NGINX_BINARY } from './support/nginx.ts';
import { PG_BIN, startPostgresProcess, type PostgresProcess } from './support/postgres-process.ts';
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
 * PostgreSQL restarted under two chat nodes (child processes) behind the shipped nginx site, down for OUTAGE_MS.
 * The database is a private PostgreSQL cluster this test starts (support/postgres-process.ts) rather than a proxy in
 * front of the shared one: a real `pg_ctl stop -m fast` ends every session the way a restart, a failover or an
 * operator does (57P01, then refused connections), and the shared server other suites use is never touched. It runs
 * in the PostgreSQL project only (the SQLite project has no PostgreSQL to restart), and is skipped when no PostgreSQL
 * binaries are installed (PGBIN). Redis (REDIS_URL) stays up.
 *
 * Meanwhile sends must be refused with Stream's error JSON (code -1, 503: try again), never a 500 or a hang; the
 * nodes must not crash, and once PostgreSQL is back they must serve again by themselves (their pools replace the
 * dead connections), events still cross nodes and everything acknowledged is stored exactly once.
 */

const redisUrl = process.env.REDIS_URL;
const onPostgres = process.env.CHAT_TEST_DIALECT === 'postgres';
const OUTAGE_MS = 10_000;
/** Between two sends during the outage. */
const PROBE_EVERY_MS = 500;
/** After PostgreSQL is back: the pools' broken connections are replaced on first use. */
const RECOVERY_TIMEOUT_MS = 20_000;

describe.runIf(NGINX_BINARY && redisUrl && PG_BIN && onPostgres)(
  'a cluster whose PostgreSQL restarts',
  { timeout: 120_000 },
  () => {
    let postgres: PostgresProcess;
    let cluster: ProcessCluster;

    beforeAll(async () => {
      postgres = await startPostgresProcess();
      cluster = await startProcessCluster({
        redisUrl: redisUrl!,
        label: 'pg-restart',
        postgresUrl: postgres.url,
      });
    }, 150_000);

    afterAll(async () => {
      await cluster?.close();
      await postgres?.remove();
    });

    /** Sends until one is acknowledged (bounded): the first queries after the restart may meet dead connections. */
    async function sendUntilAcknowledged(
      channel: Parameters<typeof sendRecorded>[0],
      prefix: string,
      log: SendLog,
    ): Promise<void> {
      const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
      for (let i = 0; Date.now() < deadline; i++) {
        if (await sendRecorded(channel, `${prefix}-${i}`, log)) return;
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
      throw new Error(
        `no send acknowledged after the restart: ${JSON.stringify(log.failed.at(-1))}`,
      );
    }

    it('refuses sends with Stream errors while PostgreSQL is down, then serves again by itself and loses nothing acknowledged', async () => {
      const [tuId, anId] = [uniqueId('tu'), uniqueId('an')];
      await createUsers(cluster.env, [tuId, anId]);
      const { client: tu, node: tuNode } = await connectOnNode(cluster, tuId, {});
      const { client: an } = await connectOnNode(cluster, anId, { avoid: tuNode });
      const channelId = uniqueId('pg-restart');
      const tuChannel = await watchChannel(tu, 'messaging', channelId, { members: [tuId, anId] });
      const anChannel = await watchChannel(an, 'messaging', channelId);
      const log = newSendLog();
      expect(await sendRecorded(tuChannel, `${channelId}-truoc`, log)).toBe(true);

      await postgres.stop();
      const outage = newSendLog();
      const outageEnds = Date.now() + OUTAGE_MS;
      for (let i = 0; Date.now() < outageEnds; i++) {
        await sendRecorded(i % 2 === 0 ? tuChannel : anChannel, `${channelId}-giua-${i}`, outage);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
      await postgres.start();
      expect(outage.acknowledged).toEqual([]);
      expect(outage.failed.length).toBeGreaterThan(0);
      for (const { error } of outage.failed)
        expect(error, JSON.stringify(error)).toMatchObject({ status: 503, code: -1 });
      expect(cluster.nodes.every((node) => node.alive())).toBe(true);

      await sendUntilAcknowledged(tuChannel, `${channelId}-lai-tu`, log);
      await sendUntilAcknowledged(anChannel, `${channelId}-lai-an`, log);
      for (const { error } of log.failed)
        expect(error, JSON.stringify(error)).toMatchObject({ status: 503, code: -1 });
      // Events still cross nodes: tu's and an's sockets are on different nodes.
      const lastId = `${channelId}-sau`;
      const arrived = waitForEvent(anChannel, 'message.new', (e) => e.message?.id === lastId);
      expect(await sendRecorded(tuChannel, lastId, log)).toBe(true);
      await arrived;

      const retried = await retryFailed(anChannel, {
        ...log,
        failed: [...outage.failed, ...log.failed],
      });
      const stored = occurrences(await storedIds(anChannel));
      for (const id of [...log.acknowledged, ...retried]) expect(stored.get(id), id).toBe(1);
      expect([...stored.values()].every((count) => count === 1)).toBe(true);
      expect(cluster.nodes.every((node) => node.alive())).toBe(true);
    });
  },
);
