import {
  isSectChannel,
  sidebarChannelFilter,
  type ChannelFilter,
  type ChannelRef,
} from '@daohuu/domain';
import type { FastifyInstance } from 'fastify';
import type { ChannelFilters, StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatApiKey, chatClient, chatToken, listeningApp } from '../chat-harness.ts';
import { apiRequest, signedUpUser } from '../harness.ts';

let app: FastifyInstance;
let chatURL: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, chatURL, close } = await listeningApp());
});
afterAll(async () => close());

async function connectedNewUser(): Promise<{ client: StreamChat; userId: string }> {
  const { cookie } = await signedUpUser(app);
  const { token, userId } = await chatToken(app, cookie);
  const client = chatClient(await chatApiKey(app), chatURL);
  await client.connectUser({ id: userId }, token);
  return { client, userId };
}

async function officialChannels(): Promise<ChannelRef[]> {
  const config = await apiRequest(app, 'GET', '/api/chat/config');
  return config.json().publicChannels;
}

async function cidsFor(client: StreamChat, filter: ChannelFilter): Promise<string[]> {
  const channels = await client.queryChannels(filter as ChannelFilters, [{ last_message_at: -1 }], {
    limit: 30,
    watch: false,
  });
  return channels.map((channel) => channel.cid);
}

describe('#10 a user-made livestream channel in everyone’s sidebar', () => {
  let fakeCid: string;
  let sects: ChannelRef[];

  beforeAll(async () => {
    const attacker = await connectedNewUser();
    const fake = attacker.client.channel('livestream', `mao-danh-${Date.now()}`, {
      name: 'Quảng Trường',
      members: [attacker.userId],
    });
    await fake.create();
    await fake.sendMessage({ text: 'Kênh chính thức mới của tông môn, mời chư vị!' });
    fakeCid = fake.cid;
    sects = await officialChannels();
  });

  it('the channel exists and anyone can read it, as on Stream', async () => {
    const reader = await connectedNewUser();
    expect(await cidsFor(reader.client, { type: 'livestream' })).toContain(fakeCid);
  });

  it('GET /api/chat/config names only the official sect channels', () => {
    expect(sects.map(({ type, id }) => `${type}:${id}`)).toEqual([
      'sect:quang-truong',
      'sect:luan-dao',
      'sect:giao-dich',
    ]);
  });

  it("another cultivator's sidebar query does not return it", async () => {
    const reader = await connectedNewUser();
    const cids = await cidsFor(reader.client, sidebarChannelFilter(reader.userId, sects));
    expect(cids).not.toContain(fakeCid);
    expect(cids).toEqual(
      expect.arrayContaining(['sect:quang-truong', 'sect:luan-dao', 'sect:giao-dich']),
    );
  });

  it("a visitor's sidebar query does not return it", async () => {
    const guest = chatClient(await chatApiKey(app), chatURL);
    await guest.connectAnonymousUser();
    const cids = await cidsFor(guest, sidebarChannelFilter(undefined, sects));
    expect(cids).not.toContain(fakeCid);
    expect(cids).toHaveLength(3);
  });

  it('the app does not take it for a sect channel, even named like one', () => {
    const [type = '', id = ''] = fakeCid.split(':');
    expect(isSectChannel({ type, id }, sects)).toBe(false);
    expect(isSectChannel({ type: 'sect', id: 'quang-truong' }, sects)).toBe(true);
  });
});
