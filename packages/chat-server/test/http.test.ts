import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUserToken } from '../src/auth/tokens.ts';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';

describe('HTTP surface: errors, auth and CORS in Stream format', () => {
  let server: TestChatServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestChatServer({
      prefix: '/chat',
      config: { http: { bodyLimitBytes: 4096 } },
    });
    token = signUserToken(server.apiSecret, 'kiem-tien');
    await request('POST', '/users', { users: { 'kiem-tien': { id: 'kiem-tien' } } }, serverToken());
  });
  afterAll(async () => {
    await server.close();
  });

  function serverToken(): string {
    const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    const payload = Buffer.from('{"server":true}').toString('base64url');
    const signature = createHmac('sha256', server.apiSecret)
      .update(`${header}.${payload}`)
      .digest('base64url');
    return `${header}.${payload}.${signature}`;
  }

  async function request(
    method: string,
    path: string,
    body?: unknown,
    auth: string | null = token,
    raw?: string,
  ) {
    const separator = path.includes('?') ? '&' : '?';
    const response = await fetch(`${server.baseURL}${path}${separator}api_key=${server.apiKey}`, {
      method,
      headers: {
        ...(auth ? { authorization: auth, 'stream-auth-type': 'jwt' } : {}),
        ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: JSON.parse(text) as Record<string, unknown>,
      headers: response.headers,
    };
  }

  function expectStreamError(
    result: { status: number; body: Record<string, unknown> },
    status: number,
    code: number,
  ) {
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({
      code,
      StatusCode: status,
      message: expect.any(String),
      duration: expect.any(String),
      more_info: expect.any(String),
    });
  }

  it('answers malformed JSON with code 4 and HTTP 400', async () => {
    expectStreamError(
      await request('POST', '/channels', undefined, token, '{"filter_conditions":'),
      400,
      4,
    );
  });

  it('answers a body over the limit with code 22 and HTTP 413', async () => {
    const big = { users: { 'kiem-tien': { id: 'kiem-tien', bio: 'x'.repeat(10_000) } } };
    expectStreamError(await request('POST', '/users', big), 413, 22);
  });

  it('answers wrong types with code 4', async () => {
    expectStreamError(
      await request('POST', '/channels', { filter_conditions: 'all', limit: 'ten' }),
      400,
      4,
    );
    expectStreamError(await request('GET', '/users?payload=%7Bnot-json'), 400, 4);
  });

  it('answers a missing or unknown api_key with code 2', async () => {
    const response = await fetch(`${server.baseURL}/users?payload=%7B%7D`, {
      headers: { authorization: token },
    });
    expectStreamError(
      { status: response.status, body: (await response.json()) as Record<string, unknown> },
      401,
      2,
    );
  });

  it('answers a missing token with code 5 and a forged one with code 43', async () => {
    expectStreamError(await request('GET', '/users?payload=%7B%7D', undefined, null), 401, 5);
    expectStreamError(
      await request('GET', '/users?payload=%7B%7D', undefined, signUserToken('wrong', 'kiem-tien')),
      401,
      43,
    );
  });

  it('answers an expired token with code 40 so the client refreshes it', async () => {
    const expired = signUserToken(
      server.apiSecret,
      'kiem-tien',
      Math.floor(Date.now() / 1000) - 10,
    );
    expectStreamError(await request('GET', '/users?payload=%7B%7D', undefined, expired), 401, 40);
  });

  it('accepts a Bearer prefix although the client sends the bare token', async () => {
    const result = await request('GET', '/users?payload=%7B%7D', undefined, `Bearer ${token}`);
    expect(result.status).toBe(200);
    expect(result.body.duration).toEqual(expect.any(String));
  });

  it('answers unknown endpoints with a Stream error, not an HTML page', async () => {
    expectStreamError(await request('GET', '/no/such/thing'), 404, 16);
  });

  it('answers browser preflights with the headers the client sends', async () => {
    const response = await fetch(`${server.baseURL}/channels?api_key=${server.apiKey}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,stream-auth-type,x-stream-client,x-client-request-id,content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers') ?? '';
    for (const header of [
      'authorization',
      'stream-auth-type',
      'x-stream-client',
      'x-client-request-id',
      'content-type',
    ]) {
      expect(allowed).toContain(header);
    }
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('rejects channel types and ids outside the allowed characters with code 4', async () => {
    expectStreamError(await request('POST', '/channels/Messaging/x/query', {}), 400, 4);
    expectStreamError(
      await request('POST', `/channels/messaging/${encodeURIComponent('bad id')}/query`, {}),
      400,
      4,
    );
    expectStreamError(
      await request('POST', `/channels/messaging/${'a'.repeat(65)}/query`, {}),
      400,
      4,
    );
    expectStreamError(await request('POST', '/channels/unknown-type/x/query', {}), 400, 4);
  });
});
