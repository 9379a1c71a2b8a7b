import { Readable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatApiKey, chatClient, chatToken, listeningApp } from '../chat-harness.ts';
import { fakeWebDist, signedUpUser, startApp, tempDir, testConfig } from '../harness.ts';

let app: FastifyInstance;
let origin: string;
let chatURL: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, origin, chatURL, close } = await listeningApp({
    WEB_DIST: fakeWebDist(tempDir()),
  }));
});
afterAll(async () => close());

/** The directives of a Content-Security-Policy header, by name. */
function directives(response: LightMyRequestResponse | Response): Map<string, string[]> {
  const header =
    response instanceof Response
      ? response.headers.get('content-security-policy')
      : response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

/** The headers every response of the app must carry. */
function expectProtected(response: LightMyRequestResponse): void {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['referrer-policy']).toBe('same-origin');
  const csp = directives(response);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(String(response.headers['content-security-policy'])).not.toContain('unsafe-eval');
}

describe('#13 a page without security headers', () => {
  it.each([
    ['the SPA page', '/', 'text/html'],
    ['a deep SPA link', '/chat/livestream/quang-truong', 'text/html'],
    ['a built asset', '/assets/index-abc123.js', '*/*'],
    ['an API answer', '/api/health', 'application/json'],
    ['an API refusal', '/api/me', 'application/json'],
    ['an unknown API path', '/api/khong-co', 'application/json'],
    ['the chat API', '/chat/app', 'application/json'],
    ['a better-auth answer', '/api/auth/get-session', 'application/json'],
  ])('%s cannot be framed, sniffed or run foreign scripts', async (_label, url, accept) => {
    expectProtected(await app.inject({ method: 'GET', url, headers: { accept } }));
  });

  it('a refused write is protected too', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'a@example.vn', password: 'mat-khau-dai' },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expectProtected(response);
  });

  it('lets the chat connect to its own websocket, and images come only from known places', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/chat',
      headers: { accept: 'text/html', host: '192.168.1.20:3000' },
    });
    const csp = directives(page);
    expect(csp.get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", 'ws://192.168.1.20:3000', 'wss://192.168.1.20:3000']),
    );
    expect(csp.get('img-src')).toEqual([
      "'self'",
      'http://localhost:3000',
      'data:',
      'blob:',
      'https:',
    ]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('a forged Host cannot add sources to the policy', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', host: "evil.example; script-src 'unsafe-inline'" },
    });
    const csp = directives(page);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(String(page.headers['content-security-policy'])).not.toContain('evil.example');
  });

  it('an uploaded file keeps the chat server’s stricter policy', async () => {
    const { cookie } = await signedUpUser(app);
    const { token, userId } = await chatToken(app, cookie);
    const client = chatClient(await chatApiKey(app), chatURL);
    await client.connectUser({ id: userId }, token);
    const channel = client.channel('messaging', `anh-${Date.now()}`, { members: [userId] });
    await channel.create();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const { file } = await channel.sendImage(Readable.from([png]), 'an.png', 'image/png');
    const served = await fetch(file.replace(/^https?:\/\/[^/]+/, origin));
    // Read to the end: an unread body keeps its connection busy, and the server's close waits for it.
    await served.arrayBuffer();
    expect(served.status).toBe(200);
    expect(served.headers.get('x-frame-options')).toBe('DENY');
    const csp = directives(served);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.has('sandbox')).toBe(true);
  });

  it("lets hosted chat reach Stream's API and websocket, and nothing else", async () => {
    const hosted = await startApp(
      testConfig({
        CHAT_MODE: 'hosted',
        STREAM_API_KEY: 'khoa-stream-that',
        STREAM_API_SECRET: 'bi-mat-stream-that-khong-bao-gio-lo',
        STREAM_BASE_URL: 'http://127.0.0.1:9',
      }),
    );
    const csp = directives(await hosted.inject({ method: 'GET', url: '/api/health' }));
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'http://localhost:3000',
      'http://127.0.0.1:9',
      'ws://127.0.0.1:9',
      'wss://127.0.0.1:9',
    ]);
  });

  it('HSTS is sent when PUBLIC_URL is https, and only then', async () => {
    const secure = await startApp(testConfig({ PUBLIC_URL: 'https://daohuu.example' }));
    const response = await secure.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});
