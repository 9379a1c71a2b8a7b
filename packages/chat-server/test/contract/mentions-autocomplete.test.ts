import { describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  createUsers,
  expectStreamError,
  nth,
  uniqueId,
  useContractEnv,
} from './helpers.ts';

/**
 * The mention list of stream-chat's MessageComposer asks the server with exactly these shapes
 * (MentionsSearchSource.prepareQueryUsersParams / prepareQueryMembersParams); a cultivator types without accents.
 */
describe('mention autocomplete', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('finds "Bạch Vân" for "bach" through the composer’s queryUsers filter and sort', async () => {
    const tag = uniqueId('tag');
    const bach = { id: uniqueId('bach-van'), name: `Bạch Vân ${tag}` };
    const dao = { id: uniqueId('dao'), name: `Đạo Tâm ${tag}` };
    const other = { id: uniqueId('lam'), name: `Lâm Phong ${tag}` };
    await createUsers(env(), [bach, dao, other]);
    const { members } = await channelWithMembers(env(), 'mention-users', {
      users: ['nguoi-goi'],
    });
    const caller = nth(members, 0).client;
    const ids = [bach.id, dao.id, other.id];

    const search = (token: string) =>
      caller.queryUsers(
        {
          $or: [{ id: { $autocomplete: token } }, { name: { $autocomplete: token } }],
          id: { $in: ids },
        },
        [{ name: 1 }, { id: 1 }],
        { limit: 10, offset: 0 },
      );

    expect((await search('bach')).users.map((user) => user.id)).toEqual([bach.id]);
    expect((await search('BẠCH v')).users.map((user) => user.id)).toEqual([bach.id]);
    expect((await search('dao')).users.map((user) => user.id)).toEqual([dao.id]);
    expect((await search('van')).users.map((user) => user.id)).toEqual([bach.id]);
    expect((await search('ach')).users).toEqual([]);
  });

  it('finds a member named "Bạch Vân" for "bach" through the composer’s queryMembers filter and sort', async () => {
    const { members } = await channelWithMembers(env(), 'mention-members', {
      users: [
        { prefix: 'lam-phong', user: { name: 'Lâm Phong' } },
        { prefix: 'bach-van', user: { name: 'Bạch Vân' } },
        { prefix: 'bach-lo', user: { name: 'Bách Lộ' } },
      ],
    });
    const channel = nth(members, 0).channel;

    const found = await channel.queryMembers(
      { name: { $autocomplete: 'bach' } },
      [{ user_id: 1 }],
      { limit: 10, offset: 0 },
    );
    expect(found.members.map((member) => member.user?.name).sort()).toEqual([
      'Bách Lộ',
      'Bạch Vân',
    ]);
    const lam = await channel.queryMembers({ name: { $autocomplete: 'LAM p' } }, [{ user_id: 1 }]);
    expect(lam.members.map((member) => member.user_id)).toEqual([nth(members, 0).id]);
  });

  it('refuses an $autocomplete that is not text with Stream’s input error', async () => {
    const { members } = await channelWithMembers(env(), 'mention-bad', { users: ['goi-sai'] });
    const { client, channel } = nth(members, 0);
    await expectStreamError(
      client.queryUsers({ name: { $autocomplete: 42 as unknown as string } }),
      { code: 4, status: 400 },
    );
    await expectStreamError(
      channel.queryMembers({ name: { $autocomplete: { $ne: 'x' } as unknown as string } }),
      { code: 4, status: 400 },
    );
  });
});
