import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatToken } from '@daohuu/domain';
import type { FastifyInstance } from 'fastify';
import { StreamChat } from 'stream-chat';
import type { Event, EventTypes } from 'stream-chat';
import { afterEach } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { apiRequest, testConfig } from './harness.ts';

// Registered after harness.ts's own afterEach, so (hooks run as a stack) clients disconnect before apps close.
const clients: StreamChat[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnectUser()));
});

export interface ListeningApp {
  app: FastifyInstance;
  config: Config;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The embedded chat server's base URL, http://127.0.0.1:PORT/chat. */
  chatURL: string;
  /** Closes the app and removes its directory. */
  close: () => Promise<void>;
}

/**
 * Builds the app on a fresh directory (or `config`'s), listens on a free port and runs the after-listen chat step,
 * as main.ts does. For a whole file (`beforeAll`/`afterAll`): the caller closes it.
 */
export async function listeningApp(
  env: Record<string, string> = {},
  config?: Config,
): Promise<ListeningApp> {
  const dir = config ? undefined : mkdtempSync(join(tmpdir(), 'daohuu-chat-test-'));
  const appConfig = config ?? testConfig(env, dir);
  const app = await buildApp(appConfig);
  const close = async () => {
    await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.chat.onListening();
  } catch (error) {
    await close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { app, config: appConfig, origin, chatURL: `${origin}/chat`, close };
}

/** The chat app credentials the server generated into DATA_DIR/secrets.json. */
export function storedChatCredentials(dataDir: string): { apiKey: string; apiSecret: string } {
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  return { apiKey: secrets.streamApiKey, apiSecret: secrets.streamApiSecret };
}

/** A browser-side stream-chat client (no secret) against `baseURL`; disconnected after the test. */
export function chatClient(apiKey: string, baseURL: string): StreamChat {
  // allowServerSideConnect: these clients play the browser's part, from Node.
  const client = new StreamChat(apiKey, { baseURL, allowServerSideConnect: true });
  clients.push(client);
  return client;
}

/** A server-side client with the app's credentials, to read back what the product did in chat. */
export function chatAdmin(apiKey: string, apiSecret: string, baseURL: string): StreamChat {
  return new StreamChat(apiKey, apiSecret, { baseURL });
}

/** The reply of GET /api/chat/token, as the web app reads it. */
export type ChatTokenResponse = ChatToken;

export async function chatToken(app: FastifyInstance, cookie: string): Promise<ChatTokenResponse> {
  const response = await apiRequest(app, 'GET', '/api/chat/token', { cookie });
  if (response.statusCode !== 200) {
    throw new Error(`GET /api/chat/token failed: ${response.statusCode} ${response.body}`);
  }
  return response.json();
}

export async function chatApiKey(app: FastifyInstance): Promise<string> {
  return (await apiRequest(app, 'GET', '/api/chat/config')).json().apiKey;
}

/** The claims of a JWT, read without verifying it. */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** The next event of `type` on `client` that satisfies `accept`; rejects after `timeoutMs` (a bound, not a sleep). */
export function nextEvent(
  client: StreamChat,
  type: EventTypes,
  accept: (event: Event) => boolean = () => true,
  timeoutMs = 5000,
): Promise<Event> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`no ${type} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const subscription = client.on(type, (event) => {
      if (!accept(event)) return;
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve(event);
    });
  });
}
