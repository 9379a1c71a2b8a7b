import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  ORIGIN,
  apiRequest,
  cookieFrom,
  newCredentials,
  signIn,
  signUp,
  signedUpUser,
  startApp,
  testConfig,
} from './harness.ts';

describe('sign-up', () => {
  it('creates the account, sets the session cookie and /api/me returns the profile', async () => {
    const app = await startApp();
    const credentials = newCredentials();
    const response = await signUp(app, { ...credentials, name: '  Lăng Phong  ' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^better-auth\.session_token=.+HttpOnly; SameSite=Lax/),
      ]),
    );
    // better-auth's success body passes through untouched.
    expect(response.json()).toMatchObject({
      token: expect.any(String),
      user: { email: credentials.email },
    });

    const me = await apiRequest(app, 'GET', '/api/me', { cookie: cookieFrom(response) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: response.json().user.id,
      daoHieu: 'Lăng Phong',
      email: credentials.email,
      role: 'user',
      tuVi: 0,
      balance: 0,
      image: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('refuses an email that is already used with USER_ALREADY_EXISTS', async () => {
    const app = await startApp();
    const credentials = newCredentials();
    expect((await signUp(app, credentials)).statusCode).toBe(200);
    const again = await signUp(app, { ...credentials, email: credentials.email.toUpperCase() });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toEqual({
      code: 'USER_ALREADY_EXISTS',
      message: 'Email này đã được sử dụng.',
    });
    // Also where better-auth's client reads it.
    expect(again.json()).toMatchObject({
      code: 'USER_ALREADY_EXISTS',
      message: 'Email này đã được sử dụng.',
    });
  });

  it('refuses a password shorter than 8 characters with PASSWORD_TOO_SHORT', async () => {
    const app = await startApp();
    const response = await signUp(app, { ...newCredentials(), password: '1234567' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'PASSWORD_TOO_SHORT',
      message: 'Mật khẩu phải có ít nhất 8 ký tự.',
    });
  });

  it('accepts a password of exactly 8 characters', async () => {
    const app = await startApp();
    expect((await signUp(app, { ...newCredentials(), password: '12345678' })).statusCode).toBe(200);
  });

  it('refuses a malformed email with INVALID_EMAIL', async () => {
    const app = await startApp();
    const response = await signUp(app, { ...newCredentials(), email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'INVALID_EMAIL',
      message: 'Email không hợp lệ.',
    });
  });

  it.each([
    ['missing', undefined],
    ['too short', 'A'],
    ['blank', '   '],
    ['too long', 'Đ'.repeat(33)],
    ['not a string', 123],
  ])('refuses a %s đạo hiệu with INVALID_NAME and creates nothing', async (_label, name) => {
    const app = await startApp();
    const credentials = newCredentials();
    const response = await signUp(app, {
      email: credentials.email,
      password: credentials.password,
      name,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'INVALID_NAME', message: 'Đạo hiệu phải có từ 2 đến 32 ký tự.' },
    });
    expect((await signIn(app, credentials)).statusCode).toBe(401);
  });

  it('never lets a new user choose their role, tu vi or balance', async () => {
    const app = await startApp();
    const response = await signUp(app, {
      ...newCredentials(),
      role: 'admin',
      tuVi: 999_999,
      balance: 1_000_000,
    });
    expect(response.statusCode).toBe(200);
    const me = await apiRequest(app, 'GET', '/api/me', { cookie: cookieFrom(response) });
    expect(me.json()).toMatchObject({ role: 'user', tuVi: 0, balance: 0 });
  });

  it('answers a malformed JSON body with 400 INVALID_JSON', async () => {
    const app = await startApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: '{"email": "a@b.vn",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_JSON');
  });

  it('answers a non-JSON body with 415 so the đạo hiệu check cannot be bypassed', async () => {
    const app = await startApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.vn&password=12345678&name=A',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an oversized body with 413', async () => {
    const app = await startApp();
    const response = await signUp(app, { ...newCredentials(), padding: 'x'.repeat(20_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('sign-in', () => {
  it('signs in with the right password and sets the session cookie', async () => {
    const app = await startApp();
    const { credentials } = await signedUpUser(app);
    const response = await signIn(app, {
      email: credentials.email,
      password: credentials.password,
    });
    expect(response.statusCode).toBe(200);
    const me = await apiRequest(app, 'GET', '/api/me', { cookie: cookieFrom(response) });
    expect(me.json().email).toBe(credentials.email);
  });

  it('refuses a wrong password with INVALID_EMAIL_OR_PASSWORD', async () => {
    const app = await startApp();
    const { credentials } = await signedUpUser(app);
    const response = await signIn(app, { email: credentials.email, password: 'mat-khau-sai' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.json().error).toEqual({
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Email hoặc mật khẩu không đúng.',
    });
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const app = await startApp();
    const response = await signIn(app, { email: 'nobody@example.vn', password: 'mat-khau-dai' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });
});

describe('session', () => {
  it('answers /api/me without a session with 401 UNAUTHENTICATED', async () => {
    const app = await startApp();
    const response = await apiRequest(app, 'GET', '/api/me');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Đạo hữu cần đăng nhập.' },
    });
  });

  it('answers /api/me with a forged session cookie with 401', async () => {
    const app = await startApp();
    const response = await apiRequest(app, 'GET', '/api/me', {
      cookie: 'better-auth.session_token=forged.value',
    });
    expect(response.statusCode).toBe(401);
  });

  it('returns the session from get-session, with the profile fields', async () => {
    const app = await startApp();
    const { cookie, credentials } = await signedUpUser(app);
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      email: credentials.email,
      role: 'user',
      tuVi: 0,
      balance: 0,
    });
  });

  it('signs out: the cookie stops working', async () => {
    const app = await startApp();
    const { cookie } = await signedUpUser(app);
    const signOut = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: ORIGIN },
    });
    expect(signOut.statusCode).toBe(200);
    expect(String(signOut.headers['set-cookie'])).toMatch(
      /better-auth\.session_token=;.*Max-Age=0/,
    );
    expect((await apiRequest(app, 'GET', '/api/me', { cookie })).statusCode).toBe(401);
  });

  it('refuses sign-out from a foreign origin with 403 INVALID_ORIGIN and keeps the session', async () => {
    const app = await startApp();
    const { cookie } = await signedUpUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('INVALID_ORIGIN');
    expect((await apiRequest(app, 'GET', '/api/me', { cookie })).statusCode).toBe(200);
  });

  it('refuses a cookie-carrying auth POST without an Origin with 403 MISSING_OR_NULL_ORIGIN', async () => {
    const app = await startApp();
    const { cookie } = await signedUpUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('MISSING_OR_NULL_ORIGIN');
  });

  it('answers an unknown auth path with 404 JSON', async () => {
    const app = await startApp();
    const response = await app.inject({ method: 'GET', url: '/api/auth/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });
});

describe('trusted origins', () => {
  async function listening() {
    // PUBLIC_URL is left at its default, as on a fresh `npm start`.
    const app = await startApp(testConfig({ PUBLIC_URL: '' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, port: (app.server.address() as AddressInfo).port };
  }

  async function signUpAt(base: string, origin: string): Promise<Response> {
    return fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie: 'theme=dark' },
      body: JSON.stringify(newCredentials()),
    });
  }

  it('accepts a browser on http://127.0.0.1:PORT and on http://localhost:PORT', async () => {
    const { port } = await listening();
    const byIp = await signUpAt(`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`);
    expect(byIp.status).toBe(200);
    const byName = await signUpAt(`http://localhost:${port}`, `http://localhost:${port}`);
    expect(byName.status).toBe(200);
  });

  it('refuses a page on another origin', async () => {
    const { port } = await listening();
    const response = await signUpAt(`http://127.0.0.1:${port}`, 'http://127.0.0.1:9999');
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'INVALID_ORIGIN',
    );
  });
});
