import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  waitForState,
  watchChannel,
} from './helpers.ts';

describe('users', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('upserts users server-side and returns them as a map keyed by id', async () => {
    const a = uniqueId('duong-qua');
    const b = uniqueId('tieu-long-nu');

    const response = await env().admin.upsertUsers([
      { id: a, name: 'Dương Quá', tu_vi: 4500 },
      { id: b, name: 'Tiểu Long Nữ', tu_vi: 9000 },
    ]);

    expect(response.users[a]).toMatchObject({
      id: a,
      name: 'Dương Quá',
      tu_vi: 4500,
      role: 'user',
    });
    expect(response.users[b]).toMatchObject({ id: b, name: 'Tiểu Long Nữ', tu_vi: 9000 });
    expect(response.users[a]?.created_at).toEqual(expect.any(String));
  });

  it('round-trips the custom tu_vi field through partialUpdateUser set and unset', async () => {
    const id = uniqueId('vuong-lam');
    await env().admin.upsertUsers([{ id, name: 'Vương Lâm', tu_vi: 10, dao_hieu: 'Tiên Nghịch' }]);

    const response = await env().admin.partialUpdateUser({
      id,
      set: { tu_vi: 123456 },
      unset: ['dao_hieu'],
    });

    expect(response.users[id]).toMatchObject({ id, name: 'Vương Lâm', tu_vi: 123456 });
    expect(response.users[id]).not.toHaveProperty('dao_hieu');
    const client = await connectUser(env(), uniqueId('nguoi-xem'));
    const { users } = await client.queryUsers({ id: { $eq: id } });
    expect(users[0]?.tu_vi).toBe(123456);
    expect(users[0]).not.toHaveProperty('dao_hieu');
  });

  it('lets a connected user partially update their own custom data', async () => {
    const id = uniqueId('bach-tieu-thuan');
    const client = await connectUser(env(), id, { user: { name: 'Bạch Tiểu Thuần', tu_vi: 1 } });

    const response = await client.partialUpdateUser({ id, set: { tu_vi: 777 } });

    expect(response.users[id]?.tu_vi).toBe(777);
    const { users } = await env().admin.queryUsers({ id: { $eq: id } });
    expect(users[0]).toMatchObject({ name: 'Bạch Tiểu Thuần', tu_vi: 777 });
  });

  it('filters queryUsers with $in and $autocomplete on name, and sorts by name in both directions', async () => {
    const tag = uniqueId('x');
    const people = [
      { id: uniqueId('tv1'), name: `Tiêu Viêm ${tag}` },
      { id: uniqueId('tv2'), name: `Tiêu Huân Nhi ${tag}` },
      { id: uniqueId('ld'), name: `Lâm Động ${tag}` },
    ];
    await createUsers(env(), people);
    const client = await connectUser(env(), uniqueId('tim-kiem'));
    const allIds = people.map((person) => person.id);

    const byIn = await client.queryUsers({ id: { $in: allIds } }, { name: 1 });
    expect(byIn.users.map((user) => user.name)).toEqual([
      `Lâm Động ${tag}`,
      `Tiêu Huân Nhi ${tag}`,
      `Tiêu Viêm ${tag}`,
    ]);

    const descending = await client.queryUsers({ id: { $in: allIds } }, [{ name: -1 }]);
    expect(descending.users.map((user) => user.id)).toEqual([
      people[0]?.id,
      people[1]?.id,
      people[2]?.id,
    ]);

    const byName = await client.queryUsers(
      { id: { $in: allIds }, name: { $autocomplete: 'tiêu' } },
      { name: 1 },
    );
    expect(byName.users.map((user) => user.id)).toEqual([people[1]?.id, people[0]?.id]);

    const paged = await client.queryUsers(
      { id: { $in: allIds } },
      { name: 1 },
      { limit: 2, offset: 1 },
    );
    expect(paged.users.map((user) => user.name)).toEqual([
      `Tiêu Huân Nhi ${tag}`,
      `Tiêu Viêm ${tag}`,
    ]);
  });

  it('filters queryUsers by team with $in, $eq and $contains, and refuses multi-tenant mode', async () => {
    const [red, blue, both] = [uniqueId('do'), uniqueId('xanh'), uniqueId('ca-hai')];
    const [redTeam, blueTeam] = [uniqueId('doi-do'), uniqueId('doi-xanh')];
    await env().admin.upsertUsers([
      { id: red, teams: [redTeam] },
      { id: blue, teams: [blueTeam] },
      { id: both, teams: [redTeam, blueTeam] },
    ]);
    const ids = async (filter: object) =>
      (await env().admin.queryUsers(filter as never, { id: 1 })).users.map((u) => u.id).sort();

    expect(await ids({ teams: { $in: [redTeam] } })).toEqual([red, both].sort());
    expect(await ids({ teams: { $eq: blueTeam } })).toEqual([blue, both].sort());
    expect(await ids({ teams: { $contains: blueTeam } })).toEqual([blue, both].sort());
    expect(await ids({ teams: { $in: [redTeam, blueTeam] } })).toEqual([red, blue, both].sort());
    await expect(env().admin.queryUsers({ teams: { $gt: 'a' } } as never)).rejects.toMatchObject({
      code: 4,
    });
    // Teams do not keep users apart here: an app asking for that is told so rather than left to believe it.
    await expect(
      env().admin.updateAppSettings({ multi_tenant_enabled: true }),
    ).rejects.toMatchObject({ code: 4, message: expect.stringMatching(/multi-tenant/) });
    await env().admin.updateAppSettings({ multi_tenant_enabled: false });
  });

  it('reports a connected user as online and tells a presence subscriber when they go offline and come back', async () => {
    const watcherId = uniqueId('quan-sat');
    const targetId = uniqueId('de-tu');
    const target = await connectUser(env(), targetId);
    const watcher = await connectUser(env(), watcherId);

    const { users } = await watcher.queryUsers({ id: { $eq: targetId } }, {}, { presence: true });
    expect(users[0]?.online).toBe(true);

    const offline = waitForEvent(
      watcher,
      'user.presence.changed',
      (event) => event.user?.id === targetId,
    );
    await target.disconnectUser();
    const offlineEvent = await offline;
    expect(offlineEvent.user?.online).toBe(false);
    expect(offlineEvent.user?.last_active).toEqual(expect.any(String));

    const online = waitForEvent(
      watcher,
      'user.presence.changed',
      (event) => event.user?.id === targetId,
    );
    await connectUser(env(), targetId);
    expect((await online).user?.online).toBe(true);
  });

  it('sends user.updated with the full user to a member watching a shared channel', async () => {
    const aliceId = uniqueId('diep-pham');
    const bobId = uniqueId('mac-vu');
    const alice = await connectUser(env(), aliceId, { user: { name: 'Diệp Phàm', tu_vi: 5 } });
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId('hoang-co');
    await watchChannel(alice, 'messaging', channelId, { members: [aliceId, bobId] });
    const bobChannel = await watchChannel(bob, 'messaging', channelId);

    const updated = waitForEvent(bob, 'user.updated', (event) => event.user?.id === aliceId);
    await env().admin.partialUpdateUser({ id: aliceId, set: { tu_vi: 88888 } });
    const event = await updated;

    expect(event.user).toMatchObject({ id: aliceId, name: 'Diệp Phàm', tu_vi: 88888 });
    expect(bobChannel.state.members[aliceId]?.user?.tu_vi).toBe(88888);
  });

  it('updates the own client user when the server changes it, without dropping fields', async () => {
    const id = uniqueId('thach-hao');
    const client = await connectUser(env(), id, { user: { name: 'Thạch Hạo', tu_vi: 3 } });

    await env().admin.partialUpdateUser({ id, set: { tu_vi: 4 } });
    await waitForState(
      client,
      () => client.user?.tu_vi === 4,
      'the own user carries the new tu_vi',
    );

    expect(client.user).toMatchObject({ id, name: 'Thạch Hạo', tu_vi: 4 });
    expect(client.user).toHaveProperty('mutes', []);
  });
});
