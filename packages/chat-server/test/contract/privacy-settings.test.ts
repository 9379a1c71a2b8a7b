import type { Event, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  rawRequest,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

const READ_RECEIPTS_OFF = { read_receipts: { enabled: false } };
const TYPING_OFF = { typing_indicators: { enabled: false } };

/** Records the types of events `client` receives from `userId` in `cid`. */
function eventsFrom(client: StreamChat, cid: string, userId: string): string[] {
  const seen: string[] = [];
  client.on((event: Event) => {
    if (event.cid === cid && event.user?.id === userId) seen.push(event.type);
  });
  return seen;
}

/** A user's stored privacy settings, as a user query answers them. */
async function storedSettings(env: ContractEnv, id: string): Promise<unknown> {
  const { users } = await env.admin.queryUsers({ id });
  return users[0]?.privacy_settings;
}

describe('user privacy settings', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('stores privacy_settings given at connect, by upsertUsers and by partialUpdateUser, and returns them in me and in user queries', async () => {
    const aliceId = uniqueId('an-danh');
    const alice = await connectUser(env(), aliceId, {
      user: { privacy_settings: READ_RECEIPTS_OFF },
    });
    expect(alice.user?.privacy_settings).toEqual(READ_RECEIPTS_OFF);
    expect(await storedSettings(env(), aliceId)).toEqual(READ_RECEIPTS_OFF);

    const bobId = uniqueId('kin-dao');
    await env().admin.upsertUsers([{ id: bobId, privacy_settings: TYPING_OFF }]);
    expect(await storedSettings(env(), bobId)).toEqual(TYPING_OFF);

    const both = { ...TYPING_OFF, delivery_receipts: { enabled: true } };
    await alice.partialUpdateUser({ id: aliceId, set: { privacy_settings: both } });
    expect(await storedSettings(env(), aliceId)).toEqual(both);
    const again = await connectUser(env(), aliceId);
    expect(again.user?.privacy_settings).toEqual(both);

    await alice.partialUpdateUser({ id: aliceId, unset: ['privacy_settings'] });
    expect(await storedSettings(env(), aliceId)).toBeUndefined();
  });

  it('keeps the read state of a user with read receipts off, but tells nobody else they read', async () => {
    const { aliceId, bobId, alice, bob, aliceChannel, bobChannel } = await twoMembers(
      env(),
      'da-doc',
      { alice: { privacy_settings: READ_RECEIPTS_OFF } },
    );
    await sendText(bobChannel, 'Một');
    await sendText(bobChannel, 'Hai');
    expect((await alice.getUnreadCount()).total_unread_count).toBe(2);
    const fromAlice = eventsFrom(bob, bobChannel.cid, aliceId);

    await aliceChannel.markRead();
    expect((await alice.getUnreadCount()).total_unread_count).toBe(0);
    // Events of one channel arrive in order: once alice's later message is in, her read would have been too.
    const later = waitForEvent(bobChannel, 'message.new', (e) => e.user?.id === aliceId);
    await sendText(aliceChannel, 'Đã xem mà không báo');
    await later;
    expect(fromAlice).toEqual(['message.new']);

    // A user who keeps receipts on is seen reading, as before.
    const seen = waitForEvent(aliceChannel, 'message.read', (e) => e.user?.id === bobId);
    await bobChannel.markRead();
    expect((await seen).user?.id).toBe(bobId);
  });

  it('tells nobody that a user with typing indicators off is typing', async () => {
    const { aliceId, bobId, bob, aliceChannel, bobChannel } = await twoMembers(env(), 'go-phim', {
      alice: { privacy_settings: TYPING_OFF },
    });
    const fromAlice = eventsFrom(bob, bobChannel.cid, aliceId);
    // The client itself keeps quiet with typing indicators off, so the server is asked directly.
    const response = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/messaging/${aliceChannel.id}/event`,
      userId: aliceId,
      body: { event: { type: 'typing.start' } },
    });
    expect(response.status).toBe(200);
    const later = waitForEvent(bobChannel, 'message.new', (e) => e.user?.id === aliceId);
    await sendText(aliceChannel, 'Gõ xong rồi');
    await later;
    expect(fromAlice).toEqual(['message.new']);

    const typing = waitForEvent(aliceChannel, 'typing.start', (e) => e.user?.id === bobId);
    await bobChannel.keystroke();
    expect((await typing).user?.id).toBe(bobId);
  });

  it('refuses privacy_settings of the wrong shape with code 4 and keeps what was stored', async () => {
    const aliceId = uniqueId('an-danh');
    const alice = await connectUser(env(), aliceId, {
      user: { privacy_settings: READ_RECEIPTS_OFF },
    });
    const wrong: unknown[] = [
      'off',
      [],
      { typing_indicators: true },
      { typing_indicators: { enabled: 'no' } },
      { typing_indicators: {} },
      { invisible_mode: { enabled: true } },
    ];
    for (const value of wrong) {
      const settings = value as never;
      await expectStreamError(
        alice.partialUpdateUser({ id: aliceId, set: { privacy_settings: settings } }),
        { code: 4, status: 400, message: /privacy_settings/ },
      );
      await expectStreamError(
        env().admin.upsertUsers([{ id: aliceId, privacy_settings: settings }]),
        { code: 4, status: 400, message: /privacy_settings/ },
      );
    }
    await expectStreamError(
      connectUser(env(), aliceId, { user: { privacy_settings: 'off' as never } }),
      { code: 4 },
    );
    expect(await storedSettings(env(), aliceId)).toEqual(READ_RECEIPTS_OFF);
  });
});
