import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatApiKey,
  chatClient,
  chatToken,
  listeningApp,
  type ListeningApp,
} from '../chat-harness.ts';
import { fakeWebDist, signedUpUser } from '../harness.ts';

interface Answer {
  status: number;
  body: unknown;
  type: string;
}

/** Stream's error JSON, exactly the keys stream-chat reads, with the HTTP status repeated inside. */
function expectStreamError(answer: Answer, code: number, status: number): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.type).toMatch(/^application\/json/);
  expect(answer.body).toEqual({
    code,
    message: expect.any(String),
    StatusCode: status,
    duration: expect.stringMatching(/ms$/),
    more_info: expect.any(String),
    details: [],
  });
}

describe('#21 every answer under /chat is Stream error JSON', () => {
  let server: ListeningApp;
  let webRoot: string;
  let apiKey = '';
  let token = '';

  beforeAll(async () => {
    // A built web app, as after `npm start`: its wildcard route is what used to answer unknown /chat paths.
    webRoot = mkdtempSync(join(tmpdir(), 'daohuu-chat-errors-'));
    server = await listeningApp({ WEB_DIST: fakeWebDist(webRoot) });
    apiKey = await chatApiKey(server.app);
    const { cookie } = await signedUpUser(server.app);
    token = (await chatToken(server.app, cookie)).token;
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  /** A request the way stream-chat sends it: api_key in the query, the bare JWT in Authorization. */
  async function send(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string>; credentials?: boolean } = {},
  ): Promise<Answer> {
    const url = new URL(`${server.origin}${path}`);
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.credentials !== false) {
      url.searchParams.set('api_key', apiKey);
      headers.authorization = token;
      headers['stream-auth-type'] = 'jwt';
    }
    const response = await fetch(url, {
      method,
      headers,
      body: init.body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // left as text; the shape assertion shows it
    }
    return { status: response.status, body, type: response.headers.get('content-type') ?? '' };
  }

  it('an unknown /chat endpoint answers code 16 / 404 to every method', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await send(method, '/chat/khong-ton-tai/123', {
        ...(method === 'GET' || method === 'HEAD'
          ? {}
          : { body: '{}', headers: { 'content-type': 'application/json' } }),
      });
      if (method === 'HEAD') expect(answer.status).toBe(404);
      else expectStreamError(answer, 16, 404);
    }
  });

  it('the real client reads code 16 from an unknown /chat endpoint', async () => {
    const client = chatClient(apiKey, server.chatURL);
    await client.connectUser(
      { id: (JSON.parse(atob(token.split('.')[1]!)) as { user_id: string }).user_id },
      token,
    );

    await expect(client.get(`${server.chatURL}/khong-ton-tai`)).rejects.toMatchObject({
      code: 16,
      status: 404,
    });
  });

  it('a known /chat path with a method it does not serve answers in Stream shape', async () => {
    expectStreamError(
      await send('PUT', '/chat/channels', {
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      16,
      404,
    );
    expectStreamError(await send('DELETE', '/chat/hi'), 16, 404);
    expectStreamError(await send('GET', '/chat/channels'), 16, 404);
  });

  it('bad JSON, an unsupported content type and an oversized body under /chat answer codes 4, 4 and 22', async () => {
    const json = { 'content-type': 'application/json' };
    expectStreamError(
      await send('POST', '/chat/channels', { body: '{"filter_conditions":', headers: json }),
      4,
      400,
    );
    expectStreamError(
      await send('POST', '/chat/channels', {
        body: '<a/>',
        headers: { 'content-type': 'text/xml' },
      }),
      4,
      400,
    );
    expectStreamError(
      await send('POST', '/chat/channels', {
        body: JSON.stringify({ x: 'a'.repeat(3 * 1024 * 1024) }),
        headers: json,
      }),
      22,
      413,
    );
  });

  it('a malformed URL under /chat answers code 4', async () => {
    expectStreamError(await send('GET', '/chat/messages/%E0%A4%A'), 4, 400);
    expectStreamError(
      await send('POST', '/chat/channels/messaging/%E0%A4%A/query', {
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      4,
      400,
    );
  });

  it('unknown /chat paths answer in Stream shape without credentials too', async () => {
    const answer = await send('GET', '/chat/khong-ton-tai', { credentials: false });
    expect([401, 404]).toContain(answer.status);
    expectStreamError(answer, (answer.body as { code: number }).code, answer.status);
  });

  it('browser pages under /chat still get the web app, and unknown /api paths keep the product 404', async () => {
    for (const page of ['/chat', '/chat/messaging/dao-trang']) {
      const answer = await send('GET', page, {
        headers: { accept: 'text/html' },
        credentials: false,
      });
      expect(answer.status).toBe(200);
      expect(String(answer.body)).toContain('<div id="root">');
    }
    const api = await send('GET', '/api/khong-ton-tai', { credentials: false });
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });
});
