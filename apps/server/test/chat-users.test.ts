import type { FastifyInstance } from 'fastify';
import type { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { DEMO_ADMIN } from '../src/seed/demo-accounts.ts';
import {
  chatAdmin,
  chatApiKey,
  chatClient,
  chatToken,
  listeningApp,
  nextEvent,
  storedChatCredentials,
} from './chat-harness.ts';
import {
  ORIGIN,
  apiRequest,
  signedInCookie,
  signedUpUser,
  tempDir,
  testConfig,
} from './harness.ts';

let app: FastifyInstance;
let chatURL: string;
let apiKey: string;
let admin: StreamChat;
let adminCookie: string;
let close: () => Promise<void>;
let publicUrl: string;

function serverClientFor(dataDir: string, baseURL: string): StreamChat {
  const { apiKey: key, apiSecret } = storedChatCredentials(dataDir);
  return chatAdmin(key, apiSecret, baseURL);
}

beforeAll(async () => {
  let config;
  ({ app, config, chatURL, close } = await listeningApp({ SEED_DEMO: 'true' }));
  apiKey = await chatApiKey(app);
  admin = serverClientFor(config.dataDir, chatURL);
  publicUrl = config.publicUrl;
  adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => close());

async function newUser(): Promise<{ id: string; cookie: string }> {
  const { cookie } = await signedUpUser(app);
  const me = await apiRequest(app, 'GET', '/api/me', { cookie });
  return { id: me.json().id, cookie };
}

async function chatUser(id: string) {
  const { users } = await admin.queryUsers({ id });
  return users[0];
}

describe('chat users follow product users', () => {
  it('sign-up upserts the chat user with the đạo hiệu as name, the role and tu_vi', async () => {
    const { cookie, credentials } = await signedUpUser(app);
    const me = (await apiRequest(app, 'GET', '/api/me', { cookie })).json();
    expect(await chatUser(me.id)).toMatchObject({
      id: me.id,
      name: credentials.name,
      role: 'user',
      tu_vi: 0,
    });
  });

  it('sign-up makes the user a member of the three public channels', async () => {
    const { id } = await newUser();
    for (const channelId of ['quang-truong', 'luan-dao', 'giao-dich']) {
      const { members } = await admin.channel('sect', channelId).queryMembers({ user_id: id });
      expect(
        members.map((member) => member.user_id),
        channelId,
      ).toEqual([id]);
    }
  });

  it('sign-up joins the sect channels quietly, and gives the new member unread counts kept by the server', async () => {
    const { id, cookie } = await newUser();
    const { token } = await chatToken(app, cookie);
    const client = chatClient(apiKey, chatURL);
    await client.connectUser({ id }, token);
    const channel = client.channel('sect', 'giao-dich');
    const { messages } = await channel.watch();
    // No "joined" system message for the new member, and what was written before is not unread for them.
    expect(messages.filter((message) => message.type === 'system')).toEqual([]);
    expect(channel.countUnread()).toBe(0);

    const { id: sellerId } = await newUser();
    await admin
      .channel('sect', 'giao-dich')
      .sendMessage({ text: 'Thu mua linh thảo', user_id: sellerId });
    const other = chatClient(apiKey, chatURL);
    await other.connectUser({ id }, token);
    const counts = await other.getUnreadCount();
    expect(counts.channels.find((c) => c.channel_id === 'sect:giao-dich')?.unread_count).toBe(1);
  });

  it('an anonymous visitor reads the sect channels without becoming a member', async () => {
    const guest = chatClient(apiKey, chatURL);
    await guest.connectAnonymousUser();
    for (const channelId of ['quang-truong', 'luan-dao', 'giao-dich']) {
      const channel = guest.channel('sect', channelId);
      const state = await channel.watch();
      expect(state.membership ?? null, channelId).toBeNull();
      expect(channel.data?.own_capabilities ?? [], channelId).not.toContain('send-message');
      const { members } = await admin.channel('sect', channelId).queryMembers({});
      expect(
        members.every((member) => !member.user_id?.startsWith('!anon')),
        channelId,
      ).toBe(true);
    }
  });

  it("an admin's tu vi change reaches the connected user as user.updated and in queries", async () => {
    const { id, cookie } = await newUser();
    const { token } = await chatToken(app, cookie);
    const client = chatClient(apiKey, chatURL);
    await client.connectUser({ id }, token);

    const updated = nextEvent(client, 'user.updated', (event) => event.user?.id === id);
    const response = await apiRequest(app, 'PATCH', `/api/admin/users/${id}`, {
      cookie: adminCookie,
      body: { tuVi: 48_000 },
    });
    expect(response.statusCode).toBe(200);
    expect((await updated).user?.tu_vi).toBe(48_000);
    expect(await chatUser(id)).toMatchObject({ tu_vi: 48_000, role: 'user' });
  });

  it("an admin's role change makes the chat user a moderator", async () => {
    const { id } = await newUser();
    const response = await apiRequest(app, 'PATCH', `/api/admin/users/${id}`, {
      cookie: adminCookie,
      body: { role: 'moderator' },
    });
    expect(response.statusCode).toBe(200);
    expect(await chatUser(id)).toMatchObject({ role: 'moderator' });
  });

  it('a new đạo hiệu (PATCH /api/me) renames the chat user', async () => {
    const { id, cookie } = await newUser();
    const response = await apiRequest(app, 'PATCH', '/api/me', {
      cookie,
      body: { daoHieu: 'Vân Du Tử' },
    });
    expect(response.statusCode).toBe(200);
    expect(await chatUser(id)).toMatchObject({ name: 'Vân Du Tử' });
  });

  it("a new name through better-auth's update-user renames the chat user", async () => {
    const { id, cookie } = await newUser();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: { cookie, origin: ORIGIN },
      payload: { name: 'Thanh Phong Tử' },
    });
    expect(response.statusCode).toBe(200);
    expect(await chatUser(id)).toMatchObject({ name: 'Thanh Phong Tử' });
  });

  it('an uploaded avatar reaches the chat user as an absolute address on the public origin', async () => {
    const { id, cookie } = await newUser();
    const avatar = '/chat/uploads/app/9f8e7d6c/chan-dung.png?oh=600&ow=600';
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: { cookie, origin: ORIGIN },
      payload: { image: avatar },
    });
    expect(response.statusCode).toBe(200);
    expect(await chatUser(id)).toMatchObject({ image: new URL(avatar, publicUrl).href });
  });

  it('leaves the chat user alone when a profile change is refused', async () => {
    const { id, cookie } = await newUser();
    const before = await chatUser(id);
    const response = await apiRequest(app, 'PATCH', '/api/me', { cookie, body: { daoHieu: 'A' } });
    expect(response.statusCode).toBe(400);
    expect(await chatUser(id)).toMatchObject({
      name: before?.name,
      updated_at: before?.updated_at,
    });
  });
});

describe('chat outages', () => {
  it('signs up while chat is unreachable, and syncs the user on their first token request', async () => {
    const config = testConfig({}, tempDir());
    const late = await buildApp(config);
    try {
      // Not listening yet: the embedded chat server cannot be reached over HTTP.
      const { cookie } = await signedUpUser(late);
      const me = (await apiRequest(late, 'GET', '/api/me', { cookie })).json();

      await late.listen({ port: 0, host: '127.0.0.1' });
      await late.chat.onListening();
      const lateChatURL = `http://127.0.0.1:${(late.server.address() as { port: number }).port}/chat`;
      const server = serverClientFor(config.dataDir, lateChatURL);
      expect((await server.queryUsers({ id: me.id })).users).toEqual([]);

      const { userId } = await chatToken(late, cookie);
      expect(userId).toBe(me.id);
      const { users } = await server.queryUsers({ id: me.id });
      expect(users[0]).toMatchObject({ name: me.daoHieu, tu_vi: 0 });
    } finally {
      await late.close();
    }
  });

  it('signs up while chat is unreachable, and syncs the user when they sign in again', async () => {
    const config = testConfig({}, tempDir());
    const late = await buildApp(config);
    try {
      const { cookie, credentials } = await signedUpUser(late);
      const me = (await apiRequest(late, 'GET', '/api/me', { cookie })).json();

      await late.listen({ port: 0, host: '127.0.0.1' });
      await late.chat.onListening();
      const lateChatURL = `http://127.0.0.1:${(late.server.address() as { port: number }).port}/chat`;
      const server = serverClientFor(config.dataDir, lateChatURL);
      expect((await server.queryUsers({ id: me.id })).users).toEqual([]);

      // No chat token is asked for: the sign-in alone must bring the chat user and its public channels.
      await signedInCookie(late, credentials.email, credentials.password);
      const { users } = await server.queryUsers({ id: me.id });
      expect(users[0]).toMatchObject({ name: me.daoHieu, role: 'user', tu_vi: 0 });
      const { members } = await server
        .channel('sect', 'quang-truong')
        .queryMembers({ user_id: me.id });
      expect(members.map((member) => member.user_id)).toEqual([me.id]);
    } finally {
      await late.close();
    }
  });
});
