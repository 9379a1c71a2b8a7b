import type { Channel, ChannelFilters, ChannelSort, StreamChat } from 'stream-chat';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectFullChannel,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';

describe('queryChannels', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  let alice: StreamChat;
  let aliceId: string;
  // Channels in creation order; names chosen so every filter below selects a distinct subset.
  const cids: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'live1' | 'live2', string> = {
    a: '',
    b: '',
    c: '',
    d: '',
    e: '',
    f: '',
    live1: '',
    live2: '',
  };
  let firstMessageAt = '';

  beforeAll(async () => {
    aliceId = uniqueId('ly-that-da');
    const bobId = uniqueId('tran-phong');
    const carolId = uniqueId('vu-huyen');
    alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    await createUsers(env(), [carolId]);

    const create = async (client: StreamChat, type: string, name: string, members: string[]) =>
      watchChannel(client, type, uniqueId('kenh'), { name, members });
    const a = await create(alice, 'messaging', 'Thanh Vân Môn', [aliceId, bobId]);
    const b = await create(alice, 'messaging', 'Thiên Kiếm Tông', [aliceId, bobId]);
    const c = await create(alice, 'messaging', 'Hợp Hoan Tông', [aliceId, carolId]);
    const d = await create(alice, 'messaging', 'Vạn Kiếm Các', [aliceId, bobId]);
    const e = await create(alice, 'messaging', 'Quỷ Vương Tông', [aliceId, bobId]);
    const f = await create(alice, 'messaging', 'Ẩn Thế Cốc', [aliceId, bobId]);
    const createLive = async (owner: StreamChat, ownerId: string, name: string) => {
      const id = uniqueId('kenh');
      await createChannelAsServer(env(), 'livestream', id, ownerId, { name, members: [ownerId] });
      return watchChannel(owner, 'livestream', id);
    };
    const live1 = await createLive(alice, aliceId, 'Đại Hội');
    const live2 = await createLive(bob, bobId, 'Luận Đạo');
    const all: Record<keyof typeof cids, Channel> = { a, b, c, d, e, f, live1, live2 };
    for (const key of Object.keys(all) as Array<keyof typeof cids>) cids[key] = all[key].cid;

    firstMessageAt = (await sendText(a, 'Tin ở Thanh Vân')).created_at ?? '';
    await sendText(b, 'Tin ở Thiên Kiếm');
    await d.pin();
    await e.archive();
    await f.hide();
  }, 30_000);

  async function query(
    filter: ChannelFilters,
    sort: ChannelSort = { created_at: 1 },
    options = {},
  ) {
    const channels = await alice.queryChannels(filter, sort, options);
    return channels.map((channel) => channel.cid);
  }

  const mine = () => ({ members: { $in: [aliceId] } });

  it('lists the channels the user is a member of, without hidden ones, in the requested order', async () => {
    expect(await query(mine())).toEqual([cids.a, cids.b, cids.c, cids.d, cids.e, cids.live1]);
    expect(await query(mine(), { created_at: -1 })).toEqual([
      cids.live1,
      cids.e,
      cids.d,
      cids.c,
      cids.b,
      cids.a,
    ]);
  });

  it('returns full channel state for every item: config, own_capabilities, messages, members and membership', async () => {
    const channels = await alice.queryChannels(mine(), { created_at: 1 }, { message_limit: 10 });

    for (const channel of channels) {
      expectFullChannel(channel.data as Parameters<typeof expectFullChannel>[0]);
      expect(alice.configs[channel.cid]).toBeDefined();
      expect(channel.state.membership?.user?.id).toBe(aliceId);
    }
    const first = channels.find((channel) => channel.cid === cids.a);
    expect(first?.state.messages.map((message) => message.text)).toEqual(['Tin ở Thanh Vân']);
    const pinned = channels.find((channel) => channel.cid === cids.d);
    expect(pinned?.state.membership.pinned_at).toEqual(expect.any(String));
  });

  it('filters by type', async () => {
    expect(await query({ ...mine(), type: 'livestream' })).toEqual([cids.live1]);
  });

  it('filters by cid with $in', async () => {
    expect(await query({ cid: { $in: [cids.c, cids.a] } })).toEqual([cids.a, cids.c]);
  });

  it('filters by name with $autocomplete on any word, ignoring case', async () => {
    expect(await query({ ...mine(), name: { $autocomplete: 'tông' } })).toEqual([
      cids.b,
      cids.c,
      cids.e,
    ]);
  });

  it('filters by last_message_at with $gt', async () => {
    expect(firstMessageAt).not.toBe('');
    expect(await query({ ...mine(), last_message_at: { $gt: firstMessageAt } })).toEqual([cids.b]);
  });

  it('combines conditions with $or and $and', async () => {
    const either = {
      $or: [{ name: 'Thanh Vân Môn' }, { name: 'Vạn Kiếm Các' }],
      ...mine(),
    } as ChannelFilters;
    expect(await query(either)).toEqual([cids.a, cids.d]);
    const both = {
      $and: [mine(), { type: 'messaging' }, { name: { $autocomplete: 'kiếm' } }],
    } as ChannelFilters;
    expect(await query(both)).toEqual([cids.b, cids.d]);
  });

  it('filters by the member-level pinned flag and sorts pinned channels first', async () => {
    expect(await query({ ...mine(), pinned: true })).toEqual([cids.d]);
    expect(await query({ ...mine(), pinned: false })).toEqual([
      cids.a,
      cids.b,
      cids.c,
      cids.e,
      cids.live1,
    ]);
    const pinnedFirst = await query(mine(), [{ pinned_at: -1 }, { created_at: 1 }]);
    expect(pinnedFirst[0]).toBe(cids.d);
  });

  it('filters by the member-level archived flag', async () => {
    expect(await query({ ...mine(), archived: true })).toEqual([cids.e]);
    expect(await query({ ...mine(), archived: false })).toEqual([
      cids.a,
      cids.b,
      cids.c,
      cids.d,
      cids.live1,
    ]);
  });

  it('returns hidden channels only when asked for them', async () => {
    expect(await query({ ...mine(), hidden: true })).toEqual([cids.f]);
  });

  it('filters public channels by whether the user joined them', async () => {
    const both = { type: 'livestream', cid: { $in: [cids.live1, cids.live2] } };
    expect(await query({ ...both, joined: true })).toEqual([cids.live1]);
    expect(await query({ ...both, joined: false })).toEqual([cids.live2]);
  });

  it('sorts by last_message_at', async () => {
    expect(await query({ cid: { $in: [cids.a, cids.b] } }, { last_message_at: -1 })).toEqual([
      cids.b,
      cids.a,
    ]);
    expect(await query({ cid: { $in: [cids.a, cids.b] } }, { last_message_at: 1 })).toEqual([
      cids.a,
      cids.b,
    ]);
  });

  it('pages with limit and offset without gaps or repeats', async () => {
    const page = (offset: number) => query(mine(), { created_at: 1 }, { limit: 2, offset });

    expect(await page(0)).toEqual([cids.a, cids.b]);
    expect(await page(2)).toEqual([cids.c, cids.d]);
    expect(await page(4)).toEqual([cids.e, cids.live1]);
    expect(await page(6)).toEqual([]);
  });
});
