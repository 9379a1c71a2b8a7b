import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { jwtClaims } from './chat-harness.ts';
import { apiRequest, signedUpUser, startApp, testConfig } from './harness.ts';

const HOSTED = {
  CHAT_MODE: 'hosted',
  STREAM_API_KEY: 'khoa-stream-that',
  STREAM_API_SECRET: 'bi-mat-stream-that-khong-bao-gio-lo',
  CHAT_REQUEST_TIMEOUT_MS: '500',
};

/** A loopback port nothing listens on: connecting to it is refused at once, and nothing leaves the machine. */
async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
  return port;
}

/** A loopback "chat API" that accepts connections and drops them at once, counting them. */
async function droppingServer(): Promise<{
  url: string;
  connections: () => number;
  close: () => void;
}> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => count, close: () => server.close() };
}

async function unreachableHostedEnv(): Promise<Record<string, string>> {
  return { ...HOSTED, STREAM_BASE_URL: `http://127.0.0.1:${await closedLoopbackPort()}` };
}

describe('hosted mode (CHAT_MODE=hosted)', () => {
  it('mounts no chat server: /chat answers 404', async () => {
    const app = await startApp(testConfig(await unreachableHostedEnv()));
    for (const url of ['/chat/connect', `/chat/users?api_key=${HOSTED.STREAM_API_KEY}`]) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { accept: 'application/json' },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('NOT_FOUND');
    }
  });

  it("tells the web app to use the client's default base URL when STREAM_BASE_URL is unset", async () => {
    // Only the config route is called: nothing here would reach out to Stream.
    const app = await startApp(testConfig(HOSTED));
    const response = await apiRequest(app, 'GET', '/api/chat/config');
    expect(response.json()).toEqual({
      mode: 'hosted',
      apiKey: HOSTED.STREAM_API_KEY,
      baseURL: null,
      publicChannels: [
        { type: 'sect', id: 'quang-truong', name: 'Quảng Trường' },
        { type: 'sect', id: 'luan-dao', name: 'Luận Đạo' },
        { type: 'sect', id: 'giao-dich', name: 'Giao Dịch' },
      ],
    });
  });

  it('tells the web app STREAM_BASE_URL when it is set', async () => {
    const env = await unreachableHostedEnv();
    const app = await startApp(testConfig(env));
    const response = await apiRequest(app, 'GET', '/api/chat/config');
    expect(response.json()).toMatchObject({ mode: 'hosted', baseURL: env.STREAM_BASE_URL });
  });

  it('signs up although chat is unreachable, and mints tokens verifiable with the secret', async () => {
    const app = await startApp(testConfig(await unreachableHostedEnv()));
    const { cookie } = await signedUpUser(app);
    const me = (await apiRequest(app, 'GET', '/api/me', { cookie })).json();

    const response = await apiRequest(app, 'GET', '/api/chat/token', { cookie });
    expect(response.statusCode).toBe(200);
    const { token, userId } = response.json();
    expect(userId).toBe(me.id);
    expect(jwtClaims(token).user_id).toBe(me.id);
    const [header, payload, signature] = token.split('.');
    const expected = createHmac('sha256', HOSTED.STREAM_API_SECRET)
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect(signature).toBe(expected);
  });

  it('tries to upsert the chat user on sign-up, and again on the next token request after a failure', async () => {
    const chat = await droppingServer();
    try {
      const app = await startApp(testConfig({ ...HOSTED, STREAM_BASE_URL: chat.url }));
      const { cookie } = await signedUpUser(app);
      const afterSignUp = chat.connections();
      expect(afterSignUp).toBeGreaterThanOrEqual(1);

      const response = await apiRequest(app, 'GET', '/api/chat/token', { cookie });
      expect(response.statusCode).toBe(200);
      expect(chat.connections()).toBeGreaterThan(afterSignUp);
    } finally {
      chat.close();
    }
  });

  it('refuses to start without STREAM_API_KEY and STREAM_API_SECRET, naming both', () => {
    let caught: unknown;
    try {
      loadConfig({ CHAT_MODE: 'hosted' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      'STREAM_API_KEY: is required when CHAT_MODE=hosted',
      'STREAM_API_SECRET: is required when CHAT_MODE=hosted',
    ]);
  });

  it('refuses to start with only one of the two, naming the missing one', () => {
    expect(() => loadConfig({ CHAT_MODE: 'hosted', STREAM_API_KEY: 'khoa' })).toThrow(
      /STREAM_API_SECRET: is required when CHAT_MODE=hosted/,
    );
  });
});
