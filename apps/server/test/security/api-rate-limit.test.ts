import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookieFrom, newCredentials, signUp, startApp, testConfig } from '../harness.ts';

const TOO_MANY = {
  code: 'TOO_MANY_REQUESTS',
  message: 'Đạo hữu thao tác quá nhanh. Vui lòng chờ giây lát rồi thử lại.',
};

const FLOODER = '198.51.100.23';
const NEIGHBOUR = '203.0.113.45';

function get(app: FastifyInstance, url: string, remoteAddress: string, cookie?: string) {
  return app.inject({
    method: 'GET',
    url,
    remoteAddress,
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

describe('the general /api rate limit', () => {
  it('refuses an address past its requests per window with 429 TOO_MANY_REQUESTS and Retry-After, signed in or not, and leaves other addresses alone', async () => {
    const app = await startApp(
      testConfig({ API_RATE_LIMIT_MAX_PER_IP: '4', API_RATE_LIMIT_WINDOW_SECONDS: '600' }),
    );
    // The sign-up is an /api request of this address too: one of its four.
    const signedUp = await signUp(app, newCredentials(), FLOODER);
    expect(signedUp.statusCode, signedUp.body).toBe(200);
    const cookie = cookieFrom(signedUp);

    expect((await get(app, '/api/me', FLOODER, cookie)).statusCode).toBe(200);
    expect((await get(app, '/api/me', FLOODER)).statusCode).toBe(401);
    expect((await get(app, '/api/chat/config', FLOODER, cookie)).statusCode).toBe(200);

    for (const url of ['/api/me', '/api/users/search?q=a', '/api/nothing-here']) {
      const refused = await get(app, url, FLOODER, cookie);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.json().error).toEqual(TOO_MANY);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      // Refused before anything else ran, yet with the security headers every answer carries.
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
    }

    expect((await get(app, '/api/me', NEIGHBOUR)).statusCode).toBe(401);
  });

  it('never refuses the health probe, and counts neither it nor pages', async () => {
    const app = await startApp(testConfig({ API_RATE_LIMIT_MAX_PER_IP: '2' }));
    for (let i = 0; i < 5; i += 1) {
      expect((await get(app, '/api/health', FLOODER)).statusCode).toBe(200);
      expect((await get(app, '/', FLOODER)).statusCode).not.toBe(429);
      expect((await get(app, '/ho-so', FLOODER)).statusCode).not.toBe(429);
    }
    expect((await get(app, '/api/me', FLOODER)).statusCode).toBe(401);
    expect((await get(app, '/api/me', FLOODER)).statusCode).toBe(401);
    expect((await get(app, '/api/me', FLOODER)).statusCode).toBe(429);
  });

  it('counts the client a trusted proxy names, not the proxy', async () => {
    const app = await startApp(
      testConfig({ API_RATE_LIMIT_MAX_PER_IP: '1', TRUST_PROXY: '127.0.0.1' }),
    );
    const through = (client: string) =>
      app.inject({
        method: 'GET',
        url: '/api/me',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      });
    expect((await through(FLOODER)).statusCode).toBe(401);
    expect((await through(FLOODER)).statusCode).toBe(429);
    expect((await through(NEIGHBOUR)).statusCode).toBe(401);
  });

  it('is off at 0', async () => {
    const app = await startApp(testConfig({ API_RATE_LIMIT_MAX_PER_IP: '0' }));
    for (let i = 0; i < 20; i += 1)
      expect((await get(app, '/api/me', FLOODER)).statusCode).toBe(401);
  });
});
