import type { Event, EventTypes } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

// Custom events, as Stream's docs send them: a client or the server into a channel, and the server to one user.
describe('custom events', { timeout: 20_000 }, () => {
  const env = useContractEnv();
  const custom = (type: string) => type as EventTypes;

  it('a server-side channel event names the user it speaks for, with the user object', async () => {
    const { aliceId, bobChannel } = await twoMembers(env(), 'su-kien-may-chu');
    const heard = waitForEvent(bobChannel, custom('friendship_request'));
    await env()
      .admin.channel('messaging', bobChannel.id!)
      .sendEvent({ type: 'friendship_request', user_id: aliceId, text: 'Kết giao nhé' } as never);
    const event = await heard;
    expect(event).toMatchObject({ text: 'Kết giao nhé', user: { id: aliceId } });
  });

  it('a client cannot make its event name someone else in user_id', async () => {
    const { aliceId, bobId, aliceChannel, bobChannel } = await twoMembers(env(), 'gia-danh');
    const heard = waitForEvent(bobChannel, custom('loi_nhan'));
    await aliceChannel.sendEvent({ type: 'loi_nhan', user_id: bobId, text: 'Ta là Bob' } as never);
    expect(await heard).toMatchObject({ user_id: aliceId, user: { id: aliceId } });
  });

  it.each([
    'draft.updated',
    'draft.deleted',
    'reminder.created',
    'reminder.due',
    'live_location_sharing.started',
    'daohuu.notification.new',
    'notification.message_new',
    'channels.queried',
    'capabilities.changed',
    'connection.changed',
    'transport.changed',
    'offline_reactions.queried',
  ])(
    'a member cannot relay %s, a type the server sends to a user’s own connections or the client raises itself, through a channel',
    async (type) => {
      const { aliceChannel, bobChannel } = await twoMembers(env(), 'gia-mao-rieng');
      const heard: string[] = [];
      bobChannel.on((event) => heard.push(event.type));
      await expectStreamError(
        aliceChannel.sendEvent({
          type,
          draft: { channel_cid: bobChannel.cid, message: { text: 'Gửi mật khẩu cho ta' } },
          notification: { kind: 'breakthrough' },
        } as never),
        { code: 18, status: 400 },
      );
      await expectStreamError(
        env()
          .admin.channel('messaging', bobChannel.id!)
          .sendEvent({ type, user_id: 'system' } as never),
        { code: 18, status: 400 },
      );
      // The refusal came back before anything could be relayed; a custom event sent after arrives alone.
      const after = waitForEvent(bobChannel, custom('loi_chao'));
      await aliceChannel.sendEvent({ type: 'loi_chao' } as never);
      await after;
      expect(heard.filter((seen) => seen === type)).toEqual([]);
    },
  );

  it('sendUserCustomEvent reaches every connection of that user and nobody else', async () => {
    const { aliceId, alice, bob, bobId } = await twoMembers(env(), 'su-kien-rieng');
    const aliceAgain = await connectUser(env(), aliceId);
    const payload = { type: 'tu_vi_tang', text: 'Đột phá Kim Đan', tang: 120 };
    const onFirst = new Promise<Event>((resolve) => alice.on('tu_vi_tang', resolve));
    const onSecond = new Promise<Event>((resolve) => aliceAgain.on('tu_vi_tang', resolve));
    const bobHeard: Event[] = [];
    bob.on('tu_vi_tang', (event) => bobHeard.push(event));

    await env().admin.sendUserCustomEvent(aliceId, payload as never);
    for (const event of await Promise.all([onFirst, onSecond]))
      expect(event).toMatchObject({ ...payload, created_at: expect.any(String) });
    // One event of Bob's own, sent after: once it is here, Alice's would have reached him first had it gone to him.
    const bobsOwn = new Promise<Event>((resolve) => bob.on('loi_chao', resolve));
    await env().admin.sendUserCustomEvent(bobId, { type: 'loi_chao' } as never);
    await bobsOwn;
    expect(bobHeard).toEqual([]);
  });

  it('sendUserCustomEvent is server-side only, needs an existing user, a type of its own and at most 5 KiB', async () => {
    const { aliceId, alice } = await twoMembers(env(), 'su-kien-cam');
    await expectStreamError(
      alice.post(`${alice.baseURL}/users/${aliceId}/event`, { event: { type: 'gia_mao' } }),
      { code: 17, status: 403 },
    );
    await expectStreamError(
      env().admin.sendUserCustomEvent(uniqueId('vo-danh'), { type: 'loi_nhan' } as never),
      { code: 16, status: 404 },
    );
    await expectStreamError(
      env().admin.sendUserCustomEvent(aliceId, { type: 'message.new' } as never),
      { code: 18, status: 400 },
    );
    await expectStreamError(
      env().admin.sendUserCustomEvent(aliceId, { type: 'dai', text: 'x'.repeat(6000) } as never),
      { code: 22, status: 413 },
    );
    await expectStreamError(env().admin.sendUserCustomEvent(aliceId, {} as never), {
      code: 4,
      status: 400,
    });
  });
});
