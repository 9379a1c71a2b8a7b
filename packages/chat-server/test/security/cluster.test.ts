import { afterEach, describe, expect, it } from 'vitest';
import { StreamChat, type Channel, type MessageResponse } from 'stream-chat';
import {
  expectStreamError,
  ids,
  readStreamError,
  sendText,
  uniqueId,
} from '../contract/helpers.ts';
import {
  canRunPrivatePostgres,
  childDatabase,
  startChildChatServer,
  startPrivatePostgres,
  terminateBackends,
  type ChildChatServer,
  type ChildDatabase,
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
