import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { OWN_WRITES_PER_MINUTE } from '../src/profile/profile-routes.ts';
import { ORIGIN, apiRequest, signedUpUser, startSharedApp } from './harness.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ app, close } = await startSharedApp());
});
afterAll(async () => close());

describe('PATCH /api/me', () => {
  it('changes the đạo hiệu (trimmed) and returns the profile', async () => {
    const { cookie, credentials } = await signedUpUser(app);
    const response = await apiRequest(app, 'PATCH', '/api/me', {
      cookie,
      body: { daoHieu: '  Tử Yên  ' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      daoHieu: 'Tử Yên',
      email: credentials.email,
      role: 'user',
    });
    expect((await apiRequest(app, 'GET', '/api/me', { cookie })).json().daoHieu).toBe('Tử Yên');
    // better-auth sees the same name.
    const session = await app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.json().user.name).toBe('Tử Yên');
  });

  it.each([
    ['too short', { daoHieu: 'A' }],
    ['too long', { daoHieu: 'x'.repeat(33) }],
    ['blank', { daoHieu: '   ' }],
    ['not a string', { daoHieu: 12 }],
    ['missing', {}],
  ])('refuses a %s đạo hiệu with INVALID_NAME and keeps the old one', async (_label, body) => {
    const { cookie, credentials } = await signedUpUser(app);
    const response = await apiRequest(app, 'PATCH', '/api/me', { cookie, body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'INVALID_NAME', message: 'Đạo hiệu phải có từ 2 đến 32 ký tự.' },
    });
    expect((await apiRequest(app, 'GET', '/api/me', { cookie })).json().daoHieu).toBe(
      credentials.name,
    );
  });

  it('refuses fields a user may not change with INVALID_BODY', async () => {
    const { cookie } = await signedUpUser(app);
    const response = await apiRequest(app, 'PATCH', '/api/me', {
      cookie,
      body: { daoHieu: 'Tử Yên', tuVi: 1_000_000 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_BODY');
    expect((await apiRequest(app, 'GET', '/api/me', { cookie })).json().tuVi).toBe(0);
  });

  it('answers 401 when signed out', async () => {
    const response = await apiRequest(app, 'PATCH', '/api/me', { body: { daoHieu: 'Tử Yên' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const { cookie } = await signedUpUser(app);
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      payload: '{"daoHieu": "Tử',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'INVALID_JSON', message: 'Dữ liệu gửi lên không phải JSON hợp lệ.' },
    });
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const { cookie } = await signedUpUser(app);
    const response = await apiRequest(app, 'PATCH', '/api/me', {
      cookie,
      body: { daoHieu: 'x'.repeat(20_000) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a cookie-carrying PATCH from a foreign origin with 403 INVALID_ORIGIN', async () => {
    const { cookie, credentials } = await signedUpUser(app);
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { cookie, origin: 'https://evil.example' },
      payload: { daoHieu: 'Kẻ Gian' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('INVALID_ORIGIN');
    expect((await apiRequest(app, 'GET', '/api/me', { cookie })).json().daoHieu).toBe(
      credentials.name,
    );
  });

  it('refuses a cookie-carrying PATCH without an Origin with 403 MISSING_OR_NULL_ORIGIN', async () => {
    const { cookie } = await signedUpUser(app);
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { cookie },
      payload: { daoHieu: 'Kẻ Gian' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('MISSING_OR_NULL_ORIGIN');
  });
});

describe("writes of one's own profile and settings", () => {
  it('answers 429 with Retry-After past the per-minute limit, changing nothing, and only for that user', async () => {
    const writer = await signedUpUser(app);
    const other = await signedUpUser(app);
    for (let i = 0; i < OWN_WRITES_PER_MINUTE; i++) {
      const settings = await apiRequest(app, 'PATCH', '/api/me/settings', {
        cookie: writer.cookie,
        body: { announceBreakthrough: i % 2 === 0 },
      });
      expect(settings.statusCode).toBe(200);
    }
    const before = (await apiRequest(app, 'GET', '/api/me', { cookie: writer.cookie })).json();

    const refused = await apiRequest(app, 'PATCH', '/api/me', {
      cookie: writer.cookie,
      body: { daoHieu: 'Quá Hạn Mức' },
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await apiRequest(app, 'GET', '/api/me', { cookie: writer.cookie })).json()).toEqual(
      before,
    );
    const otherWrite = await apiRequest(app, 'PATCH', '/api/me', {
      cookie: other.cookie,
      body: { daoHieu: 'Người Khác' },
    });
    expect(otherWrite.statusCode).toBe(200);
  });
});
