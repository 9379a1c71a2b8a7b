import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../src/seed/demo-accounts.ts';
import {
  chatAdmin,
  chatApiKey,
  chatClient,
  chatToken,
  listeningApp,
  storedChatCredentials,
} from './chat-harness.ts';
import { ORIGIN, apiRequest, signedInCookie, signedUpUser } from './harness.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
let chatURL: string;
let dataDir: string;
let adminCookie: string;
let moderator: { id: string; cookie: string };
let member: { id: string; cookie: string };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function request(
  method: Method,
  url: string,
  { cookie, body }: { cookie?: string; body?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { origin: ORIGIN };
  if (cookie) headers.cookie = cookie;
  return app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

async function newUser(role?: 'moderator' | 'admin'): Promise<{ id: string; cookie: string }> {
  const { cookie } = await signedUpUser(app);
  const id = (await apiRequest(app, 'GET', '/api/me', { cookie })).json().id as string;
  if (role) {
    const patched = await apiRequest(app, 'PATCH', `/api/admin/users/${id}`, {
      cookie: adminCookie,
      body: { role },
    });
    expect(patched.statusCode).toBe(200);
  }
  return { id, cookie };
}

beforeAll(async () => {
  const started = await listeningApp({ SEED_DEMO: 'true', AUTH_RATE_LIMIT_MAX_PER_IP: '0' });
  ({ app, close, chatURL } = started);
  dataDir = started.config.dataDir;
  adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
  moderator = await newUser('moderator');
  member = await newUser();
}, 30_000);
afterAll(async () => close());

/** Every moderation route, with a body that would be valid, for the authorization matrix. */
const ROUTES: Array<[Method, string, unknown?]> = [
  ['GET', '/api/admin/moderation/queue'],
  ['POST', '/api/admin/moderation/actions', { itemId: 'item-1', action: 'mark_reviewed' }],
  ['GET', '/api/admin/moderation/bans'],
  ['POST', '/api/admin/moderation/bans', { userId: 'someone', durationMinutes: 60 }],
  ['DELETE', '/api/admin/moderation/bans/someone'],
  ['GET', '/api/admin/moderation/blocklists'],
  ['PUT', '/api/admin/moderation/blocklists/tu-cam', { words: ['xấu'] }],
  ['PUT', '/api/admin/moderation/channel-types/sect', { blocklist: null, behavior: 'flag' }],
  ['GET', '/api/admin/moderation/slow-mode'],
  ['PUT', '/api/admin/moderation/slow-mode', { cid: 'sect:quang-truong', cooldown: 0 }],
];

describe('moderation routes: who may call them', () => {
  it.each(ROUTES)('%s %s answers 401 without a session', async (method, url, body) => {
    const response = await request(method, url, { body });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it.each(ROUTES)('%s %s answers 403 to a plain member', async (method, url, body) => {
    const response = await request(method, url, { cookie: member.cookie, body });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('lets a moderator and an admin read the sect channels’ slow mode', async () => {
    for (const cookie of [moderator.cookie, adminCookie]) {
      const response = await request('GET', '/api/admin/moderation/slow-mode', { cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json().channels.map((channel: { cid: string }) => channel.cid)).toEqual([
        'sect:quang-truong',
        'sect:luan-dao',
        'sect:giao-dich',
      ]);
    }
  });

  it('refuses a cross-site request even from a moderator', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: '/api/admin/moderation/slow-mode',
      headers: { origin: 'https://evil.example', cookie: moderator.cookie },
      payload: { cid: 'sect:quang-truong', cooldown: 5 },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('moderation routes: input', () => {
  it.each<[Method, string, unknown, string]>([
    ['POST', '/api/admin/moderation/actions', { itemId: 'i', action: 'nuke' }, 'action'],
    ['POST', '/api/admin/moderation/actions', { action: 'ban' }, 'itemId'],
    [
      'POST',
      '/api/admin/moderation/actions',
      { itemId: 'i', action: 'ban', durationMinutes: -5 },
      'durationMinutes',
    ],
    ['POST', '/api/admin/moderation/actions', { itemId: 'i', action: 'ban', extra: 1 }, ''],
    ['POST', '/api/admin/moderation/bans', { userId: 'a b' }, 'userId'],
    [
      'POST',
      '/api/admin/moderation/bans',
      { userId: 'u', durationMinutes: 1.5 },
      'durationMinutes',
    ],
    ['POST', '/api/admin/moderation/bans', { userId: 'u', reason: 'x'.repeat(501) }, 'reason'],
    ['PUT', '/api/admin/moderation/blocklists/tu-cam', { words: ['ok', ''] }, 'words.1'],
    ['PUT', '/api/admin/moderation/blocklists/tu-cam', { words: 'xấu' }, 'words'],
    [
      'PUT',
      '/api/admin/moderation/channel-types/sect',
      { blocklist: 'x', behavior: 'ban' },
      'behavior',
    ],
    [
      'PUT',
      '/api/admin/moderation/slow-mode',
      { cid: 'sect:quang-truong', cooldown: 121 },
      'cooldown',
    ],
    ['PUT', '/api/admin/moderation/slow-mode', { cid: 'no-colon', cooldown: 5 }, 'cid'],
  ])('%s %s refuses %j with 400 naming the field', async (method, url, body, field) => {
    const response = await request(method, url, { cookie: moderator.cookie, body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(field);
  });

  it.each(['-1', '1001', 'abc', '10.5'])(
    'refuses the ban list cursor %j with 400 naming it',
    async (next) => {
      const response = await request('GET', `/api/admin/moderation/bans?next=${next}`, {
        cookie: moderator.cookie,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('next');
    },
  );

  it('refuses a queue status it does not know', async () => {
    const response = await request('GET', '/api/admin/moderation/queue?status=all', {
      cookie: moderator.cookie,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'INVALID_QUERY',
      message: 'Tham số truy vấn không hợp lệ (status).',
    });
  });

  it('does not let a moderator ban themselves', async () => {
    const response = await request('POST', '/api/admin/moderation/bans', {
      cookie: moderator.cookie,
      body: { userId: moderator.id },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('CANNOT_BAN_SELF');
  });

  it('lets only an admin ban a moderator', async () => {
    const other = await newUser('moderator');
    const response = await request('POST', '/api/admin/moderation/bans', {
      cookie: moderator.cookie,
      body: { userId: other.id, durationMinutes: 60 },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('answers 404 for a channel that does not exist, not a 500', async () => {
    const response = await request('PUT', '/api/admin/moderation/slow-mode', {
      cookie: moderator.cookie,
      body: { cid: 'messaging:khong-ton-tai-123', cooldown: 10 },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });
});

describe('slow mode', () => {
  it('turns a sect channel’s cooldown on and off, as the chat server then reports it', async () => {
    const { apiKey, apiSecret } = storedChatCredentials(dataDir);
    const server = chatAdmin(apiKey, apiSecret, chatURL);
    const on = await request('PUT', '/api/admin/moderation/slow-mode', {
      cookie: moderator.cookie,
      body: { cid: 'sect:luan-dao', cooldown: 30 },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ cid: 'sect:luan-dao', name: 'Luận Đạo', cooldown: 30 });
    const [channel] = await server.queryChannels(
      { cid: 'sect:luan-dao' },
      {},
      { user_id: moderator.id },
    );
    expect(channel?.data?.cooldown).toBe(30);

    const off = await request('PUT', '/api/admin/moderation/slow-mode', {
      cookie: moderator.cookie,
      body: { cid: 'sect:luan-dao', cooldown: 0 },
    });
    expect(off.json().cooldown).toBe(0);
  });

  it('looks up any channel by cid next to the sect channels', async () => {
    const response = await request(
      'GET',
      `/api/admin/moderation/slow-mode?cid=${encodeURIComponent('sect:giao-dich')}`,
      { cookie: moderator.cookie },
    );
    expect(response.json().channels).toHaveLength(3);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a moderator exceeds the reads allowed in a minute', async () => {
    const busy = await newUser('moderator');
    // Refused input is counted too (the limit is checked first), so no chat call is needed to reach it.
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const response = await request('GET', '/api/admin/moderation/queue?status=x', {
        cookie: busy.cookie,
      });
      expect(response.statusCode).toBe(400);
    }
    const refused = await request('GET', '/api/admin/moderation/queue', { cookie: busy.cookie });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another moderator is not affected.
    const other = await request('GET', '/api/admin/moderation/queue?status=x', {
      cookie: moderator.cookie,
    });
    expect(other.statusCode).toBe(400);
  });
});

/** These need the chat server's review queue, bans and blocklists (merged from the moderation branches). */
describe('queue, bans and blocklists through the chat server', () => {
  async function connectedMember(user: { id: string; cookie: string }) {
    const apiKey = await chatApiKey(app);
    const { token } = await chatToken(app, user.cookie);
    const client = chatClient(apiKey, chatURL);
    await client.connectUser({ id: user.id }, token);
    return client;
  }

  it('shows a reported message in the queue with its reason and context, and bans its author for an hour', async () => {
    const author = await newUser();
    const reporter = await newUser();
    const authorClient = await connectedMember(author);
    const reporterClient = await connectedMember(reporter);
    const channel = authorClient.channel('sect', 'quang-truong');
    await channel.watch();
    const { message } = await channel.sendMessage({ text: `Lời lẽ khiếm nhã ${Date.now()}` });
    await reporterClient.flagMessage(message.id, { reason: 'Xúc phạm đạo hữu' });

    const queue = await request('GET', '/api/admin/moderation/queue', { cookie: moderator.cookie });
    expect(queue.statusCode).toBe(200);
    const item = queue
      .json()
      .items.find((entry: { message: { id: string } | null }) => entry.message?.id === message.id);
    expect(item).toMatchObject({
      kind: 'message',
      targetUserId: author.id,
      reports: [expect.objectContaining({ reason: 'Xúc phạm đạo hữu', reporterId: reporter.id })],
    });
    expect(item.context.map((entry: { id: string }) => entry.id)).toContain(message.id);

    const banned = await request('POST', '/api/admin/moderation/actions', {
      cookie: moderator.cookie,
      body: { itemId: item.id, action: 'ban', reason: 'Xúc phạm', durationMinutes: 60 },
    });
    expect(banned.statusCode).toBe(200);
    const bans = await request('GET', '/api/admin/moderation/bans', { cookie: moderator.cookie });
    const ban = bans.json().bans.find((entry: { userId: string }) => entry.userId === author.id);
    expect(ban).toMatchObject({ reason: 'Xúc phạm', shadow: false, expires: expect.any(String) });

    const lifted = await request('DELETE', `/api/admin/moderation/bans/${author.id}`, {
      cookie: moderator.cookie,
    });
    expect(lifted.statusCode).toBe(200);
    const after = await request('GET', '/api/admin/moderation/bans', { cookie: moderator.cookie });
    expect(after.json().bans.map((entry: { userId: string }) => entry.userId)).not.toContain(
      author.id,
    );
  });

  it('saves a blocklist, one word per line deduplicated, and attaches it to a channel type', async () => {
    const name = `tu-cam-${Date.now()}`;
    const saved = await request('PUT', `/api/admin/moderation/blocklists/${name}`, {
      cookie: moderator.cookie,
      body: { words: ['ngu', 'NGU', 'khốn'] },
    });
    expect(saved.json()).toEqual({ name, words: ['ngu', 'khốn'] });

    const typed = await request('PUT', '/api/admin/moderation/channel-types/team', {
      cookie: moderator.cookie,
      body: { blocklist: name, behavior: 'block' },
    });
    expect(typed.json()).toEqual({ type: 'team', blocklist: name, behavior: 'block' });

    const read = await request('GET', '/api/admin/moderation/blocklists', {
      cookie: moderator.cookie,
    });
    expect(read.json().blocklists).toContainEqual({ name, words: ['ngu', 'khốn'] });
    expect(read.json().channelTypes).toContainEqual({
      type: 'team',
      blocklist: name,
      behavior: 'block',
    });
  });

  /** Every page of a list route, following `next` until the last; each page's length too. */
  async function allPages<T>(
    url: string,
    key: 'items' | 'bans',
  ): Promise<{ sizes: number[]; entries: T[] }> {
    const sizes: number[] = [];
    const entries: T[] = [];
    let next: string | null = null;
    do {
      const joiner = url.includes('?') ? '&' : '?';
      const response = await request('GET', next ? `${url}${joiner}next=${next}` : url, {
        cookie: moderator.cookie,
      });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as Record<string, unknown>;
      sizes.push((page[key] as T[]).length);
      entries.push(...(page[key] as T[]));
      next = page.next as string | null;
    } while (next && sizes.length < 20);
    return { sizes, entries };
  }

  it('pages the review queue ten items at a time until every reported message has been shown once', async () => {
    const author = await newUser();
    const reporter = await newUser();
    const authorClient = await connectedMember(author);
    const reporterClient = await connectedMember(reporter);
    const channel = authorClient.channel('sect', 'quang-truong');
    await channel.watch();
    const flagged: string[] = [];
    for (let index = 0; index < 11; index += 1) {
      const { message } = await channel.sendMessage({ text: `Rao vặt ${index} ${Date.now()}` });
      await reporterClient.flagMessage(message.id, { reason: 'Spam' });
      flagged.push(message.id);
    }

    const { sizes, entries } = await allPages<{ id: string; message: { id: string } | null }>(
      '/api/admin/moderation/queue?status=pending',
      'items',
    );
    expect(sizes[0]).toBe(10);
    expect(sizes.length).toBeGreaterThan(1);
    const shown = entries
      .map((item) => item.message?.id)
      .filter((id) => id && flagged.includes(id));
    expect(shown.sort()).toEqual([...flagged].sort());
    expect(new Set(entries.map((item) => item.id)).size).toBe(entries.length);
  });

  it('pages the ban list fifty bans at a time until every ban in force has been shown once', async () => {
    const { apiKey, apiSecret } = storedChatCredentials(dataDir);
    const server = chatAdmin(apiKey, apiSecret, chatURL);
    const stamp = Date.now().toString(36);
    const ids = Array.from({ length: 51 }, (_, index) => `cam-${stamp}-${index}`);
    await server.upsertUsers(ids.map((id) => ({ id, name: id })));
    for (const id of ids) await server.banUser(id, { timeout: 60, reason: 'Spam' });

    const { sizes, entries } = await allPages<{ userId: string }>(
      '/api/admin/moderation/bans',
      'bans',
    );
    expect(sizes[0]).toBe(50);
    expect(sizes.length).toBeGreaterThan(1);
    const shown = entries.map((ban) => ban.userId).filter((id) => ids.includes(id));
    expect(shown.sort()).toEqual([...ids].sort());
  });
});
