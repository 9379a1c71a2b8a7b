import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_USERS } from '../src/seed/demo-accounts.ts';
import { apiRequest, signedInCookie, signedUpUser, startSharedApp } from './harness.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
let adminCookie: string;

beforeAll(async () => {
  ({ app, close } = await startSharedApp({ SEED_DEMO: 'true' }));
  adminCookie = await signedInCookie(app, DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => close());

async function newUserId(): Promise<{ id: string; cookie: string }> {
  const { cookie } = await signedUpUser(app);
  const me = await apiRequest(app, 'GET', '/api/me', { cookie });
  return { id: me.json().id, cookie };
}

function patchUser(id: string, body: unknown, cookie = adminCookie) {
  return apiRequest(app, 'PATCH', `/api/admin/users/${encodeURIComponent(id)}`, { cookie, body });
}

describe('GET /api/admin/users', () => {
  it('lists users with the total for an admin', async () => {
    const response = await apiRequest(app, 'GET', '/api/admin/users?limit=100', {
      cookie: adminCookie,
    });
    expect(response.statusCode).toBe(200);
    const { users, total } = response.json();
    expect(total).toBeGreaterThanOrEqual(1 + DEMO_USERS.length);
    expect(users).toHaveLength(total);
    expect(users).toContainEqual({
      id: expect.any(String),
      daoHieu: 'Chưởng Môn',
      email: DEMO_ADMIN.email,
      role: 'admin',
      tuVi: 123_456,
      balance: 8_888_888,
      image: null,
      createdAt: expect.any(String),
    });
  });

  it('finds users by part of their đạo hiệu or email', async () => {
    const byName = await apiRequest(
      app,
      'GET',
      `/api/admin/users?query=${encodeURIComponent('Mặc')}`,
      {
        cookie: adminCookie,
      },
    );
    expect(byName.json().users.map((user: { daoHieu: string }) => user.daoHieu)).toEqual([
      'Mặc Trần',
    ]);
    expect(byName.json().total).toBe(1);

    const byEmail = await apiRequest(app, 'GET', '/api/admin/users?query=LANG.PHONG', {
      cookie: adminCookie,
    });
    expect(byEmail.json().users.map((user: { email: string }) => user.email)).toEqual([
      'lang.phong@daohuu.local',
    ]);
  });

  it('finds a đạo hiệu whatever the case and diacritics of the query, as Vietnamese users type', async () => {
    for (const query of ['mac tran', 'MẶC TRẦN', 'Mac Tr']) {
      const response = await apiRequest(
        app,
        'GET',
        `/api/admin/users?query=${encodeURIComponent(query)}`,
        { cookie: adminCookie },
      );
      expect(response.json().users.map((user: { daoHieu: string }) => user.daoHieu)).toEqual([
        'Mặc Trần',
      ]);
    }
  });

  it('treats % and _ in the query as plain characters', async () => {
    const response = await apiRequest(app, 'GET', '/api/admin/users?query=%25', {
      cookie: adminCookie,
    });
    expect(response.json()).toEqual({ users: [], total: 0 });
  });

  it('pages with limit and offset, keeping the total', async () => {
    const first = (
      await apiRequest(app, 'GET', '/api/admin/users?limit=2&offset=0', { cookie: adminCookie })
    ).json();
    const second = (
      await apiRequest(app, 'GET', '/api/admin/users?limit=2&offset=2', { cookie: adminCookie })
    ).json();
    expect(first.users).toHaveLength(2);
    expect(second.users).toHaveLength(2);
    expect(second.total).toBe(first.total);
    const ids = [...first.users, ...second.users].map((user: { id: string }) => user.id);
    expect(new Set(ids).size).toBe(4);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'offset=-1', 'limit=1&limit=2'])(
    'refuses %s with 400 INVALID_QUERY',
    async (query) => {
      const response = await apiRequest(app, 'GET', `/api/admin/users?${query}`, {
        cookie: adminCookie,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('INVALID_QUERY');
    },
  );

  it('answers 401 when signed out', async () => {
    const response = await apiRequest(app, 'GET', '/api/admin/users');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('answers 403 FORBIDDEN to a user who is not an admin', async () => {
    const { cookie } = await signedUpUser(app);
    const response = await apiRequest(app, 'GET', '/api/admin/users', { cookie });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: { code: 'FORBIDDEN', message: 'Đạo hữu không có quyền truy cập trang này.' },
    });
  });
});

describe('PATCH /api/admin/users/:id', () => {
  it('sets tu vi, balance and role, and the user sees them', async () => {
    const user = await newUserId();
    const response = await patchUser(user.id, {
      tuVi: 1_500_000,
      balance: 250_000,
      role: 'moderator',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      tuVi: 1_500_000,
      balance: 250_000,
      role: 'moderator',
    });
    expect((await apiRequest(app, 'GET', '/api/me', { cookie: user.cookie })).json()).toMatchObject(
      {
        tuVi: 1_500_000,
        balance: 250_000,
        role: 'moderator',
      },
    );
  });

  it('accepts 0 and Number.MAX_SAFE_INTEGER', async () => {
    const user = await newUserId();
    const max = await patchUser(user.id, {
      tuVi: Number.MAX_SAFE_INTEGER,
      balance: Number.MAX_SAFE_INTEGER,
    });
    expect(max.json()).toMatchObject({
      tuVi: Number.MAX_SAFE_INTEGER,
      balance: Number.MAX_SAFE_INTEGER,
    });
    const zero = await patchUser(user.id, { tuVi: 0, balance: 0 });
    expect(zero.json()).toMatchObject({ tuVi: 0, balance: 0 });
  });

  it('changes only the fields sent', async () => {
    const user = await newUserId();
    await patchUser(user.id, { tuVi: 75, balance: 20_000 });
    const response = await patchUser(user.id, { balance: 30_000 });
    expect(response.json()).toMatchObject({ tuVi: 75, balance: 30_000, role: 'user' });
  });

  const invalid: Array<[string, string, string]> = [
    ['{"tuVi": -1}', 'INVALID_TU_VI', 'a negative tu vi'],
    ['{"tuVi": 1.5}', 'INVALID_TU_VI', 'a fractional tu vi'],
    ['{"tuVi": "100"}', 'INVALID_TU_VI', 'a tu vi sent as a string'],
    ['{"tuVi": "NaN"}', 'INVALID_TU_VI', 'NaN as tu vi'],
    ['{"tuVi": null}', 'INVALID_TU_VI', 'a null tu vi'],
    ['{"tuVi": 9007199254740992}', 'INVALID_TU_VI', 'a tu vi above MAX_SAFE_INTEGER'],
    ['{"tuVi": 1e400}', 'INVALID_TU_VI', 'an infinite tu vi'],
    ['{"balance": -5}', 'INVALID_BALANCE', 'a negative balance'],
    ['{"balance": 0.01}', 'INVALID_BALANCE', 'a fractional balance'],
    ['{"balance": "1000"}', 'INVALID_BALANCE', 'a balance sent as a string'],
    ['{"balance": 9007199254740993}', 'INVALID_BALANCE', 'a balance above MAX_SAFE_INTEGER'],
    ['{"balance": true}', 'INVALID_BALANCE', 'a boolean balance'],
    ['{"role": "god"}', 'INVALID_ROLE', 'an unknown role'],
    ['{"role": "ADMIN"}', 'INVALID_ROLE', 'a role in the wrong case'],
    ['{"role": 1}', 'INVALID_ROLE', 'a numeric role'],
    ['{"tuVi": 10, "balance": -1}', 'INVALID_BALANCE', 'a valid tu vi with an invalid balance'],
    ['{"tuVi": 10, "email": "x@y.vn"}', 'INVALID_BODY', 'a field that is not editable'],
    ['[1, 2]', 'INVALID_BODY', 'an array body'],
    ['"tuVi"', 'INVALID_BODY', 'a string body'],
  ];

  it.each(invalid)('refuses %s with 400 %s (%s) and changes nothing', async (body, code) => {
    const user = await newUserId();
    await patchUser(user.id, { tuVi: 2_300, balance: 150_000 });
    const response = await app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${user.id}`,
      headers: {
        cookie: adminCookie,
        origin: 'http://localhost:3000',
        'content-type': 'application/json',
      },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code, message: expect.any(String) });
    expect(response.json().error.message).not.toBe('');
    expect((await apiRequest(app, 'GET', '/api/me', { cookie: user.cookie })).json()).toMatchObject(
      {
        tuVi: 2_300,
        balance: 150_000,
        role: 'user',
      },
    );
  });

  it('answers an unknown id with 404 NOT_FOUND', async () => {
    const response = await patchUser('no-such-user', { tuVi: 1 });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it('refuses to let an admin remove their own admin role', async () => {
    const me = (await apiRequest(app, 'GET', '/api/me', { cookie: adminCookie })).json();
    const response = await patchUser(me.id, { role: 'user' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('CANNOT_REMOVE_OWN_ADMIN');
    expect((await apiRequest(app, 'GET', '/api/me', { cookie: adminCookie })).json().role).toBe(
      'admin',
    );
  });

  it('lets an admin change their own tu vi', async () => {
    const me = (await apiRequest(app, 'GET', '/api/me', { cookie: adminCookie })).json();
    const response = await patchUser(me.id, { tuVi: me.tuVi, role: 'admin' });
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('admin');
  });

  it('answers 403 to a user who is not an admin and changes nothing', async () => {
    const user = await newUserId();
    const response = await patchUser(user.id, { tuVi: 999_999, role: 'admin' }, user.cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
    expect((await apiRequest(app, 'GET', '/api/me', { cookie: user.cookie })).json()).toMatchObject(
      {
        tuVi: 0,
        role: 'user',
      },
    );
  });

  it('answers 401 when signed out', async () => {
    const user = await newUserId();
    const response = await apiRequest(app, 'PATCH', `/api/admin/users/${user.id}`, {
      body: { tuVi: 5 },
    });
    expect(response.statusCode).toBe(401);
  });

  it('gives a promoted admin access at once', async () => {
    const user = await newUserId();
    await patchUser(user.id, { role: 'admin' });
    const response = await apiRequest(app, 'GET', '/api/admin/users', { cookie: user.cookie });
    expect(response.statusCode).toBe(200);
  });
});
