import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat } from 'stream-chat';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';

describe('message search with the real client', () => {
  let server: TestChatServer;
  let alice: StreamChat;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestChatServer();
    const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
    await admin.upsertUsers([{ id: 'alice' }, { id: 'bob' }]);
    await admin
      .channel('messaging', 'mine', { created_by_id: 'bob', members: ['alice', 'bob'] } as never)
      .create();
    await admin
      .channel('messaging', 'theirs', { created_by_id: 'bob', members: ['bob'] } as never)
      .create();
    const send = async (cid: string, key: string, message: Record<string, unknown>) => {
      const [type, id] = cid.split(':') as [string, string];
      ids[key] = (
        await admin.channel(type, id).sendMessage({ user_id: 'bob', ...message })
      ).message.id;
    };
    await send('messaging:mine', 'linh-thach', { text: 'Ai bán Linh Thạch không?' });
    await send('messaging:mine', 'dan-duoc', { text: 'Đan dược giá rẻ' });
    await send('messaging:mine', 'image', {
      text: 'ảnh',
      attachments: [{ type: 'image', image_url: 'https://example.com/a.png' }],
    });
    await send('messaging:mine', 'pinned', { text: 'Môn quy linh thạch', pinned: true });
    await send('messaging:theirs', 'hidden', { text: 'linh thạch bí mật' });
    alice = new StreamChat(server.apiKey, { baseURL: server.baseURL });
    await alice.connectUser({ id: 'alice' }, admin.createToken('alice'));
  });
  afterAll(async () => {
    await alice.disconnectUser();
    await server.close();
  });

  it('finds messages by text in channels the user belongs to, newest first, never in others', async () => {
    const { results } = await alice.search({ members: { $in: ['alice'] } }, 'linh', {
      sort: [{ created_at: -1 }],
    });
    expect(results.map((r) => r.message.id)).toEqual([ids.pinned, ids['linh-thach']]);
  });

  it('supports the message filters stream-chat-react sends: plain text, attachment types, pinned', async () => {
    const plain = await alice.search(
      { members: { $in: ['alice'] } },
      { type: 'regular', text: 'đan' },
    );
    expect(plain.results.map((r) => r.message.id)).toEqual([ids['dan-duoc']]);
    const media = await alice.search({ cid: 'messaging:mine' }, {
      'attachments.type': { $in: ['image', 'video'] },
    } as never);
    expect(media.results.map((r) => r.message.id)).toEqual([ids.image]);
    const pinned = await alice.search({ cid: 'messaging:mine' }, { pinned: true } as never);
    expect(pinned.results.map((r) => r.message.id)).toEqual([ids.pinned]);
  });

  it('pages with the next cursor', async () => {
    const first = await alice.search(
      { members: { $in: ['alice'] } },
      { type: 'regular' },
      { limit: 3, sort: [{ created_at: 1 }] },
    );
    expect(first.results).toHaveLength(3);
    expect(first.next).toEqual(expect.any(String));
    const second = await alice.search(
      { members: { $in: ['alice'] } },
      { type: 'regular' },
      { limit: 3, next: first.next, sort: [{ created_at: 1 }] },
    );
    expect(second.results.map((r) => r.message.id)).toEqual([ids.pinned]);
    expect(second.next).toBeUndefined();
  });

  it('refuses a search without a channel filter with code 4', async () => {
    await expect(alice.search({}, 'linh')).rejects.toMatchObject({ code: 4 });
  });
});
