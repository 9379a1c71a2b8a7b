import { randomBytes } from 'node:crypto';
import { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  connectRawSocket,
  connectUrl,
  connectUser,
  expectStreamError,
  newClient,
  rawRequest,
  signJwt,
  uniqueId,
  useContractEnv,
  waitForState,
  watchChannel,
  type Frame,
} from './helpers.ts';

describe('websocket protocol and several apps on one server', { timeout: 20_000 }, () => {
  const second = {
    key: `second-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(16).toString('hex'),
  };
  const env = useContractEnv({
    config: {
      apps: [
        { key: `first-${randomBytes(4).toString('hex')}`, secret: randomBytes(16).toString('hex') },
        second,
      ],
    },
  });

  it('answers every client ping with a health.check carrying the connection id', async () => {
    const { socket, first, nextFrame } = await connectRawSocket(env(), uniqueId('tinh-toa'));
    expect(first.connection_id).toEqual(expect.any(String));
    expect((first.me as Frame).id).toEqual(expect.any(String));

    for (let ping = 0; ping < 3; ping += 1) {
      // The client sends its ping as a one-element array.
      socket.send(JSON.stringify([{ type: 'health.check', client_id: 'raw' }]));
      const pong = await nextFrame('health.check');
      expect(pong.connection_id).toBe(first.connection_id);
      expect(pong.me).toBeUndefined();
    }
    socket.close();
  });

  it('ignores frames it cannot read and keeps the connection open', async () => {
    const { socket, first, nextFrame } = await connectRawSocket(env(), uniqueId('loan-ngon'));
    socket.send('{not json');
    socket.send(JSON.stringify({ type: 'no.such.event' }));
    socket.send(Buffer.from([0xff, 0xfe, 0x00]));
    socket.send(JSON.stringify([{ type: 'health.check' }]));
    const pong = await nextFrame('health.check');
    expect(pong.connection_id).toBe(first.connection_id);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('reports a refused handshake as one error frame in Stream’s shape, then closes with 1000', async () => {
    const userId = uniqueId('ke-mao-danh');
    const forged = signJwt({ user_id: userId }, 'not-the-app-secret');
    const socket = new WebSocket(connectUrl(env(), userId, forged));
    const frames: Frame[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
    const code = await new Promise<number>((resolve) => socket.on('close', resolve));

    expect(code).toBe(1000);
    expect(frames).toHaveLength(1);
    expect(frames[0]!.error).toMatchObject({
      code: 43,
      StatusCode: 401,
      message: expect.any(String),
      more_info: expect.any(String),
    });
  });

  /** Opens `/connect` with `json` as the payload text and collects what the server says before it closes. */
  async function refusedHandshake(token: string, json: string) {
    const url = new URL(`${env().server.baseURL.replace('http', 'ws')}/connect`);
    url.searchParams.set('json', json);
    url.searchParams.set('api_key', env().server.apiKey);
    url.searchParams.set('authorization', token);
    url.searchParams.set('stream-auth-type', 'jwt');
    const socket = new WebSocket(url);
    const frames: Frame[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
    const code = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the socket did not close')), 5_000);
      socket.on('close', (closeCode) => {
        clearTimeout(timer);
        resolve(closeCode);
      });
    });
    return { code, frames };
  }

  it('names a malformed handshake field in a code 4 error frame, then closes with 1000', async () => {
    const userId = uniqueId('sai-dang');
    const token = env().admin.createToken(userId);

    const details = await refusedHandshake(
      token,
      JSON.stringify({ user_id: userId, user_details: 'Tiêu Viêm' }),
    );
    const notObject = await refusedHandshake(token, JSON.stringify([userId]));

    for (const { code, frames } of [details, notObject]) {
      expect(code).toBe(1000);
      expect(frames).toHaveLength(1);
      expect(frames[0]!.error).toMatchObject({ code: 4, StatusCode: 400 });
    }
    expect((details.frames[0]!.error as Frame).message).toBe('user_details must be an object');
    expect((notObject.frames[0]!.error as Frame).message).toBe(
      'the json query parameter must be an object',
    );
    const { users } = await env().admin.queryUsers({ id: userId });
    expect(users).toEqual([]);
  });

  it('checks the credentials before the handshake payload', async () => {
    const userId = uniqueId('hai-loi');
    const forged = signJwt({ user_id: userId }, 'not-the-app-secret');

    const { code, frames } = await refusedHandshake(forged, '{"user_details": 7}');

    expect(code).toBe(1000);
    expect(frames.map((frame) => (frame.error as Frame).code)).toEqual([43]);
  });

  it('keeps two apps apart in one database: same ids, separate users, channels and messages', async () => {
    const userId = uniqueId('ong-lao');
    const channelId = uniqueId('tang-kinh-cac');
    const firstAdmin = env().admin;
    const secondAdmin = new StreamChat(second.key, second.secret, {
      baseURL: env().server.baseURL,
    });

    await firstAdmin.upsertUsers([{ id: userId, name: 'Ông lão quét rác' }]);
    await secondAdmin.upsertUsers([{ id: userId, name: 'Người khác cùng id' }]);
    const inFirst = firstAdmin.channel('messaging', channelId, {
      created_by_id: userId,
      members: [userId],
    });
    await inFirst.create();
    await inFirst.sendMessage({ text: 'Chỉ ở ứng dụng thứ nhất', user_id: userId });

    const seenBySecond = await secondAdmin.queryUsers({ id: userId });
    expect(seenBySecond.users.map((user) => user.name)).toEqual(['Người khác cùng id']);
    expect(await secondAdmin.queryChannels({ cid: inFirst.cid })).toEqual([]);

    const inSecond = secondAdmin.channel('messaging', channelId, {
      created_by_id: userId,
      members: [userId],
    });
    const created = await inSecond.create();
    expect(created.messages).toEqual([]);
    const firstState = await inFirst.query({ messages: { limit: 10 } });
    expect(firstState.messages.map((message) => message.text)).toEqual(['Chỉ ở ứng dụng thứ nhất']);

    // A user token of one app is worthless with the other app's key.
    const crossed = newClient(env(), {});
    const foreign = new StreamChat(second.key, {
      baseURL: env().server.baseURL,
      allowServerSideConnect: true,
    });
    env().clients.add(foreign);
    await expectStreamError(
      foreign.connectUser({ id: userId }, signJwt({ user_id: userId }, env().server.apiSecret)),
      { code: 43 },
    );
    await crossed.connectUser({ id: userId }, firstAdmin.createToken(userId));
    expect(crossed.user?.name).toBe('Ông lão quét rác');
  });
});

describe('a client that stops reading', { timeout: 30_000 }, () => {
  const env = useContractEnv({ config: { limits: { socketMaxBufferedBytes: 64 * 1024 } } });

  it('is disconnected once its unread backlog passes the limit, while the others keep receiving', async () => {
    const senderId = uniqueId('nguoi-noi');
    const stuckId = uniqueId('nguoi-ngu');
    const channelId = uniqueId('giang-duong');
    await env().admin.upsertUsers([{ id: senderId }, { id: stuckId }]);
    const channel = env().admin.channel('livestream', channelId, {
      created_by_id: senderId,
      members: [senderId],
    });
    await channel.create();

    const { socket, first } = await connectRawSocket(env(), stuckId);
    const watched = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/livestream/${channelId}/query`,
      userId: stuckId,
      query: { connection_id: String(first.connection_id) },
      body: { watch: true, state: true },
    });
    expect(watched.status).toBe(200);
    const listener = await connectUser(env(), uniqueId('nguoi-nghe'));
    const listening = await watchChannel(listener, 'livestream', channelId);
    const before = await channel.query({ watchers: { limit: 10 } });
    expect((before.watchers ?? []).map((user) => user.id)).toContain(stuckId);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Stop reading: the kernel buffers fill, then the server's own outbox for this socket grows.
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();

    const text = 'Đạo khả đạo, phi thường đạo. '.repeat(150);
    let stuckWatching = true;
    let lastId = '';
    for (let batch = 0; batch < 60 && stuckWatching; batch += 1) {
      const sent = await Promise.all(
        Array.from({ length: 25 }, () => channel.sendMessage({ text, user_id: senderId })),
      );
      lastId = sent.at(-1)!.message.id;
      const { watchers } = await channel.query({ watchers: { limit: 10 } });
      stuckWatching = (watchers ?? []).some((user) => user.id === stuckId);
    }

    expect(stuckWatching).toBe(false);
    await waitForState(
      listener,
      () => listening.state.messages.some((message) => message.id === lastId),
      'the listener has the last message',
    );
    (socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
  });
});
