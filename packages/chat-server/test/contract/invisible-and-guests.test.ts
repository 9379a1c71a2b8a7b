import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  newClient,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

describe('going invisible', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('shows presence subscribers a user who goes invisible by a partial update as offline, and online again when they come back', async () => {
    const targetId = uniqueId('an-than');
    const target = await connectUser(env(), targetId);
    const watcher = await connectUser(env(), uniqueId('quan-sat'));
    const { users } = await watcher.queryUsers({ id: { $eq: targetId } }, {}, { presence: true });
    expect(users[0]?.online).toBe(true);

    const hidden = waitForEvent(watcher, 'user.presence.changed', (e) => e.user?.id === targetId);
    await target.partialUpdateUser({ id: targetId, set: { invisible: true } as never });
    expect((await hidden).user).toMatchObject({ online: false, invisible: true });
    const seen = await watcher.queryUsers({ id: { $eq: targetId } });
    expect(seen.users[0]?.online).toBe(false);

    const back = waitForEvent(watcher, 'user.presence.changed', (e) => e.user?.id === targetId);
    await target.partialUpdateUser({ id: targetId, set: { invisible: false } as never });
    expect((await back).user).toMatchObject({ online: true, invisible: false });
  });

  it('answers an online filter as if a connected invisible user were offline', async () => {
    const targetId = uniqueId('an-than');
    const target = await connectUser(env(), targetId);
    await target.partialUpdateUser({ id: targetId, set: { invisible: true } as never });
    const watcher = await connectUser(env(), uniqueId('do-tham'));
    const matching = async (online: boolean) =>
      (await watcher.queryUsers({ id: { $eq: targetId }, online } as never)).users.map(
        (user) => user.id,
      );
    expect(await matching(true)).toEqual([]);
    expect(await matching(false)).toEqual([targetId]);

    await target.partialUpdateUser({ id: targetId, set: { invisible: false } as never });
    expect(await matching(true)).toEqual([targetId]);
    expect(await matching(false)).toEqual([]);
  });

  it('refuses to make someone else invisible', async () => {
    const targetId = uniqueId('an-than');
    await connectUser(env(), targetId);
    const other = await connectUser(env(), uniqueId('ke-la'));
    await expectStreamError(
      other.partialUpdateUser({ id: targetId, set: { invisible: true } as never }),
      {
        code: 17,
      },
    );
  });
});

describe('guest ids', { timeout: 20_000 }, () => {
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

  it('gives every guest session a new guest-<uuid>-<id> id, or guest-<uuid> when it asks for none', async () => {
    const wanted = uniqueId('khach');
    const first = newClient(env());
    await first.setGuestUser({ id: wanted });
    const second = newClient(env());
    await second.setGuestUser({ id: wanted });
    const pattern = new RegExp(
      `^guest-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-${wanted}$`,
    );
    expect(first.userID).toMatch(pattern);
    expect(second.userID).toMatch(pattern);
    expect(second.userID).not.toBe(first.userID);

    const nameless = newClient(env());
    await nameless.setGuestUser({} as never);
    expect(nameless.userID).toMatch(/^guest-[0-9a-f-]{36}$/);
  });

  it('refuses a guest id with forbidden characters or too long with code 4', async () => {
    for (const id of ['khách vãng lai', 'x'.repeat(213)])
      await expectStreamError(newClient(env()).setGuestUser({ id }), { code: 4, status: 400 });
  });
});
