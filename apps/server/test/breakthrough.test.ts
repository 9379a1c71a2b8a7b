import type { FastifyInstance } from 'fastify';
import type { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOUNCER } from '../src/profile/breakthroughs.ts';
import { DEMO_ADMIN } from '../src/seed/demo-accounts.ts';
import { chatAdmin, listeningApp, storedChatCredentials } from './chat-harness.ts';
import { ORIGIN, apiRequest, signedInCookie, signedUpUser } from './harness.ts';

/**
 * "Đột phá!": an admin raising a cultivator's tu vi into a higher realm tells them through the chat server's
 * notifications and, when they allow it, announces it in Quảng Trường once per realm. Real embedded chat server.
 */

let app: FastifyInstance;
let close: () => Promise<void>;
let adminCookie: string;
let chat: StreamChat;

beforeAll(async () => {
  const started = await listeningApp({ SEED_DEMO: 'true', AUTH_RATE_LIMIT_MAX_PER_IP: '0' });
  ({ app, close } = started);
  const { apiKey, apiSecret } = storedChatCredentials(started.config.dataDir);
  chat = chatAdmin(apiKey, apiSecret, started.chatURL);
  adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
}, 60_000);
afterAll(async () => close());

interface Notification {
  kind: string;
  data: Record<string, string>;
}

async function newUser(): Promise<{ id: string; name: string; cookie: string }> {
  const { cookie } = await signedUpUser(app);
  const me = (await apiRequest(app, 'GET', '/api/me', { cookie })).json();
  return { id: me.id, name: me.daoHieu, cookie };
}

async function setTuVi(id: string, tuVi: number): Promise<void> {
  const response = await apiRequest(app, 'PATCH', `/api/admin/users/${id}`, {
    cookie: adminCookie,
    body: { tuVi },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function breakthroughs(userId: string): Promise<string[]> {
  const page = await chat.get<{ notifications: Notification[] }>(
    `${chat.baseURL}/daohuu/notifications`,
    { user_id: userId },
  );
  return page.notifications.filter((n) => n.kind === 'breakthrough').map((n) => n.data.realm!);
}

/** The announcements of `userId`'s breakthroughs in Quảng Trường, oldest first. */
async function announcements(userId: string): Promise<string[]> {
  const state = await chat.channel('sect', 'quang-truong').query({ messages: { limit: 300 } });
  return state.messages
    .filter((m) => m.user?.id === ANNOUNCER.id && m.id.startsWith(`dot-pha-${userId}-`))
    .map((m) => m.text ?? '');
}

function allowAnnouncements(cookie: string, announceBreakthrough: unknown) {
  return apiRequest(app, 'PATCH', '/api/me/settings', { cookie, body: { announceBreakthrough } });
}

describe('the "Đột phá!" notification', { timeout: 30_000 }, () => {
  it('tells a cultivator raised into a new realm, naming the realm', async () => {
    const user = await newUser();
    await setTuVi(user.id, 150);
    expect(await breakthroughs(user.id)).toEqual(['Luyện Khí Tầng 2']);
    // Several realms at once: one notification, for the realm reached.
    await setTuVi(user.id, 150_000);
    expect(await breakthroughs(user.id)).toEqual(['Kim Đan Trung Kỳ', 'Luyện Khí Tầng 2']);
  });

  it('tells nobody of a change inside a realm or of a fall', async () => {
    const user = await newUser();
    await setTuVi(user.id, 50);
    await setTuVi(user.id, 90);
    await setTuVi(user.id, 0);
    await apiRequest(app, 'PATCH', `/api/admin/users/${user.id}`, {
      cookie: adminCookie,
      body: { balance: 5 },
    });
    expect(await breakthroughs(user.id)).toEqual([]);
  });
});

describe('the breakthrough announcement in Quảng Trường', { timeout: 30_000 }, () => {
  it('is off by default: the setting reads false and nothing is announced', async () => {
    const user = await newUser();
    const settings = await apiRequest(app, 'GET', '/api/me/settings', { cookie: user.cookie });
    expect(settings.json()).toEqual({ announceBreakthrough: false });
    await setTuVi(user.id, 5_000);
    expect(await breakthroughs(user.id)).toEqual(['Trúc Cơ Sơ Kỳ']);
    expect(await announcements(user.id)).toEqual([]);
  });

  it('announces each realm once when allowed, also after falling and rising again', async () => {
    const user = await newUser();
    const saved = await allowAnnouncements(user.cookie, true);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ announceBreakthrough: true });
    expect(
      (await apiRequest(app, 'GET', '/api/me/settings', { cookie: user.cookie })).json(),
    ).toEqual({ announceBreakthrough: true });

    await setTuVi(user.id, 5_000);
    await setTuVi(user.id, 0);
    await setTuVi(user.id, 5_000);
    expect(await announcements(user.id)).toEqual([
      `Chúc mừng ${user.name} đã đột phá lên Trúc Cơ Sơ Kỳ!`,
    ]);
    // The fall and the second rise still tell the cultivator; only the square hears once.
    expect(await breakthroughs(user.id)).toEqual(['Trúc Cơ Sơ Kỳ', 'Trúc Cơ Sơ Kỳ']);

    await setTuVi(user.id, 15_000);
    expect(await announcements(user.id)).toHaveLength(2);
    expect((await announcements(user.id))[1]).toContain('Trúc Cơ Trung Kỳ');
  });

  it('stops announcing once the cultivator turns the setting off again', async () => {
    const user = await newUser();
    expect((await allowAnnouncements(user.cookie, true)).statusCode).toBe(200);
    const off = await allowAnnouncements(user.cookie, false);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ announceBreakthrough: false });
    await setTuVi(user.id, 1_000);
    // The rise did reach chat (a failed send is only logged): the square stayed silent because of the setting.
    expect(await breakthroughs(user.id)).toEqual(['Luyện Khí Tầng 5']);
    expect(await announcements(user.id)).toEqual([]);
  });
});

describe('the settings routes', () => {
  it('refuse a body that is not exactly {announceBreakthrough: boolean}', async () => {
    const user = await newUser();
    for (const body of [
      { announceBreakthrough: 'true' },
      { announceBreakthrough: true, x: 1 },
      { other: true },
      [],
      {},
    ]) {
      const response = await apiRequest(app, 'PATCH', '/api/me/settings', {
        cookie: user.cookie,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID_BODY');
    }
    expect(
      (await apiRequest(app, 'GET', '/api/me/settings', { cookie: user.cookie })).json(),
    ).toEqual({ announceBreakthrough: false });
  });

  it('need a session, and a same-origin request to change anything', async () => {
    expect((await apiRequest(app, 'GET', '/api/me/settings')).statusCode).toBe(401);
    expect(
      (await apiRequest(app, 'PATCH', '/api/me/settings', { body: { announceBreakthrough: true } }))
        .statusCode,
    ).toBe(401);
    const user = await newUser();
    const foreign = await app.inject({
      method: 'PATCH',
      url: '/api/me/settings',
      headers: { cookie: user.cookie, origin: 'https://ke-gian.example' },
      payload: { announceBreakthrough: true },
    });
    expect(foreign.statusCode).toBe(403);
    expect(ORIGIN).not.toBe('https://ke-gian.example');
    expect(
      (await apiRequest(app, 'GET', '/api/me/settings', { cookie: user.cookie })).json(),
    ).toEqual({ announceBreakthrough: false });
  });
});
