import type { Event, EventTypes, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUsers,
  createUsers,
  expectStreamErrorBody,
  inMs,
  rawRequest,
  readStreamError,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
  type ContractEnv,
} from './helpers.ts';

/** Our own in-app notifications (chat/extensions/notifications): stored per user, pushed live, read and marked. */

const PATH = '/daohuu/notifications';
const NEW = 'daohuu.notification.new' as EventTypes;

interface Notification {
  id: string;
  kind: string;
  cid: string | null;
  message_id: string | null;
  parent_id: string | null;
  actor_id: string | null;
  actor: { id: string; name?: string } | null;
  channel_name: string | null;
  created_at: string;
  read_at: string | null;
}

interface Page {
  notifications: Notification[];
  unread_count: number;
}

type Pushed = Event & { notification: Notification; unread_count: number };

function list(client: StreamChat, params: Record<string, string | number> = {}): Promise<Page> {
  return client.get<Page>(`${client.baseURL}${PATH}`, params);
}

function markRead(client: StreamChat, body: object): Promise<{ unread_count: number }> {
  return client.post<{ unread_count: number }>(`${client.baseURL}${PATH}/read`, body);
}

/** The next notification pushed to `client` (call before the action). */
async function nextPushed(client: StreamChat, kind?: string): Promise<Pushed> {
  const event = await waitForEvent(
    client,
    NEW,
    (e) => !kind || (e as Pushed).notification.kind === kind,
  );
  return event as Pushed;
}

/** Alice, bob and carol, all members of one channel named "Quảng Trường" that alice created. */
async function threeInChannel(env: ContractEnv, prefix: string) {
  const users = await connectUsers(env, [
    { prefix: `${prefix}-a`, user: { name: 'Hàn Lập' } },
    { prefix: `${prefix}-b`, user: { name: 'Bạch Vân' } },
    { prefix: `${prefix}-c`, user: { name: 'Nam Cung' } },
  ]);
  const [alice, bob, carol] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
  const channelId = uniqueId(prefix);
  await watchChannel(alice.client, 'messaging', channelId, {
    members: users.map((u) => u.id),
    name: 'Quảng Trường',
  } as never);
  const bobChannel = await watchChannel(bob.client, 'messaging', channelId);
  const carolChannel = await watchChannel(carol.client, 'messaging', channelId);
  return { alice, bob, carol, bobChannel, carolChannel, cid: `messaging:${channelId}` };
}

describe('the notification center: each kind', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('tells a mentioned user of the mention live and keeps it in their list, with who and where', async () => {
    const { alice, bob, bobChannel, cid } = await threeInChannel(env(), 'nc-mention');
    const pushed = nextPushed(alice.client);
    const sent = await sendText(bobChannel, `@Hàn Lập xem này`, { mentioned_users: [alice.id] });
    const event = await pushed;

    expect(event.unread_count).toBe(1);
    expect(event.notification).toMatchObject({
      kind: 'mention',
      cid,
      message_id: sent.id,
      actor_id: bob.id,
      actor: { id: bob.id, name: 'Bạch Vân' },
      channel_name: 'Quảng Trường',
      read_at: null,
    });
    const page = await list(alice.client);
    expect(page.unread_count).toBe(1);
    expect(page.notifications.map((n) => n.id)).toEqual([event.notification.id]);
  });

  it('tells the thread author and earlier repliers of a reply, with the parent id', async () => {
    const { alice, bob, carol, bobChannel, carolChannel } = await threeInChannel(env(), 'nc-reply');
    const parent = await sendText(bobChannel, 'Ai biết luyện đan?');
    const bobTold = nextPushed(bob.client);
    await sendText(carolChannel, 'Ta biết', { parent_id: parent.id });
    expect((await bobTold).notification).toMatchObject({
      kind: 'reply',
      parent_id: parent.id,
      actor_id: carol.id,
    });

    const bobAgain = nextPushed(bob.client);
    const carolTold = nextPushed(carol.client);
    const reply = await sendText(
      await watchChannel(alice.client, 'messaging', bobChannel.id!),
      'Ta cũng biết',
      {
        parent_id: parent.id,
      },
    );
    expect((await bobAgain).notification).toMatchObject({ kind: 'reply', message_id: reply.id });
    expect((await carolTold).notification).toMatchObject({ kind: 'reply', actor_id: alice.id });
  });

  it('tells the author of a message of a reaction to it', async () => {
    const { alice, bob, bobChannel } = await threeInChannel(env(), 'nc-react');
    const sent = await sendText(bobChannel, 'Đột phá Trúc Cơ!');
    const pushed = nextPushed(bob.client);
    await alice.client.channel('messaging', bobChannel.id).sendReaction(sent.id, { type: 'love' });
    expect((await pushed).notification).toMatchObject({
      kind: 'reaction',
      message_id: sent.id,
      actor_id: alice.id,
    });
  });

  it('tells a user someone else added to a channel', async () => {
    const [alice, bob] = await connectUsers(env(), ['nc-add-a', 'nc-add-b']);
    const channel = await watchChannel(alice!.client, 'messaging', uniqueId('nc-add'), {
      members: [alice!.id],
    });
    const pushed = nextPushed(bob!.client);
    await channel.addMembers([bob!.id]);
    expect((await pushed).notification).toMatchObject({
      kind: 'added_to_channel',
      cid: channel.cid,
      actor_id: alice!.id,
      message_id: null,
    });
  });

  it('tells a user when their reminder comes due', async () => {
    const { alice, bobChannel } = await threeInChannel(env(), 'nc-rem');
    const sent = await sendText(bobChannel, 'Giờ Tý luyện công');
    const pushed = nextPushed(alice.client, 'reminder_due');
    await alice.client.createReminder({ messageId: sent.id, remind_at: inMs(800) });
    expect((await pushed).notification).toMatchObject({
      kind: 'reminder_due',
      message_id: sent.id,
      actor_id: null,
    });
  });

  it('tells every member a campaign message reached, and not its sender', async () => {
    const { alice, bob, carol, cid } = await threeInChannel(env(), 'nc-camp');
    const aliceTold = nextPushed(alice.client);
    const carolTold = nextPushed(carol.client);
    const bobTold: Event[] = [];
    bob.client.on(NEW, (e) => bobTold.push(e));
    const [type, id] = cid.split(':') as [string, string];
    const server = env().admin;
    const { message } = await server
      .channel(type, id)
      .sendMessage({ text: 'Đại hội tông môn', user_id: bob.id, campaign_id: 'cp-1' } as never);
    expect((await aliceTold).notification).toMatchObject({
      kind: 'campaign',
      message_id: message.id,
    });
    expect((await carolTold).notification.kind).toBe('campaign');
    expect(bobTold).toEqual([]);
  });
});

describe('the notification center: who is not told', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  /** The fence: carol mentions alice; anything recorded before it reached alice before this event. */
  async function fence(scene: Awaited<ReturnType<typeof threeInChannel>>): Promise<Pushed> {
    const pushed = nextPushed(scene.alice.client);
    await sendText(scene.carolChannel, 'Hàng rào', { mentioned_users: [scene.alice.id] });
    return pushed;
  }

  it('does not tell a user of their own mention, reaction or reply', async () => {
    const scene = await threeInChannel(env(), 'nc-own');
    const aliceChannel = await watchChannel(scene.alice.client, 'messaging', scene.bobChannel.id!);
    const own = await sendText(aliceChannel, 'Tự nhắc mình', { mentioned_users: [scene.alice.id] });
    await aliceChannel.sendReaction(own.id, { type: 'like' });
    await sendText(aliceChannel, 'Tự trả lời', { parent_id: own.id });
    const first = await fence(scene);

    expect(first.notification.actor_id).toBe(scene.carol.id);
    expect(first.unread_count).toBe(1);
  });

  it('does not tell a user of being added by the server naming nobody (the product joining them to channels)', async () => {
    const scene = await threeInChannel(env(), 'nc-srvadd');
    const id = uniqueId('nc-srvadd-ch');
    await env().admin.channel('messaging', id, { created_by_id: scene.carol.id }).create();
    await env().admin.channel('messaging', id).addMembers([scene.alice.id]);
    const first = await fence(scene);
    expect(first.notification.kind).toBe('mention');
    expect(first.unread_count).toBe(1);
  });

  it('does not tell a user of a mention by someone they blocked', async () => {
    const scene = await threeInChannel(env(), 'nc-block');
    await scene.alice.client.blockUser(scene.bob.id);
    await sendText(scene.bobChannel, 'Ngươi chặn ta?', { mentioned_users: [scene.alice.id] });
    const first = await fence(scene);
    expect(first.notification.actor_id).toBe(scene.carol.id);
    expect((await list(scene.alice.client)).notifications).toHaveLength(1);
  });

  it('does not tell a user of a reaction by someone they muted', async () => {
    const scene = await threeInChannel(env(), 'nc-mute');
    const aliceChannel = await watchChannel(scene.alice.client, 'messaging', scene.bobChannel.id!);
    const mine = await sendText(aliceChannel, 'Đừng làm phiền');
    await scene.alice.client.muteUser(scene.bob.id);
    await scene.bobChannel.sendReaction(mine.id, { type: 'haha' });
    const first = await fence(scene);
    expect(first.notification.actor_id).toBe(scene.carol.id);
  });

  it('does not tell a user of mentions in a channel they muted', async () => {
    const scene = await threeInChannel(env(), 'nc-chmute');
    await scene.alice.client.channel('messaging', scene.bobChannel.id).mute();
    await sendText(scene.bobChannel, 'Kênh đã tắt thông báo', {
      mentioned_users: [scene.alice.id],
    });
    // The fence comes from another channel, which alice did not mute.
    const other = await watchChannel(scene.carol.client, 'messaging', uniqueId('nc-chmute-2'), {
      members: [scene.alice.id, scene.carol.id],
    });
    const pushed = nextPushed(scene.alice.client);
    await sendText(other, 'Kênh khác', { mentioned_users: [scene.alice.id] });
    expect((await pushed).notification.cid).toBe(other.cid);
  });

  it('does not tell anyone of a mention by a shadow-banned user', async () => {
    const scene = await threeInChannel(env(), 'nc-shadow');
    await env().admin.shadowBan(scene.bob.id, { banned_by_id: scene.carol.id });
    await sendText(scene.bobChannel, 'Không ai thấy ta', { mentioned_users: [scene.alice.id] });
    const first = await fence(scene);
    expect(first.notification.actor_id).toBe(scene.carol.id);
  });
});

describe('the notification center: reading and marking', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function mentionedThrice() {
    const scene = await threeInChannel(env(), 'nc-page');
    const ids: string[] = [];
    for (const text of ['Một', 'Hai', 'Ba']) {
      const pushed = nextPushed(scene.alice.client);
      await sendText(scene.bobChannel, text, { mentioned_users: [scene.alice.id] });
      ids.push((await pushed).notification.id);
    }
    return { ...scene, ids };
  }

  it('pages newest first with limit and before', async () => {
    const { alice, ids } = await mentionedThrice();
    const first = await list(alice.client, { limit: 2 });
    expect(first.notifications.map((n) => n.id)).toEqual([ids[2], ids[1]]);
    const second = await list(alice.client, { limit: 2, before: ids[1]! });
    expect(second.notifications.map((n) => n.id)).toEqual([ids[0]]);
    expect(second.unread_count).toBe(3);
  });

  it('marks one notification read, then all of them', async () => {
    const { alice, ids } = await mentionedThrice();
    expect(await markRead(alice.client, { ids: [ids[0]] })).toMatchObject({ unread_count: 2 });
    const page = await list(alice.client);
    expect(page.notifications.find((n) => n.id === ids[0])?.read_at).toEqual(expect.any(String));
    expect(page.notifications.find((n) => n.id === ids[1])?.read_at).toBeNull();
    expect(await markRead(alice.client, { all: true })).toMatchObject({ unread_count: 0 });
    expect((await list(alice.client)).notifications.every((n) => n.read_at)).toBe(true);
  });

  it("does not let another user read or mark someone's notifications", async () => {
    const { alice, bob, ids } = await mentionedThrice();
    const peek = await rawRequest(env(), {
      method: 'GET',
      path: PATH,
      userId: bob.id,
      query: { user_id: alice.id },
    });
    expect(peek.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(peek.body)).not.toContain(ids[0]);

    await expect(markRead(bob.client, { all: true, user_id: alice.id })).rejects.toMatchObject({
      code: 17,
    });
    // Naming alice's ids marks nothing: a user only ever marks their own.
    await markRead(bob.client, { ids });
    expect((await list(alice.client)).unread_count).toBe(3);
  });

  it('lets the server read a user’s notifications only when it names the user', async () => {
    const { alice, ids } = await mentionedThrice();
    const server = env().admin;
    const page = await server.get<Page>(`${server.baseURL}${PATH}`, { user_id: alice.id });
    expect(page.notifications.map((n) => n.id)).toEqual([...ids].reverse());
    const error = await server.get(`${server.baseURL}${PATH}`).catch((e: unknown) => e);
    expect(readStreamError(error).code).toBe(4);
  });

  it('refuses guests and anonymous users with code 17', async () => {
    const guestId = uniqueId('nc-guest');
    await createUsers(env(), [{ id: guestId, name: guestId, role: 'guest' }]);
    const guest = await rawRequest(env(), { method: 'GET', path: PATH, userId: guestId });
    expectStreamErrorBody(guest, 17, 403);
    const anonymous = await rawRequest(env(), { method: 'GET', path: PATH, token: null });
    expect([401, 403]).toContain(anonymous.status);
  });

  it('answers bad input with code 4 naming the field', async () => {
    const [alice] = await connectUsers(env(), ['nc-bad']);
    const userId = alice!.id;
    const cases: [string, Parameters<typeof rawRequest>[1], string][] = [
      ['limit', { method: 'GET', path: PATH, userId, query: { limit: 'nhiều' } }, 'limit'],
      ['limit 0', { method: 'GET', path: PATH, userId, query: { limit: '0' } }, 'limit'],
      ['before', { method: 'GET', path: PATH, userId, query: { before: 'khong-co' } }, 'before'],
      ['ids', { method: 'POST', path: `${PATH}/read`, userId, body: { ids: 'x' } }, 'ids'],
      ['all', { method: 'POST', path: `${PATH}/read`, userId, body: { all: 'yes' } }, 'all'],
      ['nothing', { method: 'POST', path: `${PATH}/read`, userId, body: {} }, 'ids'],
    ];
    for (const [name, request, field] of cases) {
      const response = await rawRequest(env(), request);
      expectStreamErrorBody(response, 4, 400);
      expect((response.body as { message: string }).message, name).toContain(field);
    }
  });
});
