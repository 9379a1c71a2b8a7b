import { randomUUID } from 'node:crypto';
import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  eventually,
  expectStreamErrorBody,
  fallbackClient,
  rawRequest,
  sendText,
  signJwt,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
  type ContractEnv,
  type RawResponse,
} from './helpers.ts';

/*
 * The long-poll fallback, through the real stream-chat client with `enableWSFallback: true` whose websocket cannot
 * reach anything: it then opens, polls and closes through GET /longpoll (node_modules/stream-chat/src/
 * connection_fallback.ts), and the server treats that connection like a websocket one.
 */

async function connectThroughLongPoll(env: ContractEnv, id: string): Promise<StreamChat> {
  const client = fallbackClient(env);
  await client.connectUser({ id, name: id }, env.admin.createToken(id));
  return client;
}

/** Opens a long-poll connection by hand, as the client's first call does; returns its id. */
async function openRaw(env: ContractEnv, userId: string): Promise<string> {
  const response = await rawRequest(env, {
    method: 'GET',
    path: '/longpoll',
    userId,
    query: { json: JSON.stringify({ user_id: userId, user_details: { id: userId } }) },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const event = (response.body as { event: { type: string; connection_id: string } }).event;
  expect(event.type).toBe('health.check');
  return event.connection_id;
}

function pollRaw(env: ContractEnv, userId: string, connectionId: string): Promise<RawResponse> {
  return rawRequest(env, {
    method: 'GET',
    path: '/longpoll',
    userId,
    query: { connection_id: connectionId },
  });
}

async function isOnline(env: ContractEnv, userId: string): Promise<boolean> {
  const { users } = await env.admin.queryUsers({ id: { $eq: userId } }, {}, { presence: false });
  return users[0]?.online === true;
}

describe('the long-poll fallback', { timeout: 20_000 }, () => {
  const env = useContractEnv({
    config: { longPoll: { holdMs: 300, perUser: 2 } },
  });

  it('connects through long-poll when the websocket fails, and receives, sends and disconnects like a websocket client', async () => {
    const aliceId = uniqueId('lp-alice');
    const bobId = uniqueId('lp-bob');
    const bob = await connectUser(env(), bobId);
    const alice = await connectThroughLongPoll(env(), aliceId);
    expect(alice.wsFallback?.isHealthy()).toBe(true);
    expect(alice.user?.id).toBe(aliceId);

    const channelId = uniqueId('lp-kenh');
    const bobChannel = await watchChannel(bob, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    // The watch call names the long-poll connection (?connection_id=), so channel events reach it.
    const aliceChannel = await watchChannel(alice, 'messaging', channelId);

    const arrived = waitForEvent(alice, 'message.new', (event) => event.user?.id === bobId);
    await sendText(bobChannel, 'Đạo hữu có nghe thấy không?');
    expect((await arrived).message?.text).toBe('Đạo hữu có nghe thấy không?');

    const typing = waitForEvent(alice, 'typing.start', (event) => event.user?.id === bobId);
    await bobChannel.keystroke();
    expect((await typing).cid).toBe(`messaging:${channelId}`);

    const reply = waitForEvent(bob, 'message.new', (event) => event.user?.id === aliceId);
    await sendText(aliceChannel, 'Nghe rõ, qua đường dự phòng.');
    expect((await reply).message?.text).toBe('Nghe rõ, qua đường dự phòng.');
    expect(await isOnline(env(), aliceId)).toBe(true);

    await alice.disconnectUser();
    await eventually(async () => !(await isOnline(env(), aliceId)), 'alice is offline');
  });

  it('answers a poll held without events after the hold with an empty events array', async () => {
    const userId = uniqueId('lp-cho');
    const connectionId = await openRaw(env(), userId);
    // The first poll carries the user's own presence change (as the websocket does); after it nothing is queued.
    const first = await pollRaw(env(), userId, connectionId);
    expect((first.body as { events: { type: string }[] }).events.map((e) => e.type)).toEqual([
      'user.presence.changed',
    ]);
    const answer = await pollRaw(env(), userId, connectionId);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ events: [] });
  });

  it('refuses a poll with an unknown, missing or someone else’s connection id with code 46', async () => {
    const ownerId = uniqueId('lp-chu');
    const strangerId = uniqueId('lp-la');
    const connectionId = await openRaw(env(), ownerId);
    expectStreamErrorBody(await pollRaw(env(), ownerId, randomUUID()), 46, 400);
    expectStreamErrorBody(await pollRaw(env(), strangerId, connectionId), 46, 400);
    const missing = await rawRequest(env(), { method: 'GET', path: '/longpoll', userId: ownerId });
    expectStreamErrorBody(missing, 46, 400);
    // The owner's connection is untouched by the others' attempts.
    expect((await pollRaw(env(), ownerId, connectionId)).status).toBe(200);
  });

  it('ends a connection on close=true, after which polling it answers code 46', async () => {
    const userId = uniqueId('lp-dong');
    const connectionId = await openRaw(env(), userId);
    const closed = await rawRequest(env(), {
      method: 'GET',
      path: '/longpoll',
      userId,
      query: { close: 'true', connection_id: connectionId },
    });
    expect(closed.status).toBe(200);
    expectStreamErrorBody(await pollRaw(env(), userId, connectionId), 46, 400);
    expect(await isOnline(env(), userId)).toBe(false);
  });

  it('refuses a user’s long-poll connection past the per-user cap with code 9, and frees the place on close', async () => {
    const userId = uniqueId('lp-tham');
    const first = await openRaw(env(), userId);
    await openRaw(env(), userId);
    const refused = await rawRequest(env(), {
      method: 'GET',
      path: '/longpoll',
      userId,
      query: { json: JSON.stringify({ user_id: userId }) },
    });
    expectStreamErrorBody(refused, 9, 429);
    await rawRequest(env(), {
      method: 'GET',
      path: '/longpoll',
      userId,
      query: { close: 'true', connection_id: first },
    });
    await openRaw(env(), userId);
  });

  it('applies the websocket handshake’s rules to the open call: forged and server tokens, other users, bad payloads', async () => {
    const userId = uniqueId('lp-gia');
    const open = (token: string | undefined, json: string) =>
      rawRequest(env(), { method: 'GET', path: '/longpoll', userId, token, query: { json } });
    const payload = JSON.stringify({ user_id: userId });
    const forged = signJwt({ user_id: userId }, 'not-the-app-secret');
    expectStreamErrorBody(await open(forged, payload), 43, 401);
    // A server token acts for nobody's connection, as on the websocket.
    const server = await rawRequest(env(), {
      method: 'GET',
      path: '/longpoll',
      token: signJwt({ server: true }, env().server.apiSecret),
      query: { json: payload },
    });
    expectStreamErrorBody(server, 5, 401);
    expectStreamErrorBody(
      await open(undefined, JSON.stringify({ user_id: uniqueId('nguoi-khac') })),
      5,
      401,
    );
    expectStreamErrorBody(await open(undefined, '{not json'), 4, 400);
    expectStreamErrorBody(await open(undefined, JSON.stringify({ user_id: 7 })), 4, 400);
    const badClose = await rawRequest(env(), {
      method: 'GET',
      path: '/longpoll',
      userId,
      query: { close: 'maybe' },
    });
    expectStreamErrorBody(badClose, 4, 400);
    expect(await isOnline(env(), userId)).toBe(false);
  });

  it('lets an anonymous visitor fall back to long-poll and read a public channel’s events, never a user’s connection', async () => {
    const ownerId = uniqueId('lp-tong-chu');
    await createUsers(env(), [ownerId]);
    const channelId = uniqueId('lp-quang-truong');
    await env().admin.channel('livestream', channelId, { created_by_id: ownerId }).create();
    const visitor = fallbackClient(env());
    await visitor.connectAnonymousUser();
    expect(visitor.wsFallback?.isHealthy()).toBe(true);
    await watchChannel(visitor, 'livestream', channelId);
    const arrived = waitForEvent(visitor, 'message.new');
    await env()
      .admin.channel('livestream', channelId)
      .sendMessage({ text: 'Chào các đạo hữu', user_id: ownerId });
    expect((await arrived).message?.text).toBe('Chào các đạo hữu');

    const userConnection = await openRaw(env(), uniqueId('lp-rieng'));
    const stolen = await rawRequest(env(), {
      method: 'GET',
      path: '/longpoll',
      token: null,
      query: { connection_id: userConnection },
    });
    expectStreamErrorBody(stolen, 46, 400);
  });
});

describe('the long-poll fallback: idle expiry', { timeout: 20_000 }, () => {
  // A short idle time of its own: elsewhere a slow machine must never expire a connection between two calls.
  const env = useContractEnv({ config: { longPoll: { idleMs: 2_000 } } });

  it('closes a connection nobody polls any more: it leaves the hub and its user goes offline', async () => {
    const userId = uniqueId('lp-vang');
    const connectionId = await openRaw(env(), userId);
    expect(await isOnline(env(), userId)).toBe(true);
    // No poll follows: after the idle expiry the server ends the connection by itself.
    await eventually(async () => !(await isOnline(env(), userId)), 'the user is offline');
    expectStreamErrorBody(await pollRaw(env(), userId, connectionId), 46, 400);
  });
});

describe(
  'the long-poll fallback: one poll at a time and bounded queues',
  { timeout: 20_000 },
  () => {
    // The default 20 s hold: a poll that returns early here was ended by something else than its hold.
    const env = useContractEnv({
      config: { longPoll: { maxQueuedEvents: 4, perAddress: 3 } },
    });

    it('answers a held poll with no events when a newer poll arrives, and gives the next event to the newer one', async () => {
      const userId = uniqueId('lp-hai-lan');
      const connectionId = await openRaw(env(), userId);
      await pollRaw(env(), userId, connectionId); // the user's own presence change
      // Two polls at once: whichever reaches the server second ends the first (long before its 20 s hold) with no
      // events, and the next event goes to the one still waiting.
      const polls = [pollRaw(env(), userId, connectionId), pollRaw(env(), userId, connectionId)];
      const tagged = polls.map((poll, index) => poll.then((answer) => ({ index, answer })));
      const first = await Promise.race([...tagged, bound(5_000)]);
      expect(first.answer.body).toEqual({ events: [] });
      await env().admin.partialUpdateUser({ id: userId, set: { name: 'Kim Đan' } });
      const second = await Promise.race([tagged[1 - first.index]!, bound(5_000)]);
      const answer = second.answer.body as { events: { type: string }[] };
      expect(answer.events.map((event) => event.type)).toContain('user.updated');
      await closeRaw(env(), userId, connectionId);
    });

    it('drops a connection whose queue overflows, so its next poll answers code 46 and the client reconnects', async () => {
      const userId = uniqueId('lp-tran');
      const ownerId = uniqueId('lp-chu-kenh');
      await createUsers(env(), [userId, ownerId]);
      const connectionId = await openRaw(env(), userId);
      const channelId = uniqueId('lp-ngap');
      await env()
        .admin.channel('messaging', channelId, {
          created_by_id: ownerId,
          members: [userId, ownerId],
        })
        .create();
      const watched = await rawRequest(env(), {
        method: 'POST',
        path: `/channels/messaging/${channelId}/query`,
        userId,
        query: { connection_id: connectionId },
        body: { watch: true, state: true },
      });
      expect(watched.status).toBe(200);
      expect(await isOnline(env(), userId)).toBe(true);
      const channel = env().admin.channel('messaging', channelId);
      for (let n = 0; n < 6; n += 1)
        await channel.sendMessage({ text: `tin ${n}`, user_id: ownerId });
      // Nobody polled, so the queue (the user's own presence change, then the messages) overflowed: the connection
      // is dropped, which shows as the user going offline.
      await eventually(async () => !(await isOnline(env(), userId)), 'the connection is dropped');
      expectStreamErrorBody(await pollRaw(env(), userId, connectionId), 46, 400);
    });

    it('refuses long-poll connections past the per-address cap with code 9', async () => {
      const opened: [string, string][] = [];
      for (let n = 0; n < 3; n += 1) {
        const userId = uniqueId('lp-dia-chi');
        opened.push([userId, await openRaw(env(), userId)]);
      }
      const userId = uniqueId('lp-thua');
      const refused = await rawRequest(env(), {
        method: 'GET',
        path: '/longpoll',
        userId,
        query: { json: JSON.stringify({ user_id: userId }) },
      });
      expectStreamErrorBody(refused, 9, 429);
      for (const [owner, id] of opened) await closeRaw(env(), owner, id);
    });
  },
);

/** Rejects after `ms`: bounds a wait on a poll that would otherwise be held for its whole hold. */
function bound(ms: number): Promise<never> {
  return new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms),
  );
}

async function closeRaw(env: ContractEnv, userId: string, connectionId: string): Promise<void> {
  const closed = await rawRequest(env, {
    method: 'GET',
    path: '/longpoll',
    userId,
    query: { close: 'true', connection_id: connectionId },
  });
  expect(closed.status).toBe(200);
}
