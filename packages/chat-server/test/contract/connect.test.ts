import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  expectStreamError,
  forgeToken,
  ids,
  newClient,
  sendText,
  signJwt,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  waitUntilTime,
  watchChannel,
} from './helpers.ts';

describe('connect', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('answers connectUser with a health.check carrying the connection id and a complete own user', async () => {
    const id = uniqueId('lam-phong');
    const client = newClient(env());

    const health = await client.connectUser(
      { id, name: 'Lâm Phong', tu_vi: 1200 },
      env().admin.createToken(id),
    );

    expect(health?.type).toBe('health.check');
    expect(health?.connection_id).toEqual(expect.any(String));
    expect(client._getConnectionID()).toBe(health?.connection_id);
    expect(health?.me).toMatchObject({
      id,
      name: 'Lâm Phong',
      tu_vi: 1200,
      mutes: [],
      channel_mutes: [],
      devices: [],
      total_unread_count: 0,
      unread_channels: 0,
    });
    // The client replaces its user with `me`, so `me` must be the stored user, not an echo of nothing.
    expect(client.user?.id).toBe(id);
    expect(client.user).toHaveProperty('mutes', []);
    expect(client.mutedUsers).toEqual([]);
  });

  it('gives a brand-new user the same own fields on first connect as a reconnect reads back from storage', async () => {
    // The first connect builds `me` without reading (nothing of a user can exist before their row); the second
    // reads every part. Both must say the same.
    const id = uniqueId('tan-tu');
    const first = newClient(env());
    const created = await first.connectUser({ id, name: 'Tân Tu' }, env().admin.createToken(id));
    await first.disconnectUser();
    const again = newClient(env());
    const reread = await again.connectUser({ id }, env().admin.createToken(id));

    const own = (me: object | undefined) => {
      const { last_active: _a, updated_at: _u, ...rest } = (me ?? {}) as Record<string, unknown>;
      return rest;
    };
    expect(own(created?.me)).toEqual(own(reread?.me));
    expect(created?.me).toMatchObject({
      mutes: [],
      channel_mutes: [],
      blocked_user_ids: [],
      active_live_locations: [],
      total_unread_count: 0,
      unread_threads: 0,
    });
  });

  it('upserts the user from user_details on connect, keeping fields the client did not send', async () => {
    const id = uniqueId('tieu-viem');
    await env().admin.upsertUsers([{ id, name: 'Tiêu Viêm', tu_vi: 90 }]);

    const client = await connectUser(env(), id, { user: { dao_hieu: 'Viêm Đế' } });

    expect(client.user).toMatchObject({ id, name: 'Tiêu Viêm', tu_vi: 90, dao_hieu: 'Viêm Đế' });
    const { users } = await env().admin.queryUsers({ id: { $eq: id } });
    expect(users[0]).toMatchObject({ name: 'Tiêu Viêm', tu_vi: 90, dao_hieu: 'Viêm Đế' });
  });

  it('connects anonymous users as !anon, each its own watcher, and lets them read a livestream channel', async () => {
    const ownerId = uniqueId('chu-tri');
    const owner = await connectUser(env(), ownerId);
    const liveId = uniqueId('dai-hoi');
    await createChannelAsServer(env(), 'livestream', liveId, ownerId, {
      name: 'Đại hội luận võ',
      members: [ownerId],
    });
    const live = await watchChannel(owner, 'livestream', liveId);
    const sent = await sendText(live, 'Khai mạc!');

    const anonymous = newClient(env());
    const health = await anonymous.connectAnonymousUser();

    expect(health?.connection_id).toEqual(expect.any(String));
    // Stream's id for every anonymous user; inside, each socket is still its own watcher.
    expect(health?.me).toMatchObject({ id: '!anon', role: 'anonymous', anon: true });
    const channel = anonymous.channel('livestream', liveId);
    await channel.watch();
    expect(ids(channel.state.messages)).toContain(sent.id);
    const second = newClient(env());
    expect((await second.connectAnonymousUser())?.me?.id).toBe('!anon');
    await second.channel('livestream', liveId).watch();
    const counted = await env().admin.channel('livestream', liveId).query({ state: true });
    expect(counted.watcher_count).toBe(3);
  });

  it('refuses setGuestUser with code 17 while the app keeps guests off (the default)', async () => {
    await expectStreamError(newClient(env()).setGuestUser({ id: uniqueId('khach') }), {
      code: 17,
      status: 403,
    });
  });

  it('rejects connectUser with code 43 when the token payload was tampered with', async () => {
    const id = uniqueId('gia-mao');
    const other = uniqueId('nan-nhan');
    const forged = forgeToken(env().admin.createToken(other), { user_id: id });

    await expectStreamError(newClient(env()).connectUser({ id }, forged), {
      code: 43,
      status: 401,
    });
  });

  it('rejects connectUser with code 43 when the token is signed with another secret', async () => {
    const id = uniqueId('sai-bi-mat');
    const token = signJwt({ user_id: id }, 'not-the-app-secret');

    await expectStreamError(newClient(env()).connectUser({ id }, token), { code: 43, status: 401 });
  });

  it('rejects connectUser with code 40 when a static token has expired', async () => {
    const id = uniqueId('het-han');
    const token = env().admin.createToken(id, Math.floor(Date.now() / 1000) - 60);

    await expectStreamError(newClient(env()).connectUser({ id }, token), { code: 40, status: 401 });
  });

  it('rejects connectUser when the token belongs to another user', async () => {
    const id = uniqueId('mao-danh');
    const victim = uniqueId('chinh-chu');
    // A provider skips the client's own user_id check, so the server is the one that must refuse.
    const provider = async () => env().admin.createToken(victim);

    const error = await expectStreamError(newClient(env()).connectUser({ id }, provider), {
      code: [5, 43],
    });
    expect(error.status).toBe(401);
  });

  it('refreshes a token that expires mid-session through the token provider without surfacing an error', async () => {
    const id = uniqueId('tu-tien');
    let calls = 0;
    let firstExpiry = 0;
    const provider = async () => {
      calls += 1;
      const nowSeconds = Math.floor(Date.now() / 1000);
      if (calls === 1) {
        firstExpiry = nowSeconds + 2;
        return env().admin.createToken(id, firstExpiry);
      }
      return env().admin.createToken(id, nowSeconds + 3600);
    };
    const client = await connectUser(env(), id, { tokenProvider: provider });
    expect(calls).toBe(1);

    await waitUntilTime((firstExpiry + 1) * 1000);
    const { users } = await client.queryUsers({ id: { $eq: id } });

    expect(users.map((user) => user.id)).toEqual([id]);
    expect(calls).toBe(2);
  });

  it('survives a server restart: the client reconnects by itself, re-queries its channels and keeps history', async () => {
    const { alice, bob, aliceChannel, bobChannel } = await twoMembers(env(), 'dong-phu');
    const before = await sendText(aliceChannel, 'Trước khi bế quan');
    const connectionBefore = alice._getConnectionID();

    const aliceRecovered = waitForEvent(alice, 'connection.recovered', () => true, 25_000);
    const bobRecovered = waitForEvent(bob, 'connection.recovered', () => true, 25_000);
    await env().server.restart();
    await Promise.all([aliceRecovered, bobRecovered]);

    expect(alice._getConnectionID()).toEqual(expect.any(String));
    expect(alice._getConnectionID()).not.toBe(connectionBefore);
    expect(ids(aliceChannel.state.messages)).toContain(before.id);
    // The recovery query re-watched the channel on the new connection: live events flow again.
    const seen = waitForEvent(
      bobChannel,
      'message.new',
      (event) => event.message?.text === 'Sau khi xuất quan',
    );
    const after = await sendText(aliceChannel, 'Sau khi xuất quan');
    await seen;
    expect(ids(bobChannel.state.messages)).toEqual(expect.arrayContaining([before.id, after.id]));
  }, 40_000);
});

describe('connect as a guest', { timeout: 20_000 }, () => {
  const env = useContractEnv({
    config: {
      apps: [
        {
          key: `guest-${randomBytes(4).toString('hex')}`,
          secret: randomBytes(16).toString('hex'),
          guests: { enabled: true },
        },
      ],
    },
  });

  it('connects a guest created through /guest with the guest role and Stream’s guest-<uuid>-<id> id', async () => {
    const guest = newClient(env());
    const wanted = uniqueId('khach');

    const health = await guest.setGuestUser({ id: wanted, name: 'Khách vãng lai' });

    expect(health?.connection_id).toEqual(expect.any(String));
    expect(guest.userID).toMatch(new RegExp(`^guest-[0-9a-f-]{36}-${wanted}$`));
    expect(guest.user).toMatchObject({ name: 'Khách vãng lai', role: 'guest' });
  });
});
