import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamChat, type Channel, type MessageResponse } from 'stream-chat';
import { startTestChatServer, type TestChatServer } from '../../src/testing/harness.ts';
import {
  expectStreamError,
  ids,
  readStreamError,
  sendText,
  uniqueId,
  waitForState,
} from '../contract/helpers.ts';
import {
  canRunPrivatePostgres,
  canRunPrivateRedis,
  childDatabase,
  createSchema,
  startChildChatServer,
  startPrivatePostgres,
  startPrivateRedis,
  terminateBackends,
  type ChildChatServer,
  type ChildDatabase,
  type PrivateRedis,
} from './services.ts';

/*
 * Resilience of a node when the services it depends on fail: PostgreSQL going away (#3) and the Redis subscription
 * dropping (#14). These run only in the `security-pg` project, on PostgreSQL and Redis.
 */

const postgresUrl =
  process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

/** Starting a child CLI alone takes 10+ s on a loaded machine; a private PostgreSQL as long again. */
const CHILD_TEST_TIMEOUT_MS = 120_000;

/** The CLI's default pool size: after a restart every pooled connection may fail once before it is replaced. */
const POOL_SIZE = 10;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function startNode(database: ChildDatabase): Promise<ChildChatServer> {
  cleanups.push(() => database.drop());
  const server = await startChildChatServer(database);
  cleanups.push(() => server.kill());
  return server;
}

function clientOf(
  server: ChildChatServer,
  options: ConstructorParameters<typeof StreamChat>[2] = {},
) {
  const client = new StreamChat(server.apiKey, {
    baseURL: server.baseURL,
    allowServerSideConnect: true,
    ...options,
  });
  cleanups.push(() => client.disconnectUser(500));
  return client;
}

/** A connected member watching a new channel of its own. */
async function memberWatching(
  server: ChildChatServer,
): Promise<{ client: StreamChat; channel: Channel }> {
  const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
  const userId = uniqueId('kiem-khach');
  await admin.upsertUsers([{ id: userId }]);
  const client = clientOf(server);
  await client.connectUser({ id: userId }, admin.createToken(userId));
  const channel = client.channel('messaging', uniqueId('kiem-phai'), { members: [userId] });
  await channel.watch();
  return { client, channel };
}

/**
 * Sends until one send succeeds, at most `attempts` times; every failure on the way must be Stream's "service
 * unavailable" error (code -1, HTTP 503), never a timeout, a dropped connection or a 500.
 */
async function sendOnceRecovered(
  channel: Channel,
  text: string,
  attempts: number,
): Promise<MessageResponse> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await sendText(channel, text);
    } catch (error) {
      const shape = readStreamError(error);
      expect(shape, `attempt ${attempt} failed with ${shape.message}`).toMatchObject({
        code: -1,
        status: 503,
      });
      if (attempt >= attempts) throw error;
    }
  }
}

describe.runIf(postgresUrl)('#3 a database restart', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('a node whose every database connection is terminated stays up, recovers by itself and loses no message', async () => {
    const database = await childDatabase();
    const server = await startNode(database);
    const { channel } = await memberWatching(server);
    const before = await sendText(channel, 'Trước khi mất kết nối');
    // Several requests at once, so the pool holds several idle connections when they are cut.
    await Promise.all([1, 2, 3, 4].map(() => channel.query({ messages: { limit: 5 } })));

    const terminated = await terminateBackends(postgresUrl!, database.applicationName!);

    expect(terminated).toBeGreaterThan(0);
    const after = await sendOnceRecovered(channel, 'Sau khi kết nối lại', POOL_SIZE + 1);
    const { messages } = await channel.query({ messages: { limit: 10 } });
    expect(ids(messages)).toEqual(expect.arrayContaining([before.id, after.id]));
    expect(server.child.exitCode, server.output()).toBeNull();
  });
});

describe.runIf(postgresUrl && canRunPrivatePostgres())(
  '#3 a database outage',
  { timeout: CHILD_TEST_TIMEOUT_MS },
  () => {
    it('while PostgreSQL is down a node answers Stream 503 errors in time, and serves again with every message once it is back', async () => {
      const postgres = await startPrivatePostgres();
      cleanups.push(() => postgres.destroy());
      const database = await childDatabase(postgres.url);
      const server = await startNode(database);
      const { channel } = await memberWatching(server);
      const before = await sendText(channel, 'Trước khi máy chủ dữ liệu tắt');

      postgres.stop();

      // The client's default 3 s timeout still applies: a hang would surface as a timeout, not a Stream error.
      await expectStreamError(sendText(channel, 'Trong lúc tắt'), { code: -1, status: 503 });
      await expectStreamError(channel.query({ messages: { limit: 5 } }), { code: -1, status: 503 });
      // A user connecting meanwhile is told to retry (a non-final close), not refused for good.
      const late = await lateConnection(server);
      expect(await late.firstClose).not.toBe(1000);

      postgres.start();

      await late.connected;
      const after = await sendOnceRecovered(
        channel,
        'Sau khi máy chủ dữ liệu bật lại',
        POOL_SIZE + 1,
      );
      const { messages } = await channel.query({ messages: { limit: 10 } });
      expect(ids(messages)).toEqual(expect.arrayContaining([before.id, after.id]));
      expect(server.child.exitCode, server.output()).toBeNull();
    });
  },
);

/**
 * Starts connectUser for a new user and reports the close code of its first failed attempt, read from the client's
 * own log (the client exposes no other way); `connected` settles when connectUser does (the client bounds it).
 */
async function lateConnection(server: ChildChatServer): Promise<{
  firstClose: Promise<number>;
  connected: Promise<unknown>;
}> {
  const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
  const userId = uniqueId('den-muon');
  let reportClose: (code: number) => void = () => undefined;
  const firstClose = new Promise<number>((resolve) => (reportClose = resolve));
  const client = clientOf(server, {
    logger: (_level, message) => {
      const code = /onclose\(\) - onclose callback - (\d+)/.exec(message)?.[1];
      if (code) reportClose(Number(code));
    },
  });
  const connected = client.connectUser({ id: userId }, admin.createToken(userId));
  connected.catch(() => undefined);
  // A final refusal rejects connectUser instead of closing: report it as close code 1000.
  void connected.then(
    () => undefined,
    () => reportClose(1000),
  );
  return { firstClose, connected };
}

// ---------------------------------------------------------------------------------------------------------------
// #14: two nodes sharing PostgreSQL and a private Redis that the tests cut and restart.

const redisCluster =
  postgresUrl && process.env.CHAT_TEST_PUBSUB === 'redis' && canRunPrivateRedis();

/** Long enough for the client's own reconnect backoff (0.25–2.5 s, then 2–4.5 s, …) to run a few times. */
const CATCH_UP_TIMEOUT_MS = 20_000;

interface Cluster {
  redis: PrivateRedis;
  a: TestChatServer;
  b: TestChatServer;
  admin: StreamChat;
}

/** Two in-process nodes; node B reaches Redis as `redisUserOfB` (an ACL user) when given, so a test can lock it out. */
async function startCluster(redisUserOfB?: string): Promise<Cluster> {
  const redis = await startPrivateRedis();
  cleanups.push(() => redis.destroy());
  const { schema, drop } = await createSchema(postgresUrl!);
  cleanups.push(drop);
  const app = {
    key: `k-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(16).toString('hex'),
  };
  const db = { kind: 'postgres' as const, url: postgresUrl!, schema, poolSize: 3 };
  const keyPrefix = `c14:${randomBytes(4).toString('hex')}:`;
  const nodeUrl = (user?: string) => {
    if (!user) return redis.url;
    return `redis://${user}:${user}-pw@127.0.0.1:${redis.port}`;
  };
  if (redisUserOfB)
    await redis.admin.call(
      'ACL',
      'SETUSER',
      redisUserOfB,
      'on',
      `>${redisUserOfB}-pw`,
      '~*',
      '&*',
      '+@all',
    );
  const start = (url: string) =>
    startTestChatServer({ config: { apps: [app], db, pubsub: { kind: 'redis', url, keyPrefix } } });
  const a = await start(nodeUrl());
  cleanups.push(() => a.close());
  const b = await start(nodeUrl(redisUserOfB));
  cleanups.push(() => b.close());
  return { redis, a, b, admin: new StreamChat(app.key, app.secret, { baseURL: a.baseURL }) };
}

interface Watcher {
  client: StreamChat;
  channel: Channel;
  /** Close codes of this client's websocket so far, read from the client's own log. */
  closes: number[];
  /** Resolves once the websocket closed `count` times in total (the client dispatches no event for a retry). */
  closedTimes(count: number, timeoutMs: number): Promise<void>;
}

async function watcherOn(
  cluster: Cluster,
  node: TestChatServer,
  userId: string,
  cid: { id: string; members: string[] },
): Promise<Watcher> {
  const closes: number[] = [];
  const onClose = new Set<() => void>();
  const client = new StreamChat(cluster.admin.key, {
    baseURL: node.baseURL,
    allowServerSideConnect: true,
    logger: (_level, message) => {
      const code = /onclose\(\) - onclose callback - (\d+)/.exec(message)?.[1];
      if (!code) return;
      closes.push(Number(code));
      for (const wake of onClose) wake();
    },
  });
  const closedTimes = (count: number, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (closes.length < count) return;
        onClose.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        onClose.delete(check);
        reject(new Error(`the websocket closed ${closes.length} times, not ${count}`));
      }, timeoutMs);
      onClose.add(check);
      check();
    });
  cleanups.push(() => client.disconnectUser(500));
  await client.connectUser({ id: userId }, cluster.admin.createToken(userId));
  const channel = client.channel('messaging', cid.id, { members: cid.members });
  await channel.watch();
  return { client, channel, closes, closedTimes };
}

async function twoWatchers(cluster: Cluster): Promise<{ onA: Watcher; onB: Watcher }> {
  const nam = uniqueId('nam');
  const bac = uniqueId('bac');
  await cluster.admin.upsertUsers([{ id: nam }, { id: bac }]);
  const cid = { id: uniqueId('hai-mien'), members: [nam, bac] };
  const onA = await watcherOn(cluster, cluster.a, nam, cid);
  const onB = await watcherOn(cluster, cluster.b, bac, cid);
  return { onA, onB };
}

function hasMessage(watcher: Watcher, messageId: string): () => boolean {
  return () => ids(watcher.channel.state.messages).includes(messageId);
}

describe.runIf(redisCluster)('#14 a Redis blip', { timeout: 60_000 }, () => {
  it('a watcher on a node that lost its Redis subscription still gets a message sent meanwhile through another node', async () => {
    const cluster = await startCluster('node-b');
    const { onA, onB } = await twoWatchers(cluster);

    // Node B loses both its Redis connections and cannot open new ones for now.
    await cluster.redis.admin.call('ACL', 'SETUSER', 'node-b', 'off');
    await cluster.redis.admin.call('CLIENT', 'KILL', 'USER', 'node-b');
    // Let B's watcher lose its socket and try to come back at least once while B is still cut off.
    await onB.closedTimes(2, CATCH_UP_TIMEOUT_MS);
    const sent = await sendText(onA.channel, 'Gửi qua nút A lúc nút B mất Redis');
    await cluster.redis.admin.call('ACL', 'SETUSER', 'node-b', 'on');

    await waitForState(
      onB.client,
      hasMessage(onB, sent.id),
      "B's watcher has the message sent while B was cut off",
      CATCH_UP_TIMEOUT_MS,
    );
    expect(onB.closes.every((code) => code !== 1000)).toBe(true);
  });

  it('after a Redis restart a watcher on another node has the message sent during the outage', async () => {
    const cluster = await startCluster();
    const { onA, onB } = await twoWatchers(cluster);

    await cluster.redis.stop();
    // Sending does not depend on Redis: the message is stored and acknowledged.
    const sent = await sendText(onA.channel, 'Gửi qua nút A lúc Redis tắt');
    await cluster.redis.start();

    await waitForState(
      onB.client,
      hasMessage(onB, sent.id),
      "B's watcher has the message sent while Redis was down",
      CATCH_UP_TIMEOUT_MS,
    );
    // And the cluster delivers live again.
    const next = await sendText(onA.channel, 'Redis đã trở lại');
    await waitForState(
      onB.client,
      hasMessage(onB, next.id),
      "B's watcher got the next message live",
    );
  });
});
