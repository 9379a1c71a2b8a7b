import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../src/seed/demo-accounts.ts';
import type { StreamChat } from 'stream-chat';
import { chatAdmin, listeningApp, storedChatCredentials } from './chat-harness.ts';
import { ORIGIN, apiRequest, signedInCookie, signedUpUser, startSharedApp } from './harness.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
let adminCookie: string;
let moderator: { id: string; cookie: string };
let member: { id: string; cookie: string };
let chatServer: StreamChat;

type Method = 'GET' | 'POST';

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

async function newUser(role?: 'moderator'): Promise<{ id: string; cookie: string }> {
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
  ({ app, close } = started);
  const { apiKey, apiSecret } = storedChatCredentials(started.config.dataDir);
  chatServer = chatAdmin(apiKey, apiSecret, started.chatURL);
  adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
  moderator = await newUser('moderator');
  member = await newUser();
}, 30_000);
afterAll(async () => close());

const audience = () => ({ kind: 'users', userIds: [member.id] });

/** Every campaign route, with a body that would be valid. */
const ROUTES: Array<[Method, string, unknown?]> = [
  ['POST', '/api/admin/campaigns/audience', { audience: { kind: 'all' } }],
  ['POST', '/api/admin/campaigns/preview', { audience: { kind: 'all' }, text: 'Chào' }],
  ['POST', '/api/admin/campaigns', { audience: { kind: 'all' }, text: 'Chào' }],
  ['GET', '/api/admin/campaigns/chien-dich-x'],
  ['POST', '/api/admin/campaigns/chien-dich-x/stop'],
];

describe('campaign routes: who may call them', () => {
  it.each(ROUTES)('%s %s answers 401 without a session', async (method, url, body) => {
    const response = await request(method, url, { body });
    expect(response.statusCode).toBe(401);
  });

  it.each(ROUTES)('%s %s answers 403 to a member and to a moderator', async (method, url, body) => {
    for (const cookie of [member.cookie, moderator.cookie]) {
      const response = await request(method, url, { cookie, body });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
    }
  });
});

describe('campaign routes: input', () => {
  it.each<[string, unknown, string]>([
    [
      '/api/admin/campaigns/audience',
      { audience: { kind: 'realm', minRealm: 99 } },
      'audience.minRealm',
    ],
    [
      '/api/admin/campaigns/audience',
      { audience: { kind: 'users', userIds: [] } },
      'audience.userIds',
    ],
    ['/api/admin/campaigns/audience', { audience: { kind: 'moi-nguoi' } }, 'audience.kind'],
    ['/api/admin/campaigns', { audience: { kind: 'all' }, text: '   ' }, 'text'],
    ['/api/admin/campaigns', { audience: { kind: 'all' }, text: 'x'.repeat(2001) }, 'text'],
    [
      '/api/admin/campaigns/preview',
      { audience: { kind: 'all' }, text: 'x', userId: 'a b' },
      'userId',
    ],
  ])('POST %s refuses %j naming %s', async (url, body, field) => {
    const response = await request('POST', url, { cookie: adminCookie, body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(field);
  });
});

describe('campaign routes: an admin’s campaign', () => {
  it('counts an audience without writing anything: no chat segment is created, even for a moment', async () => {
    const before = await chatServer.querySegments({}, [], { limit: 100 });
    const counts: number[] = [];
    for (const audience of [
      { kind: 'all' },
      { kind: 'realm', minRealm: 0 },
      { kind: 'realm', minRealm: 38 },
      { kind: 'users', userIds: [member.id, member.id, 'khong-ai'] },
    ]) {
      const response = await request('POST', '/api/admin/campaigns/audience', {
        cookie: adminCookie,
        body: { audience },
      });
      expect(response.statusCode, response.body).toBe(200);
      counts.push(response.json().count);
    }
    const after = await chatServer.querySegments({}, [], { limit: 100 });
    expect(after.segments.map((s) => s.id)).toEqual(before.segments.map((s) => s.id));
    expect(counts[0]).toBeGreaterThan(1);
    // Realm 0 is everyone; nobody here has reached Độ Kiếp Trung Kỳ; an id counts once, an unknown one not at all.
    expect(counts.slice(1)).toEqual([counts[0], 0, 1]);
  });

  // A segment created and deleted within one request leaves the list above as it was: this is what shows that
  // counting asks chat nothing at all. An app that never listens has no chat to reach (every chat call ends in
  // CHAT_UNAVAILABLE).
  it('counts an audience while chat cannot be reached at all', async () => {
    const offline = await startSharedApp({ SEED_DEMO: 'true', AUTH_RATE_LIMIT_MAX_PER_IP: '0' });
    try {
      const cookie = await signedInCookie(offline.app, DEMO_ADMIN.email, DEMO_ADMIN.password);
      const response = await apiRequest(offline.app, 'POST', '/api/admin/campaigns/audience', {
        cookie,
        body: { audience: { kind: 'all' } },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().count).toBeGreaterThan(0);
    } finally {
      await offline.close();
    }
  });

  it('counts the audience, previews the message for one cultivator, sends it and reports progress', async () => {
    const counted = await request('POST', '/api/admin/campaigns/audience', {
      cookie: adminCookie,
      body: { audience: audience() },
    });
    expect(counted.json()).toEqual({ count: 1 });
    const everyone = await request('POST', '/api/admin/campaigns/audience', {
      cookie: adminCookie,
      body: { audience: { kind: 'all' } },
    });
    expect(everyone.json().count).toBeGreaterThan(1);

    const preview = await request('POST', '/api/admin/campaigns/preview', {
      cookie: adminCookie,
      body: { audience: audience(), text: 'Chào {{ receiver.name }}!' },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ userId: member.id });
    expect(preview.json().text).toBe(`Chào ${preview.json().name}!`);

    const started = await request('POST', '/api/admin/campaigns', {
      cookie: adminCookie,
      body: { audience: audience(), text: 'Chào {{ receiver.name }}!' },
    });
    expect(started.statusCode).toBe(200);
    const { id } = started.json() as { id: string };
    let progress = started.json();
    for (let i = 0; i < 100 && progress.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      progress = (
        await request('GET', `/api/admin/campaigns/${id}`, { cookie: adminCookie })
      ).json();
    }
    expect(progress).toMatchObject({ id, status: 'completed', targets: 1, sent: 1, failed: 0 });
    // A finished campaign cannot be stopped: the chat server refuses, the screen is told so.
    const stop = await request('POST', `/api/admin/campaigns/${id}/stop`, { cookie: adminCookie });
    expect(stop.statusCode).toBe(400);
    const missing = await request('GET', '/api/admin/campaigns/chien-dich-khong-co', {
      cookie: adminCookie,
    });
    expect(missing.statusCode).toBe(404);
  });
});
