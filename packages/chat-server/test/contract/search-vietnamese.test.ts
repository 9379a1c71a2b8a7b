import { describe, expect, it } from 'vitest';
import type { MessageFilters, SearchOptions, StreamChat } from 'stream-chat';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  rawRequest,
  uniqueId,
  useContractEnv,
} from './helpers.ts';

/*
 * GET /search as Vietnamese users type (extensions/search/): accents, đ and case do not matter, the last word may be
 * a prefix, exact and whole-phrase matches rank first, and only what the searcher may read is found.
 */
describe('Vietnamese message search with the real client', () => {
  const env = useContractEnv();

  /** A channel of `authorId` shared with a connected searcher; `send` stores messages in order, server-side. */
  async function scene() {
    const searcherId = uniqueId('searcher');
    const authorId = uniqueId('author');
    await createUsers(env(), [searcherId, authorId]);
    const channelId = uniqueId('search');
    await createChannelAsServer(env(), 'messaging', channelId, authorId, {
      members: [searcherId, authorId],
    });
    const channel = env().admin.channel('messaging', channelId);
    const ids: Record<string, string> = {};
    const send = async (key: string, text: string, extra: Record<string, unknown> = {}) => {
      ids[key] = (await channel.sendMessage({ user_id: authorId, text, ...extra })).message.id;
      return ids[key];
    };
    const searcher = await connectUser(env(), searcherId);
    const cid = `messaging:${channelId}`;
    const find = async (
      query: string | MessageFilters,
      options: SearchOptions = {},
      client: StreamChat = searcher,
    ) => (await client.search({ cid }, query, options)).results.map((r) => r.message.id);
    const keysOf = (found: string[]) =>
      found.map((id) => Object.keys(ids).find((key) => ids[key] === id) ?? id);
    return { searcher, searcherId, authorId, channel, channelId, cid, ids, send, find, keysOf };
  }

  const texts: Record<string, string> = {
    greeting: 'Chào Đạo Hữu, hôm nay tu luyện thế nào?',
    plain: 'dao huu oi',
    shout: 'ĐẠO HỮU!!!',
    punctuated: 'Đạo-hữu ơi, linh thạch đây',
    reversed: 'hữu đạo',
    glued: 'daohuu',
    festival: 'Tông môn đại hội 🎉',
    core: 'Kim Đan kỳ',
  };
  const everyDaoHuu = ['greeting', 'plain', 'shout', 'punctuated', 'reversed'];

  it.each([
    ['without accents', 'dao huu', everyDaoHuu],
    ['in capitals with accents', 'ĐẠO HỮU', everyDaoHuu],
    ['in lower case with accents', 'đạo hữu', everyDaoHuu],
    ['with the last word half typed', 'dao hu', everyDaoHuu],
    ['with d typed for đ', 'kim dan', ['core']],
    ['with one letter of the last word', 'kim đ', ['core']],
    ['as the start of any word', 'da', [...everyDaoHuu, 'glued', 'festival', 'core']],
    ['with punctuation around the words', '  tông, môn!!! ', ['festival']],
    ['as an emoji', '🎉', ['festival']],
    ['as words that are parts of other words', 'ao huu', []],
    ['as a word that is not there', 'nguyên anh', []],
  ])(
    'a query typed %s finds exactly the messages with those words',
    async (_how, query, expected) => {
      const { send, find, keysOf } = await scene();
      for (const [key, text] of Object.entries(texts)) await send(key, text);
      const found = keysOf(await find(query));
      expect(found.sort()).toEqual([...expected].sort());
    },
  );

  it('the same words as a text $q or $autocomplete filter find the same messages', async () => {
    const { send, find, keysOf } = await scene();
    for (const [key, text] of Object.entries(texts)) await send(key, text);
    const byQ = keysOf(await find({ text: { $q: 'DAO HỮU' } } as MessageFilters));
    const byAutocomplete = keysOf(
      await find({ text: { $autocomplete: 'đạo h' } } as MessageFilters),
    );
    expect(byQ.sort()).toEqual([...everyDaoHuu].sort());
    expect(byAutocomplete.sort()).toEqual([...everyDaoHuu].sort());
  });

  it('ranks the text as typed first, then the whole phrase, then the words apart, newer first within a rank', async () => {
    const { send, find, keysOf } = await scene();
    await send('exactOld', 'đạo hữu ơi');
    await send('phrase', 'dao huu');
    await send('apart', 'hữu nghị với đạo');
    await send('exactNew', 'ĐẠO HỮU');
    expect(keysOf(await find('đạo hữu'))).toEqual(['exactNew', 'exactOld', 'phrase', 'apart']);
    // relevance is a real key: the keys after it still order the ties, here oldest first.
    const relevanceThenOldest = await find('đạo hữu', {
      sort: [{ relevance: -1 }, { created_at: 1 }],
    });
    expect(keysOf(relevanceThenOldest)).toEqual(['exactOld', 'exactNew', 'phrase', 'apart']);
    const newest = await find('đạo hữu', { sort: [{ created_at: -1 }] });
    expect(keysOf(newest)).toEqual(['exactNew', 'apart', 'phrase', 'exactOld']);
  });

  it('ranks a query typed without accents first among messages written the same way, whatever their case', async () => {
    const { send, find, keysOf } = await scene();
    await send('accented', 'Đạo Hữu đến rồi');
    await send('asciiUpper', 'DAO HUU den roi');
    await send('apart', 'huu ich cho dao');
    await send('asciiMixed', 'hello Dao Huu');
    // Both unaccented messages contain the text as typed (ignoring case); the accented one only folds to it.
    expect(keysOf(await find('dao HUU'))).toEqual([
      'asciiMixed',
      'asciiUpper',
      'accented',
      'apart',
    ]);
  });

  it('keeps up with every write: an edit, a partial update, a soft and a hard delete', async () => {
    const { send, find, keysOf, authorId } = await scene();
    const edited = await send('edited', 'linh thạch thượng phẩm');
    const patched = await send('patched', 'linh thạch hạ phẩm');
    const soft = await send('soft', 'linh thạch trung phẩm');
    const hard = await send('hard', 'linh thạch cực phẩm');
    await env().admin.updateMessage({ id: edited, text: 'đan dược thượng phẩm' }, authorId);
    await env().admin.partialUpdateMessage(
      patched,
      { set: { text: 'pháp bảo hạ phẩm' } },
      authorId,
    );
    await env().admin.deleteMessage(soft);
    await env().admin.deleteMessage(hard, true);
    expect(keysOf(await find('linh thach'))).toEqual([]);
    expect(keysOf(await find('dan duoc'))).toEqual(['edited']);
    expect(keysOf(await find('phap bao'))).toEqual(['patched']);
  });

  it('finds nothing from before a truncation, soft or hard, and nothing of a deleted channel', async () => {
    const { send, find, keysOf, channel } = await scene();
    await send('before', 'bế quan tu luyện');
    await channel.truncate();
    await send('after', 'bế quan lần hai');
    expect(keysOf(await find('be quan'))).toEqual(['after']);
    await channel.truncate({ hard_delete: true });
    expect(keysOf(await find('be quan'))).toEqual([]);
    await send('last', 'bế quan lần ba');
    await channel.delete();
    expect(keysOf(await find('be quan'))).toEqual([]);
  });

  it('hides the history a member was added without, and channels the searcher may not read', async () => {
    const { send, find, keysOf, channel, searcherId, authorId } = await scene();
    const newcomerId = uniqueId('newcomer');
    await createUsers(env(), [newcomerId]);
    await send('old', 'phi kiếm truyền thư');
    await channel.addMembers([newcomerId], undefined, { hide_history: true });
    await send('new', 'phi kiếm lần nữa');
    const newcomer = await connectUser(env(), newcomerId);
    expect(keysOf(await find('phi kiem', {}, newcomer))).toEqual(['new']);
    expect(keysOf(await find('phi kiem')).sort()).toEqual(['new', 'old']);
    const outsiderId = uniqueId('outsider');
    await createUsers(env(), [outsiderId]);
    const outsider = await connectUser(env(), outsiderId);
    expect(await find('phi kiem', {}, outsider)).toEqual([]);
    expect([searcherId, authorId]).not.toContain(outsiderId);
  });

  it('pages with next without repeating or skipping a result while newer matches arrive', async () => {
    const { send, searcher, cid } = await scene();
    const stored: string[] = [];
    for (let i = 0; i < 5; i++) stored.push(await send(`m${i}`, `trận pháp số ${i}`));
    const seen: string[] = [];
    let next: string | undefined;
    for (let page = 0; page < 10; page++) {
      const response = await searcher.search(
        { cid },
        'tran phap',
        next ? { limit: 2, next } : { limit: 2 },
      );
      seen.push(...response.results.map((r) => r.message.id));
      next = response.next;
      if (!next) break;
      // Newer matches, spelled as typed (the best rank), arrive between pages: the cursor must not shift.
      await send(`late${page}`, 'trận pháp');
    }
    expect(seen).toEqual([...stored].reverse());
  });

  it('pages with next under a sort on a custom field, its nulls last, the sort kept in the cursor', async () => {
    const { send, searcher, cid } = await scene();
    const rank = [3, 1, null, 2, 1];
    const stored: string[] = [];
    for (const [i, value] of rank.entries())
      stored.push(await send(`m${i}`, `tông môn ${i}`, value === null ? {} : { rank: value }));
    const seen: string[] = [];
    // A custom sort key, which the client's typing of sort does not list.
    const sort = [{ rank: 1 }] as unknown as SearchOptions['sort'];
    let response = await searcher.search({ cid }, 'tong mon', { limit: 2, sort });
    seen.push(...response.results.map((r) => r.message.id));
    for (let page = 0; response.next && page < 5; page++) {
      response = await searcher.search({ cid }, 'tong mon', { limit: 2, next: response.next });
      seen.push(...response.results.map((r) => r.message.id));
    }
    // rank 1 twice (ties by id), then 2, 3, and the message without a rank last.
    const ones = [stored[1], stored[4]].sort();
    expect(seen).toEqual([...ones, stored[3], stored[0], stored[2]]);
  });

  it('pages back with previous, passed as next, to exactly the pages it came through, nulls of a custom sort included', async () => {
    const { send, searcher, cid } = await scene();
    const rank = [2, null, 1, null, 3, 1, 2];
    for (const [i, value] of rank.entries())
      await send(`m${i}`, `kiếm ý ${i}`, value === null ? {} : { rank: value });
    const sort = [{ rank: -1 }] as unknown as SearchOptions['sort'];
    const idsOf = (response: { results: { message: { id: string } }[] }) =>
      response.results.map((r) => r.message.id);
    const first = await searcher.search({ cid }, 'kiem y', { limit: 3, sort });
    expect(first.previous).toBeUndefined();
    const forward = [first];
    while (forward.at(-1)!.next)
      forward.push(
        await searcher.search({ cid }, 'kiem y', { limit: 3, next: forward.at(-1)!.next }),
      );
    expect(forward.map((page) => idsOf(page).length)).toEqual([3, 3, 1]);

    const back = [forward.at(-1)!];
    while (back.at(-1)!.previous)
      back.push(
        await searcher.search({ cid }, 'kiem y', { limit: 3, next: back.at(-1)!.previous }),
      );
    expect(back.map(idsOf)).toEqual([...forward].reverse().map(idsOf));
    // Back on the first page, next leads forward again.
    const again = await searcher.search({ cid }, 'kiem y', { limit: 3, next: back.at(-1)!.next });
    expect(idsOf(again)).toEqual(idsOf(forward[1]!));
  });

  it('pages with offset in the default order, and refuses offset with sort', async () => {
    const { send, find, searcher, cid } = await scene();
    const stored: string[] = [];
    for (let i = 0; i < 3; i++) stored.push(await send(`m${i}`, `luyện đan ${i}`));
    expect(await find('luyen dan', { limit: 2, offset: 1 })).toEqual([stored[1], stored[0]]);
    await expectStreamError(
      searcher.search({ cid }, 'luyen dan', { offset: 1, sort: [{ created_at: -1 }] }),
      { code: 4, status: 400, message: /offset.*sort/ },
    );
  });

  it.each([
    ['an empty query', { query: '' }],
    ['a query of spaces', { query: '   ' }],
    ['a query longer than the filter limit', { query: 'đạo '.repeat(1300) }],
    ['a query of more than 32 words', { query: 'a '.repeat(33) }],
    ['a limit over 100', { query: 'đạo', limit: 101 }],
    ['an offset over 1000', { query: 'đạo', offset: 1001 }],
    ['offset together with next', { query: 'đạo', offset: 2, next: 'eyJ9' }],
    ['a next that is not a cursor', { query: 'đạo', next: 'not-a-cursor' }],
    ['a sort on an unknown field', { query: 'đạo', sort: [{ field: 'a b', direction: 1 }] }],
    [
      'a text filter with an operator search cannot do',
      { message_filter_conditions: { text: { $gt: 'a' } } },
    ],
  ])('refuses %s with Stream’s code 4', async (_what, extra) => {
    const { searcherId, cid } = await scene();
    const payload = { filter_conditions: { cid }, ...extra };
    const response = await rawRequest(env(), {
      method: 'GET',
      path: '/search',
      userId: searcherId,
      query: { payload: JSON.stringify(payload) },
    });
    expectStreamErrorBody(response, 4, 400);
  });

  it('filters on attachments, pinned, user.id, created_at ranges and custom fields', async () => {
    const { send, find, keysOf, authorId } = await scene();
    const first = await send('image', 'pháp bảo', {
      attachments: [{ type: 'image', image_url: 'https://example.com/a.png' }],
    });
    await send('pinned', 'pháp bảo ghim', { pinned: true });
    await send('custom', 'pháp bảo hiếm', { rarity: 'thượng phẩm' });
    const firstAt = (await env().admin.getMessage(first)).message.created_at as string;
    const words = { text: { $autocomplete: 'phap b' } };
    const only = async (filter: Record<string, unknown>) =>
      keysOf(await find({ ...words, ...filter } as MessageFilters)).sort();
    expect(await only({ attachments: { $exists: true } })).toEqual(['image']);
    expect(await only({ attachments: { $exists: false } })).toEqual(['custom', 'pinned']);
    expect(await only({ 'attachments.type': { $in: ['image'] } })).toEqual(['image']);
    expect(await only({ pinned: true })).toEqual(['pinned']);
    expect(await only({ 'user.id': authorId })).toEqual(['custom', 'image', 'pinned']);
    expect(await only({ 'user.id': 'someone-else' })).toEqual([]);
    expect(await only({ created_at: { $gt: firstAt } })).toEqual(['custom', 'pinned']);
    expect(await only({ created_at: { $lte: firstAt } })).toEqual(['image']);
    expect(await only({ rarity: 'thượng phẩm' })).toEqual(['custom']);
  });
});

describe('user, member and channel autocomplete as Vietnamese users type', () => {
  const env = useContractEnv();

  it('finds users by name and id whatever the accents, đ and case', async () => {
    const tag = uniqueId('tag');
    // A custom field of their own keeps other tests' users out of these queries.
    const custom = { tag };
    const daoId = uniqueId('dao');
    const otherId = uniqueId('other');
    await createUsers(env(), [
      { id: daoId, name: 'Đạo Hữu Trường Sinh', ...custom },
      { id: otherId, name: 'Hàn Lập', ...custom },
    ]);
    const client = await connectUser(env(), daoId);
    const names = async (filter: Record<string, unknown>) =>
      (await client.queryUsers({ tag, ...filter } as never)).users.map((u) => u.id).sort();
    expect(await names({ name: { $autocomplete: 'dao huu tr' } })).toEqual([daoId]);
    expect(await names({ name: { $autocomplete: 'TRƯỜNG' } })).toEqual([daoId]);
    expect(await names({ name: { $q: 'han lap' } })).toEqual([otherId]);
    expect(await names({ name: { $autocomplete: 'lập' } })).toEqual([otherId]);
    expect(await names({ name: { $autocomplete: 'huu sinh' } })).toEqual([]);
    expect(await names({ id: { $autocomplete: daoId.slice(0, 5) } })).toEqual([daoId]);
  });

  it('finds channels by name and members by name without accents', async () => {
    const ownerId = uniqueId('owner');
    const memberId = uniqueId('member');
    await createUsers(env(), [
      { id: ownerId, name: 'Chưởng Môn' },
      { id: memberId, name: 'Đệ Tử Ngoại Môn' },
    ]);
    const channelId = uniqueId('tong-mon');
    const name = `Tông Môn Đại Hội ${channelId}`;
    await createChannelAsServer(env(), 'messaging', channelId, ownerId, {
      members: [ownerId, memberId],
      name,
    } as never);
    const owner = await connectUser(env(), ownerId);
    const channels = await owner.queryChannels({
      members: { $in: [ownerId] },
      name: { $autocomplete: `tong mon dai hoi ${channelId.slice(0, 6)}` },
    });
    expect(channels.map((c) => c.id)).toEqual([channelId]);
    const none = await owner.queryChannels({
      members: { $in: [ownerId] },
      name: { $autocomplete: `mon tong ${channelId}` },
    });
    expect(none).toEqual([]);
    const channel = owner.channel('messaging', channelId);
    const { members } = await channel.queryMembers({ name: { $autocomplete: 'de tu' } });
    expect(members.map((m) => m.user_id)).toEqual([memberId]);
  });
});
