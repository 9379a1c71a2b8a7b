import { afterEach, describe, expect, it } from 'vitest';
import { StreamChat } from 'stream-chat';
import { uniqueId } from '../contract/helpers.ts';
import { sendBurstAcrossSignal, expectDrained, storedMessageIds } from './drain-load.ts';
import {
  childDatabase,
  exitOf,
  startChildChatServer,
  type ChildChatServer,
  type ChildDatabase,
} from './services.ts';

/*
 * #20: SIGTERM must drain the standalone chat server (packages/chat-server/src/cli.ts): requests it accepted are
 * answered and stored, websockets are closed with a code that makes clients reconnect, and it exits 0.
 */

const GRACE_MS = 15_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function startNode(
  database: ChildDatabase,
  credentials?: { apiKey: string; apiSecret: string },
): Promise<ChildChatServer> {
  const server = await startChildChatServer(
    database,
    { CHAT_SHUTDOWN_GRACE_MS: String(GRACE_MS) },
    credentials,
  );
  cleanups.push(() => server.kill());
  return server;
}

/** A connected user whose websocket close codes are read from the client's own log. */
async function watcher(server: ChildChatServer, admin: StreamChat, userId: string) {
  const closes: number[] = [];
  const client = new StreamChat(server.apiKey, {
    baseURL: server.baseURL,
    allowServerSideConnect: true,
    logger: (_level, message) => {
      const code = /onclose\(\) - onclose callback - (\d+)/.exec(message)?.[1];
      if (code) closes.push(Number(code));
    },
  });
  cleanups.push(() => client.disconnectUser(500));
  await client.connectUser({ id: userId }, admin.createToken(userId));
  return { client, closes };
}

describe('#20 a shutdown in the middle of sends', { timeout: 180_000 }, () => {
  it('SIGTERM answers and stores every send the server accepted, closes websockets for a reconnect, and exits 0', async () => {
    const database = await childDatabase();
    cleanups.push(() => database.drop());
    const server = await startNode(database);
    const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
    const userId = uniqueId('de-tu');
    const channelId = uniqueId('tang-kinh-cac');
    await admin.upsertUsers([{ id: userId }]);
    await admin
      .channel('messaging', channelId, { created_by_id: userId, members: [userId] })
      .create();
    const connected = await watcher(server, admin, userId);

    const { outcomes } = await sendBurstAcrossSignal({
      baseURL: server.baseURL,
      apiKey: server.apiKey,
      apiSecret: server.apiSecret,
      channelType: 'messaging',
      channelId,
      userId,
      count: 150,
      signalAfter: 20,
      signal: () => server.child.kill('SIGTERM'),
    });
    const exitCode = await exitOf(server.child, GRACE_MS + 20_000);

    const restarted = await startNode(database, server);
    const stored = await storedMessageIds(
      restarted.baseURL,
      server.apiKey,
      server.apiSecret,
      'messaging',
      channelId,
    );
    expect(exitCode, server.output()).toBe(0);
    expectDrained(outcomes, stored);
    expect(connected.closes.length).toBeGreaterThan(0);
    expect(connected.closes).not.toContain(1000);
  });
});
