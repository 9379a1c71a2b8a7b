import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamErrorBody,
  ids,
  newClient,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
  type ContractEnv,
} from '../contract/helpers.ts';
import { ANONYMOUS_ROUTES } from '../../src/http/anonymous-routes.ts';
import { openRawSocket } from './raw-socket.ts';

/** Two users with a direct conversation holding one message, and a public channel the admin writes in. */
async function victimsWithSecrets(env: ContractEnv) {
  const victim = uniqueId('nan-nhan');
  const friend = uniqueId('ban-than');
  const admin = uniqueId('chuong-mon');
  await createUsers(env, [victim, friend, { id: admin, name: 'Chưởng Môn', role: 'admin' }]);
  const dmId = uniqueId('mat-dam');
  const dm = env.admin.channel('messaging', dmId, {
    members: [victim, friend],
    created_by_id: victim,
  });
  await dm.create();
  const secret = await dm.sendMessage({ text: 'Mật mã kho báu: 7749', user_id: friend });
  const liveId = uniqueId('quang-truong');
  await createChannelAsServer(env, 'livestream', liveId, admin, { members: [admin] });
  return { victim, friend, admin, dmId, secretId: secret.message.id, liveId };
}

describe('#1 anonymous callers choose who they are', () => {
  const env = useContractEnv();

  it("an anonymous caller naming a user in user_id cannot open that user's direct conversation", async () => {
    const { victim, dmId } = await victimsWithSecrets(env());

    const response = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/messaging/${dmId}/query`,
      userId: victim,
      token: null,
      body: { state: true, messages: { limit: 25 } },
    });

    expectStreamErrorBody(response, 17, 403);
    expect(JSON.stringify(response.body)).not.toContain('7749');
  });

  it("an anonymous caller naming a user in user_id does not get that user's conversations from queryChannels", async () => {
    const { victim, dmId, liveId } = await victimsWithSecrets(env());

    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/channels',
      userId: victim,
      token: null,
      body: { filter_conditions: {}, sort: [], state: true, limit: 30 },
    });

    expect(response.status).toBe(200);
    const cids = (response.body as { channels: { channel: { cid: string } }[] }).channels.map(
      (c) => c.channel.cid,
    );
    expect(cids).toContain(`livestream:${liveId}`);
    expect(cids).not.toContain(`messaging:${dmId}`);
    expect(JSON.stringify(response.body)).not.toContain('7749');
  });

  it('an anonymous caller naming the admin in user_id cannot post in a public channel', async () => {
    const { admin, liveId } = await victimsWithSecrets(env());

    const response = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/livestream/${liveId}/message`,
      userId: admin,
      token: null,
      body: { message: { id: uniqueId('gia'), text: 'Chưởng Môn truyền lệnh giả' } },
    });

    expectStreamErrorBody(response, 17, 403);
    const { messages } = await env().admin.channel('livestream', liveId).query({});
    expect(messages.map((m) => m.text)).not.toContain('Chưởng Môn truyền lệnh giả');
  });

  it('an anonymous caller naming a user in user_id cannot rename that user', async () => {
    const { victim } = await victimsWithSecrets(env());

    const response = await rawRequest(env(), {
      method: 'PATCH',
      path: '/users',
      userId: victim,
      token: null,
      body: { users: [{ id: victim, set: { name: 'Kẻ mạo danh' } }] },
    });

    expectStreamErrorBody(response, 17, 403);
    const { users } = await env().admin.queryUsers({ id: victim });
    expect(users[0]?.name).toBe(victim);
  });

  it("an anonymous caller naming a user in user_id cannot read that user's drafts, unread counts, reminders or blocks", async () => {
    const { victim, dmId } = await victimsWithSecrets(env());
    const owner = await connectUser(env(), victim);
    await owner.channel('messaging', dmId).createDraft({ text: 'Bản nháp bí mật' });

    const reads = [
      { method: 'POST', path: '/drafts/query', body: {} },
      { method: 'GET', path: '/unread' },
      { method: 'POST', path: '/reminders/query', body: {} },
      { method: 'GET', path: '/users/block' },
      { method: 'GET', path: '/users/live_locations' },
      { method: 'POST', path: '/threads', body: {} },
    ] as const;
    for (const read of reads) {
      const response = await rawRequest(env(), { ...read, userId: victim, token: null });
      expectStreamErrorBody(response, 17, 403);
      expect(JSON.stringify(response.body)).not.toContain('Bản nháp bí mật');
    }
  });

  it('every read route open to anonymous callers refuses a private conversation and everything in it', async () => {
    const { friend, dmId, secretId } = await victimsWithSecrets(env());
    const dm = env().admin.channel('messaging', dmId);
    await dm.sendMessage({ text: 'Đáp: 7749 ở hang thứ ba', parent_id: secretId, user_id: friend });
    await env().admin.partialUpdateMessage(secretId, { set: { pinned: true } }, friend);
    const { poll } = await env().admin.createPoll(
      { name: 'Chia kho báu 7749?', options: [{ text: 'Chia' }] },
      friend,
    );
    await dm.sendMessage({ text: 'Bỏ phiếu', poll_id: poll.id, user_id: friend });
    const payload = (value: object) => ({ payload: JSON.stringify(value) });
    const reads = [
      {
        route: 'POST /channels/:type/:id/query',
        method: 'POST',
        path: `/channels/messaging/${dmId}/query`,
        body: { state: true },
      },
      {
        route: 'GET /channels/:type/:id/messages',
        method: 'GET',
        path: `/channels/messaging/${dmId}/messages`,
        query: { ids: secretId },
      },
      {
        route: 'GET /channels/:type/:id/pinned_messages',
        method: 'GET',
        path: `/channels/messaging/${dmId}/pinned_messages`,
        query: payload({ limit: 10 }),
      },
      { route: 'GET /messages/:id', method: 'GET', path: `/messages/${secretId}` },
      { route: 'GET /messages/:id/replies', method: 'GET', path: `/messages/${secretId}/replies` },
      { route: 'GET /threads/:id', method: 'GET', path: `/threads/${secretId}` },
      {
        route: 'GET /members',
        method: 'GET',
        path: '/members',
        query: payload({ type: 'messaging', id: dmId, filter_conditions: {} }),
      },
      { route: 'GET /polls/:id', method: 'GET', path: `/polls/${poll.id}` },
    ] as const;

    for (const { route, ...read } of reads) {
      // The conversation's own member reads it: the refusal below is about the caller, not missing data.
      const member = await rawRequest(env(), { ...read, userId: friend });
      expect(member.status, `${route} as a member`).toBe(200);
      const response = await rawRequest(env(), { ...read, token: null });
      expect([403, 404], `${route}: ${JSON.stringify(response.body)}`).toContain(response.status);
      expect(JSON.stringify(response.body), route).not.toContain('7749');
    }
    // A route opened to anonymous callers later must join one of these lists. POST /channels has its own test above;
    // the others carry no channel data.
    const coveredElsewhere = [
      'GET /app',
      'GET /hi',
      'POST /guest',
      'POST /channels',
      'POST /channels/:type/:id/stop-watching',
      // The websocket's anonymous handshake over HTTP: test/contract/longpoll.test.ts and the authorization matrix.
      'GET /longpoll',
    ];
    expect(new Set([...reads.map((r) => r.route), ...coveredElsewhere])).toEqual(ANONYMOUS_ROUTES);
  });

  it("an anonymous websocket claiming a user's id is not that user and receives none of their events", async () => {
    const { victim, friend, dmId } = await victimsWithSecrets(env());
    const victimClient = await connectUser(env(), victim);
    const spy = await openRawSocket(env(), { claimedUserId: victim });
    try {
      const me = spy.first.me as { id: string; role: string } | undefined;
      expect(me?.id).not.toBe(victim);
      expect(me?.role).toBe('anonymous');

      const delivered = waitForEvent(victimClient, 'notification.message_new');
      await env()
        .admin.channel('messaging', dmId)
        .sendMessage({ text: 'Chỉ mình ngươi biết', user_id: friend });
      await delivered;
      await spy.flush();

      expect(JSON.stringify(spy.frames)).not.toContain('Chỉ mình ngươi biết');
    } finally {
      spy.close();
    }
  });

  it('an anonymous connection still reads a public channel, live, without any user id', async () => {
    const { admin, liveId } = await victimsWithSecrets(env());
    const visitor = newClient(env());
    await visitor.connectAnonymousUser();
    const channel = visitor.channel('livestream', liveId);
    await channel.watch();
    const writer = await connectUser(env(), admin);
    const live = await watchChannel(writer, 'livestream', liveId);

    const arrived = waitForEvent(visitor, 'message.new');
    const sent = await sendText(live, 'Khai đàn giảng đạo');
    await arrived;

    expect(ids(channel.state.messages)).toContain(sent.id);
    expect(channel.state.membership).toEqual({});
  });

  it("an anonymous REST call cannot use a signed-in user's connection id to watch in their name", async () => {
    const { victim, liveId } = await victimsWithSecrets(env());
    const victimClient = await connectUser(env(), victim);
    const response = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/livestream/${liveId}/query`,
      token: null,
      query: { connection_id: victimClient.wsConnection!.connectionID! },
      body: { state: true, watch: true },
    });

    expect(response.status).toBe(200);
    const watchers = () =>
      env()
        .admin.channel('livestream', liveId)
        .query({ watchers: { limit: 10 } })
        .then((state) => state.watcher_count);
    expect(await watchers()).toBe(0);
    // The same watch made by the socket's owner does count, so the zero above is not a blind spot.
    await victimClient.channel('livestream', liveId).watch();
    expect(await watchers()).toBe(1);
  });
});

describe('#1 who talks with whom', () => {
  const env = useContractEnv();

  it('an anonymous caller cannot learn whether two users have a direct conversation from the member list', async () => {
    const [a, b, c] = [uniqueId('a'), uniqueId('b'), uniqueId('c')];
    await createUsers(env(), [a, b, c]);
    await env()
      .admin.channel('messaging', { members: [a, b], created_by_id: a })
      .create();
    const membersOf = (pair: string[]) =>
      rawRequest(env(), {
        method: 'GET',
        path: '/members',
        token: null,
        query: {
          payload: JSON.stringify({ type: 'messaging', members: pair, filter_conditions: {} }),
        },
      });

    const existing = await membersOf([a, b]);
    const missing = await membersOf([a, c]);

    expectStreamErrorBody(existing, 16, 404);
    expectStreamErrorBody(missing, 16, 404);
    expect(JSON.stringify(existing.body)).not.toContain(b);
  });
});

describe('#21 anonymous writes', () => {
  const env = useContractEnv();

  it('an anonymous write is refused with 403 and code 17, not as bad input', async () => {
    const { liveId } = await victimsWithSecrets(env());
    const writes = [
      {
        method: 'POST',
        path: `/channels/livestream/${liveId}/message`,
        body: { message: { text: 'xin chào' } },
      },
      {
        method: 'POST',
        path: `/channels/livestream/${liveId}/event`,
        body: { event: { type: 'typing.start' } },
      },
      { method: 'POST', path: `/channels/livestream/${liveId}/read`, body: {} },
      { method: 'POST', path: '/moderation/mute', body: { target_ids: ['someone'] } },
      { method: 'POST', path: '/users', body: { users: { ke: { id: 'ke' } } } },
      { method: 'POST', path: '/polls', body: { name: 'Bình chọn' } },
      { method: 'POST', path: '/moderation/flag', body: { target_user_id: 'someone' } },
    ] as const;
    for (const write of writes) {
      const response = await rawRequest(env(), { ...write, token: null });
      expectStreamErrorBody(response, 17, 403);
    }
  });
});
