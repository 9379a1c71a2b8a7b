import type { MessageResponse } from 'stream-chat';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  ids,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';

describe('channel state pagination', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  describe('messages of a channel with twenty-five of them', () => {
    let readerId: string;
    let channelId: string;
    // m[0] is the oldest message, m[24] the newest.
    const m: MessageResponse[] = [];

    beforeAll(async () => {
      const writerId = uniqueId('ky-luc');
      readerId = uniqueId('doc-gia');
      await createUsers(env(), [readerId]);
      const writer = await connectUser(env(), writerId);
      channelId = uniqueId('bien-nien');
      const channel = await watchChannel(writer, 'messaging', channelId, {
        members: [writerId, readerId],
      });
      for (let i = 0; i < 25; i += 1) m.push(await sendText(channel, `Năm thứ ${i}`));
    }, 30_000);

    /** The reader on a connection of its own: a client caches one Channel per cid, state and all. */
    const readerChannel = async () =>
      (await connectUser(env(), readerId)).channel('messaging', channelId);
    const at = (from: number, to: number) => m.slice(from, to + 1).map((message) => message.id);

    it('opens with the newest page and tells the client there is more before it', async () => {
      const channel = await readerChannel();
      await channel.watch({ messages: { limit: 10 } });
      expect(ids(channel.state.messages)).toEqual(at(15, 24));
      expect(channel.state.messagePagination.hasPrev).toBe(true);
      expect(channel.state.messagePagination.hasNext).toBe(false);
    });

    it('loads older pages with id_lt until the first message, as the message list does', async () => {
      const channel = await readerChannel();
      await channel.watch({ messages: { limit: 10 } });
      await channel.query({ messages: { limit: 10, id_lt: m[15]!.id } });
      expect(ids(channel.state.messages)).toEqual(at(5, 24));
      expect(channel.state.messagePagination.hasPrev).toBe(true);
      await channel.query({ messages: { limit: 10, id_lt: m[5]!.id } });
      expect(ids(channel.state.messages)).toEqual(at(0, 24));
      expect(channel.state.messagePagination.hasPrev).toBe(false);
    });

    it('pages newer messages with id_gt and id_gte', async () => {
      const channel = await readerChannel();
      const after = await channel.query({ messages: { limit: 3, id_gt: m[10]!.id } });
      expect(ids(after.messages)).toEqual(at(11, 13));
      const from = await channel.query({ messages: { limit: 3, id_gte: m[10]!.id } });
      expect(ids(from.messages)).toEqual(at(10, 12));
    });

    it('centres a page on a message with id_around and created_at_around, for jumping to a message', async () => {
      const channel = await readerChannel();
      const around = await channel.query({ messages: { limit: 5, id_around: m[12]!.id } });
      expect(ids(around.messages)).toEqual(at(10, 14));
      const aroundTime = await channel.query({
        messages: { limit: 5, created_at_around: m[12]!.created_at },
      });
      expect(ids(aroundTime.messages)).toEqual(at(10, 14));

      await channel.state.loadMessageIntoState(m[3]!.id);
      expect(ids(channel.state.messages)).toContain(m[3]!.id);
    });
  });

  it('pages members with limit and offset in the order they joined, and filters them with queryMembers', async () => {
    const ownerId = uniqueId('son-chu');
    const others = ['Lâm Anh', 'Lâm Lang Thiên', 'Tiêu Viêm', 'Mục Trần'].map((name) => ({
      id: uniqueId('tu-si'),
      name,
    }));
    await createUsers(env(), [{ id: ownerId, name: 'Sơn chủ' }, ...others]);
    const owner = await connectUser(env(), ownerId);
    const channelId = uniqueId('son-mon');
    const channel = owner.channel('messaging', channelId, { members: [ownerId] });
    await channel.create();
    for (const other of others) await channel.addMembers([other.id]);
    const joined = [ownerId, ...others.map((other) => other.id)];

    const firstPage = await channel.query({ members: { limit: 2 } });
    expect(firstPage.members.map((member) => member.user_id)).toEqual(joined.slice(0, 2));
    const secondPage = await channel.query({ members: { limit: 2, offset: 2 } });
    expect(secondPage.members.map((member) => member.user_id)).toEqual(joined.slice(2, 4));
    const lastPage = await channel.query({ members: { limit: 2, offset: 4 } });
    expect(lastPage.members.map((member) => member.user_id)).toEqual(joined.slice(4));

    const lam = await channel.queryMembers({ name: { $autocomplete: 'lâm' } }, { name: -1 });
    expect(lam.members.map((member) => member.user?.name)).toEqual(['Lâm Lang Thiên', 'Lâm Anh']);
    const paged = await channel.queryMembers({}, { created_at: 1 }, { limit: 2, offset: 1 });
    expect(paged.members.map((member) => member.user_id)).toEqual(joined.slice(1, 3));
  });
});
