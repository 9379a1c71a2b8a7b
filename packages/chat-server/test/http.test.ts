import { beforeAll, describe, expect, it } from 'vitest';
import { signUserToken } from '../src/auth/tokens.ts';
import {
  createUsers,
  expectStreamErrorBody,
  uniqueId,
  useContractEnv,
} from './contract/helpers.ts';

describe('HTTP surface: errors, auth and CORS in Stream format', () => {
  const env = useContractEnv({ prefix: '/chat', config: { http: { bodyLimitBytes: 4096 } } });
  // Only read by the tests below, so one user for the whole file is enough.
  const userId = uniqueId('kiem-tien');
  let token: string;

  beforeAll(async () => {
    await createUsers(env(), [userId]);
    token = signUserToken(env().server.apiSecret, userId);
  });

  async function request(
    method: string,
    path: string,
    body?: unknown,
    auth: string | null = token,
    raw?: string,
  ) {
    const { server } = env();
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

  it('answers malformed JSON with code 4 and HTTP 400', async () => {
    expectStreamErrorBody(
      await request('POST', '/channels', undefined, token, '{"filter_conditions":'),
      4,
      400,
    );
  });

  it('answers a body over the limit with code 22 and HTTP 413', async () => {
    const big = { users: { [userId]: { id: userId, bio: 'x'.repeat(10_000) } } };
    expectStreamErrorBody(await request('POST', '/users', big), 22, 413);
  });

  it('answers wrong types with code 4', async () => {
    expectStreamErrorBody(
      await request('POST', '/channels', { filter_conditions: 'all', limit: 'ten' }),
      4,
      400,
    );
    expectStreamErrorBody(await request('GET', '/users?payload=%7Bnot-json'), 4, 400);
  });

  it('answers a missing or unknown api_key with code 2', async () => {
    const response = await fetch(`${env().server.baseURL}/users?payload=%7B%7D`, {
      headers: { authorization: token },
    });
    expectStreamErrorBody(
      { status: response.status, body: (await response.json()) as Record<string, unknown> },
      2,
      401,
    );
  });

  it('answers a missing token with code 5 and a forged one with code 43', async () => {
    expectStreamErrorBody(await request('GET', '/users?payload=%7B%7D', undefined, null), 5, 401);
    expectStreamErrorBody(
      await request('GET', '/users?payload=%7B%7D', undefined, signUserToken('wrong', userId)),
      43,
      401,
    );
  });

  it('answers an expired token with code 40 so the client refreshes it', async () => {
    const expired = signUserToken(
      env().server.apiSecret,
      userId,
      Math.floor(Date.now() / 1000) - 10,
    );
    expectStreamErrorBody(
      await request('GET', '/users?payload=%7B%7D', undefined, expired),
      40,
      401,
    );
  });

  it('accepts a Bearer prefix although the client sends the bare token', async () => {
    const result = await request('GET', '/users?payload=%7B%7D', undefined, `Bearer ${token}`);
    expect(result.status).toBe(200);
    expect(result.body.duration).toEqual(expect.any(String));
  });

  it('answers unknown endpoints with a Stream error, not an HTML page', async () => {
    expectStreamErrorBody(await request('GET', '/no/such/thing'), 16, 404);
  });

  it('answers browser preflights with the headers the client sends', async () => {
    const { server } = env();
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
    expectStreamErrorBody(await request('POST', '/channels/Messaging/x/query', {}), 4, 400);
    expectStreamErrorBody(
      await request('POST', `/channels/messaging/${encodeURIComponent('bad id')}/query`, {}),
      4,
      400,
    );
    expectStreamErrorBody(
      await request('POST', `/channels/messaging/${'a'.repeat(65)}/query`, {}),
      4,
      400,
    );
    expectStreamErrorBody(await request('POST', '/channels/unknown-type/x/query', {}), 4, 400);
  });
});
