import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../src/seed/demo-accounts.ts';
import { chatApiKey, chatClient, chatToken, listeningApp } from './chat-harness.ts';
import { apiRequest, signedInCookie, signedUpUser } from './harness.ts';

let app: FastifyInstance;
let chatURL: string;
let apiKey: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, chatURL, close } = await listeningApp({ SEED_DEMO: 'true' }));
  apiKey = await chatApiKey(app);
});
afterAll(async () => close());

/** A connected browser-side client for a fresh user, with the token the web app would get. */
async function connectedNewUser() {
  const { cookie } = await signedUpUser(app);
  const { token, userId } = await chatToken(app, cookie);
  const client = chatClient(apiKey, chatURL);
  await client.connectUser({ id: userId }, token);
  return { client, userId, cookie };
}

function demoAccount(daoHieu: string) {
  const account = DEMO_USERS.find((candidate) => candidate.daoHieu === daoHieu);
  if (!account) throw new Error(`no demo account ${daoHieu}`);
  return account;
}

describe('GET /api/chat/config (embedded)', () => {
  it('gives the API key, the /chat base URL as the browser reaches it, and the public channels', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/chat/config',
      headers: { host: '127.0.0.1:3000' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      mode: 'embedded',
      apiKey,
      baseURL: 'http://127.0.0.1:3000/chat',
      publicChannels: [
        { type: 'sect', id: 'quang-truong', name: 'Quảng Trường' },
        { type: 'sect', id: 'luan-dao', name: 'Luận Đạo' },
        { type: 'sect', id: 'giao-dich', name: 'Giao Dịch' },
      ],
    });
  });

  it('derives the base URL from the Host the page was loaded from', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/chat/config',
      headers: { host: 'localhost:4173' },
    });
    expect(response.json().baseURL).toBe('http://localhost:4173/chat');
  });
});

describe('embedded chat server at /chat', () => {
  it('answers the real client: connect with a product token, read a seeded channel, send a message', async () => {
    const { client, userId } = await connectedNewUser();
    expect(client.user?.name).toMatch(/^Đạo Hữu \d+$/);

    const channel = client.channel('sect', 'quang-truong');
    const state = await channel.watch();
    expect(state.channel.name).toBe('Quảng Trường');
    expect(state.channel.description).toMatch(/đạo hữu/);
    expect(channel.state.messages.map((message) => message.id)).toContain('demo-quang-truong-01');
    expect(channel.state.messages[0]?.text).toContain('Chào mừng chư vị đạo hữu');
    expect(channel.state.messages[0]?.user?.name).toBe('Chưởng Môn');

    const { message } = await channel.sendMessage({ text: 'Tại hạ xin ra mắt chư vị đạo hữu!' });
    expect(message.user?.id).toBe(userId);
    expect(channel.state.messages.at(-1)?.text).toBe('Tại hạ xin ra mắt chư vị đạo hữu!');
  });

  it('lists the three sect channels for a new user, who is a member of each', async () => {
    const { client, userId } = await connectedNewUser();
    const channels = await client.queryChannels(
      { type: 'sect', members: { $in: [userId] } },
      { name: 1 },
    );
    expect(channels.map((channel) => channel.id).sort()).toEqual([
      'giao-dich',
      'luan-dao',
      'quang-truong',
    ]);
    for (const channel of channels) {
      expect(channel.data?.own_capabilities).toContain('send-message');
    }
  });

  it('shows the demo threads, reactions and the pinned sect rules of Luận Đạo', async () => {
    const { client } = await connectedNewUser();
    const channel = client.channel('sect', 'luan-dao');
    await channel.watch();
    const messages = channel.state.messages;
    expect(messages.length).toBeGreaterThanOrEqual(10);
    expect(messages.length).toBeLessThanOrEqual(20);

    const rules = messages.find((message) => message.id === 'demo-luan-dao-01');
    expect(rules?.pinned).toBe(true);
    expect(rules?.text).toContain('Môn quy');
    expect(channel.state.pinnedMessages.map((message) => message.id)).toEqual(['demo-luan-dao-01']);
    expect(rules?.reaction_groups?.like?.count).toBe(3);
    expect(rules?.reaction_groups?.love?.count).toBe(1);

    const question = messages.find((message) => message.id === 'demo-luan-dao-02');
    expect(question?.reply_count).toBe(3);
    const { messages: replies } = await channel.getReplies('demo-luan-dao-02', { limit: 10 });
    expect(replies.map((reply) => reply.user?.name)).toEqual([
      'Mặc Trần',
      'Lục Thanh Y',
      'Lăng Phong',
    ]);
  });

  it('gives demo users a direct conversation between Lăng Phong and Bạch Vân', async () => {
    const account = demoAccount('Bạch Vân');
    const cookie = await signedInCookie(app, account.email, account.password);
    const { token, userId } = await chatToken(app, cookie);
    const client = chatClient(apiKey, chatURL);
    await client.connectUser({ id: userId }, token);
    expect(client.user?.tu_vi).toBe(account.tuVi);

    const [direct, ...others] = await client.queryChannels({
      type: 'messaging',
      members: { $in: [userId] },
    });
    expect(others).toEqual([]);
    const names = Object.values(direct?.state.members ?? {}).map((member) => member.user?.name);
    expect(names.sort()).toEqual(['Bạch Vân', 'Lăng Phong']);
    expect(direct?.state.messages.map((message) => message.id)).toEqual([
      'demo-rieng-01',
      'demo-rieng-02',
      'demo-rieng-03',
      'demo-rieng-04',
      'demo-rieng-05',
      'demo-rieng-06',
    ]);
  });

  it('lets a guest (anonymous connection) read Quảng Trường but not write there (code 17)', async () => {
    const guest = chatClient(apiKey, chatURL);
    await guest.connectAnonymousUser();
    const channel = guest.channel('sect', 'quang-truong');
    await channel.watch();
    expect(channel.state.messages.map((message) => message.id)).toContain('demo-quang-truong-15');
    expect(channel.data?.own_capabilities ?? []).not.toContain('send-message');

    await expect(channel.sendMessage({ text: 'Khách qua đường' })).rejects.toMatchObject({
      code: 17,
    });
  });

  it('answers an unknown chat endpoint in Stream error JSON, not the product error shape', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/chat/no-such-endpoint?api_key=${apiKey}`,
      headers: { accept: 'application/json' },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    const body = response.json();
    expect(body).toMatchObject({ code: expect.any(Number), StatusCode: response.statusCode });
    expect(body).not.toHaveProperty('error');
  });

  it('keeps the product API beside it', async () => {
    const health = await apiRequest(app, 'GET', '/api/health');
    expect(health.json()).toMatchObject({ status: 'ok' });
  });
});
