import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatApiKey } from './chat-harness.ts';
import { fakeWebDist, startApp, tempDir, testConfig } from './harness.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function appWithWebBuild(env: Record<string, string> = {}) {
  const dir = tempDir();
  return startApp(testConfig({ WEB_DIST: fakeWebDist(dir), ...env }, dir));
}

describe('SPA pages under /chat beside the embedded chat server', () => {
  it.each(['/chat', '/chat/', '/chat/livestream/quang-truong', '/chat/messaging/abc?tin=1'])(
    'serves the SPA for the page %s',
    async (url) => {
      const app = await appWithWebBuild();
      const response = await app.inject({ method: 'GET', url, headers: HTML });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    },
  );

  it.each(['/chat', '/chat/livestream/quang-truong', '/chat/messaging/abc?tin=1'])(
    'answers the page %s with the chat page the build wrote (index.html with the chat screen hinted)',
    async (url) => {
      const dir = tempDir();
      const dist = fakeWebDist(dir);
      writeFileSync(
        join(dist, 'chat.html'),
        '<!doctype html><title>Đạo Hữu</title><link rel="modulepreload" href="/assets/chat-screen-abc.js"><div id="root"></div>',
      );
      const app = await startApp(testConfig({ WEB_DIST: dist }, dir));
      const response = await app.inject({ method: 'GET', url, headers: HTML });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('chat-screen-abc.js');
      // Any other page keeps the plain index.html.
      const home = await app.inject({ method: 'GET', url: '/chatroom', headers: HTML });
      expect(home.body).toContain('<div id="root">');
      expect(home.body).not.toContain('chat-screen-abc.js');
    },
  );

  it('leaves chat routes to the chat server even when a browser asks for HTML', async () => {
    const app = await appWithWebBuild();
    const apiKey = await chatApiKey(app);
    const response = await app.inject({
      method: 'GET',
      url: `/chat/messages/some-message?api_key=${apiKey}`,
      headers: HTML,
    });
    expect(response.headers['content-type']).toMatch(/application\/json/);
    // Stream's error JSON (no token), not the SPA and not the product's error shape.
    expect(response.json()).toMatchObject({
      code: expect.any(Number),
      StatusCode: response.statusCode,
    });
  });

  it('never answers a chat API call (no text/html) with the SPA', async () => {
    const app = await appWithWebBuild();
    const response = await app.inject({
      method: 'GET',
      url: '/chat/livestream/quang-truong',
      headers: { accept: 'application/json, text/plain, */*' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });

  it('serves the SPA for /chat pages in hosted mode too', async () => {
    const app = await appWithWebBuild({
      CHAT_MODE: 'hosted',
      STREAM_API_KEY: 'khoa',
      STREAM_API_SECRET: 'bi-mat',
      STREAM_BASE_URL: 'http://127.0.0.1:9',
    });
    const response = await app.inject({
      method: 'GET',
      url: '/chat/livestream/luan-dao',
      headers: HTML,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
  });
});
