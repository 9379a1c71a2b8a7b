import { describe, expect, it } from 'vitest';
import type { MessageFilters } from 'stream-chat';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  uniqueId,
  useContractEnv,
} from './contract/helpers.ts';

describe('message search with the real client', () => {
  const env = useContractEnv();

  /**
   * Bob writes five messages, server-side: four in a channel he shares with Alice, one in a channel of his own.
   * Alice (connected) is the searcher; every call gets its own users and channels.
   */
  async function searchScene() {
    const aliceId = uniqueId('alice');
    const bobId = uniqueId('bob');
    await createUsers(env(), [aliceId, bobId]);
    const mine = uniqueId('mine');
    const theirs = uniqueId('theirs');
    await createChannelAsServer(env(), 'messaging', mine, bobId, { members: [aliceId, bobId] });
    await createChannelAsServer(env(), 'messaging', theirs, bobId, { members: [bobId] });
    const ids: Record<string, string> = {};
    const send = async (channelId: string, key: string, message: Record<string, unknown>) => {
      const channel = env().admin.channel('messaging', channelId);
      ids[key] = (await channel.sendMessage({ user_id: bobId, ...message })).message.id;
    };
    await send(mine, 'linh-thach', { text: 'Ai bán Linh Thạch không?' });
    await send(mine, 'dan-duoc', { text: 'Đan dược giá rẻ' });
    await send(mine, 'image', {
      text: 'ảnh',
      attachments: [{ type: 'image', image_url: 'https://example.com/a.png' }],
    });
    await send(mine, 'pinned', { text: 'Môn quy linh thạch', pinned: true });
    await send(theirs, 'hidden', { text: 'linh thạch bí mật' });
    const alice = await connectUser(env(), aliceId);
    return { alice, aliceId, mineCid: `messaging:${mine}`, ids, send, theirs, mine };
  }

  it('finds messages by text in channels the user belongs to, newest first, never in others', async () => {
    const { alice, aliceId, ids } = await searchScene();
    const { results } = await alice.search({ members: { $in: [aliceId] } }, 'linh', {
      sort: [{ created_at: -1 }],
    });
    expect(results.map((r) => r.message.id)).toEqual([ids.pinned, ids['linh-thach']]);
  });

  it('supports the message filters stream-chat-react sends: plain text, attachment types, pinned', async () => {
    const { alice, aliceId, mineCid, ids } = await searchScene();
    const plain = await alice.search(
      { members: { $in: [aliceId] } },
      { type: 'regular', text: 'đan' },
    );
    expect(plain.results.map((r) => r.message.id)).toEqual([ids['dan-duoc']]);
    const media = await alice.search({ cid: mineCid }, {
      'attachments.type': { $in: ['image', 'video'] },
    } as MessageFilters);
    expect(media.results.map((r) => r.message.id)).toEqual([ids.image]);
    const pinned = await alice.search({ cid: mineCid }, { pinned: true } as MessageFilters);
    expect(pinned.results.map((r) => r.message.id)).toEqual([ids.pinned]);
  });

  it('finds the messages that mention a user with mentioned_users.id, as Stream’s docs search', async () => {
    const { alice, aliceId, ids, send, mine, theirs } = await searchScene();
    await send(mine, 'mention', { text: 'Gửi đạo hữu', mentioned_users: [aliceId] });
    await send(theirs, 'mention-hidden', { text: 'Nhắc sau lưng', mentioned_users: [aliceId] });
    const { results } = await alice.search(
      { members: { $in: [aliceId] } },
      { 'mentioned_users.id': { $contains: aliceId } },
    );
    // The mention in Bob's own channel stays out: Alice cannot read it.
    expect(results.map((r) => r.message.id)).toEqual([ids.mention]);
    const none = await alice.search(
      { members: { $in: [aliceId] } },
      // The client types only $contains here; Stream's API also takes $in.
      { 'mentioned_users.id': { $in: [uniqueId('vo-danh')] } } as never,
    );
    expect(none.results).toEqual([]);
    await expectStreamError(
      alice.search({ members: { $in: [aliceId] } }, {
        'mentioned_users.id': { $gt: 'a' },
      } as never),
      { code: 4 },
    );
  });

  it('pages with the next cursor', async () => {
    const { alice, aliceId, ids } = await searchScene();
    const first = await alice.search(
      { members: { $in: [aliceId] } },
      { type: 'regular' },
      { limit: 3, sort: [{ created_at: 1 }] },
    );
    expect(first.results).toHaveLength(3);
    expect(first.next).toEqual(expect.any(String));
    const second = await alice.search(
      { members: { $in: [aliceId] } },
      { type: 'regular' },
      { limit: 3, next: first.next, sort: [{ created_at: 1 }] },
    );
    expect(second.results.map((r) => r.message.id)).toEqual([ids.pinned]);
    expect(second.next).toBeUndefined();
  });

  it('refuses a search without a channel filter with code 4', async () => {
    const alice = await connectUser(env(), uniqueId('alice'));
    await expect(alice.search({}, 'linh')).rejects.toMatchObject({ code: 4 });
  });
});
